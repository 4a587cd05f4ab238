// Reconciliation: Shopify drops a webhook delivery for good after 8 failed retries, so every installed shop's
// paid orders updated since the last pass (less an overlap, for clock skew and Shopify's search index lag) are
// read through the Admin API, and each one without a row is recorded exactly as its webhooks would have
// (recordReadOrder: same trigger rules, same unique row per shop and order, an event naming reconciliation).
// One pass per shop at a time over all processes: a lease on the shop's Reconciliation row, taken with one
// conditional update (atomic on SQLite and on PostgreSQL) and renewed page by page.
// A gap of BULK_THRESHOLD orders or more (a worker that was down for days, a shop's first pass) is read with one
// bulk query operation when the caller comes back for it (the worker's scheduler: `bulk: true`): the pass starts
// the operation and returns "waiting"; later passes follow it (finish webhook or polling) and record its file's
// orders exactly as pages; a failed one falls back to pages (docs/decisions/0028-bulk-reading.md).
import type { Prisma } from "#prisma/sqlite";
import prisma from "../db.server";
import { logger } from "../logger.server";
import { BULK_THRESHOLD, followBulkRead, startBulkRead } from "../shopify/bulk-operations.server";
import { recordReadOrder } from "../invoices/enqueue.server";
import { updatedSinceQuery, type OrderPage, type OrderReader } from "../shopify/order-reader";

/** Each pass reads from this long before the last pass began. */
export const OVERLAP_MS = 15 * 60_000;
/**
 * A shop's first pass looks back to its install, but at most this far: older orders are the merchant's choice on
 * the past-orders page (they are past the 7-day invoice deadline anyway).
 */
export const FIRST_LOOKBACK_MS = 7 * 24 * 3_600_000;
const LEASE_MS = 5 * 60_000;

export interface ReconcileCounts {
  read: number;
  recorded: number;
  duplicate: number;
  skipped: number;
}

export type ReconcileResult =
  | ({ status: "done"; since: string } & ReconcileCounts)
  | { status: "busy" }
  /** "Check now" asked too often (RECONCILE_NOW): the hourly pass still runs. */
  | { status: "throttled" }
  /** A bulk read of a long gap is under way; a later pass records its orders. */
  | { status: "waiting" }
  | { status: "unknown_shop" }
  | { status: "failed"; error: string };

export interface ReconcileOptions {
  reader: OrderReader;
  owner: string;
  now?: () => Date;
  /** Read from here instead of the watermark (`npm run reconcile -- --since`). */
  since?: Date;
  /** Read a long gap with a bulk operation (the caller calls again until the pass is done). */
  bulk?: boolean;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2002";
}

async function ensureRow(shop: string): Promise<boolean> {
  try {
    await prisma.reconciliation.create({ data: { shopDomain: shop } });
  } catch (error) {
    if (isUniqueViolation(error)) return true;
    if ((error as { code?: string }).code === "P2003") return false;
    throw error;
  }
  return true;
}

async function takeLease(shop: string, owner: string, now: Date): Promise<boolean> {
  const taken = await prisma.reconciliation.updateMany({
    where: { shopDomain: shop, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseOwner: owner, leaseUntil: new Date(now.getTime() + LEASE_MS) },
  });
  return taken.count === 1;
}

/** One pass over one shop. Never throws for Shopify's or the shop's failures: they are recorded on the row. */
export async function reconcileShop(shop: string, options: ReconcileOptions): Promise<ReconcileResult> {
  const now = options.now ?? (() => new Date());
  const shopRow = await prisma.shop.findUnique({
    where: { domain: shop },
    select: { installedAt: true, uninstalledAt: true },
  });
  if (!shopRow || shopRow.uninstalledAt) return { status: "unknown_shop" };
  if (!(await ensureRow(shop))) return { status: "unknown_shop" };
  const startedAt = now();
  if (!(await takeLease(shop, options.owner, startedAt))) return { status: "busy" };
  const held = { shopDomain: shop, leaseOwner: options.owner };
  const row = await prisma.reconciliation.findUniqueOrThrow({ where: { shopDomain: shop } });
  let since =
    options.since ??
    new Date(
      (
        row.watermark ?? new Date(Math.max(shopRow.installedAt.getTime(), startedAt.getTime() - FIRST_LOOKBACK_MS))
      ).getTime() - OVERLAP_MS,
    );
  const counts: ReconcileCounts = { read: 0, recorded: 0, duplicate: 0, skipped: 0 };
  let log = logger.child({ shop, since: since.toISOString() });
  // The pass that started a bulk read began then, and reads from where it read.
  let passStart = startedAt;
  let bulkOrders: unknown[] | null = null;
  const bulk = options.bulk && !options.since ? options.reader.bulk : undefined;
  const noBulk = { bulkOperationId: null, bulkSince: null, bulkStartedAt: null };
  try {
    if (bulk && row.bulkOperationId && row.bulkSince && row.bulkStartedAt) {
      const step = await followBulkRead(bulk, row.bulkOperationId, now());
      if (step.state === "waiting") {
        await prisma.reconciliation.updateMany({ where: held, data: { leaseOwner: null, leaseUntil: null } });
        return { status: "waiting" };
      }
      await prisma.reconciliation.updateMany({ where: held, data: noBulk });
      if (step.state === "ready") {
        bulkOrders = step.orders;
        since = row.bulkSince;
        passStart = row.bulkStartedAt;
        log = logger.child({ shop, since: since.toISOString(), bulk: true });
      } else log.warn({ reason: step.reason }, "reconciliation: the bulk read failed; reading page by page");
    } else if (bulk && (await bulk.countOrders(shop, updatedSinceQuery(since))) >= BULK_THRESHOLD) {
      const started = await startBulkRead(bulk, shop, "reconciliation", null, updatedSinceQuery(since), startedAt);
      if (started.ok) {
        await prisma.reconciliation.updateMany({
          where: held,
          data: {
            bulkOperationId: started.id,
            bulkSince: since,
            bulkStartedAt: startedAt,
            leaseOwner: null,
            leaseUntil: null,
          },
        });
        return { status: "waiting" };
      }
      log.warn({ reason: started.reason }, "reconciliation: a bulk read could not start; reading page by page");
    }
    let after: string | null = null;
    for (;;) {
      const page: OrderPage = bulkOrders
        ? { orders: bulkOrders, pageInfo: { hasNextPage: false, endCursor: null } }
        : await options.reader.listOrders(shop, { query: updatedSinceQuery(since), after, sortKey: "UPDATED_AT" });
      for (const order of page.orders) {
        counts.read += 1;
        const outcome = await recordReadOrder(shop, order, { source: "reconciliation" }, now());
        if (outcome.status !== 200) {
          counts.skipped += 1;
          log.warn({ error: outcome.error }, "an order read through the Admin API could not be recorded");
        } else if (outcome.result === "duplicate") counts.duplicate += 1;
        else if (outcome.result === "unknown_shop") return { status: "unknown_shop" };
        else if (outcome.result === "not_paid") counts.skipped += 1;
        else counts.recorded += 1;
      }
      if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) break;
      after = page.pageInfo.endCursor;
      // Still ours? (A pass stalled past its lease has lost it; the orders it recorded are recorded once all the same.)
      const renewed = await prisma.reconciliation.updateMany({
        where: held,
        data: { leaseUntil: new Date(now().getTime() + LEASE_MS) },
      });
      if (renewed.count !== 1) throw new Error("the reconciliation lease was lost");
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn({ err: error, ...counts }, "reconciliation pass failed; the next pass reads from the same watermark");
    await prisma.reconciliation.updateMany({
      where: held,
      data: {
        leaseOwner: null,
        leaseUntil: null,
        lastRunAt: startedAt,
        lastError: message.slice(0, 500),
        lastResult: counts as unknown as Prisma.InputJsonValue,
      },
    });
    return { status: "failed", error: message };
  }
  // The watermark moves only when this pass covered everything after it.
  const coversWatermark = !row.watermark || since.getTime() <= row.watermark.getTime();
  await prisma.reconciliation.updateMany({
    where: held,
    data: {
      leaseOwner: null,
      leaseUntil: null,
      lastRunAt: startedAt,
      lastError: null,
      lastResult: counts as unknown as Prisma.InputJsonValue,
      ...(coversWatermark ? { watermark: passStart } : {}),
      // A request made before this pass began is answered by it.
      ...(row.requestedAt && row.requestedAt <= passStart ? { requestedAt: null } : {}),
    },
  });
  if (counts.recorded > 0) log.info(counts, "reconciliation recorded orders no webhook brought");
  return { status: "done", since: since.toISOString(), ...counts };
}

/**
 * Installed shops whose pass is due: never run, run longer than `intervalMs` ago, or asked for by the merchant.
 * Shops whose lease another process holds are left to it.
 */
export async function shopsDueForReconciliation(now: Date, intervalMs: number, limit = 50): Promise<string[]> {
  const shops = await prisma.shop.findMany({
    where: {
      uninstalledAt: null,
      // A shop whose Shopify connection is lost waits for its merchant (app/shops/connection.server.ts asks for a
      // pass when it is back).
      shopifyConnectionLostAt: null,
      OR: [
        { reconciliation: null },
        {
          reconciliation: {
            OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
            AND: {
              OR: [
                { lastRunAt: null },
                { lastRunAt: { lt: new Date(now.getTime() - intervalMs) } },
                { requestedAt: { not: null } },
                { bulkOperationId: { not: null } },
              ],
            },
          },
        },
      ],
    },
    select: { domain: true },
    orderBy: { domain: "asc" },
    take: limit,
  });
  return shops.map((shop) => shop.domain);
}

/** What the admin shows about the shop's reconciliation. */
export async function reconciliationStatus(shop: string) {
  const row = await prisma.reconciliation.findUnique({ where: { shopDomain: shop } });
  return {
    lastRunAt: row?.lastRunAt?.toISOString() ?? null,
    lastResult: (row?.lastResult as ReconcileCounts | null) ?? null,
    lastError: row?.lastError ?? null,
    running: Boolean(row?.leaseUntil && row.leaseUntil > new Date()),
  };
}
