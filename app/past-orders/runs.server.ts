// "Invoice past orders" runs. A run reads a date range of the shop's paid orders through the Admin API twice:
//   counting  → the dry run (app/past-orders/plan.ts), page by page; then "ready" for the merchant to start;
//   running   → every paid order without a row is recorded like the bulk action does (queued, priority 1:
//               the worker takes them only into slots no live order wants); once all are read, listedAllAt;
//   done      → every row of the run has left the queue (completed, needs attention or failed).
// "paused" holds the run's rows that were never posted (nextAttemptAt null) and stops the reading; "resume"
// releases them. State, Admin API cursor and counts live on the BackfillRun row, so a reload or a restart
// changes nothing: the worker's scheduler advances runs one page at a time under a lease on the row.
import type { Prisma } from "@prisma/client";
import prisma from "../db.server";
import { logger } from "../logger.server";
import { connectionFrom } from "../settings/settings.server";
import { recordReadOrder } from "../pipeline/enqueue.server";
import { createdBetweenQuery, type OrderPage, type OrderReader } from "../pipeline/order-reader";
import { signalWork } from "../pipeline/signal.server";
import { readMapping } from "../settings/schema";
import { addToPlan, emptyPlan, type Plan, type PlanContext } from "./plan";

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

export const ACTIVE_STATES = ["counting", "ready", "running", "paused"] as const;
export type RunState = (typeof ACTIVE_STATES)[number] | "done" | "failed" | "cancelled";

export type RangeProblem = "invalid" | "order" | "future" | "needs_read_all_orders";

/** Whether Shopify will serve the range to this app: past 60 days it needs read_all_orders. */
export function rangeProblem(from: Date, to: Date, now: Date, scopes: string[]): RangeProblem | null {
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return "invalid";
  if (from >= to) return "order";
  if (from > now) return "future";
  if (now.getTime() - from.getTime() > DAYS_WITHOUT_ALL_ORDERS * DAY_MS && !scopes.includes("read_all_orders")) return "needs_read_all_orders";
  return null;
}

export type RunActionResult = { ok: true; id: string } | { ok: false; reason: "not_found" | "not_allowed" | "busy" | RangeProblem };

/** A new dry run over [from, to). One unfinished run per shop: a dry run not started is replaced. */
export async function startDryRun(shop: string, from: Date, to: Date, scopes: string[], now = new Date()): Promise<RunActionResult> {
  const problem = rangeProblem(from, to, now, scopes);
  if (problem) return { ok: false, reason: problem };
  const busy = await prisma.backfillRun.count({ where: { shopDomain: shop, state: { in: ["running", "paused"] } } });
  if (busy) return { ok: false, reason: "busy" };
  await prisma.backfillRun.updateMany({ where: { shopDomain: shop, state: { in: ["counting", "ready"] } }, data: { state: "cancelled", finishedAt: now } });
  const run = await prisma.backfillRun.create({ data: { shopDomain: shop, fromDate: from, toDate: to, state: "counting", createdAt: now } });
  await signalWork();
  return { ok: true, id: run.id };
}

async function move(shop: string, id: string, from: string[], data: Prisma.BackfillRunUpdateManyMutationInput): Promise<RunActionResult> {
  const moved = await prisma.backfillRun.updateMany({ where: { id, shopDomain: shop, state: { in: from } }, data });
  if (moved.count === 1) return { ok: true, id };
  const exists = await prisma.backfillRun.count({ where: { id, shopDomain: shop } });
  return { ok: false, reason: exists ? "not_allowed" : "not_found" };
}

/** After the dry run: record and invoice the range's orders. */
export async function startRun(shop: string, id: string, now = new Date()): Promise<RunActionResult> {
  const result = await move(shop, id, ["ready"], { state: "running", cursor: null, startedAt: now });
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
    await prisma.invoice.updateMany({ where: { backfillId: id, state: "queued", nextAttemptAt: null }, data: { nextAttemptAt: now } });
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
    where: { backfillId: id, state: "queued", attempts: 0, nextAttemptAt: { not: null }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
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

function takeReadAhead(id: string, state: string, cursor: string | null, reader: OrderReader): Promise<OrderPage> | null {
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

/**
 * One page of one run (counting or running), under the run's lease. Returns whether the run has more to read.
 * Failures of the Admin API leave the cursor where it was: the next step reads the same page again.
 */
export async function advanceRun(id: string, options: AdvanceOptions): Promise<boolean> {
  const now = options.now ?? (() => new Date());
  const start = now();
  const backlog = await prisma.invoice.count({ where: { backfillId: id, state: "queued" } });
  if (backlog >= BACKLOG_MAX) return false;
  const leased = await prisma.backfillRun.updateMany({
    where: { id, state: { in: ["counting", "running"] }, listedAllAt: null, OR: [{ leaseUntil: null }, { leaseUntil: { lt: start } }] },
    data: { leaseOwner: options.owner, leaseUntil: new Date(start.getTime() + LEASE_MS) },
  });
  if (leased.count !== 1) return false;
  const held = { id, leaseOwner: options.owner };
  const run = await prisma.backfillRun.findUniqueOrThrow({ where: { id } });
  const log = logger.child({ shop: run.shopDomain, run: id, state: run.state });
  try {
    const query = createdBetweenQuery(run.fromDate, run.toDate);
    const read = (after: string | null) => options.reader.listOrders(run.shopDomain, { query, after, sortKey: "CREATED_AT" });
    const page = await (takeReadAhead(id, run.state, run.cursor, options.reader) ?? read(run.cursor));
    const more = page.pageInfo.hasNextPage && Boolean(page.pageInfo.endCursor);
    const cursor = more ? page.pageInfo.endCursor : null;
    if (more) readAhead(id, run.state, cursor, options.reader, read(cursor));
    if (run.state === "counting") {
      const { context, testMode } = await planContext(run.shopDomain, start);
      const ids = page.orders.map((order) => String((order as { id?: unknown }).id));
      // Waybill rows have no Shopify order ("waybill-{id}") and never match an order id.
      const recorded = new Map(
        (await prisma.invoice.findMany({ where: { shopDomain: run.shopDomain, orderId: { in: ids }, waybillId: null }, select: { orderId: true, state: true } })).map((row) => [row.orderId, row.state]),
      );
      let plan = (run.plan as Plan | null) ?? emptyPlan(testMode);
      for (const order of page.orders) {
        const shaped = order as Parameters<typeof addToPlan>[1] & { id?: unknown; financial_status?: string | null };
        if (!["paid", "partially_refunded"].includes(shaped.financial_status ?? "paid")) continue;
        plan = addToPlan(plan, shaped, recorded.get(String(shaped.id)) ?? null, context);
      }
      await prisma.backfillRun.updateMany({
        where: held,
        data: { plan: plan as unknown as Prisma.InputJsonValue, cursor, leaseOwner: null, leaseUntil: null, lastError: null, ...(more ? {} : { state: "ready" }) },
      });
      return more;
    }
    let recordedCount = 0;
    let existing = 0;
    let skipped = 0;
    for (const order of page.orders) {
      const outcome = await recordReadOrder(run.shopDomain, order, { source: "past_orders", backfillId: id }, now());
      if (outcome.status === 200 && (outcome.result === "queued" || outcome.result === "cancelled" || outcome.result === "waiting")) recordedCount += 1;
      else if (outcome.status === 200 && outcome.result === "duplicate") existing += 1;
      else skipped += 1;
    }
    await prisma.backfillRun.updateMany({
      where: held,
      data: {
        cursor,
        listed: { increment: page.orders.length },
        recorded: { increment: recordedCount },
        existing: { increment: existing },
        skipped: { increment: skipped },
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
    await prisma.backfillRun.updateMany({ where: held, data: { lastError: message.slice(0, 500), leaseOwner: null, leaseUntil: null } });
    return false;
  }
}

const UNFINISHED = ["queued", "sending", "processing"];

/** A running run whose orders are all read and whose rows have all left the queue is done. */
async function finishIfDone(id: string, now: Date): Promise<void> {
  const left = await prisma.invoice.count({ where: { backfillId: id, state: { in: UNFINISHED } } });
  if (left === 0) await prisma.backfillRun.updateMany({ where: { id, state: "running", listedAllAt: { not: null } }, data: { state: "done", finishedAt: now } });
}

/**
 * The scheduler's step: one page of every run that has pages left (oldest first), and finishing the ones
 * whose invoices are all through. Returns whether any run has pages left (the scheduler comes back at once).
 */
export async function advanceRuns(options: AdvanceOptions): Promise<boolean> {
  const now = options.now ?? (() => new Date());
  const runs = await prisma.backfillRun.findMany({
    where: { state: { in: ["counting", "running"] } },
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
  /** Orders of the run: the dry run's count until every order is read, then the orders read. */
  total: number;
  /** Invoiced (now or before the run), needing attention, failed, still in the queue. */
  done: number;
  needsAttention: number;
  failed: number;
  inQueue: number;
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
}

/** The shop's latest run with its progress, counted over its rows. */
export async function latestRun(shop: string): Promise<RunView | null> {
  const run = await prisma.backfillRun.findFirst({ where: { shopDomain: shop, state: { not: "cancelled" } }, orderBy: { createdAt: "desc" } });
  if (!run) return null;
  const states = await prisma.invoice.groupBy({ by: ["state"], where: { backfillId: run.id }, _count: { _all: true } });
  const count = (names: string[]) => states.filter((row) => names.includes(row.state)).reduce((sum, row) => sum + row._count._all, 0);
  const plan = (run.plan as Plan | null) ?? null;
  const done = count(["completed", "cancelled"]) + run.existing;
  const needsAttention = count(["needs_attention"]);
  const failed = count(["failed"]);
  const inQueue = count([...UNFINISHED, "waiting"]);
  return {
    id: run.id,
    state: run.state as RunState,
    from: run.fromDate.toISOString(),
    to: run.toDate.toISOString(),
    plan,
    progress: {
      total: run.listedAllAt ? done + needsAttention + failed + inQueue : Math.max(plan?.orders ?? 0, done + needsAttention + failed + inQueue),
      done,
      needsAttention,
      failed,
      inQueue,
    },
    listedAll: run.listedAllAt !== null,
    lastError: run.lastError,
    createdAt: run.createdAt.toISOString(),
  };
}
