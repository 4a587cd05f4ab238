// Per-shop throttles of requests that cost work: a merchant's dry runs and run starts (each reads the shop's
// orders through the Admin API and leaves a BackfillRun row), and failed calls to the account webhook (each a
// database read, a decryption and a log line). A token bucket per shop and kind of request, in this process's
// memory (docs/decisions/0031-throttling.md): a burst of `capacity` goes through, then one request per `refillMs`.
// A burst that is refused is reported once, when it starts and when it ends, not once per request.

export interface ThrottleRule {
  /** Requests that may come at once. */
  capacity: number;
  /** One more request is allowed per this many milliseconds. */
  refillMs: number;
}

export type Verdict =
  /** `quiet`: the bucket was full (nothing else lately); `refusedBefore`: requests refused in the burst now over. */
  | { allowed: true; quiet: boolean; refusedBefore: number }
  /** `firstRefusal`: this refusal starts a burst (report it); `retryAfterMs`: when one more is allowed. */
  | { allowed: false; retryAfterMs: number; firstRefusal: boolean };

interface Bucket {
  tokens: number;
  at: number;
  refused: number;
}

export class Throttle {
  private readonly buckets = new Map<string, Bucket>();

  /** `maxKeys`: buckets kept (the least recently used go first): keys can come from outside (a path's shop). */
  constructor(
    readonly rule: ThrottleRule,
    private readonly maxKeys = 10_000,
  ) {}

  /** Whether a request may go on now, without counting it. */
  check(key: string, now = Date.now()): Verdict {
    return this.verdict(key, now, false);
  }

  /** Counts a request (or a failure) and says whether it was allowed. */
  take(key: string, now = Date.now()): Verdict {
    return this.verdict(key, now, true);
  }

  /** Forgets every bucket (a restart does the same). */
  clear(): void {
    this.buckets.clear();
  }

  private verdict(key: string, now: number, use: boolean): Verdict {
    const { capacity, refillMs } = this.rule;
    const stored = this.buckets.get(key);
    const bucket = stored ?? { tokens: capacity, at: now, refused: 0 };
    // Re-inserted, so the map's order is least recently used first; a clock that went back refills nothing.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) / refillMs);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      const quiet = bucket.tokens >= capacity;
      if (use) bucket.tokens -= 1;
      const refusedBefore = bucket.refused;
      bucket.refused = 0;
      return { allowed: true, quiet, refusedBefore };
    }
    bucket.refused += 1;
    return {
      allowed: false,
      retryAfterMs: Math.ceil((1 - bucket.tokens) * refillMs),
      firstRefusal: bucket.refused === 1,
    };
  }
}

/** Dry runs of "Invoice past orders": five at once, then one every 12 s (five a minute). */
export const DRY_RUNS = new Throttle({ capacity: 5, refillMs: 12_000 });
/** Starts and resumes of a run: the same. */
export const RUN_STARTS = new Throttle({ capacity: 5, refillMs: 12_000 });
/** Failed account-webhook calls per caller: ten at once, then one every 6 s; the rest are answered 429. */
export const ACCOUNT_WEBHOOK_FAILURES = new Throttle({ capacity: 10, refillMs: 6_000 });
