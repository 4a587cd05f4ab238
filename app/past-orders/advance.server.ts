// A past-orders run's steps, taken by the worker's scheduler one at a time under a lease on the run's row: read the
// next page (or the next part of a bulk file), plan or record its orders, and finish the run when its queue is empty.
import type { Prisma } from "#prisma/sqlite";
import prisma from "../db.server";
import { logger } from "../logger.server";
import { connectionFrom } from "../settings/settings.server";
import { BULK_THRESHOLD, followBulkRead, startBulkRead } from "../shopify/bulk-operations.server";
import { recordReadOrder } from "../invoices/enqueue.server";
import { createdBetweenQuery, type BulkReader, type OrderPage, type OrderReader } from "../shopify/order-reader";
import { signalWork } from "../jobs/signal.server";
import { readMapping } from "../settings/schema";
import { addToPlan, emptyPlan, type Plan, type PlanContext } from "./plan";
import { STATE } from "../invoice-state/transitions";
import { BACKLOG_MAX, BULK_BACKLOG_MAX, BULK_STEP, LEASE_MS, UNFINISHED } from "./run-rules";

/**
 * The next page of a run, asked for while this page is recorded: reading one page at a time, Shopify's latency
 * (about 100 ms a query) would otherwise add to the recording of every page. One page per run, in this
 * process, used only by the next step of the same run and state at the same cursor, and only while fresh (a
 * paused run's read-ahead is read again). A failed read-ahead fails that next step, which keeps its cursor.
 */
const READ_AHEAD_FRESH_MS = 30_000;
const readAheads = new Map<string, { key: string; reader: OrderReader; at: number; page: Promise<OrderPage> }>();

function readAhead(id: string, state: string, cursor: string | null, reader: OrderReader, page: Promise<OrderPage>) {
  page.catch(() => undefined); // consumed (or dropped) later; never an unhandled rejection
  readAheads.set(id, { key: `${state}:${cursor}`, reader, at: Date.now(), page });
}

function takeReadAhead(
  id: string,
  state: string,
  cursor: string | null,
  reader: OrderReader,
): Promise<OrderPage> | null {
  for (const [runId, entry] of readAheads) if (Date.now() - entry.at > READ_AHEAD_FRESH_MS) readAheads.delete(runId);
  const entry = readAheads.get(id);
  readAheads.delete(id);
  return entry && entry.key === `${state}:${cursor}` && entry.reader === reader ? entry.page : null;
}

export interface AdvanceOptions {
  reader: OrderReader;
  owner: string;
  now?: () => Date;
}

async function planContext(shop: string, now: Date): Promise<{ context: PlanContext; testMode: boolean }> {
  const row = await prisma.shop.findUniqueOrThrow({ where: { domain: shop }, include: { settings: true } });
  const connection = connectionFrom(shop, row.settings);
  return {
    testMode: row.settings?.testMode ?? true,
    context: {
      settings: connection.ok ? connection.connection.mapping : readMapping(row.settings?.mapping),
      shop: { domain: shop, timezone: row.timezone, currency: row.currency, storefrontUrl: row.storefrontUrl },
      missingSettings: connection.ok ? [] : connection.missing,
      now,
    },
  };
}

/** The plan with these orders added (the rows the app has for them looked up in one query). */
async function planPage(shop: string, orders: unknown[], plan: Plan, context: PlanContext): Promise<Plan> {
  const ids = orders.map((order) => String((order as { id?: unknown }).id));
  // Waybill rows have no Shopify order ("waybill-{id}") and never match an order id.
  const recorded = new Map(
    (
      await prisma.invoice.findMany({
        where: { shopDomain: shop, orderId: { in: ids }, waybillId: null },
        select: { orderId: true, state: true },
      })
    ).map((row) => [row.orderId, row.state]),
  );
  for (const order of orders) {
    const shaped = order as Parameters<typeof addToPlan>[1] & { id?: unknown; financial_status?: string | null };
    if (!["paid", "partially_refunded"].includes(shaped.financial_status ?? "paid")) continue;
    plan = addToPlan(plan, shaped, recorded.get(String(shaped.id)) ?? null, context);
  }
  return plan;
}

/**
 * One page of one run (counting or running), under the run's lease. Returns whether the run has more to read.
 * Failures of the Admin API leave the cursor where it was: the next step reads the same page again.
 */
export async function advanceRun(id: string, options: AdvanceOptions): Promise<boolean> {
  const now = options.now ?? (() => new Date());
  const start = now();
  const backlog = await prisma.invoice.count({ where: { backfillId: id, state: STATE.queued } });
  if (backlog >= BULK_BACKLOG_MAX) return false;
  if (backlog >= BACKLOG_MAX && (await prisma.backfillRun.count({ where: { id, mode: "bulk" } })) === 0) return false;
  const leaseUntil = new Date(start.getTime() + LEASE_MS);
  const leased = await prisma.backfillRun.updateMany({
    where: {
      id,
      state: { in: ["counting", "running"] },
      listedAllAt: null,
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: start } }],
    },
    data: { leaseOwner: options.owner, leaseUntil },
  });
  if (leased.count !== 1) return false;
  const run = await prisma.backfillRun.findUniqueOrThrow({ where: { id } });
  // Every write of this step holds for the phase it read: a dry run discarded (or replaced) while its page was
  // read stays discarded, and a phase's cursor never lands in another phase. A run paused meanwhile still takes
  // its page (its rows are held below). A write that finds the run moved on changes nothing; `finally` then gives
  // the lease back, so the run's next phase is not kept waiting for it to expire.
  const held = {
    id,
    leaseOwner: options.owner,
    state: run.state === "running" ? { in: ["running", "paused"] } : run.state,
  };
  const log = logger.child({ shop: run.shopDomain, run: id, state: run.state });
  try {
    if (run.state !== "counting" && run.state !== "running") return false;
    const query = createdBetweenQuery(run.fromDate, run.toDate);
    const bulk = options.reader.bulk;
    const mode = run.mode ?? (await chooseMode(run, query, bulk));
    if (mode !== run.mode) await prisma.backfillRun.updateMany({ where: held, data: { mode } });
    if (mode === "bulk" && bulk) return await bulkStep({ ...run, mode }, query, bulk, { held, backlog, now, log });
    const read = (after: string | null) =>
      options.reader.listOrders(run.shopDomain, { query, after, sortKey: "CREATED_AT" });
    const page = await (takeReadAhead(id, run.state, run.cursor, options.reader) ?? read(run.cursor));
    const more = page.pageInfo.hasNextPage && Boolean(page.pageInfo.endCursor);
    const cursor = more ? page.pageInfo.endCursor : null;
    if (more) readAhead(id, run.state, cursor, options.reader, read(cursor));
    if (run.state === "counting") {
      const { context, testMode } = await planContext(run.shopDomain, start);
      const plan = await planPage(
        run.shopDomain,
        page.orders,
        (run.plan as Plan | null) ?? emptyPlan(testMode),
        context,
      );
      await prisma.backfillRun.updateMany({
        where: held,
        data: {
          plan: plan as unknown as Prisma.InputJsonValue,
          cursor,
          leaseOwner: null,
          leaseUntil: null,
          lastError: null,
          ...(more ? {} : { state: "ready" }),
        },
      });
      return more;
    }
    const counts = await recordOrders(run.shopDomain, id, page.orders, now);
    await prisma.backfillRun.updateMany({
      where: held,
      data: {
        cursor,
        listed: { increment: page.orders.length },
        recorded: { increment: counts.recorded },
        existing: { increment: counts.existing },
        skipped: { increment: counts.skipped },
        leaseOwner: null,
        leaseUntil: null,
        lastError: null,
        ...(more ? {} : { listedAllAt: now() }),
      },
    });
    // Paused while this page was being recorded: hold what it queued too.
    const after = await prisma.backfillRun.findUnique({ where: { id }, select: { state: true } });
    if (after?.state === "paused") await holdRows(id, now());
    return more;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn({ err: error }, "past-orders run: reading a page failed; it is read again on the next step");
    await prisma.backfillRun.updateMany({
      where: held,
      data: { lastError: message.slice(0, 500), leaseOwner: null, leaseUntil: null },
    });
    return false;
  } finally {
    await prisma.backfillRun.updateMany({
      where: { id, leaseOwner: options.owner, leaseUntil },
      data: { leaseOwner: null, leaseUntil: null },
    });
  }
}

type RunRow = Awaited<ReturnType<typeof prisma.backfillRun.findUniqueOrThrow>>;

/**
 * Records read orders as the bulk action does; an order this run recorded before (read again) counts as nothing.
 * The workers are woken at the step's first queued order and at its end, not once per order (on PostgreSQL each is a
 * NOTIFY, a round trip: 1,000 per bulk step).
 */
async function recordOrders(shop: string, runId: string, orders: unknown[], now: () => Date) {
  const counts = { recorded: 0, existing: 0, skipped: 0 };
  let queued = false;
  for (const order of orders) {
    const outcome = await recordReadOrder(
      shop,
      order,
      { source: "past_orders", backfillId: runId, batched: true },
      now(),
    );
    if (outcome.status === 200 && outcome.result === "queued" && !queued) {
      queued = true;
      await signalWork();
    }
    if (
      outcome.status === 200 &&
      (outcome.result === "queued" || outcome.result === "cancelled" || outcome.result === "waiting")
    )
      counts.recorded += 1;
    else if (outcome.status === 200 && outcome.result === "duplicate") {
      const ours = await prisma.invoice.count({
        where: { shopDomain: shop, orderId: String((order as { id?: unknown }).id), backfillId: runId },
      });
      if (!ours) counts.existing += 1;
    } else counts.skipped += 1;
  }
  if (queued) await signalWork();
  return counts;
}

/** Bulk for a range of BULK_THRESHOLD orders or more: counted by Shopify for the dry run, the dry run's count after. */
async function chooseMode(run: RunRow, query: string, bulk: BulkReader | undefined): Promise<"bulk" | "paged"> {
  if (!bulk) return "paged";
  const count =
    run.state === "counting" ? await bulk.countOrders(run.shopDomain, query) : ((run.plan as Plan | null)?.orders ?? 0);
  return count >= BULK_THRESHOLD ? "bulk" : "paged";
}

/**
 * A bulk operation's orders, kept in this process while its run records them BULK_STEP at a time (another
 * process, or this one after a restart, reads the file again: its order, and so `listed` as the offset, holds).
 */
const FILE_FRESH_MS = 3_600_000;
const bulkFiles = new Map<string, { operation: string; orders: unknown[]; at: number }>();

function keptFile(runId: string, operation: string): unknown[] | null {
  for (const [key, entry] of bulkFiles) if (Date.now() - entry.at > FILE_FRESH_MS) bulkFiles.delete(key);
  const entry = bulkFiles.get(runId);
  return entry && entry.operation === operation ? entry.orders : null;
}

interface StepContext {
  held: Prisma.BackfillRunWhereInput;
  backlog: number;
  now: () => Date;
  log: typeof logger;
}

/** One step of a phase read in bulk: start the operation, wait for it, then plan or record from its file. */
async function bulkStep(
  run: RunRow,
  query: string,
  bulk: BulkReader,
  { held, backlog, now, log }: StepContext,
): Promise<boolean> {
  const release = { leaseOwner: null, leaseUntil: null };
  const fallBack = async (reason: string) => {
    log.warn({ reason }, "past-orders run: reading in bulk failed; the range is read page by page");
    bulkFiles.delete(run.id);
    // Pages from the start: an order this run recorded already is found again and counted once (recordOrders).
    await prisma.backfillRun.updateMany({
      where: held,
      data: { mode: "paged", bulkOperationId: null, cursor: null, listed: 0, ...release },
    });
    return true;
  };
  if (!run.bulkOperationId) {
    const started = await startBulkRead(bulk, run.shopDomain, "past_orders", run.id, query, now());
    if (!started.ok) return fallBack(started.reason);
    await prisma.backfillRun.updateMany({
      where: held,
      data: { bulkOperationId: started.id, lastError: null, ...release },
    });
    return false;
  }
  let orders = keptFile(run.id, run.bulkOperationId);
  if (!orders) {
    const step = await followBulkRead(bulk, run.bulkOperationId, now());
    if (step.state === "failed") return fallBack(step.reason);
    if (step.state === "waiting") {
      await prisma.backfillRun.updateMany({ where: held, data: release });
      return false;
    }
    orders = step.orders;
    bulkFiles.set(run.id, { operation: run.bulkOperationId, orders, at: Date.now() });
  }
  if (run.state === "counting") {
    const { context, testMode } = await planContext(run.shopDomain, now());
    let plan = emptyPlan(testMode);
    for (let at = 0; at < orders.length; at += 500)
      plan = await planPage(run.shopDomain, orders.slice(at, at + 500), plan, context);
    bulkFiles.delete(run.id);
    await prisma.backfillRun.updateMany({
      where: held,
      data: { plan: plan as unknown as Prisma.InputJsonValue, state: "ready", lastError: null, ...release },
    });
    return false;
  }
  const slice = orders.slice(run.listed, run.listed + Math.min(BULK_STEP, Math.max(0, BULK_BACKLOG_MAX - backlog)));
  const counts = await recordOrders(run.shopDomain, run.id, slice, now);
  const all = run.listed + slice.length >= orders.length;
  if (all) bulkFiles.delete(run.id);
  await prisma.backfillRun.updateMany({
    where: held,
    data: {
      listed: { increment: slice.length },
      recorded: { increment: counts.recorded },
      existing: { increment: counts.existing },
      skipped: { increment: counts.skipped },
      lastError: null,
      ...release,
      ...(all ? { listedAllAt: now() } : {}),
    },
  });
  const after = await prisma.backfillRun.findUnique({ where: { id: run.id }, select: { state: true } });
  if (after?.state === "paused") await holdRows(run.id, now());
  return !all;
}

/** A running run whose orders are all read and whose rows have all left the queue is done. */
async function finishIfDone(id: string, now: Date): Promise<void> {
  const left = await prisma.invoice.count({ where: { backfillId: id, state: { in: UNFINISHED } } });
  if (left === 0)
    await prisma.backfillRun.updateMany({
      where: { id, state: "running", listedAllAt: { not: null } },
      data: { state: "done", finishedAt: now },
    });
}

/**
 * The scheduler's step: one page of every run that has pages left (oldest first), and finishing the ones
 * whose invoices are all through. Returns whether any run has pages left (the scheduler comes back at once).
 */
export async function advanceRuns(options: AdvanceOptions): Promise<boolean> {
  const now = options.now ?? (() => new Date());
  const runs = await prisma.backfillRun.findMany({
    // A run of a shop whose Shopify connection is lost waits for it to come back (app/shops/connection.server.ts).
    where: { state: { in: ["counting", "running"] }, shop: { shopifyConnectionLostAt: null } },
    orderBy: { createdAt: "asc" },
    select: { id: true, listedAllAt: true },
    take: 20,
  });
  let more = false;
  for (const run of runs) {
    if (run.listedAllAt) await finishIfDone(run.id, now());
    else if (await advanceRun(run.id, options)) more = true;
  }
  return more;
}

export function holdRows(id: string, now: Date) {
  return prisma.invoice.updateMany({
    where: {
      backfillId: id,
      state: STATE.queued,
      attempts: 0,
      nextAttemptAt: { not: null },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
    },
    data: { nextAttemptAt: null },
  });
}
