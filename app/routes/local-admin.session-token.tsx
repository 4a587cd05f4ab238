// GET /local-admin/session-token?shop=… → {"token": "<session token>"}: what shopify.idToken() returns in
// the local App Bridge stand-in. Demo and tests only (LOCAL_ADMIN=1; 404 otherwise).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireLocalAdmin, signSessionToken, validShop } from "../admin/local-admin.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  requireLocalAdmin();
  const shop = validShop(new URL(request.url).searchParams.get("shop"));
  if (!shop) return json({ error: "shop must be NAME.myshopify.com" }, { status: 400 });
  return json({ token: signSessionToken(shop) }, { headers: { "Cache-Control": "no-store" } });
};
