// A GraphQL client for one shop's Admin API: typed, zod-validated answers, and polite under Shopify's rate limit.
// - The query-cost bucket (`extensions.cost.throttleStatus`) is remembered per shop: before a query whose cost
//   the bucket cannot cover, the client waits until it can (restoreRate points per second) instead of being
//   refused.
// - THROTTLED answers are retried after the time the bucket needs, at most `maxThrottledAttempts` times.
// - 5xx, 429 and network failures are retried with exponential backoff and jitter, at most `maxAttempts` times.
// - A 401 asks the credentials for a replaced token (another process renewed it, which revokes the one in flight, or
//   it expired early) and sends again, at most TOKEN_RETRIES times a call; the credentials renew a token only when
//   the one refused is still the stored one. Then an AdminApiError("unauthorized").
// - Everything else becomes an AdminApiError with a kind (access denied is AdminAccessDeniedError).
// No I/O of its own besides the `fetch` it is given (app/shopify/admin.server.ts wires the real one).
import type { z } from "zod";
import { AdminAccessDeniedError, AdminApiError } from "./errors";
import { outboundRefusalOf } from "../http/outbound-guard.server";

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface AdminClientOptions {
  shop: string;
  /** The GraphQL endpoint: https://SHOP/admin/api/VERSION/graphql.json (or the stand-in's). */
  endpoint: string;
  /** A fixed token (tests, scripts), or `credentials` that keep one valid. */
  accessToken?: string;
  credentials?: AdminCredentials;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** Attempts for 5xx/429/network failures (default 5). */
  maxAttempts?: number;
  /** Attempts for THROTTLED answers (default 8). */
  maxThrottledAttempts?: number;
  /** The longest single wait (default 60 s). */
  maxWaitMs?: number;
  /** One request's time limit (default 30 s). */
  timeoutMs?: number;
  /** Shared bucket knowledge (one per shop and process by default). */
  bucket?: BucketState;
}

/** Where the client's access token comes from (app/shopify/admin.server.ts: the shop's offline session). */
export interface AdminCredentials {
  /** A token valid for the next request (asked before every request). */
  token(): Promise<string>;
  /** `token` was answered 401: a replaced one, or a throw when there is none. */
  rejected(token: string): Promise<string>;
}

export interface ClientStats {
  requests: number;
  throttledRetries: number;
  failureRetries: number;
  waitedMs: number;
  /** Tokens replaced after a 401. */
  tokenRenewals: number;
}

export interface AdminGraphql {
  readonly shop: string;
  readonly stats: ClientStats;
  /** Runs a query or mutation; the answer's `data` is validated by `schema`. */
  graphql<T>(query: string, variables: Record<string, unknown> | undefined, schema: z.ZodType<T>): Promise<T>;
}

/** What the client last learnt of a shop's bucket. */
export class BucketState {
  status: ThrottleStatus | null = null;
  at = 0;
  /** Points expected to be available at `now`. */
  projected(now: number): number | null {
    if (!this.status) return null;
    return Math.min(
      this.status.maximumAvailable,
      this.status.currentlyAvailable + ((now - this.at) / 1000) * this.status.restoreRate,
    );
  }
  update(status: ThrottleStatus, now: number) {
    this.status = status;
    this.at = now;
  }
  /** Take the points a query is expected to cost, so queries sent together do not all count on the same points. */
  reserve(cost: number, now: number) {
    const available = this.projected(now);
    if (available === null || !this.status) return;
    this.status = { ...this.status, currentlyAvailable: available - cost };
    this.at = now;
  }
}

const buckets = new Map<string, BucketState>();
/** The process-wide bucket knowledge of a shop. */
export function bucketOf(shop: string): BucketState {
  let bucket = buckets.get(shop);
  if (!bucket) buckets.set(shop, (bucket = new BucketState()));
  return bucket;
}

interface GraphqlAnswer {
  data?: unknown;
  errors?: Array<{ message?: string; extensions?: { code?: string; requiredAccess?: string } }> | string;
  extensions?: {
    cost?: { requestedQueryCost?: number; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus };
  };
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504, 520, 522, 524]);
/** 401s answered with a replaced token in one call: a renewal elsewhere can revoke the token between two sends. */
const TOKEN_RETRIES = 2;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 10_000;

export function createAdminClient(options: AdminClientOptions): AdminGraphql {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const maxAttempts = options.maxAttempts ?? 5;
  const maxThrottled = options.maxThrottledAttempts ?? 8;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const bucket = options.bucket ?? bucketOf(options.shop);
  /** The requested cost each query text had last time (the client cannot compute Shopify's cost itself). */
  const knownCost = new Map<string, number>();
  const stats: ClientStats = { requests: 0, throttledRetries: 0, failureRetries: 0, waitedMs: 0, tokenRenewals: 0 };
  const credentials: AdminCredentials = options.credentials ?? {
    token: async () => options.accessToken ?? "",
    rejected: async () => {
      throw new AdminApiError("unauthorized", `Shopify refused the access token of ${options.shop} (401)`, {
        status: 401,
      });
    },
  };

  const wait = async (ms: number) => {
    const bounded = Math.max(0, Math.min(maxWaitMs, Math.ceil(ms)));
    stats.waitedMs += bounded;
    if (bounded > 0) await sleep(bounded);
  };
  // Equal jitter: between half and the whole doubling step.
  const backoff = (attempt: number) => {
    const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    return step / 2 + (random() * step) / 2;
  };

  /** Wait until the bucket can pay for `cost`, as last reported. */
  async function waitForPoints(cost: number) {
    const available = bucket.projected(now());
    if (available === null || !bucket.status || cost <= available) return;
    await wait(((cost - available) / bucket.status.restoreRate) * 1000);
  }

  async function send(
    body: string,
    accessToken: string,
  ): Promise<{ status: number; answer: GraphqlAnswer | null; retryAfterMs?: number }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await doFetch(options.endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "x-shopify-access-token": accessToken,
        },
        body,
        signal: controller.signal,
      });
      const text = await response.text();
      let answer: GraphqlAnswer | null = null;
      try {
        answer = JSON.parse(text) as GraphqlAnswer;
      } catch {
        answer = null;
      }
      const retryAfter = Number(response.headers.get("retry-after"));
      return {
        status: response.status,
        answer,
        retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  async function graphql<T>(
    query: string,
    variables: Record<string, unknown> | undefined,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const body = JSON.stringify({ query, variables: variables ?? {} });
    let failures = 0;
    let throttles = 0;
    let renewals = 0;
    /** A token handed back for a refused one, used by the very next send. */
    let replacement: string | null = null;
    for (;;) {
      const expected = knownCost.get(query);
      if (expected !== undefined) {
        await waitForPoints(expected);
        bucket.reserve(expected, now());
      }
      stats.requests++;
      // Read before every send: a wait (the bucket, a backoff) can outlast the token, or another process's renewal
      // can revoke it.
      const token: string = replacement ?? (await credentials.token());
      replacement = null;
      let result: Awaited<ReturnType<typeof send>>;
      try {
        result = await send(body, token);
      } catch (error) {
        const refusal = outboundRefusalOf(error);
        if (refusal) throw new AdminApiError("blocked", `the Admin API address was refused: ${refusal.message}`);
        failures++;
        if (failures >= maxAttempts)
          throw new AdminApiError(
            "unavailable",
            `Shopify's Admin API could not be reached for ${options.shop} (${(error as Error).message})`,
            { attempts: failures },
          );
        stats.failureRetries++;
        await wait(backoff(failures));
        continue;
      }
      const { status, answer } = result;
      const cost = answer?.extensions?.cost;
      if (cost?.throttleStatus) bucket.update(cost.throttleStatus, now());
      if (typeof cost?.requestedQueryCost === "number") knownCost.set(query, cost.requestedQueryCost);

      if (RETRYABLE_STATUS.has(status)) {
        failures++;
        if (failures >= maxAttempts)
          throw new AdminApiError(
            "unavailable",
            `Shopify's Admin API answered ${status} for ${options.shop}, ${failures} times`,
            { status, attempts: failures },
          );
        stats.failureRetries++;
        await wait(Math.max(backoff(failures), result.retryAfterMs ?? 0));
        continue;
      }
      if (status === 401 && renewals < TOKEN_RETRIES) {
        renewals++;
        stats.tokenRenewals++;
        const replaced = await credentials.rejected(token);
        // The same token back: nothing newer exists, and it was refused.
        if (replaced !== token) {
          replacement = replaced;
          continue;
        }
      }
      if (status === 401)
        throw new AdminApiError(
          "unauthorized",
          `Shopify refused the access token of ${options.shop} (401): the app may have been uninstalled`,
          { status },
        );
      if (status === 403)
        throw new AdminAccessDeniedError(`Shopify refused access for ${options.shop} (403)`, null, { status });
      if (status < 200 || status >= 300 || !answer) {
        throw new AdminApiError(
          "graphql",
          `Shopify's Admin API answered ${status}${answer ? "" : " without JSON"} for ${options.shop}`,
          { status },
        );
      }

      const errors = Array.isArray(answer.errors)
        ? answer.errors
        : answer.errors
          ? [{ message: String(answer.errors) }]
          : [];
      const codes = errors.map((e) => e.extensions?.code ?? "").filter(Boolean);
      if (codes.includes("THROTTLED")) {
        throttles++;
        if (throttles >= maxThrottled)
          throw new AdminApiError(
            "throttled",
            `Shopify kept answering THROTTLED for ${options.shop} (${throttles} times)`,
            { codes, attempts: throttles },
          );
        stats.throttledRetries++;
        const requested = cost?.requestedQueryCost ?? expected ?? 0;
        const throttle = cost?.throttleStatus;
        const refill = throttle ? ((requested - throttle.currentlyAvailable) / throttle.restoreRate) * 1000 : 0;
        // At least a backoff step: a THROTTLED answer with a full bucket (another app? a stricter limit?) must still slow down.
        await wait(Math.max(refill, backoff(throttles)));
        continue;
      }
      const denied = errors.find((e) => e.extensions?.code === "ACCESS_DENIED");
      if (denied)
        throw new AdminAccessDeniedError(denied.message ?? "access denied", denied.extensions?.requiredAccess ?? null, {
          codes,
        });
      if (errors.length) {
        throw new AdminApiError(
          "graphql",
          `Shopify's Admin API refused the request for ${options.shop}: ${errors
            .map((e) => e.message)
            .join("; ")
            .slice(0, 500)}`,
          { codes },
        );
      }
      const parsed = schema.safeParse(answer.data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AdminApiError(
          "invalid_response",
          `unexpected Admin API answer for ${options.shop} at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
        );
      }
      return parsed.data;
    }
  }

  return { shop: options.shop, stats, graphql };
}
