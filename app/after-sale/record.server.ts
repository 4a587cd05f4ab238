// What the after-sale webhooks do (refunds/create, orders/edited, and the refunds orders/cancelled carries):
// record the fact once, against the order's invoice row by its key (shop + order id), and wake the worker when an
// invoice at the service may need withdrawing. No network call here (the route answers in milliseconds); deliveries
// may come in any order and repeat: a refund or an edit is stored once by its Shopify id, and the worker applies
// whatever is stored when it posts (docs/decisions/0017-after-sale-data-and-reissue.md).
import { z } from "zod";
import prisma from "../db.server";
import { logger } from "../logger.server";
import { parseRefund, type RefundFacts } from "../orders/refunds";
import { signalWork } from "../jobs/signal.server";
import type { DeliveryMeta } from "../shopify/webhook-response";
import { STATE } from "../invoice-state/transitions";

export type AfterSaleOutcome =
  { status: 200; result: "recorded" | "duplicate" | "unknown_shop" } | { status: 400; error: string };

const code = (error: unknown) => (error as { code?: string } | null)?.code;

async function shopExists(shop: string): Promise<boolean> {
  return (await prisma.shop.findUnique({ where: { domain: shop }, select: { domain: true } })) !== null;
}

/** States in which the invoice is (or may be) at the service and not yet formalised: the worker looks again now. */
const AT_SERVICE_UNFORMALISED: string[] = [STATE.processing, STATE.queued, STATE.needs_attention];

/** Stores one refund; a repeat (same refund id) changes nothing. */
export async function storeRefund(
  shop: string,
  facts: RefundFacts,
  meta: DeliveryMeta,
  now = new Date(),
): Promise<"recorded" | "duplicate" | "unknown_shop"> {
  const row = await prisma.invoice.findUnique({
    where: { shopDomain_orderId: { shopDomain: shop, orderId: facts.orderId } },
  });
  // A refund of a formalised invoice is an after-sale matter from the start (the invoice page shows its path).
  const formalised = row?.state === STATE.completed || (row?.formalStatus === "completed" && row.remoteId !== null);
  try {
    await prisma.refund.create({
      data: {
        shopDomain: shop,
        orderId: facts.orderId,
        refundId: facts.refundId,
        refundedAt: facts.refundedAt,
        currency: facts.currency ?? row?.currency ?? "TRY",
        lineItems: facts.lineItems as unknown as object,
        hasLineItems: facts.hasLineItems,
        shipping: facts.shipping,
        amount: facts.amount,
        giftCardAmount: facts.giftCardAmount,
        restock: facts.restock,
        ...(formalised ? { handling: "after_formalisation", handledAt: now } : {}),
      },
    });
  } catch (error) {
    if (code(error) === "P2002") return "duplicate";
    if (code(error) === "P2003") return "unknown_shop";
    throw error;
  }
  if (row) {
    await prisma.invoiceEvent.create({
      data: {
        invoiceId: row.id,
        type: "refund",
        at: now,
        message: `refund ${facts.refundId}: ${facts.amount}`,
        data: { topic: meta.topic, refundId: facts.refundId, amount: facts.amount },
      },
    });
    // Posted, not known to be formalised: the worker reads it now and withdraws or re-issues it while it may.
    if (row.remoteId !== null && !formalised && AT_SERVICE_UNFORMALISED.includes(row.state)) {
      await prisma.invoice.updateMany({ where: { id: row.id, remoteId: { not: null } }, data: { nextAttemptAt: now } });
      await signalWork();
    }
    if (!formalised) await settleOnClosedRow(row.id, shop, facts.orderId, now);
  }
  return "recorded";
}

/**
 * A refund that reaches a row already closed with nothing at the service (its invoice withdrawn, or none ever
 * issued) is settled here: no worker looks at that row again. Read after the refund is stored, so a worker that
 * closes the row meanwhile (orders/cancelled records the cancellation before the refunds it carries) is seen.
 */
async function settleOnClosedRow(invoiceId: string, shop: string, orderId: string, now: Date): Promise<void> {
  const row = await prisma.invoice.findUnique({ where: { id: invoiceId }, select: { state: true, remoteId: true } });
  if (row?.state !== STATE.cancelled || row.remoteId !== null) return;
  const withdrawn = await prisma.invoiceEvent.findFirst({
    where: { invoiceId, type: "withdrawn" },
    select: { id: true },
  });
  await prisma.refund.updateMany({
    where: { shopDomain: shop, orderId, handling: null },
    data: { handling: withdrawn ? "withdrawn" : "no_invoice", handledAt: now },
  });
}

/** refunds/create. */
export async function recordRefund(
  shop: string,
  payload: unknown,
  meta: DeliveryMeta,
  now = new Date(),
): Promise<AfterSaleOutcome> {
  const parsed = parseRefund(payload);
  if (!parsed.ok) return { status: 400, error: parsed.error };
  if (!(await shopExists(shop))) return { status: 200, result: "unknown_shop" };
  const result = await storeRefund(shop, parsed.refund, meta, now);
  logger.info({ shop, orderId: parsed.refund.orderId, refundId: parsed.refund.refundId, result }, "refund recorded");
  return { status: 200, result };
}

/** The refunds an orders/cancelled payload carries (Shopify's refund for the cancellation), stored like refunds/create. */
export async function recordRefundsOf(
  shop: string,
  order: { refunds?: unknown },
  meta: DeliveryMeta,
  now = new Date(),
): Promise<void> {
  if (!Array.isArray(order.refunds)) return;
  for (const refund of order.refunds) {
    const parsed = parseRefund(refund);
    if (parsed.ok) await storeRefund(shop, parsed.refund, meta, now);
  }
}

const OrderEditSchema = z.looseObject({
  order_edit: z.looseObject({
    id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]).transform(String),
    order_id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]).transform(String),
    created_at: z.string().refine((v) => !Number.isNaN(Date.parse(v)), "not a date"),
    committed_at: z.string().nullish(),
  }),
});

/**
 * orders/edited: the order's stored snapshot is stale. Recorded once per edit; before posting the worker reads
 * the order again through the Admin API. An edit after posting is noted on the invoice's trail.
 */
export async function recordOrderEdit(
  shop: string,
  payload: unknown,
  meta: DeliveryMeta,
  now = new Date(),
): Promise<AfterSaleOutcome> {
  const parsed = OrderEditSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { status: 400, error: `${issue.path.join(".") || "body"}: ${issue.message}` };
  }
  const edit = parsed.data.order_edit;
  if (!(await shopExists(shop))) return { status: 200, result: "unknown_shop" };
  const committed =
    edit.committed_at && !Number.isNaN(Date.parse(edit.committed_at)) ? edit.committed_at : edit.created_at;
  try {
    await prisma.orderEdit.create({
      data: { shopDomain: shop, orderId: edit.order_id, editId: edit.id, committedAt: new Date(committed) },
    });
  } catch (error) {
    if (code(error) === "P2002") return { status: 200, result: "duplicate" };
    if (code(error) === "P2003") return { status: 200, result: "unknown_shop" };
    throw error;
  }
  const row = await prisma.invoice.findUnique({
    where: { shopDomain_orderId: { shopDomain: shop, orderId: edit.order_id } },
    select: { id: true, remoteId: true },
  });
  if (row) {
    await prisma.invoiceEvent.create({
      data: {
        invoiceId: row.id,
        type: "edited",
        at: now,
        message:
          row.remoteId === null
            ? "order edited in Shopify; read again before posting"
            : "order edited in Shopify after the invoice was posted",
        data: {
          topic: meta.topic,
          editId: edit.id,
          note: row.remoteId === null ? "edited_before_post" : "edited_after_post",
        },
      },
    });
  }
  logger.info({ shop, orderId: edit.order_id, editId: edit.id }, "order edit recorded");
  return { status: 200, result: "recorded" };
}
