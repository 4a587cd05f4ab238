// Shopify refunds (REST shape of `refunds/create`, also the elements of an order's `refunds[]`) read into what
// the app keeps of them, and applied to an order so that the invoice shows the order as it stands. Pure: no I/O.
import { z } from "zod";
import { Decimal, ZERO, dec } from "../invoicing-service/money";
import type { ShopifyOrder } from "./order";

const amount = z.union([
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, "decimal amount expected"),
  z
    .number()
    .refine((n) => Number.isFinite(n), "finite number expected")
    .transform((n) => String(n)),
]);
const id = z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]).transform(String);
const text = z.string().nullish();
const moneySet = z
  .looseObject({ shop_money: z.looseObject({ amount }), presentment_money: z.looseObject({ amount }).nullish() })
  .nullish();

const RefundLineItemSchema = z.looseObject({
  line_item_id: id,
  quantity: z.number().int().nonnegative(),
  restock_type: text,
  subtotal: amount.nullish(),
  subtotal_set: moneySet,
  total_tax: amount.nullish(),
  total_tax_set: moneySet,
  line_item: z.looseObject({ title: text, name: text, sku: text, gift_card: z.boolean().nullish() }).nullish(),
});

const AdjustmentSchema = z.looseObject({ kind: text, amount: amount.nullish(), tax_amount: amount.nullish() });

/** Newer API versions list refunded shipping as its own lines besides (or instead of) the adjustment. */
const RefundShippingLineSchema = z.looseObject({ subtotal_amount_set: moneySet, tax_amount_set: moneySet });

export const ShopifyRefundSchema = z.looseObject({
  id,
  order_id: id,
  created_at: z.string().refine((v) => !Number.isNaN(Date.parse(v)), "not a date"),
  processed_at: text,
  restock: z.boolean().nullish(),
  refund_line_items: z.array(RefundLineItemSchema).nullish(),
  transactions: z
    .array(z.looseObject({ kind: text, status: text, gateway: text, amount: amount.nullish(), currency: text }))
    .nullish(),
  order_adjustments: z.array(AdjustmentSchema).nullish(),
  refund_shipping_lines: z.array(RefundShippingLineSchema).nullish(),
});
export type ShopifyRefund = z.infer<typeof ShopifyRefundSchema>;

export interface RefundedLine {
  lineItemId: string;
  name: string;
  sku: string | null;
  quantity: number;
  /** As charged for these units (tax included when the shop's prices include it), and the tax in it. */
  subtotal: string;
  tax: string;
  restockType: string | null;
  giftCard: boolean;
}

/** What the app keeps of one refund (the Refund table's columns). */
export interface RefundFacts {
  refundId: string;
  orderId: string;
  refundedAt: Date;
  currency: string | null;
  lineItems: RefundedLine[];
  hasLineItems: boolean;
  /** Shipping given back, tax included. */
  shipping: string;
  /** Money returned (successful refund transactions). */
  amount: string;
  giftCardAmount: string;
  restock: boolean;
}

const money = (d: Decimal) => d.toFixed(2);
const abs = (v: string | null | undefined) => dec(v ?? "0").abs();

export function parseRefund(payload: unknown): { ok: true; refund: RefundFacts } | { ok: false; error: string } {
  const parsed = ShopifyRefundSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${issue.path.join(".") || "body"}: ${issue.message}` };
  }
  return { ok: true, refund: refundFacts(parsed.data) };
}

export function refundFacts(r: ShopifyRefund): RefundFacts {
  const lineItems: RefundedLine[] = (r.refund_line_items ?? [])
    .filter((l) => l.quantity > 0)
    .map((l) => ({
      lineItemId: l.line_item_id,
      name: l.line_item?.title ?? l.line_item?.name ?? `#${l.line_item_id}`,
      sku: l.line_item?.sku ?? null,
      quantity: l.quantity,
      subtotal: money(abs(l.subtotal_set?.shop_money.amount ?? l.subtotal)),
      tax: money(abs(l.total_tax_set?.shop_money.amount ?? l.total_tax)),
      restockType: l.restock_type ?? null,
      giftCard: l.line_item?.gift_card === true,
    }));
  const refunds = (r.transactions ?? []).filter((t) => t.kind === "refund" && (t.status ?? "success") === "success");
  const amount = refunds.reduce((s, t) => s.add(abs(t.amount)), ZERO);
  const giftCard = refunds.filter((t) => t.gateway === "gift_card").reduce((s, t) => s.add(abs(t.amount)), ZERO);
  return {
    refundId: r.id,
    orderId: r.order_id,
    refundedAt: new Date(r.processed_at ?? r.created_at),
    currency: refunds.find((t) => t.currency)?.currency ?? null,
    lineItems,
    hasLineItems: lineItems.length > 0,
    shipping: money(shippingRefunded(r)),
    amount: money(amount),
    giftCardAmount: money(giftCard),
    restock: r.restock === true || lineItems.some((l) => l.restockType === "return" || l.restockType === "cancel"),
  };
}

/** Shipping given back, tax included: the shipping_refund adjustments, else the refund's shipping lines. */
function shippingRefunded(r: Pick<ShopifyRefund, "order_adjustments" | "refund_shipping_lines">): Decimal {
  const adjusted = (r.order_adjustments ?? [])
    .filter((a) => a.kind === "shipping_refund")
    .reduce((s, a) => s.add(abs(a.amount)).add(abs(a.tax_amount)), ZERO);
  if (!adjusted.isZero()) return adjusted;
  return (r.refund_shipping_lines ?? []).reduce(
    (s, l) => s.add(abs(l.subtotal_amount_set?.shop_money.amount)).add(abs(l.tax_amount_set?.shop_money.amount)),
    ZERO,
  );
}

/** The refund facts as stored (the Refund row), for code that reads them back. */
export interface StoredRefund {
  refundId: string;
  refundedAt: Date;
  lineItems: unknown;
  hasLineItems: boolean;
  shipping: string;
  amount: string;
  giftCardAmount: string;
  restock: boolean;
}

export function refundedLinesOf(stored: Pick<StoredRefund, "lineItems">): RefundedLine[] {
  return Array.isArray(stored.lineItems) ? (stored.lineItems as RefundedLine[]) : [];
}

/**
 * The order as it stands after the refunds the app knows of: refunded units are no longer on it, nor is refunded
 * shipping. Refunds already on the order (its `refunds[]`, reflected in `current_quantity`) count once.
 * An amount-only refund changes no line: the goods were sold; it is listed for the accountant instead.
 */
export function orderAsItStands(order: ShopifyOrder, stored: StoredRefund[]): ShopifyOrder {
  const known = new Set((order.refunds ?? []).map((r) => (r.id == null ? "" : String(r.id))));
  const later = stored.filter((r) => !known.has(r.refundId));
  // Shipping: what every refund (on the order and later) gave back, taken off the shipping lines in order.
  let shippingBack = later.reduce((s, r) => s.add(dec(r.shipping)), ZERO);
  for (const r of order.refunds ?? [])
    shippingBack = shippingBack.add(shippingRefunded(r as Pick<ShopifyRefund, "order_adjustments">));
  if (later.length === 0 && shippingBack.isZero()) return order;

  const laterUnits = new Map<string, number>();
  for (const r of later)
    for (const l of refundedLinesOf(r)) laterUnits.set(l.lineItemId, (laterUnits.get(l.lineItemId) ?? 0) + l.quantity);
  const line_items = order.line_items.map((item) => {
    const more = laterUnits.get(String(item.id)) ?? 0;
    if (more === 0) return item;
    // Before these refunds: current_quantity when Shopify sent it, else the quantity less the order's own refunds.
    const before = item.current_quantity ?? item.quantity - refundedOnOrder(order, item.id);
    return { ...item, current_quantity: Math.max(0, before - more) };
  });

  const shipping_lines = (order.shipping_lines ?? []).map((line) => {
    if (shippingBack.lte(0)) return line;
    const charged = dec(line.discounted_price ?? line.price);
    if (charged.lte(0)) return line;
    const back = Decimal.min(charged, shippingBack);
    shippingBack = shippingBack.sub(back);
    // The kept part, with its tax in the same proportion (and the same in the customer's currency); a fully
    // refunded line is no longer charged.
    const factor = charged.sub(back).div(charged);
    const scale = (v: string) => money(dec(v).mul(factor).toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
    const scaleSet = <T extends { shop_money: { amount: string }; presentment_money: { amount: string } }>(
      set: T | null | undefined,
    ) =>
      set
        ? {
            ...set,
            shop_money: { ...set.shop_money, amount: scale(set.shop_money.amount) },
            presentment_money: { ...set.presentment_money, amount: scale(set.presentment_money.amount) },
          }
        : set;
    const discounted = scaleSet(line.price_set ? { ...line.price_set } : null);
    return {
      ...line,
      price: scale(charged.toFixed(2)),
      // The charged price (after its discounts) becomes the price, with no discount left. The customer's-currency
      // twin is kept only where no discount had to be folded in (else a presentment invoice names the gap).
      price_set: charged.eq(dec(line.price)) ? discounted : null,
      discounted_price: scale(charged.toFixed(2)),
      discount_allocations: [],
      tax_lines: (line.tax_lines ?? []).map((t) => ({ ...t, price: scale(t.price), price_set: scaleSet(t.price_set) })),
    };
  });

  // The adjustments are now reflected (shipping) or listed for the accountant (amount-only): not ignored.
  // Shipping adjustments are now reflected on the shipping line; an amount-only refund keeps its adjustment, so
  // the mapping's "refund adjustments not reflected" warning stays on the invoice (the goods were sold as billed).
  const notShipping = (adjustments: Array<{ kind?: string | null; amount?: string | null }> | null | undefined) =>
    (adjustments ?? []).filter((a) => a.kind !== "shipping_refund");
  const refunds = [
    ...(order.refunds ?? []).map((r) => ({ ...r, order_adjustments: notShipping(r.order_adjustments) })),
    ...later.map((r) => ({
      id: Number(r.refundId),
      created_at: r.refundedAt.toISOString(),
      refund_line_items: [],
      order_adjustments: amountOnly(r) ? [{ kind: "refund_discrepancy", amount: money(dec(r.amount).neg()) }] : [],
    })),
  ];
  return { ...order, line_items, shipping_lines, refunds };
}

/** A refund of money only: no items, no shipping (Shopify gives it no tax split). */
export function amountOnly(r: Pick<StoredRefund, "hasLineItems" | "shipping" | "amount">): boolean {
  return !r.hasLineItems && dec(r.shipping).isZero() && dec(r.amount).gt(0);
}

function refundedOnOrder(order: ShopifyOrder, lineItemId: number): number {
  let units = 0;
  for (const r of order.refunds ?? [])
    for (const l of r.refund_line_items ?? []) if (l.line_item_id === lineItemId) units += l.quantity;
  return units;
}

/**
 * An order that sold gift cards and nothing else (no shipping charged): nothing of it is invoiced now. A gift card is
 * a means of payment, not a sale of goods: its sale is invoiced when the card is spent (issue 36, point 1).
 */
export function giftCardsOnly(order: ShopifyOrder): boolean {
  const shipping = (order.shipping_lines ?? []).reduce((s, l) => s.add(dec(l.discounted_price ?? l.price)), ZERO);
  return order.line_items.length > 0 && order.line_items.every((i) => i.gift_card === true) && shipping.lte(0);
}

/** Whether nothing is left to invoice once the refunds are applied: every non-gift-card unit and all shipping. */
export function fullyRefunded(order: ShopifyOrder): boolean {
  const units = order.line_items
    .filter((i) => !i.gift_card)
    .reduce((s, i) => s + (i.current_quantity ?? i.quantity - refundedOnOrder(order, i.id)), 0);
  const shipping = (order.shipping_lines ?? []).reduce((s, l) => s.add(dec(l.discounted_price ?? l.price)), ZERO);
  return units <= 0 && shipping.lte(0);
}
