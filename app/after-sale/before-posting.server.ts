// The worker's part of the after-sale rules (docs/decisions/0016-after-sale-rules.md, 0017-after-sale-data-and-reissue.md):
//   before posting    an edited order is read again (Admin API); stored refunds are applied; nothing left → no invoice;
//   posted, not yet   the invoice no longer matches the order: delete it at the service while the service allows
//   formalised        (formal_status pending or failed); a cancelled or fully refunded order then ends `cancelled`,
//                     a partially refunded one is posted again for the kept lines (delete and re-issue);
//   formalised        nothing is changed at the service; the refunds are marked for the invoice page's after-sale view.
import type { Prisma } from "#prisma/sqlite";
import prisma, { hot } from "../db.server";
import { dec } from "../invoicing-service/money";
import { orderSnapshot, parseShopifyOrder, type ShopifyOrder } from "../orders/order";
import { amountOnly, fullyRefunded, orderAsItStands, refundedLinesOf, type StoredRefund } from "../orders/refunds";

/** Reads one order through the Admin API, in the REST shape the mapping reads (app/shopify readOrder). */
export type ReadOrder = (shop: string, orderId: string) => Promise<unknown>;

export type RefundRow = Prisma.RefundGetPayload<object>;

/** The order's refunds, oldest first: a prepared read (every job reads them; app/db/hot.server.ts). */
export async function refundsOf(shop: string, orderId: string): Promise<RefundRow[]> {
  return hot().refundsOf(shop, orderId);
}

/**
 * An order edited since its snapshot is read again before posting: the fresh order replaces the snapshot and the
 * edits are marked read. When the read fails, the invoice must wait (never post the old order).
 */
export async function refreshEditedOrder(
  row: { id: string; shopDomain: string; orderId: string; leaseOwner: string | null },
  readOrder: ReadOrder,
  now: Date,
): Promise<{ ok: true; snapshot?: unknown } | { ok: false; reason: string; cause?: unknown }> {
  const edits = await prisma.orderEdit.findMany({
    where: { shopDomain: row.shopDomain, orderId: row.orderId, readAt: null },
    select: { id: true },
  });
  if (edits.length === 0) return { ok: true };
  let fresh: unknown;
  try {
    fresh = await readOrder(row.shopDomain, row.orderId);
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof Error ? error.message.slice(0, 300) : String(error),
      cause: error,
    };
  }
  const parsed = parseShopifyOrder(fresh);
  if (!parsed.ok || String(parsed.order.id) !== row.orderId)
    return { ok: false, reason: "the order read again is not this order" };
  const snapshot = orderSnapshot(fresh);
  const stored = await prisma.invoice.updateMany({
    where: { id: row.id, leaseOwner: row.leaseOwner },
    data: { orderSnapshot: snapshot as Prisma.InputJsonValue },
  });
  if (stored.count !== 1) return { ok: false, reason: "lease lost" };
  await prisma.orderEdit.updateMany({ where: { id: { in: edits.map((e) => e.id) } }, data: { readAt: now } });
  return { ok: true, snapshot };
}

/** Refunds as the pure code reads them. */
export function storedRefunds(rows: RefundRow[]): StoredRefund[] {
  return rows.map((r) => ({
    refundId: r.refundId,
    refundedAt: r.refundedAt,
    lineItems: r.lineItems,
    hasLineItems: r.hasLineItems,
    shipping: r.shipping,
    amount: r.amount,
    giftCardAmount: r.giftCardAmount,
    restock: r.restock,
  }));
}

/** The order as it stands after the stored refunds, and whether anything is left to invoice. */
export function standing(
  snapshot: unknown,
  refunds: RefundRow[],
): { order: ShopifyOrder; nothingLeft: boolean } | null {
  const parsed = parseShopifyOrder(snapshot);
  if (!parsed.ok) return null;
  const order = orderAsItStands(parsed.order, storedRefunds(refunds));
  return { order, nothingLeft: fullyRefunded(order) };
}

/** Whether a refund changes what is invoiced: items other than gift cards, or shipping. */
export function changesInvoice(refund: RefundRow): boolean {
  return refundedLinesOf(refund).some((l) => !l.giftCard && l.quantity > 0) || dec(refund.shipping).gt(0);
}

/** What a refund that does not change the invoiced lines is, for the trail and the Returns page. */
export function handlingWithoutChange(refund: RefundRow): "amount_only" | "no_effect" {
  return amountOnly(refund) ? "amount_only" : "no_effect";
}
