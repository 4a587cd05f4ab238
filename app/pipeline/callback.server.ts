// A per-invoice callback from the invoicing service. It only says "something changed": verify it with
// the shop's API key, mark the invoice due for a status read, wake the worker, answer at once. The worker
// re-reads the invoice (GET) and stores what it finds, so repeated callbacks are harmless.
import prisma from "../db.server";
import { parseCallback, verifyCallback } from "../invoicing/callback.server";
import { logger } from "../logger.server";
import { apiKeyFor } from "../settings/settings.server";
import { signalWork } from "./signal.server";

export type CallbackOutcome = { status: 200 | 400 | 401 | 404; body: { ok: boolean; error?: string } };

export async function receiveCallback(invoiceId: string, body: unknown, now = new Date()): Promise<CallbackOutcome> {
  const payload = parseCallback(body);
  if (!payload) return { status: 400, body: { ok: false, error: "malformed callback: invoice_id, team_id, time and hash are required" } };
  const invoice = await prisma.invoice.findUnique({ where: { id: invoiceId }, select: { id: true, shopDomain: true, remoteId: true } });
  // Unknown invoice, or a callback about another invoice: the same answer, revealing nothing.
  if (!invoice || invoice.remoteId === null || invoice.remoteId !== Number(payload.invoice_id)) {
    return { status: 404, body: { ok: false, error: "not found" } };
  }
  const apiKey = await apiKeyFor(invoice.shopDomain);
  if (!apiKey || !verifyCallback(payload, apiKey)) {
    logger.warn({ shop: invoice.shopDomain, invoice: invoice.id }, "callback with a bad signature rejected");
    return { status: 401, body: { ok: false, error: "invalid signature" } };
  }
  await prisma.$transaction([
    prisma.invoice.update({ where: { id: invoice.id }, data: { nextAttemptAt: now } }),
    prisma.invoiceEvent.create({ data: { invoiceId: invoice.id, type: "callback", at: now, data: { time: payload.time } } }),
  ]);
  await signalWork();
  return { status: 200, body: { ok: true } };
}
