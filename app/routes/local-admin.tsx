// GET /local-admin?shop=NAME.myshopify.com[&locale=tr|en][&path=/app/settings or /app?state=failed]
// Demo and browser tests only (LOCAL_ADMIN=1; 404 otherwise): opens the embedded app the way the Shopify
// admin would, with a freshly signed session token, in a plain browser tab.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { embeddedAppUrl, requireLocalAdmin, validShop } from "../admin/local-admin.server";
import { localeFrom } from "../i18n/i18n";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  requireLocalAdmin();
  const url = new URL(request.url);
  const shop = validShop(url.searchParams.get("shop"));
  if (!shop) return new Response("Give the shop: /local-admin?shop=NAME.myshopify.com", { status: 400 });
  const locale = localeFrom(url.searchParams.get("locale") ?? "tr");
  // Optional page inside the app, with its own query (filters): /app, /app/settings, /app?state=failed...
  const target = new URL(url.searchParams.get("path") ?? "/app", url.origin);
  const path = /^\/app(\/[\w.-]+)*$/.test(target.pathname) ? target.pathname : "/app";
  return redirect(embeddedAppUrl(shop, locale, path, target.searchParams), { headers: { "Cache-Control": "no-store" } });
};
