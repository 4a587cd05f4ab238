// What the invoice page and the Returns page say about a sale that changed after invoicing, computed from the
// document kind and the dates only (pure, no I/O). The rules and their sources: docs/decisions/0016-after-sale-rules.md.
//   e-Arşiv, whole sale undone, within the cancellation window (8 days)  → cancel it (through the service where it
//                                                                          offers that, else in the vendor's panel)
//   e-Arşiv (a consumer), goods returned                                  → the seller records the return (gider pusulası)
//   e-Fatura (a registered buyer), goods returned                         → the buyer issues its own return (İADE) invoice
// The app never issues an İADE invoice for its own customer's return.
import { ZERO, dec } from "../invoicing-service/money";
import { parseShopifyOrder } from "../orders/order";
import { refundedLinesOf, type RefundedLine, type StoredRefund } from "../orders/refunds";

/** Days after delivery to the recipient within which an e-Arşiv invoice may be cancelled (after-sale-facts.md). */
export const E_ARCHIVE_CANCEL_DAYS = 8;

/**
 * Whether the service offers a cancel call for a formalised invoice. Its public clients show none (only
 * DELETE before formalisation), so the merchant cancels in the vendor's panel and confirms it here.
 */
export const SERVICE_CANCELS_FORMALISED = false;

export type AfterSalePath =
  | { kind: "cancel"; deadline: string; via: "service" | "panel" }
  | { kind: "cancelled_confirmed"; at: string }
  | { kind: "consumer_return" }
  | { kind: "buyer_return_invoice" }
  | { kind: "unknown_document" };

/** A stored refund and what the merchant recorded about it. */
export type RefundInput = StoredRefund & { handling: string | null };

/** A refund as the invoice page shows it: its lines read, its date as ISO. */
export type RefundView = Omit<RefundInput, "refundedAt" | "lineItems"> & { refundedAt: string; lines: RefundedLine[] };

export interface AfterSaleInput {
  state: string;
  documentKind: string | null;
  /** The invoice's issue date (Y-m-d, as sent), when it was posted. */
  issueDate: string | null;
  formalised: boolean;
  cancelledInShop: boolean;
  panelCancelConfirmedAt: Date | null;
  refunds: RefundInput[];
  /** What the invoice came to (the service's grand total), to tell a whole undo from a partial one. */
  invoicedTotal: string | null;
}

export interface AfterSaleView {
  refunds: RefundView[];
  /** What applies to the formalised invoice; null when nothing after the sale touches it. */
  path: AfterSalePath | null;
  /** The whole sale was undone (cancelled, or refunds reach what was invoiced). */
  wholeUndo: boolean;
}

export function refundView(r: RefundInput): RefundView {
  return {
    refundId: r.refundId,
    refundedAt: r.refundedAt.toISOString(),
    lines: refundedLinesOf(r),
    hasLineItems: r.hasLineItems,
    shipping: r.shipping,
    amount: r.amount,
    giftCardAmount: r.giftCardAmount,
    restock: r.restock,
    handling: r.handling,
  };
}

/** Y-m-d plus n days (calendar days, no time zone involved). */
export function addDays(ymd: string, days: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The path for a formalised invoice after a refund or cancellation; `today` is the shop's day (Y-m-d). */
export function afterSalePath(input: AfterSaleInput, today: string): AfterSaleView {
  const refunds = input.refunds.map(refundView);
  const afterFormal = input.refunds.filter((r) => r.handling === "after_formalisation");
  const refundedAfter = afterFormal.reduce((s, r) => s.add(dec(r.amount)), ZERO);
  const wholeUndo =
    input.cancelledInShop ||
    (input.invoicedTotal !== null && refundedAfter.gte(dec(input.invoicedTotal).sub("0.01")) && refundedAfter.gt(0));
  if (input.panelCancelConfirmedAt)
    return {
      refunds,
      wholeUndo,
      path: { kind: "cancelled_confirmed", at: input.panelCancelConfirmedAt.toISOString() },
    };
  const touched = input.formalised && (afterFormal.length > 0 || input.cancelledInShop);
  if (!touched) return { refunds, wholeUndo, path: null };
  if (input.documentKind === "e_invoice") return { refunds, wholeUndo, path: { kind: "buyer_return_invoice" } };
  if (input.documentKind !== "e_archive") return { refunds, wholeUndo, path: { kind: "unknown_document" } };
  if (wholeUndo && input.issueDate) {
    const deadline = addDays(input.issueDate, E_ARCHIVE_CANCEL_DAYS);
    if (today <= deadline)
      return {
        refunds,
        wholeUndo,
        path: { kind: "cancel", deadline, via: SERVICE_CANCELS_FORMALISED ? "service" : "panel" },
      };
  }
  return { refunds, wholeUndo, path: { kind: "consumer_return" } };
}

export interface Reconciliation {
  /** invoice grand total − amount paid. */
  difference: string;
  /** Known reasons, each with the amount it explains (positive: paid but not invoiced). */
  reasons: Array<{ kind: "gift_cards" | "tip" | "refunds_before_invoice"; amount: string }>;
  /** What the reasons leave over; within 0.01 the totals reconcile. */
  unexplained: string;
  reconciled: boolean;
}

/**
 * Explains the difference between the invoice and the amount paid with what the app knows: gift cards sold on
 * the order (not a VAT sale, invoiced when redeemed), a tip (not a sale), and refunds made before invoicing (left
 * off the invoice). Amounts in the order's currency.
 */
export function reconcile(
  orderTotal: string,
  grandTotal: string,
  snapshot: unknown,
  refunds: RefundInput[],
): Reconciliation {
  const difference = dec(grandTotal).sub(dec(orderTotal));
  const reasons: Reconciliation["reasons"] = [];
  const parsed = parseShopifyOrder(snapshot);
  // Refunds already on the order when it was read (its refunds[], in Shopify's current total) were left off the
  // invoice too; a webhook's refunds often carry no transactions, so their value is the order's own difference.
  let onOrder = ZERO;
  const onOrderIds = new Set<string>();
  if (parsed.ok) {
    for (const r of parsed.order.refunds ?? []) if (r.id != null) onOrderIds.add(String(r.id));
    const current = parsed.order.current_total_price;
    if (current != null && dec(parsed.order.total_price).gt(dec(current)))
      onOrder = dec(parsed.order.total_price).sub(dec(current));
  }
  if (parsed.ok) {
    const order = parsed.order;
    const refundedUnits = new Map<string, number>();
    for (const r of refunds)
      for (const l of refundedLinesOf(r))
        refundedUnits.set(l.lineItemId, (refundedUnits.get(l.lineItemId) ?? 0) + l.quantity);
    let giftCards = ZERO;
    for (const item of order.line_items.filter((i) => i.gift_card)) {
      const units = Math.max(0, (item.current_quantity ?? item.quantity) - (refundedUnits.get(String(item.id)) ?? 0));
      const discount = (item.discount_allocations ?? []).reduce((s, a) => s.add(dec(a.amount)), ZERO);
      giftCards = giftCards.add(
        dec(item.price)
          .mul(units)
          .sub(units === item.quantity ? discount : discount.mul(units).div(item.quantity)),
      );
    }
    if (giftCards.gt(0)) reasons.push({ kind: "gift_cards", amount: giftCards.toFixed(2) });
    const tip = dec(order.total_tip_received ?? "0");
    if (tip.gt(0)) reasons.push({ kind: "tip", amount: tip.toFixed(2) });
  }
  // Money given back for goods or shipping before the invoice was issued (those units were not invoiced).
  const before = refunds
    .filter((r) => (r.handling === "before_invoice" || r.handling === "reissued") && !onOrderIds.has(r.refundId))
    .reduce((s, r) => s.add(dec(r.amount)), onOrder);
  if (before.gt(0)) reasons.push({ kind: "refunds_before_invoice", amount: before.toFixed(2) });
  const explained = reasons.reduce((s, r) => s.add(r.amount), ZERO);
  const unexplained = difference.add(explained);
  return {
    difference: difference.toFixed(2),
    reasons,
    unexplained: unexplained.toFixed(2),
    reconciled: unexplained.abs().lte("0.01"),
  };
}
