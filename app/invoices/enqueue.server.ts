// What the order webhooks do: record, in one statement, the order's Invoice row with its snapshot, and
// wake the worker. No network call and no mapping here: the route must answer in milliseconds, and a
// crash after the answer loses nothing because the row is the job.
import type { Prisma } from "#prisma/sqlite";
import prisma, { hot } from "../db.server";
import { logger } from "../logger.server";
import { customerNameOf, isPaid, parseEnvelope, type OrderEnvelope } from "../shopify/webhook-envelope";
import { foldForSearch } from "../i18n/search-fold";
import { problem } from "../problems";
import { orderSnapshot } from "../orders/order";
import { signalWork } from "../jobs/signal.server";
import { PRIORITY } from "./states";
import { STATE, fromStates, targetOf, type InvoiceState } from "../invoice-state/transitions";
import type { DeliveryMeta, WebhookOutcome } from "../shopify/webhook-response";
import { DEFAULT_TRIGGER } from "../settings/schema";

/** A shop that never installed the app gets no rows (and no Shop row); the delivery is only recorded. */
const UNKNOWN_SHOP = { status: 200, result: "unknown_shop" } as const;

/** Where an order read through the Admin API (not brought by a webhook) came from. */
export type ReadOrderSource = "reconciliation" | "past_orders" | "bulk_action";

export interface ReadOrderMeta {
  source: ReadOrderSource;
  /** The past-orders run recording it: its rows are claimed after live ones (priority 1). */
  backfillId?: string;
  /** The caller wakes the workers once for the orders it records together (`signalWork`), not once per order. */
  batched?: boolean;
}

/** The shop's invoicing trigger, or null when the shop never installed the app (no Shop row). */
async function triggerOf(shop: string): Promise<string | null> {
  const stored = await hot().shopTrigger(shop);
  return stored && (stored.trigger ?? DEFAULT_TRIGGER);
}

/**
 * Every order delivery starts here: the order's envelope and the shop's trigger, or the answer already decided: 400
 * for a body that is not an order, "unknown_shop" for a shop that never installed the app.
 */
async function receive(
  shop: string,
  payload: unknown,
): Promise<{ ok: true; envelope: OrderEnvelope; trigger: string } | { ok: false; outcome: WebhookOutcome }> {
  const parsed = parseEnvelope(payload);
  if (!parsed.ok) return { ok: false, outcome: { status: 400, error: parsed.error } };
  const trigger = await triggerOf(shop);
  if (trigger === null) return { ok: false, outcome: UNKNOWN_SHOP };
  return { ok: true, envelope: parsed.envelope, trigger };
}

function rowData(
  shop: string,
  order: OrderEnvelope,
  payload: unknown,
  state: InvoiceState,
  meta: DeliveryMeta,
  now: Date,
  read?: ReadOrderMeta,
) {
  return {
    shopDomain: shop,
    orderId: String(order.id),
    orderName: order.name,
    orderCreatedAt: new Date(order.created_at),
    customerId: order.customer?.id != null ? String(order.customer.id) : null,
    customerName: customerNameOf(order),
    customerSearch: foldForSearch(customerNameOf(order)),
    orderTotal: order.total_price,
    currency: order.currency,
    orderSnapshot: orderSnapshot(payload) as Prisma.InputJsonValue,
    state,
    nextAttemptAt: state === STATE.queued ? now : null,
    ...(read?.backfillId ? { backfillId: read.backfillId, priority: PRIORITY.pastOrders } : {}),
    events: {
      createMany: {
        data: [
          read
            ? {
                type: "received",
                at: now,
                message: READ_MESSAGES[read.source],
                data: { source: read.source, backfillId: read.backfillId ?? null },
              }
            : { type: "received", at: now, data: { topic: meta.topic, webhookId: meta.webhookId ?? null } },
          { type: state, at: now },
        ],
      },
    },
  } satisfies Prisma.InvoiceUncheckedCreateInput;
}

/** The states a new row can start in: the targets of the events from "new". */
type NewRowState = ReturnType<typeof targetOf<"record" | "record_waiting" | "record_cancelled">>;

/**
 * An order seen first now: its row in `state`, unless one exists for this shop and order (a repeated delivery
 * changes nothing: "duplicate"). Never creates a shop: a shop removed meanwhile (shop/redact) gives "unknown_shop".
 * One prepared INSERT … ON CONFLICT DO NOTHING and the events, in one transaction (app/db/hot.server.ts): every
 * webhook takes this path. A queued row wakes the workers, unless the caller wakes them once for a batch.
 */
async function recordNew(
  shop: string,
  order: OrderEnvelope,
  payload: unknown,
  state: NewRowState,
  meta: DeliveryMeta,
  now: Date,
  read?: ReadOrderMeta,
): Promise<WebhookOutcome> {
  const { events, ...values } = rowData(shop, order, payload, state, meta, now, read);
  const created = await hot().insertInvoice(values, events.createMany.data);
  const ids = { shop, orderId: String(order.id) };
  if (created === "unknown_shop") return UNKNOWN_SHOP;
  if (created === "duplicate") {
    logger.debug(ids, "order already recorded; delivery ignored");
    return { status: 200, result: "duplicate" };
  }
  if (state === STATE.queued && !read?.batched) await signalWork();
  logger.info(
    { ...ids, order: order.name, state, ...(read ? { source: read.source } : {}) },
    read ? "order recorded from the Admin API" : "order recorded",
  );
  return { status: 200, result: state };
}

const READ_MESSAGES: Record<ReadOrderSource, string> = {
  reconciliation: "found by reconciliation: no webhook brought this order",
  past_orders: 'recorded by an "invoice past orders" run',
  bulk_action: "invoiced from Shopify's order list (bulk action)",
};

/** Fully fulfilled, as orders/fulfilled would have said. */
function isFulfilled(payload: unknown): boolean {
  const order = payload as {
    fulfillment_status?: string | null;
    fulfillments?: Array<{ status?: string | null }> | null;
  };
  if (order.fulfillment_status != null) return order.fulfillment_status === "fulfilled";
  return (order.fulfillments ?? []).some((fulfillment) => (fulfillment.status ?? "success") === "success");
}

function isCancelled(payload: unknown): boolean {
  return Boolean((payload as { cancelled_at?: string | null }).cancelled_at);
}

export type ReadOrderOutcome = WebhookOutcome | { status: 200; result: "not_paid" };

/**
 * An order read through the Admin API, recorded exactly as its webhooks would have recorded it: one row per shop
 * and order (a row that exists, from a webhook or an earlier pass, makes this a "duplicate" and changes nothing;
 * a webhook arriving later finds this row and is a duplicate too). What state it gets:
 * - reconciliation follows the shop's trigger like orders/paid and orders/fulfilled together would: "paid" queues,
 *   "fulfilled" queues a fulfilled order and keeps another waiting, "manual" waits; a cancelled order is recorded
 *   cancelled, as orders/cancelled does for an order it has not seen;
 * - a past-orders run and the bulk action are the merchant's own "invoice these", like "Invoice now": queued.
 * Unpaid orders get no row ("not_paid").
 */
export async function recordReadOrder(
  shop: string,
  payload: unknown,
  read: ReadOrderMeta,
  now = new Date(),
): Promise<ReadOrderOutcome> {
  const received = await receive(shop, payload);
  if (!received.ok) return received.outcome;
  const { envelope, trigger } = received;
  if (!isPaid(envelope)) return { status: 200, result: "not_paid" };
  const merchantAsked = read.source !== "reconciliation";
  const state = targetOf(
    isCancelled(payload)
      ? "record_cancelled"
      : merchantAsked || trigger === "paid" || (trigger === "fulfilled" && isFulfilled(payload))
        ? "record"
        : "record_waiting",
  );
  return recordNew(shop, envelope, payload, state, { topic: read.source }, now, read);
}

/** orders/paid: queue the invoice (trigger "paid"), or record it to wait for its trigger. */
export async function recordPaidOrder(
  shop: string,
  payload: unknown,
  meta: DeliveryMeta,
  now = new Date(),
): Promise<WebhookOutcome> {
  const received = await receive(shop, payload);
  if (!received.ok) return received.outcome;
  const { envelope, trigger } = received;
  const state = targetOf(trigger === "paid" ? "record" : "record_waiting");
  return recordNew(shop, envelope, payload, state, meta, now);
}

/**
 * orders/fulfilled: with the trigger "on fulfilment", a waiting row gets the fulfilled snapshot (it carries
 * the carrier) and is queued; a paid order seen first now is recorded and queued.
 */
export async function recordFulfilledOrder(
  shop: string,
  payload: unknown,
  meta: DeliveryMeta,
  now = new Date(),
): Promise<WebhookOutcome> {
  const received = await receive(shop, payload);
  if (!received.ok) return received.outcome;
  const { envelope, trigger } = received;
  if (trigger !== "fulfilled" || !isPaid(envelope)) return { status: 200, result: "ignored" };
  const orderId = String(envelope.id);
  const updated = await prisma.invoice.updateMany({
    where: { shopDomain: shop, orderId, state: { in: fromStates("trigger") } },
    data: {
      state: targetOf("trigger"),
      nextAttemptAt: now,
      orderSnapshot: orderSnapshot(payload) as Prisma.InputJsonValue,
    },
  });
  if (updated.count === 1) {
    const row = await prisma.invoice.findUniqueOrThrow({
      where: { shopDomain_orderId: { shopDomain: shop, orderId } },
      select: { id: true },
    });
    await prisma.invoiceEvent.create({
      data: { invoiceId: row.id, type: "queued", at: now, data: { topic: meta.topic } },
    });
    await signalWork();
    return { status: 200, result: "queued" };
  }
  return recordNew(shop, envelope, payload, targetOf("record"), meta, now);
}

/**
 * orders/cancelled: before invoicing, the job is cancelled (and a cancellation that arrives before
 * orders/paid leaves a row that keeps the later paid delivery from queuing). After invoicing, the legal
 * invoice stays; the merchant is asked to decide (cancelling it is their call, in the invoicing panel).
 * A row that was posted at least once without a known outcome may have an invoice at the service: the worker
 * looks it up first (no network call here), links one it finds and asks the merchant, else cancels the row.
 */
export async function recordCancelledOrder(
  shop: string,
  payload: unknown,
  meta: DeliveryMeta,
  now = new Date(),
): Promise<WebhookOutcome> {
  const received = await receive(shop, payload);
  if (!received.ok) return received.outcome;
  const { envelope } = received;
  const orderId = String(envelope.id);
  const notPosting = {
    shopDomain: shop,
    orderId,
    remoteId: null,
    state: { in: fromStates("cancel") },
    OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
  };
  const neverPosted = await prisma.invoice.updateMany({
    where: { ...notPosting, attempts: 0 },
    data: { state: targetOf("cancel"), nextAttemptAt: null, cancelledInShop: true },
  });
  const maybePosted =
    neverPosted.count === 1
      ? { count: 0 }
      : await prisma.invoice.updateMany({
          where: { ...notPosting, attempts: { gt: 0 } },
          data: { state: targetOf("cancel_ask_service"), nextAttemptAt: now, cancelledInShop: true },
        });
  const existing = await prisma.invoice.findUnique({ where: { shopDomain_orderId: { shopDomain: shop, orderId } } });
  if (neverPosted.count === 1 && existing) {
    await prisma.invoiceEvent.create({
      data: { invoiceId: existing.id, type: "cancelled", at: now, data: { topic: meta.topic } },
    });
    return { status: 200, result: "cancelled" };
  }
  if (maybePosted.count === 1 && existing) {
    await prisma.invoiceEvent.create({
      data: {
        invoiceId: existing.id,
        type: "queued",
        at: now,
        message: "order cancelled in Shopify; asking the service whether an earlier attempt created an invoice",
        data: { topic: meta.topic, note: "cancelled_asking_service" },
      },
    });
    await signalWork();
    return { status: 200, result: "marked" };
  }
  if (!existing) return recordNew(shop, envelope, payload, targetOf("record_cancelled"), meta, now);
  if (existing.cancelledInShop) return { status: 200, result: "duplicate" };
  // Formalised: the invoice stays; the merchant is told what applies (the invoice page's after-sale view).
  // At the service but not formalised: the worker reads it now and deletes it while the service allows it
  // (app/after-sale/before-posting.server.ts). Being posted right now: marked; the worker decides after the post.
  const atService = existing.remoteId !== null;
  const formalised = atService && (existing.state === STATE.completed || existing.formalStatus === "completed");
  await prisma.invoice.update({
    where: { id: existing.id },
    data: {
      cancelledInShop: true,
      ...(formalised
        ? {
            state: targetOf("cancel_formalised"),
            problems: [problem("invoice.cancelled_after_invoicing")] as unknown as Prisma.InputJsonValue,
          }
        : {}),
      ...(atService && !formalised ? { nextAttemptAt: now } : {}),
      events: {
        create: {
          type: formalised ? "needs_attention" : "cancelled",
          at: now,
          message:
            atService && !formalised
              ? "order cancelled in Shopify; its invoice is deleted at the service if not yet formalised"
              : null,
          data: { topic: meta.topic, ...(atService && !formalised ? { note: "cancelled_deleting" } : {}) },
        },
      },
    },
  });
  if (atService && !formalised) await signalWork();
  return { status: 200, result: "marked" };
}
