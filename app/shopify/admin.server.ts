// The Admin API client of an installed shop: its offline token, kept valid by app/shopify/offline-tokens.server.ts,
// the endpoint of the app's API version, and the outbound guard, which lets the access token go to the shop's own
// myshopify.com host only (or, in development, to the stand-in that SHOPIFY_ADMIN_API_URL names; refused unless the
// app runs on localhost, app/env.server.ts).
import type { Session } from "@shopify/shopify-api";
import { env } from "../env.server";
import { guardedFetch } from "../http/outbound-guard.server";
import { API_VERSION } from "./api-version";
import { createAdminClient, type AdminClientOptions, type AdminCredentials, type AdminGraphql } from "./client.server";
import { AdminApiError } from "./errors";
import { offlineSession } from "./offline-tokens.server";
import { isShopDomain } from "./shop-domain";

/** Where the shop's GraphQL requests go: Shopify, or the development stand-in. */
export function adminEndpoint(shop: string, base: string | undefined = env().SHOPIFY_ADMIN_API_URL): string {
  const origin = base ? base.replace(/\/+$/, "") : `https://${shop}`;
  return `${origin}/admin/api/${API_VERSION}/graphql.json`;
}

/**
 * The GraphQL client of an installed shop, with a valid offline token before each request (refreshed under the
 * shop's token lock when it expires within the margin) and, after a 401, a replaced one once. Throws AdminApiError
 * ("no_session", "reconnect", "unavailable") when the shop has no usable token.
 */
export async function adminGraphql(shop: string, overrides: Partial<AdminClientOptions> = {}): Promise<AdminGraphql> {
  if (!isShopDomain(shop)) throw new AdminApiError("no_session", `not a myshopify.com shop domain: ${shop}`);
  const first = await offlineSession(shop);
  const base = env().SHOPIFY_ADMIN_API_URL;
  const endpoint = adminEndpoint(shop, base);
  const host = new URL(endpoint).host.toLowerCase();
  return createAdminClient({
    shop,
    endpoint,
    credentials: tokenSource(shop, first),
    fetch: guardedFetch({ allowedHosts: [host], allowLocal: Boolean(base) }),
    ...overrides,
  });
}

/**
 * The client's token: the one read when it was made while it stays valid for the margin (a client can live through
 * a long page-by-page read or a bulk run), then the stored or renewed one.
 */
function tokenSource(shop: string, first: Session): AdminCredentials {
  let session = first;
  const margin = env().SHOPIFY_TOKEN_REFRESH_MARGIN_SECONDS * 1000;
  return {
    async token() {
      if (!session.expires || session.expires.getTime() - Date.now() <= margin) session = await offlineSession(shop);
      return session.accessToken!;
    },
    async rejected(token) {
      session = await offlineSession(shop, { rejected: token });
      return session.accessToken!;
    },
  };
}
