// When to try again. The schedule lives on the Invoice row (attempts, nextAttemptAt) so that it survives
// restarts; a retry library that sleeps in memory would not, so this is the one formula (docs/decisions/0005).

export const RETRY = {
  /** First retry after about this long; doubles each attempt. */
  baseMs: 5_000,
  capMs: 30 * 60_000,
  /** Posting attempts before the invoice is marked failed (about 3 hours of retrying). */
  maxAttempts: 12,
} as const;

export const SYNC = {
  /** A created invoice is read again after this long if no callback has come (a cheap GET). */
  firstMs: 15_000,
  capMs: 60 * 60_000,
  /** Status reads before giving up with needs_attention (about 1.5 days). */
  maxAttempts: 45,
} as const;

/** Exponential backoff with "equal jitter": half fixed, half random, so retries of many rows spread out. */
export function retryDelayMs(
  attempt: number,
  random: () => number = Math.random,
  base: number = RETRY.baseMs,
  cap: number = RETRY.capMs,
): number {
  const exp = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * random());
}

/** Delay before the next status read of a processing invoice. */
export function syncDelayMs(syncAttempt: number, random: () => number = Math.random): number {
  return retryDelayMs(syncAttempt + 1, random, SYNC.firstMs, SYNC.capMs);
}

/** The longest Retry-After honoured: a service (or anything between) asking for days must not park an invoice. */
export const RETRY_AFTER_CAP_MS = 60 * 60_000;

/** A 429's Retry-After wins over the backoff when it is longer, up to RETRY_AFTER_CAP_MS. */
export function delayHonouringRetryAfter(backoffMs: number, retryAfterMs: number | undefined): number {
  const asked = Number.isFinite(retryAfterMs) ? Math.max(0, retryAfterMs ?? 0) : 0;
  return Math.max(backoffMs, Math.min(asked, RETRY_AFTER_CAP_MS));
}
