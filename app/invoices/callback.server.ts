// A per-invoice callback from the invoicing service. It only says "something changed": verify it with the
// shop's API key, mark the invoice due for a status read, wake the worker, answer at once. The worker
// re-reads the invoice (GET) and stores what it finds. A callback can therefore not be turned into load:
//   - it must be fresh: its `time` (the service's clock, Istanbul) within CALLBACK_FRESHNESS of ours;
//   - it must carry the shop's team once the app knows it (learned from the service's invoice records);
//   - the same callback (invoice, time, hash) is recorded once (a unique key on its event); again, it only
//     schedules a coalesced read while the invoice is processing (two status changes within one second look alike);
//   - re-reads are coalesced: a callback schedules the read CALLBACK_COALESCE_MS later unless one is due
//     sooner, so a burst of callbacks for one invoice costs one GET.
import { DateTime } from "luxon";
import { hot } from "../db.server";
import { parseCallback, verifyCallback } from "../invoicing-service/callback-signature.server";
import { logger } from "../logger.server";
import { TURKEY_ZONE } from "../orders/dates";
import { decryptSecret } from "../secrets/crypto.server";
import { signalWork } from "../jobs/signal.server";

export type CallbackOutcome = {
  status: 200 | 400 | 401 | 404;
  body: { ok: boolean; error?: string; ignored?: "stale" | "duplicate" };
};

/** How far the callback's `time` may be behind or ahead of our clock (network delay, clock skew). */
export const CALLBACK_FRESHNESS = { maxAgeMs: 15 * 60_000, maxAheadMs: 5 * 60_000 } as const;
/** Callbacks for one invoice within this window cost one status read. */
export const CALLBACK_COALESCE_MS = 2_000;

const NOT_FOUND: CallbackOutcome = { status: 404, body: { ok: false, error: "not found" } };
const INVALID: CallbackOutcome = { status: 401, body: { ok: false, error: "invalid signature" } };

// Built once: fromFormat tokenises its format on every call (luxon's own advice for many dates of one format).
const CALLBACK_TIME = DateTime.buildFormatParser("yyyy-MM-dd HH:mm:ss");

/**
 * The last times read, as epoch ms (NaN: not a time). The time has whole seconds and the service sends the
 * callbacks of a busy second together, while luxon's zone arithmetic costs about 15 µs a call.
 */
const recentInstants = new Map<string, number>();
const RECENT_INSTANTS = 64;

/** The callback's `time` ("Y-m-d H:i:s", the service's clock in Istanbul) as an instant, or null. */
export function callbackInstant(time: string): Date | null {
  let ms = recentInstants.get(time);
  if (ms === undefined) {
    const parsed = DateTime.fromFormatParser(time, CALLBACK_TIME, { zone: TURKEY_ZONE });
    ms = parsed.isValid ? parsed.toMillis() : NaN;
    if (recentInstants.size >= RECENT_INSTANTS) recentInstants.delete(recentInstants.keys().next().value!);
    recentInstants.set(time, ms);
  }
  return Number.isNaN(ms) ? null : new Date(ms);
}

function isFresh(time: string, now: Date): boolean {
  const at = callbackInstant(time);
  if (!at) return false;
  const age = now.getTime() - at.getTime();
  return age <= CALLBACK_FRESHNESS.maxAgeMs && -age <= CALLBACK_FRESHNESS.maxAheadMs;
}

function tryDecrypt(encrypted: string, shop: string): string | null {
  try {
    return decryptSecret(encrypted, shop);
  } catch {
    return null;
  }
}

/** A callback's answer from its body's text: the same for the Remix route and the production server's direct path. */
export async function answerCallback(invoiceId: string, text: string): Promise<CallbackOutcome> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { status: 400, body: { ok: false, error: "body must be JSON" } };
  }
  return receiveCallback(invoiceId, body);
}

export async function receiveCallback(invoiceId: string, body: unknown, now = new Date()): Promise<CallbackOutcome> {
  const payload = parseCallback(body);
  if (!payload)
    return {
      status: 400,
      body: { ok: false, error: "malformed callback: invoice_id, team_id, time and hash are required" },
    };
  // One prepared read of the row, its shop's team and key (app/db/hot.server.ts).
  const invoice = await hot().callbackTarget(invoiceId);
  if (!invoice) return NOT_FOUND;
  const apiKey = invoice.apiKeyEncrypted ? tryDecrypt(invoice.apiKeyEncrypted, invoice.shopDomain) : null;
  if (!apiKey || !verifyCallback(payload, apiKey)) {
    logger.warn({ shop: invoice.shopDomain, invoice: invoice.id }, "callback with a bad signature rejected");
    return INVALID;
  }
  const teamId = invoice.teamId;
  if (teamId != null && Number(payload.team_id) !== teamId) {
    logger.warn(
      { shop: invoice.shopDomain, invoice: invoice.id, teamId: payload.team_id },
      "callback for another team rejected",
    );
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

  // One transaction of prepared statements (app/db/hot.server.ts): the usual case, the callback is about this
  // row's invoice, schedules a status read unless one is due sooner; while the row is being posted (leased, no
  // remote id yet) the callback is only recorded, and the worker sees it and re-reads. Each step takes the row's
  // lock with a conditional update first, so it cannot interleave with the worker's finishing transaction.
  const marked = await hot().markCallback(invoice.id, remoteId, event, readAt, now);
  // This very (invoice, time, hash) was seen already. It is a replay, or a second notification of the same second:
  // the service sends one per status change (spec, Events) and `time` has whole seconds, so the second may be the
  // final status. While the invoice is still processing it costs one coalesced status read and no event; otherwise
  // nothing.
  if (marked === "duplicate") {
    if (await scheduleRead(invoice.id, remoteId, readAt)) await signalWork();
    return { status: 200, body: { ok: true, ignored: "duplicate" } };
  }
  // A callback about another invoice gets the same answer as an unknown one, revealing nothing.
  if (marked === "not_found") return NOT_FOUND;
  if (marked === "early") return { status: 200, body: { ok: true } };
  // Woken workers sleep until the read is due (the earliest nextAttemptAt).
  await signalWork();
  return { status: 200, body: { ok: true } };
}

/** A status read of a processing invoice at `readAt` unless one is due sooner; true when one was scheduled. */
async function scheduleRead(id: string, remoteId: number, readAt: Date): Promise<boolean> {
  // A prepared statement (app/db/hot.server.ts): a status change in the same second as the last comes often.
  return hot().scheduleRead(id, remoteId, readAt);
}
