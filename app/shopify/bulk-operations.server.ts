// Bulk query operations the app runs at Shopify for large reads (past-orders runs, reconciliation of a long gap):
// started at most as many at once per shop as the API version allows, followed to their end by the
// bulk_operations/finish webhook (recordBulkFinish) and, should it never come, by polling `node(id:)` with a
// backoff that ends, then the file read once (a failed download is tried once more). Each step is short and
// leaves its state on the BulkOperation row, so the worker's scheduler comes back to it and a restart loses
// nothing. Why bulk and how: docs/decisions/0028-bulk-reading.md.
import { z } from "zod";
import prisma from "../db.server";
import { logger } from "../logger.server";
import type { BulkReader } from "./order-reader";
import type { DeliveryOutcome } from "./webhook-response";

/** A range with at least this many orders is read in bulk (fewer are read faster page by page). */
export const BULK_THRESHOLD = 250;
/** Polling: first after 2 s, doubling to once a minute; an operation not finished in 2 h is given up (paging then). */
export const POLL_FIRST_MS = 2_000;
export const POLL_CAP_MS = 60_000;
export const BULK_MAX_WAIT_MS = 2 * 3_600_000;
/** Downloads of one file before it is given up (a cut connection is tried once more). */
export const MAX_DOWNLOADS = 2;

export const RUNNING = ["CREATED", "RUNNING"];
const FINAL = ["COMPLETED", "FAILED", "EXPIRED", "CANCELED"];

export type BulkStep =
  | { state: "waiting"; objectCount: number }
  | { state: "ready"; orders: unknown[] }
  | { state: "failed"; reason: string };

/** The shop's bulk operations still running (as last known), counted against the API version's limit. */
export async function runningBulkOperations(shop: string, now: Date): Promise<number> {
  // A row nobody followed to its end (its run was discarded, the webhook was lost) stops counting after the longest wait.
  return prisma.bulkOperation.count({
    where: { shopDomain: shop, status: { in: RUNNING }, createdAt: { gt: new Date(now.getTime() - BULK_MAX_WAIT_MS) } },
  });
}

/** Starts a bulk read of the orders matching `query`, or says why not (the caller reads page by page instead). */
export async function startBulkRead(
  reader: BulkReader,
  shop: string,
  purpose: "past_orders" | "reconciliation",
  runId: string | null,
  query: string,
  now: Date,
): Promise<{ ok: true; id: string } | { ok: false; reason: string }> {
  const running = await runningBulkOperations(shop, now);
  if (running >= reader.atOnce)
    return {
      ok: false,
      reason: `${running} bulk operations of this shop are running, as many as Shopify allows at once`,
    };
  const started = await reader.start(shop, query);
  if (!started.ok)
    return {
      ok: false,
      reason: `Shopify did not start the bulk operation (${started.code ?? "refused"}: ${started.message})`,
    };
  const row = await prisma.bulkOperation.create({
    data: {
      shopDomain: shop,
      operationId: started.id,
      purpose,
      runId,
      status: "CREATED",
      nextPollAt: new Date(now.getTime() + POLL_FIRST_MS),
      createdAt: now,
    },
  });
  return { ok: true, id: row.id };
}

const pollDelay = (polls: number) => Math.min(POLL_CAP_MS, POLL_FIRST_MS * 2 ** polls);

/**
 * One step of following a bulk read: not yet (asked again after the backoff, or at once after the webhook), its
 * orders, or why it cannot give them (failed, expired, cancelled, given up, its file unreadable twice).
 */
export async function followBulkRead(reader: BulkReader, id: string, now: Date): Promise<BulkStep> {
  const row = await prisma.bulkOperation.findUnique({ where: { id } });
  if (!row) return { state: "failed", reason: "the bulk operation is not known" };
  const fail = async (reason: string, status?: string) => {
    await prisma.bulkOperation.updateMany({
      where: { id },
      data: { ...(status ? { status } : {}), finishedAt: row.finishedAt ?? now },
    });
    return { state: "failed" as const, reason };
  };
  if (RUNNING.includes(row.status)) {
    if (now.getTime() - row.createdAt.getTime() > BULK_MAX_WAIT_MS)
      return fail(`the bulk operation did not finish within ${BULK_MAX_WAIT_MS / 3_600_000} h`, "CANCELED");
    if (row.nextPollAt && row.nextPollAt > now) return { state: "waiting", objectCount: row.objectCount };
  } else if (!FINAL.includes(row.status)) return fail(`the bulk operation is ${row.status}`);
  else if (row.status !== "COMPLETED")
    return fail(`the bulk operation ended ${row.status}${row.errorCode ? ` (${row.errorCode})` : ""}`);

  // Running and due, or completed (the webhook says so but carries no file address): ask Shopify.
  const state = await reader.status(row.shopDomain, row.operationId);
  if (!state) return fail("Shopify does not know the bulk operation", "CANCELED");
  const running = RUNNING.includes(state.status) || state.status === "CANCELING";
  await prisma.bulkOperation.updateMany({
    where: { id },
    data: {
      status: state.status === "CANCELING" ? "RUNNING" : state.status,
      errorCode: state.errorCode,
      objectCount: state.objectCount,
      polls: { increment: 1 },
      nextPollAt: running ? new Date(now.getTime() + pollDelay(row.polls)) : null,
      ...(running ? {} : { finishedAt: row.finishedAt ?? now }),
    },
  });
  if (running) return { state: "waiting", objectCount: state.objectCount };
  if (state.status !== "COMPLETED" || !state.url)
    return {
      state: "failed",
      reason: `the bulk operation ended ${state.status}${state.errorCode ? ` (${state.errorCode})` : ""}`,
    };
  try {
    return { state: "ready", orders: await reader.download(row.shopDomain, state.url) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const tried = row.downloads + 1;
    await prisma.bulkOperation.updateMany({ where: { id }, data: { downloads: tried } });
    logger.warn(
      { shop: row.shopDomain, operation: row.operationId, tried, err: error },
      "reading a bulk operation's file failed",
    );
    if (tried >= MAX_DOWNLOADS)
      return { state: "failed", reason: `the bulk operation's file could not be read (${message.slice(0, 200)})` };
    return { state: "waiting", objectCount: state.objectCount };
  }
}

/** What the app reads of the operation's row for a page (the progress of a run reading in bulk). */
export async function bulkReadStatus(id: string): Promise<{ status: string; objectCount: number } | null> {
  const row = await prisma.bulkOperation.findUnique({ where: { id }, select: { status: true, objectCount: true } });
  return row ? { status: row.status, objectCount: row.objectCount } : null;
}

const FinishPayload = z.object({
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/BulkOperation\/\d+$/),
  status: z.string(),
  error_code: z.string().nullable().optional(),
  type: z.string().optional(),
});

/**
 * bulk_operations/finish: an operation of this shop may have ended. The delivery only makes the next step of whatever
 * reads it ask Shopify at once: the status it carries is not taken (a signed body of an earlier operation sent again,
 * or one for another shop's address, must not fail a run), Shopify's own answer to `node(id:)` is (issue 35, point 7).
 * Only a running operation of the delivery's own shop is touched; any other changes nothing.
 */
export async function recordBulkFinish(shop: string, payload: unknown, now = new Date()): Promise<DeliveryOutcome> {
  const parsed = FinishPayload.safeParse(payload);
  if (!parsed.success)
    return { status: 400, error: `not a bulk_operations/finish payload (${parsed.error.issues[0]?.path.join(".")})` };
  const status = parsed.data.status.toUpperCase();
  if (!FINAL.includes(status)) return { status: 400, error: `unknown bulk operation status ${parsed.data.status}` };
  const updated = await prisma.bulkOperation.updateMany({
    where: { shopDomain: shop, operationId: parsed.data.admin_graphql_api_id, status: { in: RUNNING } },
    data: { nextPollAt: now },
  });
  return { status: 200, result: updated.count ? "recorded" : "unknown_operation" };
}
