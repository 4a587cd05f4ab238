// Generated Shopify orders of the shapes real orders have and our fixtures lack (see
// test/orders/mapping-shapes.property.test.ts), with what their customer paid computed independently of the mapping.
import fc from "fast-check";
import { Decimal, ZERO, dec } from "../../app/invoicing-service/money";
import type { MappingContext } from "../../app/orders/map-order";
import { MappingSettingsSchema } from "../../app/settings/schema";

const r2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => new Decimal(c).div(100));

/** Tax lines of one line: the rate, whole or split in two as Shopify lists several taxes (their sum is the rate). */
const taxSplitArb = fc.constantFrom<string[]>(
  ["0.2"],
  ["0.2"],
  ["0.1"],
  ["0.01"],
  ["0"],
  ["0.1", "0.1"],
  ["0.18", "0.02"],
  ["0.08", "0.02"],
  ["0.15", "0.05"],
);
const TEXT = ["Çiçekli Şal", "Ğüşİöç ıİ", "Kahve ☕ seti", "👩‍👩‍👧 Aile paketi", "İstanbul’dan özel ürün"];
const nameArb = fc.oneof(
  fc.constantFrom(...TEXT),
  fc.tuple(fc.constantFrom(...TEXT), fc.integer({ min: 5, max: 40 })).map(([t, n]) => `${t} `.repeat(n).trim()),
);

const lineArb = fc.record({
  quantity: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 5 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 100_000 }) },
  ),
  // 0-priced lines, a small set of prices (duplicate-priced lines), cent prices that put tax on a half kuruş, and any price.
  price: fc.oneof(
    fc.constant(ZERO),
    fc.constantFrom(...["0.25", "0.05", "9.99", "33.33", "99.99"].map(dec)),
    cents(1, 500_000),
  ),
  taxes: taxSplitArb,
  discountPercent: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 100 }) },
  ),
  name: nameArb,
  kind: fc.constantFrom("item", "item", "item", "item", "gift_card"),
});

const shippingArb = fc.record({
  price: fc.oneof(fc.constant(ZERO), cents(1, 30_000)),
  taxes: fc.constantFrom<string[]>(["0.2"], ["0.1", "0.1"], ["0"]),
  discountPercent: fc.constantFrom(0, 0, 30, 100),
});

export const orderArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 8 }),
  shipping: fc.array(shippingArb, { maxLength: 3 }),
  taxesIncluded: fc.boolean(),
  /** Shop money per unit of the paid (presentment) currency; null: paid in TRY. */
  fx: fc.option(fc.constantFrom("34.5678", "1.0003", "0.2291", "37.1"), { nil: null }),
  invoiceIn: fc.constantFrom("shop", "presentment"),
  tip: fc.option(cents(100, 5_000), { nil: null }),
  customer: fc.constantFrom("known", "known", "guest"),
  address: fc.constantFrom("both", "both", "billing", "shipping", "none"),
  longAddress: fc.boolean(),
});
export type Generated = typeof orderArb extends fc.Arbitrary<infer T> ? T : never;

/** A Shopify payload and what the customer paid for the invoiceable items, on the invoice's currency side. */
export function shopifyOrder(g: Generated, index: number) {
  const fx = g.fx === null ? null : dec(g.fx);
  const presentment = g.fx === null ? "TRY" : "EUR";
  // Amounts are generated in the paid currency; Shopify converts each amount to shop money on its own.
  const toShop = (p: Decimal) => (fx === null ? p : r2(p.mul(fx)));
  const money = (p: Decimal) => ({
    plain: toShop(p).toFixed(2),
    set: {
      shop_money: { amount: toShop(p).toFixed(2), currency_code: "TRY" },
      presentment_money: { amount: p.toFixed(2), currency_code: presentment },
    },
  });
  const side = g.invoiceIn === "presentment" && fx !== null ? "presentment" : "shop";
  const onSide = (p: Decimal) => (side === "presentment" ? p : toShop(p));
  let paid = ZERO; // invoiced items, on the invoice's side
  let paidAll = ZERO; // everything, in the paid currency
  const priced = (price: Decimal, quantity: number, taxes: string[], percent: number) => {
    const gross = price.mul(quantity);
    const discount = r2(gross.mul(percent).div(100));
    const base = gross.sub(discount);
    const total = taxes.reduce((s, r) => s.add(dec(r)), ZERO);
    const taxLines = taxes.map((r) => ({
      rate: r,
      tax: g.taxesIncluded ? r2(base.mul(dec(r)).div(total.add(1))) : r2(base.mul(dec(r))),
    }));
    // Each side is Shopify's own: amounts converted one by one, then added.
    const sideBase = onSide(price).mul(quantity).sub(onSide(discount));
    const sideTax = taxLines.reduce((s, t) => s.add(onSide(t.tax)), ZERO);
    return {
      discount,
      taxLines,
      paidOnSide: g.taxesIncluded ? sideBase : sideBase.add(sideTax),
      paidHere: g.taxesIncluded ? base : base.add(taxLines.reduce((s, t) => s.add(t.tax), ZERO)),
    };
  };
  const taxLinesOf = (lines: Array<{ rate: string; tax: Decimal }>) =>
    lines.map((t) => ({ title: "KDV", rate: Number(t.rate), price: money(t.tax).plain, price_set: money(t.tax).set }));
  const line_items: unknown[] = g.lines.map((l, i) => {
    const giftCard = l.kind === "gift_card";
    const { discount, taxLines, paidOnSide, paidHere } = priced(
      l.price,
      l.quantity,
      giftCard ? [] : l.taxes,
      giftCard ? 0 : l.discountPercent,
    );
    if (!giftCard) paid = paid.add(paidOnSide);
    paidAll = paidAll.add(paidHere);
    return {
      id: 1000 + i,
      variant_id: 2000 + i,
      product_id: 3000 + i,
      title: l.name,
      variant_title: null,
      sku: `S${i}`,
      quantity: l.quantity,
      current_quantity: l.quantity,
      price: money(l.price).plain,
      price_set: money(l.price).set,
      discount_allocations: discount.gt(0)
        ? [{ amount: money(discount).plain, amount_set: money(discount).set, discount_application_index: 0 }]
        : [],
      tax_lines: taxLinesOf(taxLines),
      requires_shipping: !giftCard,
      gift_card: giftCard,
    };
  });
  if (g.tip) {
    paidAll = paidAll.add(g.tip);
    line_items.push({
      id: 1999,
      variant_id: null,
      product_id: null,
      title: "Tip",
      variant_title: null,
      sku: null,
      quantity: 1,
      current_quantity: 1,
      price: money(g.tip).plain,
      price_set: money(g.tip).set,
      discount_allocations: [],
      tax_lines: [],
      requires_shipping: false,
      gift_card: false,
    });
  }
  const shipping_lines = g.shipping.map((s, i) => {
    const { discount, taxLines, paidOnSide, paidHere } = priced(s.price, 1, s.taxes, s.discountPercent);
    paid = paid.add(paidOnSide);
    paidAll = paidAll.add(paidHere);
    return {
      id: 500 + i,
      title: `Kargo ${i + 1} 🚚`,
      price: money(s.price).plain,
      price_set: money(s.price).set,
      discounted_price: money(s.price.sub(discount)).plain,
      tax_lines: taxLinesOf(taxLines),
      discount_allocations: discount.gt(0)
        ? [{ amount: money(discount).plain, amount_set: money(discount).set, discount_application_index: 1 }]
        : [],
    };
  });
  const street = g.longAddress
    ? "Çamlıca Mahallesi Şehit Öğretmen Ayşe Gül Sokak No: 12/3 🏠 ".repeat(8).trim()
    : "Cumhuriyet Cad. 1";
  const address = {
    first_name: "Gülşen",
    last_name: "Öztürk-Çağlayan 🌸",
    company: null,
    address1: street,
    city: "Merkez",
    province: "Sivas",
    country: "Turkey",
    country_code: "TR",
    zip: "58000",
  };
  const total = money(paidAll);
  const payload = {
    id: 9_000_000 + index,
    name: `#${10_000 + index}`,
    created_at: "2026-11-21T10:00:00+03:00",
    processed_at: "2026-11-21T10:00:01+03:00",
    currency: "TRY",
    presentment_currency: presentment,
    taxes_included: g.taxesIncluded,
    total_price: total.plain,
    total_price_set: total.set,
    ...(g.tip ? { total_tip_received: money(g.tip).plain } : {}),
    source_name: "web",
    financial_status: "paid",
    customer:
      g.customer === "known"
        ? { id: 4_000_000 + index, email: "gulsen@example.com", first_name: "Gülşen", last_name: "Öztürk" }
        : null,
    billing_address: g.address === "both" || g.address === "billing" ? address : null,
    shipping_address: g.address === "both" || g.address === "shipping" ? address : null,
    note_attributes: [],
    payment_gateway_names: ["iyzico"],
    line_items,
    shipping_lines,
    fulfillments: [],
    refunds: [],
  };
  return { payload, paid, paidAll };
}

export const contextFor = (
  invoiceCurrency: string,
  ids = { saleChannelId: 5, invoiceIntegrationId: 6 },
): MappingContext => ({
  settings: MappingSettingsSchema.parse({
    exemptionCode: "301",
    exemptionReason: "11/1-a Mal İhracatı",
    defaultCarrier: { title: "Yurtiçi Kargo Servisi A.Ş.", taxNumber: "9860008925" },
    invoiceCurrency,
  }),
  shop: { domain: "shapes.myshopify.com", timezone: "Europe/Istanbul", currency: "TRY" },
  now: new Date("2026-11-22T10:00:00Z"),
  ...ids,
});
