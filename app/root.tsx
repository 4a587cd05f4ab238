import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { ErrorPage } from "./ui/ErrorPage";
import { useLocale } from "./i18n/react";
import { pageTitle } from "./i18n/page-title";

export default function App() {
  // The admin's language (the embedded app's loader reads it), so that the browser and screen readers know.
  const locale = useLocale();
  const title = pageTitle(useMatches(), locale);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{title}</title>
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="stylesheet" href="https://cdn.shopify.com/static/fonts/inter/v4/styles.css" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** Anything no route handled: a Polaris page in both languages, never a bare stack trace. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <html lang="tr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>Bir sorun oluştu · Something went wrong</title>
        <link rel="stylesheet" href={polarisStyles} />
        <Meta />
        <Links />
      </head>
      <body>
        <ErrorPage status={status} />
        <Scripts />
      </body>
    </html>
  );
}
