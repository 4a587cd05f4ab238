// Whether the app is still installed on a shop, asked of Shopify itself: Shopify revokes the app's tokens when a
// merchant uninstalls it, so a token that still opens the Admin API means the app is installed. For the deliveries
// whose signed body is the same every time and carries nothing that dates them (app/uninstalled, shop/redact): a
// delivery replayed while the app is installed must not log the shop out or erase it (issue 35, point 1). Bounded
// to a few seconds, since it answers a webhook: one token request and one query, no retries.
import { env } from "../env.server";
import { guardedFetch } from "../http/outbound-guard.server";
import { adminEndpoint } from "./admin.server";
import { createAdminClient } from "./client.server";
import { AdminApiError } from "./errors";
import { offlineSession } from "./offline-tokens.server";
import { requestOfflineToken } from "./token-endpoint.server";
import { z } from "zod";

export type InstallState = "installed" | "uninstalled" | "unknown";

const INSTALL_CHECK = `#graphql
  query InstallCheck { shop { name } }`;
const ShopName = z.object({ shop: z.object({ name: z.string() }) });

export async function installStateAtShopify(shop: string, timeoutMs = 2000): Promise<InstallState> {
  let token: string;
  try {
    const session = await offlineSession(shop, {
      request: (target, grant) => requestOfflineToken(target, grant, { maxAttempts: 1, timeoutMs }),
    });
    token = session.accessToken!;
  } catch (error) {
    if (error instanceof AdminApiError && (error.kind === "no_session" || error.kind === "reconnect"))
      return "uninstalled";
    return "unknown";
  }
  const base = env().SHOPIFY_ADMIN_API_URL;
  const endpoint = adminEndpoint(shop, base);
  const client = createAdminClient({
    shop,
    endpoint,
    accessToken: token,
    fetch: guardedFetch({ allowedHosts: [new URL(endpoint).host.toLowerCase()], allowLocal: Boolean(base) }),
    maxAttempts: 1,
    maxThrottledAttempts: 1,
    maxWaitMs: 0,
    timeoutMs,
  });
  try {
    await client.graphql(INSTALL_CHECK, undefined, ShopName);
    return "installed";
  } catch (error) {
    if (error instanceof AdminApiError && error.kind === "unauthorized") return "uninstalled";
    // THROTTLED or any other GraphQL answer: the token opened the Admin API.
    if (error instanceof AdminApiError && (error.kind === "throttled" || error.kind === "graphql")) return "installed";
    return "unknown";
  }
}
