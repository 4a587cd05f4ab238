// The local admin: what Shopify's admin does for an embedded app, done by the app itself so the pages open
// in a plain browser for the demo and the browser tests. It signs session tokens with the app's secret,
// exactly like Shopify, so authenticate.admin runs unchanged. Enabled ONLY with LOCAL_ADMIN=1: every
// entry point answers 404 otherwise, and the shell loads the real App Bridge.
import { createHmac, randomUUID } from "node:crypto";
import { env } from "../env.server";
import { isShopDomain } from "../shops/shop-domain";


export function localAdminEnabled(): boolean {
  return env().LOCAL_ADMIN === true;
}

/** Throws a 404 Response unless the local admin is on. */
export function requireLocalAdmin(): void {
  if (!localAdminEnabled()) throw new Response("Not Found", { status: 404 });
}

export function validShop(value: string | null): string | null {
  const shop = value?.trim().toLowerCase() ?? "";
  return isShopDomain(shop) ? shop : null;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** A session token as App Bridge gets it from Shopify: HS256 JWT signed with the app's API secret. */
export function signSessionToken(shop: string, now = Date.now(), ttlSeconds = 300): string {
  const config = env();
  const seconds = Math.floor(now / 1000);
  const header = { alg: "HS256", typ: "JWT" };
  const payload = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: config.SHOPIFY_API_KEY,
    sub: "1",
    exp: seconds + ttlSeconds,
    nbf: seconds - 5,
    iat: seconds,
    jti: randomUUID(),
    sid: `local-${shop}`,
  };
  const unsigned = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const signature = createHmac("sha256", config.SHOPIFY_API_SECRET).update(unsigned).digest("base64url");
  return `${unsigned}.${signature}`;
}

/** The embedded URL the admin would open: /app?embedded=1&shop=…&host=…&id_token=…&locale=… */
export function embeddedAppUrl(shop: string, locale: string, path = "/app", extra: URLSearchParams = new URLSearchParams()): string {
  const host = Buffer.from(`admin.shopify.com/store/${shop.split(".")[0]}`).toString("base64");
  const search = new URLSearchParams(extra);
  for (const [key, value] of Object.entries({ embedded: "1", shop, host, id_token: signSessionToken(shop), locale })) search.set(key, value);
  return `${path}?${search}`;
}
