// "Invoice past orders" runs. A run reads a date range of the shop's paid orders through the Admin API twice:
//   counting  → the dry run (app/past-orders/plan.ts), page by page; then "ready" for the merchant to start;
//   running   → every paid order without a row is recorded like the bulk action does (queued, priority 1:
//               the worker takes them only into slots no live order wants); once all are read, listedAllAt;
//   done      → every row of the run has left the queue (completed, needs attention or failed).
// "paused" holds the run's rows that were never posted (nextAttemptAt null) and stops the reading; "resume"
// releases them. State, Admin API cursor and counts live on the BackfillRun row, so a reload or a restart
// changes nothing: the worker's scheduler advances runs one page at a time under a lease on the row.
// A range of BULK_THRESHOLD orders or more (the dry run's count) is read with one bulk query operation instead
// of pages (app/shopify/bulk-operations.server.ts, docs/decisions/0028-bulk-reading.md): the same orders, recorded the same way, BULK_STEP
// at a time from the file; a bulk read that fails, expires or cannot start falls back to pages.
import type { Prisma } from "#prisma/sqlite";
import prisma from "../db.server";
import { logger } from "../logger.server";
import { connectionFrom } from "../settings/settings.server";
import { BULK_THRESHOLD, bulkReadStatus, followBulkRead, startBulkRead } from "../shopify/bulk-operations.server";
import { recordReadOrder } from "../invoices/enqueue.server";
import { createdBetweenQuery, type BulkReader, type OrderPage, type OrderReader } from "../shopify/order-reader";
import { signalWork } from "../jobs/signal.server";
import { readMapping } from "../settings/schema";
import { addToPlan, emptyPlan, type Plan, type PlanContext } from "./plan";
import { STATE, fromStates } from "../invoice-state/transitions";

/** Without the read_all_orders scope, Shopify serves only the last 60 days of orders. */
export const DAYS_WITHOUT_ALL_ORDERS = 60;
const DAY_MS = 24 * 3_600_000;
const LEASE_MS = 2 * 60_000;
/**
 * A running run reads no further page while this many of its invoices wait in the queue: the queue stays short
 * (a pause holds few rows; a shop's later settings change applies to the rest) and reading Shopify never races
 * far ahead of what the invoicing service can take.
 */
export const BACKLOG_MAX = 200;
/**
 * A run read in bulk has every order in hand already: it records them BULK_STEP at a time, one step after the other
 * (no reading to pace), while fewer than BULK_BACKLOG_MAX wait. Recorded rows are queued with the past-orders
 * priority, which live orders always go ahead of, and the mapping reads the shop's settings when each is posted; a
 * pause holds them all in one statement. With 200 the worker idled whenever it drained the queue within the
 * scheduler's second, and 10,000 orders took 50 steps (bench/results/backfill.md).
 */
export const BULK_STEP = 1_000;
export const BULK_BACKLOG_MAX = 20_000;

export const ACTIVE_STATES = ["counting", "ready", "running", "paused"] as const;
export type RunState = (typeof ACTIVE_STATES)[number] | "done" | "failed" | "cancelled";

export type RangeProblem = "invalid" | "order" | "future" | "needs_read_all_orders";

/** Whether Shopify will serve the range to this app: past 60 days it needs read_all_orders. */
export function rangeProblem(from: Date, to: Date, now: Date, scopes: string[]): RangeProblem | null {
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return "invalid";
  if (from >= to) return "order";
  if (from > now) return "future";
  if (now.getTime() - from.getTime() > DAYS_WITHOUT_ALL_ORDERS * DAY_MS && !scopes.includes("read_all_orders"))
    return "needs_read_all_orders";
  return null;
}

export type RunActionResult =
  { ok: true; id: string } | { ok: false; reason: "not_found" | "not_allowed" | "busy" | "throttled" | RangeProblem };

/** A new dry run over [from, to). One unfinished run per shop: a dry run not started is replaced. */
export async function startDryRun(
  shop: string,
  from: Date,
  to: Date,
  scopes: string[],
  now = new Date(),
): Promise<RunActionResult> {
  const problem = rangeProblem(from, to, now, scopes);
  if (problem) return { ok: false, reason: problem };
  const busy = await prisma.backfillRun.count({ where: { shopDomain: shop, state: { in: ["running", "paused"] } } });
  if (busy) return { ok: false, reason: "busy" };
  await prisma.backfillRun.updateMany({
    where: { shopDomain: shop, state: { in: ["counting", "ready"] } },
    data: { state: "cancelled", finishedAt: now },
  });
  const run = await prisma.backfillRun.create({
    data: { shopDomain: shop, fromDate: from, toDate: to, state: "counting", createdAt: now },
  });
  await signalWork();
  return { ok: true, id: run.id };
}

/** A dry run replaced or discarded is kept this long (well past the lease of a step that may still hold it). */
export const CANCELLED_RUN_KEEP_MS = 10 * 60_000;
/** A dry run never started (counting, ready or failed) is abandoned after this long. */
export const ABANDONED_RUN_MS = 7 * DAY_MS;

/**
 * Removes the runs that were never started: dry runs replaced or discarded, and dry runs left alone for a week.
 * They hold no invoice (a run's invoices are recorded once it starts); a started run stays, with its counts.
 */
export async function pruneAbandonedRuns(now = new Date()): Promise<number> {
  const { count } = await prisma.backfillRun.deleteMany({
    where: {
      startedAt: null,
      OR: [
        { state: "cancelled", updatedAt: { lt: new Date(now.getTime() - CANCELLED_RUN_KEEP_MS) } },
        {
          state: { in: ["counting", "ready", "failed"] },
          updatedAt: { lt: new Date(now.getTime() - ABANDONED_RUN_MS) },
        },
      ],
    },
  });
  if (count) logger.info({ runs: count }, "abandoned past-order dry runs removed");
  return count;
}

async function move(
  shop: string,
  id: string,
  from: string[],
  data: Prisma.BackfillRunUpdateManyMutationInput,
): Promise<RunActionResult> {
  const moved = await prisma.backfillRun.updateMany({ where: { id, shopDomain: shop, state: { in: from } }, data });
  if (moved.count === 1) return { ok: true, id };
  const exists = await prisma.backfillRun.count({ where: { id, shopDomain: shop } });
  return { ok: false, reason: exists ? "not_allowed" : "not_found" };
}

/** After the dry run: record and invoice the range's orders. */
export async function startRun(shop: string, id: string, now = new Date()): Promise<RunActionResult> {
  // The recording phase chooses its own way of reading (from the dry run's count) and reads the orders again.
  const result = await move(shop, id, ["ready"], {
    state: "running",
    cursor: null,
    startedAt: now,
    mode: null,
    bulkOperationId: null,
  });
  if (result.ok) await signalWork();
  return result;
}

/** Stops reading and holds the run's invoices that were never posted; those being posted finish. */
export async function pauseRun(shop: string, id: string, now = new Date()): Promise<RunActionResult> {
  const result = await move(shop, id, ["running"], { state: "paused" });
  if (result.ok) await holdRows(id, now);
  return result;
}

export async function resumeRun(shop: string, id: string, now = new Date()): Promise<RunActionResult> {
  const result = await move(shop, id, ["paused"], { state: "running" });
  if (result.ok) {
    await prisma.invoice.updateMany({
      where: { backfillId: id, state: { in: fromStates("resume") }, nextAttemptAt: null },
      data: { nextAttemptAt: now },
    });
    await signalWork();
  }
  return result;
}

/** A dry run the merchant does not want to start. */
export async function discardRun(shop: string, id: string, now = new Date()): Promise<RunActionResult> {
  return move(shop, id, ["counting", "ready"], { state: "cancelled", finishedAt: now });
}

function holdRows(id: string, now: Date) {
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

const UNFINISHED = [STATE.queued, STATE.sending, STATE.processing];

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

export interface RunProgress {
  /**
   * Orders this run invoices: the preview's "to invoice" until every order is read, then the run's own rows. Orders
   * already invoiced before the run are not among them (`alreadyInvoiced`), so the bar ends where the preview said.
   */
  total: number;
  /** Of the run's own orders: invoiced (or closed by hand), needing no invoice (gift cards only, cancelled or refunded
   * before it was made), needing attention, failed, still in the queue. */
  done: number;
  noInvoice: number;
  needsAttention: number;
  failed: number;
  inQueue: number;
  /** Paid orders of the range the app had invoiced (or recorded) before the run: skipped, not redone. */
  alreadyInvoiced: number;
}

export interface RunView {
  id: string;
  state: RunState;
  from: string;
  to: string;
  plan: Plan | null;
  progress: RunProgress;
  listedAll: boolean;
  lastError: string | null;
  createdAt: string;
  /** How this phase reads: "bulk" (one bulk operation) or "paged"; null until its first step. */
  mode: "bulk" | "paged" | null;
  /** While a bulk operation builds: Shopify's status and the objects it has read so far. */
  bulk: { status: string; objectCount: number } | null;
}

/** The shop's latest run with its progress, counted over its rows. */
export async function latestRun(shop: string): Promise<RunView | null> {
  const run = await prisma.backfillRun.findFirst({
    where: { shopDomain: shop, state: { not: "cancelled" } },
    orderBy: { createdAt: "desc" },
  });
  if (!run) return null;
  const states = await prisma.invoice.groupBy({ by: ["state"], where: { backfillId: run.id }, _count: { _all: true } });
  const count = (names: string[]) =>
    states.filter((row) => names.includes(row.state)).reduce((sum, row) => sum + row._count._all, 0);
  const plan = (run.plan as Plan | null) ?? null;
  // Closed by hand (issued in the panel, no invoice needed) is finished too: never counted as waiting or late.
  const done = count([STATE.completed, STATE.closed]);
  const noInvoice = count([STATE.cancelled]);
  const needsAttention = count([STATE.needs_attention]);
  const failed = count([STATE.failed]);
  const inQueue = count([...UNFINISHED, STATE.waiting]);
  return {
    id: run.id,
    state: run.state as RunState,
    from: run.fromDate.toISOString(),
    to: run.toDate.toISOString(),
    plan,
    progress: {
      total: run.listedAllAt
        ? done + noInvoice + needsAttention + failed + inQueue
        : Math.max(plan?.toInvoice ?? 0, done + noInvoice + needsAttention + failed + inQueue),
      done,
      noInvoice,
      needsAttention,
      failed,
      inQueue,
      alreadyInvoiced: run.existing,
    },
    listedAll: run.listedAllAt !== null,
    lastError: run.lastError,
    createdAt: run.createdAt.toISOString(),
    mode: run.mode === "bulk" || run.mode === "paged" ? run.mode : null,
    bulk: run.bulkOperationId ? await bulkReadStatus(run.bulkOperationId) : null,
  };
}
