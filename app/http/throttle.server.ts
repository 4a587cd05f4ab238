// Throttles of requests that cost work: token buckets per key (a shop, a caller, a link) and kind of request, so a
// burst of `capacity` goes through, then one request per `refillMs`. A burst that is refused is reported once, when
// it starts and when it ends, not once per request.
// - `Throttle` keeps its buckets in this process's memory (decision 0031).
// - `SharedThrottle` (decision 0045) keeps them where every process sees them: in PostgreSQL (a row per bucket, read
//   and written under a row lock), so several web processes behind a load balancer share one limit; on SQLite, the
//   embedded default of one process, in memory.
import prisma, { dbProvider } from "../db.server";
import { logger } from "../logger.server";

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

export interface Bucket {
  tokens: number;
  at: number;
  refused: number;
}

/** One request (`use`) or a look (`!use`) at a bucket (a new one if none): the bucket after it, and the verdict. */
export function bucketStep(
  stored: Bucket | undefined,
  rule: ThrottleRule,
  now: number,
  use: boolean,
): { bucket: Bucket; verdict: Verdict } {
  const { capacity, refillMs } = rule;
  const bucket = { ...(stored ?? { tokens: capacity, at: now, refused: 0 }) };
  // A clock that went back refills nothing.
  bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) / refillMs);
  bucket.at = Math.max(bucket.at, now);
  if (bucket.tokens >= 1) {
    const quiet = bucket.tokens >= capacity;
    if (use) bucket.tokens -= 1;
    const refusedBefore = bucket.refused;
    bucket.refused = 0;
    return { bucket, verdict: { allowed: true, quiet, refusedBefore } };
  }
  bucket.refused += 1;
  return {
    bucket,
    verdict: {
      allowed: false,
      retryAfterMs: Math.ceil((1 - bucket.tokens) * refillMs),
      firstRefusal: bucket.refused === 1,
    },
  };
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
    const step = bucketStep(this.buckets.get(key), this.rule, now, use);
    // Re-inserted, so the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, step.bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    return step.verdict;
  }
}

const OVERLOAD_WAIT_MS = 10_000;

/** Prisma could not start (P2028) or hold the transaction within its limits: the database is saturated. */
const isTransactionWaitError = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2028";

/**
 * A throttle every process shares (decision 0045): on PostgreSQL one ThrottleBucket row per `name:key`, read and
 * written in one transaction under the row's lock, so two processes never both spend the bucket's last token; on
 * SQLite (one process) the memory of this one.
 */
export class SharedThrottle {
  private readonly local: Throttle;

  constructor(
    readonly name: string,
    readonly rule: ThrottleRule,
  ) {
    this.local = new Throttle(rule);
  }

  /** Counts a request (or a failure) and says whether it was allowed. */
  take(key: string, now = Date.now()): Promise<Verdict> {
    return this.verdict(key, now, true);
  }

  /** Whether a request may go on now, without counting it. */
  check(key: string, now = Date.now()): Promise<Verdict> {
    return this.verdict(key, now, false);
  }

  /** Forgets every bucket of this throttle (tests; a restart does the same in memory). */
  async clear(): Promise<void> {
    this.local.clear();
    if (dbProvider() === "postgresql")
      await prisma.throttleBucket.deleteMany({ where: { key: { startsWith: `${this.name}:` } } });
  }

  private async verdict(key: string, now: number, use: boolean): Promise<Verdict> {
    if (dbProvider() !== "postgresql") return use ? this.local.take(key, now) : this.local.check(key, now);
    const id = `${this.name}:${key}`.slice(0, 200);
    // A burst on one key queues on its row's lock, each waiting request holding a pooled connection: wait for one up
    // to OVERLOAD_WAIT_MS (Prisma's default is 2 s, which a burst of 100 on a busy machine outlasted), and past that
    // refuse like a spent bucket (429 and Retry-After) instead of failing the request.
    return prisma
      .$transaction(
        async (tx) => {
          await tx.$executeRaw`INSERT INTO "ThrottleBucket" ("key", "tokens", "at", "refused") VALUES (${id}, ${this.rule.capacity}, ${now}, 0) ON CONFLICT ("key") DO NOTHING`;
          const [row] = await tx.$queryRaw<
            Bucket[]
          >`SELECT "tokens", "at", "refused" FROM "ThrottleBucket" WHERE "key" = ${id} FOR UPDATE`;
          const step = bucketStep(row, this.rule, now, use);
          await tx.$executeRaw`UPDATE "ThrottleBucket" SET "tokens" = ${step.bucket.tokens}, "at" = ${step.bucket.at}, "refused" = ${step.bucket.refused} WHERE "key" = ${id}`;
          return step.verdict;
        },
        { maxWait: OVERLOAD_WAIT_MS, timeout: OVERLOAD_WAIT_MS },
      )
      .catch((error: unknown): Verdict => {
        if (!isTransactionWaitError(error)) throw error;
        logger.warn({ throttle: this.name }, "throttle overloaded: request refused");
        return { allowed: false, retryAfterMs: this.rule.refillMs, firstRefusal: false };
      });
  }
}

/** Buckets untouched this long are full again (every rule refills within it): housekeeping deletes them. */
const BUCKET_KEEP_MS = 24 * 3_600_000;

export async function pruneThrottleBuckets(now = Date.now()): Promise<number> {
  if (dbProvider() !== "postgresql") return 0;
  return prisma.throttleBucket.deleteMany({ where: { at: { lt: now - BUCKET_KEEP_MS } } }).then((r) => r.count);
}

/** Dry runs of "Invoice past orders", per shop: five at once, then one every 12 s (five a minute). */
export const DRY_RUNS = new SharedThrottle("dry-runs", { capacity: 5, refillMs: 12_000 });
/** Starts and resumes of a run, per shop: the same. */
export const RUN_STARTS = new SharedThrottle("run-starts", { capacity: 5, refillMs: 12_000 });
/** "Check now" (a reconciliation pass that reads the shop's orders), per shop: three at once, then one a minute. */
export const RECONCILE_NOW = new SharedThrottle("reconcile-now", { capacity: 3, refillMs: 60_000 });
/** Test invoices sent from the app, per shop: five at once, then one a minute. */
export const TEST_INVOICES = new SharedThrottle("test-invoices", { capacity: 5, refillMs: 60_000 });
/** Failed account-webhook calls per caller: ten at once, then one every 6 s; the rest are answered 429. */
export const ACCOUNT_WEBHOOK_FAILURES = new SharedThrottle("account-webhook-failures", {
  capacity: 10,
  refillMs: 6_000,
});
/** A public PDF link (one invoice): twenty at once, then one every 3 s. */
export const PDF_LINK = new SharedThrottle("pdf-link", { capacity: 20, refillMs: 3_000 });
/** A shop's public PDF links and print previews together: sixty at once, then two a second. */
export const PDF_SHOP = new SharedThrottle("pdf-shop", { capacity: 60, refillMs: 500 });
/** A shop's print previews (up to 50 PDFs merged each): five at once, then one every 10 s. */
export const PRINTS = new SharedThrottle("prints", { capacity: 5, refillMs: 10_000 });
