// The one way tests act as Shopify: signed webhook deliveries, session tokens, installed shops.
import { Session } from "@shopify/shopify-api";
import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { shopifyHmac as sign, webhookHeaders } from "../../scripts/lib/shopify-signing";
import { TEST_APP_URL } from "../setup-env";

export const SHOP = "demo-store.myshopify.com";
export const OTHER_SHOP = "other-store.myshopify.com";
/** The app's address in tests (SHOPIFY_APP_URL, test/setup-env.ts): requests to the routes are made to it. */
export const APP_ORIGIN = TEST_APP_URL;

/** Shopify's webhook signature: base64 HMAC-SHA256 of the raw body, keyed with the app's secret. */
export function shopifyHmac(rawBody: string, secret = API_SECRET_KEY): string {
  return sign(rawBody, secret);
}

export interface WebhookOptions {
  topic: string;
  shop?: string;
  body: unknown;
  /** Defaults to /webhooks/<topic>. */
  path?: string;
  /** Sign with another secret (a forged delivery). */
  secret?: string;
  /** Replace the signature header outright. */
  hmac?: string;
  webhookId?: string;
  eventId?: string;
  apiVersion?: string;
}

/** A webhook delivery exactly as Shopify sends it: raw JSON body, topic, shop, signature and ids. */
export function signedWebhookRequest(options: WebhookOptions): Request {
  const raw = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const path = options.path ?? `/webhooks/${options.topic}`;
  const headers = new Headers(
    webhookHeaders({
      topic: options.topic,
      shop: options.shop ?? SHOP,
      rawBody: raw,
      secret: options.secret ?? API_SECRET_KEY,
      hmac: options.hmac,
      webhookId: options.webhookId,
      eventId: options.eventId,
      apiVersion: options.apiVersion,
    }),
  );
  return new Request(new URL(path, APP_ORIGIN), { method: "POST", headers, body: raw });
}

/** A session token (id_token) that App Bridge would attach for a user of `shop`. */
export async function sessionToken(shop = SHOP, overrides: Record<string, unknown> = {}): Promise<string> {
  const store = shop.replace(/\.myshopify\.com$/, "");
  const { token } = await getJwt(store, API_KEY, API_SECRET_KEY, overrides);
  return token;
}

/** An embedded admin document request to `path`, as the admin loads the app in its iframe. */
export async function adminDocumentRequest(path: string, shop = SHOP, init: RequestInit = {}): Promise<Request> {
  const url = new URL(path, APP_ORIGIN);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set("host", Buffer.from(`admin.shopify.com/store/${shop.split(".")[0]}`).toString("base64"));
  url.searchParams.set("id_token", await sessionToken(shop));
  return new Request(url, init);
}

/** A fetch from the embedded page (or an admin extension) with the bearer session token. */
export async function adminFetchRequest(path: string, shop = SHOP, init: RequestInit = {}): Promise<Request> {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${await sessionToken(shop)}`);
  return new Request(new URL(path, APP_ORIGIN), { ...init, headers });
}

/**
 * The offline session Shopify's token exchange would have stored for `shop`: an expiring token (an hour) with its
 * refresh token (90 days), as every exchange asks for since expiring offline tokens are on (decision 0044).
 */
export function offlineSession(shop = SHOP, now = Date.now()): Session {
  return new Session({
    id: `offline_${shop}`,
    shop,
    state: "installed",
    isOnline: false,
    scope: "read_orders",
    accessToken: `shpat_test_${shop.split(".")[0]}`,
    expires: new Date(now + 3_600_000),
    refreshToken: `shprt_test_${shop.split(".")[0]}`,
    refreshTokenExpires: new Date(now + 90 * 86_400_000),
  });
}
