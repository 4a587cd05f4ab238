// The embedded shell: App Bridge and Polaris providers, the admin's navigation, and the error
// boundary and headers that the library needs to break out of the iframe for re-authentication.
// The admin's locale is decided here once (Shopify's `locale` parameter) and read by every page.
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
import { LOCAL_APP_BRIDGE_PATH } from "../shopify/local-admin";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const config = env();
  return json({
    apiKey: config.SHOPIFY_API_KEY,
    locale: requestLocale(request),
    shop: session.shop,
    // Demo and tests only: App Bridge is replaced by the stand-in the demo's server serves (never on in production).
    localAdmin: config.LOCAL_ADMIN,
  });
};

export default function App() {
  const { apiKey, locale, localAdmin } = useLoaderData<typeof loader>();
  return (
    <AppProvider
      isEmbeddedApp
      apiKey={apiKey}
      i18n={locale === "tr" ? polarisTr : polarisEn}
      {...(localAdmin ? { __APP_BRIDGE_URL: LOCAL_APP_BRIDGE_PATH } : {})}
    >
      <NavMenu>
        <Link to="/app" rel="home">
          {translate(locale, "nav.invoices")}
        </Link>
        <Link to="/app/waybills">{translate(locale, "nav.waybills")}</Link>
        <Link to="/app/past-orders">{translate(locale, "nav.pastOrders")}</Link>
        <Link to="/app/returns">{translate(locale, "nav.returns")}</Link>
        <Link to="/app/accountant">{translate(locale, "nav.accountant")}</Link>
        <Link to="/app/settings">{translate(locale, "nav.settings")}</Link>
      </NavMenu>
      {/* The page's one main landmark: everything the app draws is inside it (a screen reader jumps here). */}
      <main>
        <Outlet />
      </main>
    </AppProvider>
  );
}

export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
