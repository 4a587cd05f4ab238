// A per-invoice callback from the invoicing service. It only says "something changed": verify it with
// the shop's API key, mark the invoice due for a status read, wake the worker, answer at once. The worker
// re-reads the invoice (GET) and stores what it finds, so repeated callbacks are harmless.
import prisma from "../db.server";
import { parseCallback, verifyCallback } from "../invoicing/callback.server";
import { logger } from "../logger.server";
import { apiKeyFor } from "../settings/settings.server";
import { signalWork } from "./signal.server";

export type CallbackOutcome = { status: 200 | 400 | 401 | 404; body: { ok: boolean; error?: string } };

const NOT_FOUND: CallbackOutcome = { status: 404, body: { ok: false, error: "not found" } };

export async function receiveCallback(invoiceId: string, body: unknown, now = new Date()): Promise<CallbackOutcome> {
  const payload = parseCallback(body);
  if (!payload) return { status: 400, body: { ok: false, error: "malformed callback: invoice_id, team_id, time and hash are required" } };
  const invoice = await prisma.invoice.findUnique({ where: { id: invoiceId }, select: { id: true, shopDomain: true } });
  if (!invoice) return NOT_FOUND;
  const apiKey = await apiKeyFor(invoice.shopDomain);
  if (!apiKey || !verifyCallback(payload, apiKey)) {
    logger.warn({ shop: invoice.shopDomain, invoice: invoice.id }, "callback with a bad signature rejected");
    return { status: 401, body: { ok: false, error: "invalid signature" } };
  }
  const remoteId = Number(payload.invoice_id);
  const event = { invoiceId: invoice.id, type: "callback", at: now, data: { time: payload.time, invoiceId: remoteId } };

  // Each step first takes the row's lock with a conditional update, then writes the event, so it cannot
  // interleave with the worker's own finishing transaction (which does the same).
  // The usual case: the callback is about this row's invoice; mark it due for a status read.
  const markDue = () =>
    prisma.$transaction(async (tx) => {
      const due = await tx.invoice.updateMany({ where: { id: invoice.id, remoteId }, data: { nextAttemptAt: now } });
      if (due.count === 1) await tx.invoiceEvent.create({ data: event });
      return due.count === 1;
    });
  // The service can call back before the worker has stored the id its create returned. While the row is
  // being posted (leased, no remote id yet) the callback is recorded; the worker sees it and re-reads.
  const recordEarly = () =>
    prisma.$transaction(async (tx) => {
      const held = await tx.invoice.updateMany({ where: { id: invoice.id, remoteId: null, leaseUntil: { gt: now } }, data: { updatedAt: now } });
      if (held.count === 1) await tx.invoiceEvent.create({ data: event });
      return held.count === 1;
    });
  if (!(await markDue())) {
    if (await recordEarly()) return { status: 200, body: { ok: true } };
    // The worker may have stored the remote id between the two steps.
    // A callback about another invoice gets the same answer as an unknown one, revealing nothing.
    if (!(await markDue())) return NOT_FOUND;
  }
  await signalWork();
  return { status: 200, body: { ok: true } };
}
