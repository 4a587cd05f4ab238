// The local admin: what Shopify's admin does for an embedded app, done by the demo's own server
// (scripts/local-server.ts) so the pages open in a plain browser for the demo and the browser tests. It signs
// session tokens with the app's secret, exactly like Shopify, so authenticate.admin runs unchanged. It is not
// part of the app: the production build has no route of it (test/server/production-server.db.test.ts).
//   GET /local-admin?shop=NAME.myshopify.com[&locale=tr|en][&path=/app/settings or /app?state=failed]
//       opens the embedded app the way the Shopify admin would, with a freshly signed session token;
//   GET /local-admin/session-token?shop=… → {"token": "<session token>"}: what shopify.idToken() returns;
//   GET /local-admin/app-bridge.js: the App Bridge stand-in (scripts/lib/local-admin-bridge.ts).
import { createHmac, randomUUID } from "node:crypto";
import type { Express, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { LOCAL_APP_BRIDGE_PATH, LOCAL_TOKEN_PATH } from "../../app/shopify/local-admin";
import { localeFrom } from "../../app/i18n/i18n";
import { isShopDomain } from "../../app/shopify/shop-domain";
import { appBridgeScript } from "./local-admin-bridge";

export const LOCAL_ADMIN_PATH = "/local-admin";

/** The app's client id and secret (SHOPIFY_API_KEY, SHOPIFY_API_SECRET): what Shopify signs session tokens with. */
export interface AppCredentials {
  apiKey: string;
  apiSecret: string;
}

export function validShop(value: string | null): string | null {
  const shop = value?.trim().toLowerCase() ?? "";
  return isShopDomain(shop) ? shop : null;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** A session token as App Bridge gets it from Shopify: HS256 JWT signed with the app's API secret. */
export function signSessionToken(app: AppCredentials, shop: string, now = Date.now(), ttlSeconds = 300): string {
  const seconds = Math.floor(now / 1000);
  const header = { alg: "HS256", typ: "JWT" };
  const payload = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: app.apiKey,
    sub: "1",
    exp: seconds + ttlSeconds,
    nbf: seconds - 5,
    iat: seconds,
    jti: randomUUID(),
    sid: `local-${shop}`,
  };
  const unsigned = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const signature = createHmac("sha256", app.apiSecret).update(unsigned).digest("base64url");
  return `${unsigned}.${signature}`;
}

/** The embedded URL the admin would open: /app?embedded=1&shop=…&host=…&id_token=…&locale=… */
export function embeddedAppUrl(
  app: AppCredentials,
  shop: string,
  locale: string,
  path = "/app",
  extra: URLSearchParams = new URLSearchParams(),
): string {
  const host = Buffer.from(`admin.shopify.com/store/${shop.split(".")[0]}`).toString("base64");
  const search = new URLSearchParams(extra);
  for (const [key, value] of Object.entries({
    embedded: "1",
    shop,
    host,
    id_token: signSessionToken(app, shop),
    locale,
  }))
    search.set(key, value);
  return `${path}?${search}`;
}

const noStore = { "Cache-Control": "no-store" };

/**
 * A JSON answer built by hand: the server runs under Remix's fetch globals (installGlobals in server/app-server.ts),
 * whose Response has no static `json`; calling it threw inside the express handler and ended the demo's process
 * the first time App Bridge asked for a new token.
 */
const jsonResponse = (body: unknown, init: { status?: number } = {}) =>
  new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...noStore },
  });

/** The three answers, as web Responses (tested without a server: test/shopify/local-admin.db.test.ts). */
export function localAdmin(app: AppCredentials) {
  return {
    open(url: URL): Response {
      const shop = validShop(url.searchParams.get("shop"));
      if (!shop) return new Response("Give the shop: /local-admin?shop=NAME.myshopify.com", { status: 400 });
      const locale = localeFrom(url.searchParams.get("locale") ?? "tr");
      // Optional page inside the app, with its own query (filters): /app, /app/settings, /app?state=failed...
      const target = new URL(url.searchParams.get("path") ?? "/app", url.origin);
      const path = /^\/app(\/[\w.-]+)*$/.test(target.pathname) ? target.pathname : "/app";
      return new Response(null, {
        status: 302,
        headers: { Location: embeddedAppUrl(app, shop, locale, path, target.searchParams), ...noStore },
      });
    },
    token(url: URL): Response {
      const shop = validShop(url.searchParams.get("shop"));
      if (!shop) return jsonResponse({ error: "shop must be NAME.myshopify.com" }, { status: 400 });
      return jsonResponse({ token: signSessionToken(app, shop) });
    },
    script(): Response {
      return new Response(appBridgeScript(LOCAL_TOKEN_PATH), {
        headers: { "Content-Type": "text/javascript; charset=utf-8", ...noStore },
      });
    },
  };
}

/** Mounts the local admin on an express app (the demo's server), in front of the app's own routes. */
export function mountLocalAdmin(server: Express, app: AppCredentials): void {
  const admin = localAdmin(app);
  // Express 4 does not catch a rejected async handler: a failure here must answer 500, never end the process.
  const answer = (handler: (url: URL) => Response) => async (req: ExpressRequest, res: ExpressResponse) => {
    try {
      const response = handler(new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`));
      const body = Buffer.from(await response.arrayBuffer());
      res.status(response.status);
      response.headers.forEach((value, key) => res.setHeader(key, value));
      res.send(body);
    } catch (error) {
      console.error("local admin:", error);
      if (!res.headersSent) res.status(500).type("text/plain").send("local admin failed");
    }
  };
  server.get(LOCAL_ADMIN_PATH, answer(admin.open));
  server.get(LOCAL_TOKEN_PATH, answer(admin.token));
  server.get(
    LOCAL_APP_BRIDGE_PATH,
    answer(() => admin.script()),
  );
}
