// Shopify's token endpoint (POST https://SHOP/admin/oauth/access_token) for the two grants the app sends without a
// merchant present: refreshing an expiring offline token, and exchanging a non-expiring one for an expiring pair
// (the migration). Same fields as @shopify/shopify-api's auth.refreshToken and auth.migrateToExpiringToken; sent
// here rather than through them because those use the global fetch (past the outbound guard), have no time limit,
// and fail with a SyntaxError on a body that is not JSON (docs/decisions/0044-expiring-offline-tokens.md).
// The client's secret goes to the shop's own myshopify.com host only, or in development to the stand-in that
// SHOPIFY_ADMIN_API_URL names (refused unless the app runs on localhost, app/env.server.ts).
import { Session } from "@shopify/shopify-api";
import { z } from "zod";
import { env } from "../env.server";
import { guardedFetch, outboundRefusalOf } from "../http/outbound-guard.server";
import { isShopDomain } from "./shop-domain";

export const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";

/** The offline session's id, as the library names it (`offline_SHOP`). */
export const offlineSessionId = (shop: string) => `offline_${shop}`;

export type TokenGrant = { grant: "refresh"; refreshToken: string } | { grant: "migrate"; nonExpiringToken: string };

/**
 * Why a token request failed:
 * - `refused`: Shopify will not honour this grant (invalid_grant, invalid_subject_token): the refresh token or the old
 *   token is dead (revoked, expired, uninstalled). Only the merchant opening the app gets a new one.
 * - `failed`: the request itself was refused (invalid_client, invalid_request…): the app's configuration, not the shop.
 * - `unavailable`: no answer, or 5xx/429 after the bounded retries: try again later.
 */
export class TokenRequestError extends Error {
  constructor(
    readonly kind: "refused" | "failed" | "unavailable",
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "TokenRequestError";
  }
}

const TokenAnswer = z.object({
  access_token: z.string().min(1),
  scope: z.string().optional(),
  expires_in: z.coerce.number().int().positive(),
  refresh_token: z.string().min(1),
  refresh_token_expires_in: z.coerce.number().int().positive().optional(),
});

const ErrorAnswer = z.object({ error: z.string(), error_description: z.string().optional() });

/** Codes that say the grant itself is dead; anything else in a 4xx is the request's fault. */
const REFUSED_CODES = new Set(["invalid_grant", "invalid_subject_token"]);

export interface TokenEndpointOptions {
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** One request's time limit (default 10 s). */
  timeoutMs?: number;
  /** Attempts for network failures, 5xx and 429 (default 3). */
  maxAttempts?: number;
}

/** Where the shop's token requests go: Shopify, or the development stand-in. */
export function tokenEndpoint(shop: string, base: string | undefined = env().SHOPIFY_ADMIN_API_URL): string {
  const origin = base ? base.replace(/\/+$/, "") : `https://${shop}`;
  return `${origin}/admin/oauth/access_token`;
}

/** Sends one grant; answers the new offline session (expiring, with its refresh token) or throws TokenRequestError. */
export async function requestOfflineToken(
  shop: string,
  grant: TokenGrant,
  options: TokenEndpointOptions = {},
): Promise<Session> {
  if (!isShopDomain(shop)) throw new TokenRequestError("failed", "invalid_shop", `not a myshopify.com domain: ${shop}`);
  const config = env();
  const base = config.SHOPIFY_ADMIN_API_URL;
  const endpoint = tokenEndpoint(shop, base);
  const doFetch =
    options.fetch ?? guardedFetch({ allowedHosts: [new URL(endpoint).host.toLowerCase()], allowLocal: Boolean(base) });
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxAttempts = options.maxAttempts ?? 3;
  const body = JSON.stringify({
    client_id: config.SHOPIFY_API_KEY,
    client_secret: config.SHOPIFY_API_SECRET,
    ...(grant.grant === "refresh"
      ? { grant_type: "refresh_token", refresh_token: grant.refreshToken }
      : {
          grant_type: TOKEN_EXCHANGE_GRANT,
          subject_token: grant.nonExpiringToken,
          subject_token_type: OFFLINE_TOKEN_TYPE,
          requested_token_type: OFFLINE_TOKEN_TYPE,
          expiring: "1",
        }),
  });

  for (let attempt = 1; ; attempt++) {
    let status: number;
    let text: string;
    const sentAt = now();
    try {
      const response = await doFetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const refusal = outboundRefusalOf(error);
      if (refusal)
        throw new TokenRequestError("failed", "blocked", `the token endpoint was refused: ${refusal.message}`);
      if (attempt >= maxAttempts)
        throw new TokenRequestError(
          "unavailable",
          "network",
          `Shopify's token endpoint could not be reached for ${shop} (${(error as Error).message})`,
        );
      await sleep(backoffMs(attempt));
      continue;
    }
    if (status === 429 || status >= 500) {
      if (attempt >= maxAttempts)
        throw new TokenRequestError("unavailable", `http_${status}`, `Shopify's token endpoint answered ${status}`);
      await sleep(backoffMs(attempt));
      continue;
    }
    const json = parseJson(text);
    if (status < 200 || status >= 300) {
      const error = ErrorAnswer.safeParse(json);
      const code = error.success ? error.data.error : `http_${status}`;
      const description = error.success && error.data.error_description ? `: ${error.data.error_description}` : "";
      throw new TokenRequestError(
        REFUSED_CODES.has(code) ? "refused" : "failed",
        code,
        `Shopify refused the ${grant.grant === "refresh" ? "token refresh" : "token migration"} for ${shop} (${status} ${code}${description})`.slice(
          0,
          400,
        ),
      );
    }
    const answer = TokenAnswer.safeParse(json);
    if (!answer.success)
      throw new TokenRequestError(
        "failed",
        "invalid_response",
        `Shopify's token endpoint answered ${status} without an expiring token for ${shop}`,
      );
    return offlineSession(shop, answer.data, sentAt);
  }
}

/**
 * The offline session of an answer. Its expiry counts from when the request left, not when the answer came: a slow
 * answer must not make the app think the token lives longer than it does.
 */
function offlineSession(shop: string, answer: z.infer<typeof TokenAnswer>, sentAt: number): Session {
  return new Session({
    id: offlineSessionId(shop),
    shop,
    state: "",
    isOnline: false,
    scope: answer.scope,
    accessToken: answer.access_token,
    expires: new Date(sentAt + answer.expires_in * 1000),
    refreshToken: answer.refresh_token,
    refreshTokenExpires:
      answer.refresh_token_expires_in === undefined
        ? undefined
        : new Date(sentAt + answer.refresh_token_expires_in * 1000),
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** 0.5 s, 1 s, 2 s…: a token request is on the path of a job, so the waits stay short and few. */
const backoffMs = (attempt: number) => Math.min(4000, 500 * 2 ** (attempt - 1));
