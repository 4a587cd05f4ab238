// Thousands of generated orders: every body passes the sandbox's validation rules, and the service's
// grand total (computed from the sent lines) equals what the customer paid within 0.01, exactly in
// almost all cases. The amount paid is computed here from the generated order, independently of the
// mapping: Shopify's own arithmetic (tax per line on the discounted amount, rounded to kuruş).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Decimal, ZERO, dec } from "../../app/invoicing-service/money";
import { InvoiceRequestSchema } from "../../app/invoicing-service/schemas";
import { computeTotals } from "../../app/invoicing-service/totals";
import { mapOrderToInvoice, type MappingContext } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { MappingSettingsSchema } from "../../app/settings/schema";
import { todayInIstanbul, validateInvoiceBody } from "../../sandbox/rules";
import { onTheWire } from "../helpers/wire";

const r2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
// The valid Turkish VAT rates (app/invoicing-service/vat-rates.ts); 2 % is refused, as test/orders/lines.test.ts shows.
const RATES = ["0", "0.01", "0.08", "0.1", "0.18", "0.2"];

const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => new Decimal(c).div(100));

const lineArb = fc.record({
  quantity: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 5 }) },
    { weight: 1, arbitrary: fc.integer({ min: 6, max: 250 }) },
  ),
  price: fc.oneof(cents(1, 2_000), cents(1, 500_000), cents(100_000, 10_000_000)),
  rate: fc.constantFrom(...RATES, "0.2", "0.2", "0.1"),
  /** Share of the line's amount discounted, in percent (0 = none). */
  discountPercent: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 100 }) },
  ),
  requiresShipping: fc.boolean(),
});

const orderArb = fc.record({
  lines: fc.oneof(
    { weight: 5, arbitrary: fc.array(lineArb, { minLength: 1, maxLength: 6 }) },
    { weight: 1, arbitrary: fc.array(lineArb, { minLength: 7, maxLength: 40 }) },
  ),
  taxesIncluded: fc.boolean(),
  shipping: fc.option(
    fc.record({
      price: cents(1, 30_000),
      rate: fc.constantFrom("0.2", "0.1", "0"),
      discountPercent: fc.constantFrom(0, 0, 50, 100),
    }),
    { nil: undefined },
  ),
  pos: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  company: fc.boolean(),
});

type Generated = typeof orderArb extends fc.Arbitrary<infer T> ? T : never;

/** A Shopify payload for the generated order, and what its customer paid. */
function shopifyOrder(g: Generated, index: number): { payload: unknown; paid: Decimal } {
  let paid = ZERO;
  const priced = (price: Decimal, quantity: number, rate: string, percent: number) => {
    const gross = price.mul(quantity);
    const discount = r2(gross.mul(percent).div(100));
    const base = gross.sub(discount);
    const r = dec(rate);
    const tax = g.taxesIncluded ? r2(base.mul(r).div(r.add(1))) : r2(base.mul(r));
    paid = paid.add(g.taxesIncluded ? base : base.add(tax));
    return { discount, tax };
  };
  const line_items = g.lines.map((l, i) => {
    const { discount, tax } = priced(l.price, l.quantity, l.rate, l.discountPercent);
    return {
      id: 1000 + i,
      variant_id: 2000 + i,
      product_id: 3000 + i,
      title: `Ürün ${i}`,
      variant_title: null,
      sku: `S${i}`,
      quantity: l.quantity,
      current_quantity: l.quantity,
      price: l.price.toFixed(2),
      discount_allocations: discount.gt(0) ? [{ amount: discount.toFixed(2), discount_application_index: 0 }] : [],
      tax_lines: [{ title: "KDV", rate: Number(l.rate), price: tax.toFixed(2) }],
      requires_shipping: l.requiresShipping,
      gift_card: false,
    };
  });
  const shipping_lines = g.shipping
    ? [
        (() => {
          const s = g.shipping;
          const { discount, tax } = priced(s.price, 1, s.rate, s.discountPercent);
          return {
            title: "Kargo",
            price: s.price.toFixed(2),
            discounted_price: s.price.sub(discount).toFixed(2),
            tax_lines: [{ title: "KDV", rate: Number(s.rate), price: tax.toFixed(2) }],
            discount_allocations: discount.gt(0)
              ? [{ amount: discount.toFixed(2), discount_application_index: 1 }]
              : [],
          };
        })(),
      ]
    : [];
  const address = {
    first_name: "Deniz",
    last_name: "Arslan",
    company: g.company ? "Arslan Gıda Ltd. Şti." : null,
    address1: "Cumhuriyet Cad. 1",
    city: "Merkez",
    province: "Sivas",
    country: "Turkey",
    country_code: "TR",
    zip: "58000",
  };
  const payload = {
    id: 9_000_000 + index,
    name: `#${10_000 + index}`,
    created_at: "2026-11-21T10:00:00+03:00",
    processed_at: "2026-11-21T10:00:01+03:00",
    currency: "TRY",
    presentment_currency: "TRY",
    taxes_included: g.taxesIncluded,
    total_price: paid.toFixed(2),
    source_name: g.pos ? "pos" : "web",
    financial_status: "paid",
    customer: { id: 4_000_000 + index, email: "deniz@example.com", first_name: "Deniz", last_name: "Arslan" },
    billing_address: address,
    shipping_address: address,
    note_attributes: g.company
      ? [
          { name: "Vergi No", value: "0720039666" },
          { name: "Vergi Dairesi", value: "Sivas" },
        ]
      : [],
    payment_gateway_names: ["iyzico"],
    line_items,
    shipping_lines,
    fulfillments: [],
    refunds: [],
  };
  return { payload, paid };
}

const context: MappingContext = {
  settings: MappingSettingsSchema.parse({
    exemptionCode: "301",
    exemptionReason: "11/1-a Mal İhracatı",
    defaultCarrier: { title: "Yurtiçi Kargo Servisi A.Ş.", taxNumber: "9860008925" },
  }),
  shop: { domain: "prop.myshopify.com", timezone: "Europe/Istanbul", currency: "TRY" },
  now: new Date("2026-11-22T10:00:00Z"),
  saleChannelId: 5,
  invoiceIntegrationId: 6,
};
const rulesContext = { saleChannelIds: [5], invoiceIntegrationIds: [6], today: todayInIstanbul(context.now) };

describe("mapping property", () => {
  it("maps thousands of random orders to valid bodies whose totals equal the amount paid (0.00 in ≥ 99 %)", () => {
    const RUNS = 4000;
    let index = 0;
    let exact = 0;
    let total = 0;
    let extraLines = 0;
    fc.assert(
      fc.property(orderArb, (g) => {
        const { payload, paid } = shopifyOrder(g, index++);
        const parsed = parseShopifyOrder(payload);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const result = mapOrderToInvoice(parsed.order, context);
        if (!result.ok) throw new Error(JSON.stringify(result.problems));
        expect(validateInvoiceBody(onTheWire(result.body), rulesContext)).toEqual({});
        expect(InvoiceRequestSchema.safeParse(result.body).success).toBe(true);
        const grand = dec(computeTotals(result.body.lines).grand_total);
        const difference = grand.sub(paid);
        expect(difference.abs().lte("0.01")).toBe(true);
        expect(result.paid).toBe(paid.toFixed(2));
        expect(result.difference).toBe(difference.toFixed(2));
        total++;
        if (difference.isZero()) exact++;
        extraLines += result.body.lines.length - g.lines.length - (g.shipping ? 1 : 0);
      }),
      { numRuns: RUNS, seed: 20261122 },
    );
    const share = exact / total;
    console.log(
      `property: ${total} orders, grand_total = paid exactly in ${(share * 100).toFixed(2)} %, ${extraLines} split-off lines`,
    );
    expect(total).toBe(RUNS);
    expect(share).toBeGreaterThanOrEqual(0.99);
  }, 60_000);
});
