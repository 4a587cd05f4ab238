// The embedded shell: App Bridge and Polaris providers, the admin's navigation, and the error
// boundary and headers that the library needs to break out of the iframe for re-authentication.
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisTr from "@shopify/polaris/locales/tr.json";
import { authenticate } from "../shopify.server";
import { env } from "../env.server";
import { requestLocale, translate } from "../i18n/i18n";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return json({ apiKey: env().SHOPIFY_API_KEY, locale: requestLocale(request) });
};

export default function App() {
  const { apiKey, locale } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey} i18n={locale === "tr" ? polarisTr : polarisEn}>
      <NavMenu>
        <Link to="/app" rel="home">
          {translate(locale, "nav.invoices")}
        </Link>
      </NavMenu>
      <Outlet />
    </AppProvider>
  );
}

export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
