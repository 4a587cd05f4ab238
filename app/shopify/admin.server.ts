// The Admin API client of an installed shop: its offline session through the library
// (`unauthenticated.admin(shop)`), the endpoint of the app's API version, and the outbound guard, which lets
// the access token go to the shop's own myshopify.com host only (or, in development, to the stand-in that
// SHOPIFY_ADMIN_API_URL names; refused unless the app runs on localhost, app/env.server.ts).
import { SessionNotFoundError } from "@shopify/shopify-app-remix/server";
import { env } from "../env.server";
import { guardedFetch } from "../http/outbound-guard.server";
import { API_VERSION, unauthenticated } from "../shopify.server";
import { createAdminClient, type AdminClientOptions, type AdminGraphql } from "./client.server";
import { AdminApiError } from "./errors";
import { isShopDomain } from "./shop-domain";

/** Where the shop's GraphQL requests go: Shopify, or the development stand-in. */
export function adminEndpoint(shop: string, base: string | undefined = env().SHOPIFY_ADMIN_API_URL): string {
  const origin = base ? base.replace(/\/+$/, "") : `https://${shop}`;
  return `${origin}/admin/api/${API_VERSION}/graphql.json`;
}

/** The GraphQL client of an installed shop. Throws AdminApiError("no_session") if the shop has no offline session. */
export async function adminGraphql(shop: string, overrides: Partial<AdminClientOptions> = {}): Promise<AdminGraphql> {
  if (!isShopDomain(shop)) throw new AdminApiError("no_session", `not a myshopify.com shop domain: ${shop}`);
  let accessToken: string | undefined;
  try {
    const { session } = await unauthenticated.admin(shop);
    accessToken = session.accessToken;
  } catch (error) {
    if (error instanceof SessionNotFoundError)
      throw new AdminApiError("no_session", `${shop} has no offline session (is the app installed?)`);
    throw error;
  }
  if (!accessToken) throw new AdminApiError("no_session", `${shop}'s offline session has no access token`);
  const base = env().SHOPIFY_ADMIN_API_URL;
  const endpoint = adminEndpoint(shop, base);
  const host = new URL(endpoint).host.toLowerCase();
  return createAdminClient({
    shop,
    endpoint,
    accessToken,
    fetch: guardedFetch({ allowedHosts: [host], allowLocal: Boolean(base) }),
    ...overrides,
  });
}
