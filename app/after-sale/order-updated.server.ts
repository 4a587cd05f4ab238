// orders/updated: Shopify sends it for every change of an order, the app's own tags and metafields included. Only a
// change of what the invoice's recipient and taxes depend on (app/orders/buyer-facts.ts) of an invoice that is not
// done yet makes work:
//   needs_attention (nothing at the service yet)  queued again, ORDER_UPDATE_DEBOUNCE_MS from now, marked to read the
//                                                  order through the Admin API before posting;
//   queued that way, not yet taken                 pushed on by the same delay (the merchant is still editing);
//   waiting                                        marked to read the order again when it is invoiced.
// The body is only the signal: what is posted is the order as the Admin API has it then (a replayed or late body
// changes nothing it says). The same row is queued: the row is the job, so there is never a second invoice; a row
// posted before goes through the worker's lookup of that earlier post first. Everything else is "ignored".
import prisma from "../db.server";
import { buyerFactsChanged } from "../orders/buyer-facts";
import { orderSnapshot } from "../orders/order";
import type { DeliveryMeta, WebhookOutcome } from "../shopify/webhook-response";
import { parseEnvelope } from "../shopify/webhook-envelope";
import { STATE, nextState } from "../invoice-state/transitions";

/** Quiet time after the last change before the order is read and the invoice tried again. */
export const ORDER_UPDATE_DEBOUNCE_MS = 15_000;

const free = (now: Date) => ({ OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] });

export async function recordUpdatedOrder(
  shop: string,
  payload: unknown,
  meta: DeliveryMeta,
  now = new Date(),
): Promise<WebhookOutcome> {
  const parsed = parseEnvelope(payload);
  if (!parsed.ok) return { status: 400, error: parsed.error };
  const orderId = String(parsed.envelope.id);
  // One indexed read (shop, order) without the snapshot: most updates are of orders whose invoice is done or never existed.
  const row = await prisma.invoice.findUnique({
    where: { shopDomain_orderId: { shopDomain: shop, orderId } },
    select: {
      id: true,
      state: true,
      remoteId: true,
      refreshOrder: true,
      cancelledInShop: true,
      waybillId: true,
      isTest: true,
      attempts: true,
    },
  });
  if (!row || row.remoteId !== null || row.cancelledInShop || row.waybillId !== null || row.isTest)
    return { status: 200, result: "ignored" };
  const debounced = row.state === STATE.queued && row.refreshOrder;
  if (row.state !== STATE.needs_attention && row.state !== STATE.waiting && !debounced)
    return { status: 200, result: "ignored" };
  const stored = await prisma.invoice.findUnique({ where: { id: row.id }, select: { orderSnapshot: true } });
  if (!stored || !buyerFactsChanged(stored.orderSnapshot, orderSnapshot(payload)))
    return { status: 200, result: "ignored" };

  const due = new Date(now.getTime() + ORDER_UPDATE_DEBOUNCE_MS);
  const where = { id: row.id, shopDomain: shop, state: row.state, remoteId: null, ...free(now) };
  const updated = await prisma.invoice.updateMany({
    where,
    data:
      row.state === STATE.waiting
        ? { refreshOrder: true }
        : row.state === STATE.needs_attention
          ? {
              state: nextState(row.state, "order_updated"),
              nextAttemptAt: due,
              refreshOrder: true,
              problems: [],
              lastError: null,
              attempts: Math.min(row.attempts, 1),
            }
          : { nextAttemptAt: due },
  });
  if (updated.count !== 1) return { status: 200, result: "ignored" };
  // The history names the change once; the pushes of a debounce are not worth a line each.
  if (!debounced) {
    await prisma.invoiceEvent.create({
      data: {
        invoiceId: row.id,
        type: "order_updated",
        at: now,
        data: {
          topic: meta.topic,
          webhookId: meta.webhookId ?? null,
          retryAt: row.state === STATE.needs_attention ? due.toISOString() : null,
        },
      },
    });
  }
  return { status: 200, result: row.state === STATE.waiting ? "marked" : STATE.queued };
}
