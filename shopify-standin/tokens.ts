// The stand-in's offline access tokens, as Shopify issues them since expiring offline tokens (December 2025) and the
// resilient refreshes of August 2026 (shopify.dev: "Offline access tokens", "Migrate to expiring offline access
// tokens", changelog "More resilient refreshes for expiring offline access tokens"):
// - The shop starts with a non-expiring ("legacy") token, as an app installed before the change holds. It works until
//   it is migrated (token exchange with it as the subject and expiring=1), or until `legacyRejected` (1 January 2027).
//   A migration retried with the same legacy token returns the same pair while that pair has not been refreshed.
// - An expiring access token lives `lifetimeSeconds` (Shopify: 3600) and comes with a refresh token (90 days).
//   Only one expiring token is active per shop: a refresh, a migration or a session-token exchange revokes the
//   access token before it.
// - The refresh token rotates on every use. The refresh token used last stays usable until the app first uses its
//   replacement (the recovery path for an answer that was lost or not stored); any older one is refused with
//   invalid_grant, as is every token after `revoke()` (an uninstall, or a grant taken back).
// Pure state with an injected clock; server.ts serves it at POST /admin/oauth/access_token.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
export const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
export const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";

export interface TokenOptions {
  shop: string;
  /** The non-expiring offline token the shop starts with. */
  legacyToken: string;
  /** The app's client id and secret: the token endpoint checks them, and session tokens are signed with the secret. */
  clientId?: string;
  clientSecret?: string;
  /** An expiring access token's lifetime (Shopify: 3600 s). */
  lifetimeSeconds?: number;
  /** A refresh token's lifetime (Shopify: 90 days). */
  refreshLifetimeSeconds?: number;
  /** Non-expiring tokens are refused everywhere, as from 1 January 2027. */
  legacyRejected?: boolean;
  scopes: () => string[];
  now: () => number;
}

export interface TokenStats {
  /** Refresh grants answered with a new pair. */
  refreshes: number;
  /** Non-expiring tokens exchanged for expiring ones. */
  migrations: number;
  /** Session tokens exchanged for an offline token (an admin visit that found no valid session). */
  exchanges: number;
  /** Token requests refused, by OAuth error code. */
  refused: Record<string, number>;
  /** Admin API requests answered 401, by cause. */
  unauthorized: { expired: number; revoked: number; unknown: number; legacy: number };
}

export type TokenAnswer = { status: number; json: Record<string, unknown> };
export type AccessCheck = "ok" | "expired" | "revoked" | "legacy" | "unknown";

const newToken = (prefix: string) => `${prefix}${randomBytes(16).toString("hex")}`;

export function createTokenAuthority(options: TokenOptions) {
  let lifetimeMs = (options.lifetimeSeconds ?? 3600) * 1000;
  const refreshLifetimeMs = (options.refreshLifetimeSeconds ?? 90 * 86_400) * 1000;
  let legacy: { token: string; migratedTo: Pair | null; rejected: boolean } = {
    token: options.legacyToken,
    migratedTo: null,
    rejected: options.legacyRejected ?? false,
  };
  interface Pair {
    access: string;
    accessExpiresAt: number;
    refresh: string;
    refreshExpiresAt: number;
  }
  /** The active pair; the refresh token that produced it stays usable until `current.refresh` is first used. */
  let current: Pair | null = null;
  let previousRefresh: { token: string; expiresAt: number; firstUsedAt: number } | null = null;
  /** Access tokens that were active once (revoked or expired): a 401 tells which. */
  const retired = new Set<string>();
  const noStats = (): TokenStats => ({
    refreshes: 0,
    migrations: 0,
    exchanges: 0,
    refused: {},
    unauthorized: { expired: 0, revoked: 0, unknown: 0, legacy: 0 },
  });
  let stats = noStats();

  const refuse = (status: number, error: string, description: string): TokenAnswer => {
    stats.refused[error] = (stats.refused[error] ?? 0) + 1;
    return { status, json: { error, error_description: description } };
  };

  function issue(): Pair {
    if (current) retired.add(current.access);
    const now = options.now();
    current = {
      access: newToken("shpat_"),
      accessExpiresAt: now + lifetimeMs,
      refresh: newToken("shprt_"),
      refreshExpiresAt: now + refreshLifetimeMs,
    };
    return current;
  }

  const answer = (pair: Pair): TokenAnswer => {
    const now = options.now();
    return {
      status: 200,
      json: {
        access_token: pair.access,
        scope: options.scopes().join(","),
        expires_in: Math.max(0, Math.round((pair.accessExpiresAt - now) / 1000)),
        refresh_token: pair.refresh,
        refresh_token_expires_in: Math.max(0, Math.round((pair.refreshExpiresAt - now) / 1000)),
      },
    };
  };

  function clientOk(body: Record<string, unknown>): boolean {
    if (!options.clientId || !options.clientSecret) return typeof body.client_id === "string" && !!body.client_secret;
    return body.client_id === options.clientId && safeEqual(String(body.client_secret ?? ""), options.clientSecret);
  }

  function refreshGrant(token: string): TokenAnswer {
    const now = options.now();
    if (current && token === current.refresh && now < current.refreshExpiresAt) {
      // The replacement is used: the token before it is retired, and this one stays usable until its own is.
      previousRefresh = { token, expiresAt: current.refreshExpiresAt, firstUsedAt: now };
      stats.refreshes++;
      return answer(issue());
    }
    if (
      previousRefresh &&
      token === previousRefresh.token &&
      now < previousRefresh.expiresAt &&
      now < previousRefresh.firstUsedAt + 30 * 86_400_000
    ) {
      // A retry of the last used refresh token: its replacement was never used (lost or not stored). A new pair
      // replaces the one the app never saw.
      stats.refreshes++;
      return answer(issue());
    }
    return refuse(400, "invalid_grant", "The refresh token is invalid, expired, or was already used.");
  }

  function migrationGrant(subject: string): TokenAnswer {
    if (subject !== legacy.token || legacy.rejected)
      return refuse(400, "invalid_subject_token", "The subject token is not a valid offline access token.");
    if (legacy.migratedTo) {
      // A lost answer is recovered by the same exchange: the same pair, while it is still the active one.
      if (current === legacy.migratedTo && !previousRefresh) return answer(current);
      return refuse(400, "invalid_subject_token", "The offline access token was already exchanged.");
    }
    stats.migrations++;
    previousRefresh = null;
    legacy = { ...legacy, migratedTo: issue() };
    return answer(legacy.migratedTo!);
  }

  function sessionTokenGrant(subject: string, expiring: boolean, requested: unknown): TokenAnswer {
    const claims = verifySessionToken(subject, options.clientSecret, options.clientId, options.now());
    if (!claims || claims.dest !== `https://${options.shop}`)
      return refuse(400, "invalid_subject_token", "The session token is invalid or expired.");
    if (requested === ONLINE_TOKEN_TYPE)
      return refuse(400, "invalid_request", "The stand-in issues offline access tokens only.");
    stats.exchanges++;
    if (!expiring) {
      if (legacy.rejected || legacy.migratedTo)
        return refuse(400, "invalid_request", "Non-expiring offline access tokens are no longer issued.");
      return { status: 200, json: { access_token: legacy.token, scope: options.scopes().join(",") } };
    }
    previousRefresh = null;
    return answer(issue());
  }

  return {
    stats: () => structuredClone(stats),

    /** POST /admin/oauth/access_token, with the body's fields (JSON or form). */
    grant(body: Record<string, unknown>): TokenAnswer {
      if (!clientOk(body)) return refuse(401, "invalid_client", "Client authentication failed.");
      if (body.grant_type === "refresh_token") {
        if (typeof body.refresh_token !== "string" || !body.refresh_token)
          return refuse(400, "invalid_request", "refresh_token is required.");
        return refreshGrant(body.refresh_token);
      }
      if (body.grant_type === TOKEN_EXCHANGE_GRANT) {
        if (typeof body.subject_token !== "string" || !body.subject_token)
          return refuse(400, "invalid_request", "subject_token is required.");
        const expiring = body.expiring === "1" || body.expiring === 1 || body.expiring === true;
        if (body.subject_token_type === OFFLINE_TOKEN_TYPE) {
          if (!expiring) return refuse(400, "invalid_request", "expiring=1 is required to exchange an offline token.");
          return migrationGrant(body.subject_token);
        }
        if (body.subject_token_type === ID_TOKEN_TYPE)
          return sessionTokenGrant(body.subject_token, expiring, body.requested_token_type);
        return refuse(400, "invalid_request", "Unsupported subject_token_type.");
      }
      return refuse(400, "unsupported_grant_type", "Unsupported grant_type.");
    },

    /** Whether an Admin API request's X-Shopify-Access-Token is good now. */
    check(token: string | undefined): AccessCheck {
      let result: AccessCheck;
      if (token && token === legacy.token)
        result = legacy.rejected || legacy.migratedTo ? (legacy.rejected ? "legacy" : "revoked") : "ok";
      else if (token && current && token === current.access)
        result = options.now() < current.accessExpiresAt ? "ok" : "expired";
      else if (token && retired.has(token)) result = "revoked";
      else result = "unknown";
      if (result !== "ok") stats.unauthorized[result]++;
      return result;
    },

    /** The shop's grant taken back (uninstall, or the merchant revoking the app): every token stops working. */
    revoke() {
      if (current) retired.add(current.access);
      current = null;
      previousRefresh = null;
      legacy = { ...legacy, rejected: true };
    },

    /** As at the start: only the non-expiring token, valid again; no pair; no stats (test control). */
    reset() {
      legacy = { token: options.legacyToken, migratedTo: null, rejected: options.legacyRejected ?? false };
      current = null;
      previousRefresh = null;
      retired.clear();
      stats = noStats();
    },

    /** Tokens issued from now on live this long. */
    setLifetime(seconds: number) {
      lifetimeMs = Math.max(1, seconds) * 1000;
    },

    /** From now on, non-expiring tokens are refused (1 January 2027). */
    rejectLegacy() {
      legacy = { ...legacy, rejected: true };
    },

    /** The active expiring pair (test control), or null. */
    current: () => (current ? { ...current } : null),
  };
}

export type TokenAuthority = ReturnType<typeof createTokenAuthority>;

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** An App Bridge session token (HS256 JWT signed with the app's secret), checked as Shopify's token endpoint does. */
function verifySessionToken(
  token: string,
  secret: string | undefined,
  clientId: string | undefined,
  now: number,
): { dest?: string } | null {
  if (!secret) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const expected = createHmac("sha256", secret).update(`${parts[0]}.${parts[1]}`).digest("base64url");
  if (!safeEqual(expected, parts[2])) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as {
      dest?: string;
      aud?: string;
      exp?: number;
      nbf?: number;
    };
    const seconds = now / 1000;
    if (typeof claims.exp !== "number" || claims.exp < seconds - 5) return null;
    if (typeof claims.nbf === "number" && claims.nbf > seconds + 5) return null;
    if (clientId && claims.aud !== clientId) return null;
    return claims;
  } catch {
    return null;
  }
}
