// A per-invoice callback from the invoicing service. It only says "something changed": verify it with the
// shop's API key, mark the invoice due for a status read, wake the worker, answer at once. The worker
// re-reads the invoice (GET) and stores what it finds. A callback can therefore not be turned into load:
//   - it must be fresh: its `time` (the service's clock, Istanbul) within CALLBACK_FRESHNESS of ours;
//   - it must carry the shop's team once the app knows it (learned from the service's invoice records);
//   - the same callback (invoice, time, hash) is acted on once (a unique key on its event);
//   - re-reads are coalesced: a callback schedules the read CALLBACK_COALESCE_MS later unless one is due
//     sooner, so a burst of callbacks for one invoice costs one GET.
import { DateTime } from "luxon";
import prisma from "../db.server";
import { parseCallback, verifyCallback } from "../invoicing/callback-signature.server";
import { logger } from "../logger.server";
import { apiKeyFor } from "../settings/settings.server";
import { signalWork } from "./signal.server";

export type CallbackOutcome = { status: 200 | 400 | 401 | 404; body: { ok: boolean; error?: string; ignored?: "stale" | "duplicate" } };

/** How far the callback's `time` may be behind or ahead of our clock (network delay, clock skew). */
export const CALLBACK_FRESHNESS = { maxAgeMs: 15 * 60_000, maxAheadMs: 5 * 60_000 } as const;
/** Callbacks for one invoice within this window cost one status read. */
export const CALLBACK_COALESCE_MS = 2_000;

const NOT_FOUND: CallbackOutcome = { status: 404, body: { ok: false, error: "not found" } };
const INVALID: CallbackOutcome = { status: 401, body: { ok: false, error: "invalid signature" } };

/** The callback's `time` ("Y-m-d H:i:s", the service's clock in Istanbul) as an instant, or null. */
export function callbackInstant(time: string): Date | null {
  const parsed = DateTime.fromFormat(time, "yyyy-MM-dd HH:mm:ss", { zone: "Europe/Istanbul" });
  return parsed.isValid ? parsed.toJSDate() : null;
}

function isFresh(time: string, now: Date): boolean {
  const at = callbackInstant(time);
  if (!at) return false;
  const age = now.getTime() - at.getTime();
  return age <= CALLBACK_FRESHNESS.maxAgeMs && -age <= CALLBACK_FRESHNESS.maxAheadMs;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2002";
}

export async function receiveCallback(invoiceId: string, body: unknown, now = new Date()): Promise<CallbackOutcome> {
  const payload = parseCallback(body);
  if (!payload) return { status: 400, body: { ok: false, error: "malformed callback: invoice_id, team_id, time and hash are required" } };
  const invoice = await prisma.invoice.findUnique({
    where: { id: invoiceId },
    select: { id: true, shopDomain: true, shop: { select: { settings: { select: { teamId: true } } } } },
  });
  if (!invoice) return NOT_FOUND;
  const apiKey = await apiKeyFor(invoice.shopDomain).catch(() => null);
  if (!apiKey || !verifyCallback(payload, apiKey)) {
    logger.warn({ shop: invoice.shopDomain, invoice: invoice.id }, "callback with a bad signature rejected");
    return INVALID;
  }
  const teamId = invoice.shop.settings?.teamId;
  if (teamId != null && Number(payload.team_id) !== teamId) {
    logger.warn({ shop: invoice.shopDomain, invoice: invoice.id, teamId: payload.team_id }, "callback for another team rejected");
    return INVALID;
  }
  // Stale (a replay, or a retry from long ago): nothing to do; the status sync reads the invoice anyway.
  if (!isFresh(payload.time, now)) return { status: 200, body: { ok: true, ignored: "stale" } };

  const remoteId = Number(payload.invoice_id);
  const event = {
    invoiceId: invoice.id,
    type: "callback",
    at: now,
    data: { time: payload.time, invoiceId: remoteId },
    dedupeKey: `callback:${invoice.id}:${remoteId}:${payload.time}:${payload.hash.toLowerCase()}`,
  };
  const readAt = new Date(now.getTime() + CALLBACK_COALESCE_MS);

  // Each step first takes the row's lock with a conditional update, then writes the event, so it cannot
  // interleave with the worker's own finishing transaction (which does the same).
  // The usual case: the callback is about this row's invoice; schedule a status read unless one is due sooner.
  const markDue = () =>
    prisma.$transaction(async (tx) => {
      const mine = await tx.invoice.updateMany({ where: { id: invoice.id, remoteId }, data: { updatedAt: now } });
      if (mine.count !== 1) return false;
      await tx.invoice.updateMany({
        where: { id: invoice.id, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { gt: readAt } }] },
        data: { nextAttemptAt: readAt },
      });
      await tx.invoiceEvent.create({ data: event });
      return true;
    });
  // The service can call back before the worker has stored the id its create returned. While the row is
  // being posted (leased, no remote id yet) the callback is recorded; the worker sees it and re-reads.
  const recordEarly = () =>
    prisma.$transaction(async (tx) => {
      const held = await tx.invoice.updateMany({ where: { id: invoice.id, remoteId: null, leaseUntil: { gt: now } }, data: { updatedAt: now } });
      if (held.count === 1) await tx.invoiceEvent.create({ data: event });
      return held.count === 1;
    });
  try {
    if (!(await markDue())) {
      if (await recordEarly()) return { status: 200, body: { ok: true } };
      // The worker may have stored the remote id between the two steps.
      // A callback about another invoice gets the same answer as an unknown one, revealing nothing.
      if (!(await markDue())) return NOT_FOUND;
    }
  } catch (error) {
    // This very callback was seen already: a replay changes nothing.
    if (isUniqueViolation(error)) return { status: 200, body: { ok: true, ignored: "duplicate" } };
    throw error;
  }
  // Woken workers sleep until the read is due (the earliest nextAttemptAt).
  await signalWork();
  return { status: 200, body: { ok: true } };
}
