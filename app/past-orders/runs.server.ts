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
import { signalWork } from "../jobs/signal.server";
import { fromStates } from "../invoice-state/transitions";
import { DAY_MS, rangeProblem, type RangeProblem } from "./run-rules";
import { holdRows } from "./advance.server";

// The run's rules (run-rules.ts), steps (advance.server.ts) and view (progress.server.ts) live beside this file, which
// keeps the merchant's actions; callers and tests take all of them from here.
export * from "./run-rules";
export { advanceRun, advanceRuns, type AdvanceOptions } from "./advance.server";
export { latestRun, type RunProgress, type RunView } from "./progress.server";

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
