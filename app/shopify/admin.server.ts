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
 * The client's token, read again before every request (one row read): a client can live through a long page-by-page
 * read or a bulk run, and a renewal by another process revokes the token this one held (Shopify keeps one active).
 * The first request uses the one read when the client was made.
 */
function tokenSource(shop: string, first: Session): AdminCredentials {
  let session: Session | null = first;
  return {
    async token() {
      const current = session ?? (await offlineSession(shop));
      session = null;
      return current.accessToken!;
    },
    async rejected(token) {
      return (await offlineSession(shop, { rejected: token })).accessToken!;
    },
  };
}
