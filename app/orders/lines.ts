// Invoice lines from the order: which items are invoiced, their VAT rate, what the customer paid for them
// (the target the rounding must reproduce) and the discount to show, net of VAT.
import { Decimal, ZERO, dec, round2 } from "../invoicing-service/money";
import type { AmountSide } from "./currency";
import { pick } from "./currency";
import { hasTaxLines } from "./abroad";
import type { ShopifyLineItem, ShopifyOrder, ShopifyShippingLine, ShopifyTaxLine } from "./order";
import { problem, type Problem } from "../problems";
import { VAT_RATES, type MappingSettings } from "../settings/schema";
import { clean } from "./text";

export interface LineDraft {
  kind: "item" | "shipping";
  id: string;
  name: string;
  sku?: string;
  quantity: number;
  /** "20" */
  rate: string;
  /** Paid for these units, VAT included, 2 decimals. */
  target: Decimal;
  /** Discount to show on the invoice line, net of VAT, 2 decimals. */
  discount: Decimal;
  requiresShipping: boolean;
}

export interface DraftResult {
  drafts: LineDraft[];
  errors: Problem[];
  warnings: Problem[];
  notes: string[];
  /** Paid for gift cards and tips (left off the invoice), on the invoice's currency side. */
  excluded: Decimal;
}

type Money = { plain: string; set?: Parameters<typeof pick>[1] };

export interface DraftOptions {
  /** Every line at 0 %: an export on which the shop collected no tax (abroad.ts). */
  zeroRate?: boolean;
}

export function draftLines(
  order: ShopifyOrder,
  settings: MappingSettings,
  side: AmountSide,
  options: DraftOptions = {},
): DraftResult {
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  const notes: string[] = [];
  let missingSide = false;
  const amount = (m: Money): Decimal => {
    const value = pick(m.plain, m.set, side);
    if (value === null) missingSide = true;
    return value ?? ZERO;
  };
  const sumAmounts = (items: Array<{ amount: string; amount_set?: Money["set"] }> | null | undefined) =>
    (items ?? []).reduce((s, a) => s.add(amount({ plain: a.amount, set: a.amount_set })), ZERO);

  const shipping = order.shipping_lines ?? [];
  const items = order.line_items;
  // Shops that keep VAT out of Shopify's tax settings have no tax lines anywhere: then the settings decide.
  const orderHasTaxLines = hasTaxLines(order);
  const zeroRate = options.zeroRate === true;
  const pricesIncludeVat = orderHasTaxLines ? order.taxes_included === true : settings.pricesIncludeVat;
  if (!orderHasTaxLines && !zeroRate && !settings.pricesIncludeVat)
    warnings.push(problem("order.vat_added_to_prices", { rate: settings.defaultTaxRate }, "warning"));

  const refunded = new Map<number, number>();
  for (const refund of order.refunds ?? []) {
    for (const r of refund.refund_line_items ?? [])
      refunded.set(r.line_item_id, (refunded.get(r.line_item_id) ?? 0) + r.quantity);
    if ((refund.order_adjustments ?? []).some((a) => !dec(a.amount).isZero())) {
      if (!warnings.some((w) => w.code === "order.refund_adjustments_ignored"))
        warnings.push(problem("order.refund_adjustments_ignored", undefined, "warning"));
    }
  }

  const rateOf = (taxLines: ShopifyTaxLine[] | null | undefined, label: string): string | null => {
    if (zeroRate) return "0";
    if (!orderHasTaxLines) return settings.defaultTaxRate;
    const rate = (taxLines ?? []).reduce((s, t) => s.add(dec(t.rate).mul(100)), ZERO);
    const text = rate.toDecimalPlaces(4).toString();
    if ((VAT_RATES as readonly string[]).includes(text)) return text;
    errors.push(problem("line.unsupported_tax_rate", { line: label, rate: text }));
    return null;
  };

  /** Target and net discount of `quantity` out of `ordered` units. */
  const price = (
    unit: Decimal,
    quantity: number,
    ordered: number,
    discountAll: Decimal,
    taxAll: Decimal,
    hasTaxLines: boolean,
    rate: string,
  ): { target: Decimal; discount: Decimal } => {
    // Stryker disable next-line ConditionalExpression: for all units the share is round2(d × q / q) = d, as Shopify's amounts have 2 decimals.
    const share = (d: Decimal) => (quantity === ordered ? d : round2(d.mul(quantity).div(ordered)));
    const discount = share(discountAll);
    const base = unit.mul(quantity).sub(discount);
    const r = new Decimal(rate);
    if (pricesIncludeVat) return { target: round2(base), discount: round2(discount.mul(100).div(r.add(100))) };
    const tax = hasTaxLines ? share(taxAll) : round2(base.mul(r).div(100));
    return { target: round2(base.add(tax)), discount: round2(discount) };
  };

  const drafts: LineDraft[] = [];
  let giftCards = ZERO;
  const tip = isTipLine(order);
  for (const item of items) {
    const remaining = remainingQuantity(item, refunded);
    const label = lineName(item);
    if (tip(item)) {
      const paid = amount({ plain: item.price, set: item.price_set }).mul(item.quantity);
      giftCards = giftCards.add(paid);
      notes.push(
        `Tip "${label}" (${paid.toFixed(2)}) is not a sale of goods or services and was left off the invoice.`,
      );
      continue;
    }
    if (item.gift_card) {
      if (remaining > 0) {
        const paid = amount({ plain: item.price, set: item.price_set })
          .mul(remaining)
          .sub(sumAmounts(item.discount_allocations));
        giftCards = giftCards.add(paid);
        notes.push(
          `Gift card "${label}" (${remaining} × ${amount({ plain: item.price, set: item.price_set }).toFixed(2)}) is not a VAT sale and was left off the invoice.`,
        );
      }
      continue;
    }
    if (remaining <= 0) continue;
    const rate = rateOf(item.tax_lines, label);
    if (rate === null) continue;
    const taxAll = sumAmounts((item.tax_lines ?? []).map((t) => ({ amount: t.price, amount_set: t.price_set })));
    const { target, discount } = price(
      amount({ plain: item.price, set: item.price_set }),
      remaining,
      item.quantity,
      sumAmounts(item.discount_allocations),
      taxAll,
      (item.tax_lines ?? []).length > 0,
      rate,
    );
    if (target.isNegative()) {
      errors.push(problem("line.negative_amount", { line: label, amount: target.toFixed(2) }));
      continue;
    }
    drafts.push({
      kind: "item",
      id: String(item.variant_id ?? item.product_id ?? `line-${item.id}`),
      name: label,
      sku: clean(item.sku),
      quantity: remaining,
      rate,
      target,
      discount,
      requiresShipping: item.requires_shipping !== false,
    });
  }

  for (const line of shipping) {
    const unit = amount({ plain: line.price, set: line.price_set });
    if (unit.lte(0)) continue; // free shipping is not a sale
    const label = shippingName(line);
    const rate = rateOf(line.tax_lines, label);
    if (rate === null) continue;
    const allocated = sumAmounts(line.discount_allocations);
    const discountAll =
      allocated.isZero() && line.discounted_price && side === "shop_money"
        ? Decimal.max(unit.sub(dec(line.discounted_price)), ZERO)
        : allocated;
    const taxAll = sumAmounts((line.tax_lines ?? []).map((t) => ({ amount: t.price, amount_set: t.price_set })));
    const { target, discount } = price(unit, 1, 1, discountAll, taxAll, (line.tax_lines ?? []).length > 0, rate);
    if (target.isNegative()) {
      errors.push(problem("line.negative_amount", { line: label, amount: target.toFixed(2) }));
      continue;
    }
    drafts.push({
      kind: "shipping",
      id: "shipping",
      name: label,
      quantity: 1,
      rate,
      target,
      discount,
      requiresShipping: false,
    });
  }

  if (missingSide)
    errors.push(problem("order.currency_rate_unavailable", { currency: order.presentment_currency ?? order.currency }));
  return { drafts, errors, warnings, notes, excluded: giftCards };
}

/**
 * Shopify records a tip as a line item without product or variant (REST has no line type), and the order's
 * `total_tip_received` says how much. Only such a line, named like a tip, is taken for the tip.
 */
function isTipLine(order: ShopifyOrder): (item: ShopifyLineItem) => boolean {
  const tip = dec(order.total_tip_received);
  // Stryker disable next-line ArrowFunction: () => undefined is as falsy as () => false where the predicate is used.
  if (!tip.gt(0)) return () => false;
  return (item) =>
    item.product_id == null &&
    item.variant_id == null &&
    !item.gift_card &&
    /^(tip|bahşiş|bahsis)$/i.test(item.title.trim()) &&
    dec(item.price).mul(item.quantity).eq(tip);
}

export function remainingQuantity(item: ShopifyLineItem, refunded: Map<number, number>): number {
  if (item.current_quantity !== null && item.current_quantity !== undefined) return item.current_quantity;
  return Math.max(0, item.quantity - (refunded.get(item.id) ?? 0));
}

export function lineName(item: ShopifyLineItem): string {
  const title = clean(item.title) ?? clean(item.name) ?? "Ürün";
  const variant = clean(item.variant_title);
  return variant && variant !== "Default Title" ? `${title} - ${variant}` : title;
}

function shippingName(line: ShopifyShippingLine): string {
  const title = clean(line.title);
  return title ? `Kargo: ${title}` : "Kargo";
}
