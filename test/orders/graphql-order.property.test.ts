// Property: any webhook-shaped order, served in the GraphQL shape by the Admin API stand-in and read back through
// the app's client (in-process fetch, the real query, line items, shipping lines and refund lines page by page), maps to the
// byte-identical result (body, totals, problems) as the webhook form. Orders are generated wide: presentment
// currencies, several tax lines, discounts, gift cards, refunds, fulfillments, missing customers and addresses,
// time zones, more lines (and refund lines, and adjustments) than one page holds.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { BucketState, createAdminClient, type AdminGraphql } from "../../app/shopify/client.server";
import { readOrderWith } from "../../app/shopify/order-reads";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { fixtureContext } from "./fixture-loader";

const money = (cents: number) => (cents / 100).toFixed(2);
const text = fc.string({ minLength: 0, maxLength: 12 });
const optionalText = fc.option(text, { nil: null });
const mostlyText = fc.option(
  fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim().length > 0),
  { nil: null, freq: 10 },
);
// Mostly the rates in force; now and then a legacy or zero rate (which the mapping refuses without an exemption).
const rate = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(0.2, 0.2, 0.1, 0.01) },
  { weight: 1, arbitrary: fc.constantFrom(0, 0.18, 0.08) },
);

const taxLine = fc.record({
  title: fc.constantFrom("KDV %20", "KDV", "VAT"),
  price: fc.integer({ min: 0, max: 90_000 }).map(money),
  rate,
});
/** A discount as a share (percent) of the line's amount, so it never exceeds it. */
const allocation = fc.record({
  percent: fc.integer({ min: 1, max: 60 }),
  discount_application_index: fc.integer({ min: 0, max: 1 }),
});
const address = fc.option(
  fc.record({
    first_name: mostlyText,
    last_name: mostlyText,
    name: optionalText,
    company: fc.option(text, { nil: null, freq: 4 }),
    address1: mostlyText,
    address2: optionalText,
    city: mostlyText,
    province: mostlyText,
    province_code: optionalText,
    zip: optionalText,
    country: fc.constantFrom("Turkey", "Germany", "United States"),
    country_code: fc.constantFrom("TR", "TR", "DE", "US"),
    phone: optionalText,
  }),
  { nil: null, freq: 6 },
);

const orderArb = fc.record({
  presentment: fc.constantFrom(null, null, { currency: "EUR", rate: 35 }, { currency: "USD", rate: 33 }),
  taxesIncluded: fc.boolean(),
  lines: fc.array(
    fc.record({
      title: text.map((t) => t || "Ürün"),
      variant_title: optionalText,
      sku: optionalText,
      quantity: fc.integer({ min: 1, max: 30 }),
      removed: fc.integer({ min: 0, max: 3 }),
      cents: fc.integer({ min: 1, max: 2_000_000 }),
      tax_lines: fc.oneof(
        { weight: 8, arbitrary: fc.array(taxLine, { minLength: 1, maxLength: 1 }) },
        { weight: 1, arbitrary: fc.array(taxLine, { maxLength: 2 }) },
      ),
      discount_allocations: fc.array(allocation, { maxLength: 1 }),
      gift_card: fc.integer({ min: 0, max: 12 }).map((n) => n === 0),
      requires_shipping: fc.boolean(),
      hasProduct: fc.integer({ min: 0, max: 8 }).map((n) => n > 0),
    }),
    { minLength: 1, maxLength: 13 },
  ),
  shipping: fc.array(
    fc.record({
      title: text.map((t) => t || "Kargo"),
      cents: fc.integer({ min: 0, max: 50_000 }),
      off: fc.integer({ min: 0, max: 100 }),
      tax_lines: fc.array(taxLine, { minLength: 1, maxLength: 1 }),
    }),
    { maxLength: 4 },
  ),
  notes: fc.array(
    fc.record({
      name: fc.constantFrom("TC Kimlik No", "Vergi Numarası", "Vergi Dairesi", "gift"),
      value: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom("10000000146", "0720039666", "Kadıköy") },
        { weight: 1, arbitrary: text },
      ),
    }),
    { maxLength: 3 },
  ),
  customer: fc.option(
    fc.record({ email: optionalText, first_name: optionalText, last_name: optionalText, phone: optionalText }),
    { nil: null },
  ),
  billing: address,
  shippingAddress: address,
  gateways: fc.array(fc.constantFrom("shopify_payments", "iyzico", "gift_card", "Kapıda Ödeme", "manual", "paytr"), {
    maxLength: 2,
  }),
  fulfillments: fc.array(
    fc.record({
      company: fc.option(fc.constantFrom("Yurtiçi Kargo", "Aras Kargo", "DHL", "Bilinmeyen"), { nil: null }),
      status: fc.constantFrom("success", "success", "cancelled"),
    }),
    { maxLength: 2 },
  ),
  // Up to 14 refund lines and 3 adjustments: past the first page the app asks for (10 and 2).
  refund: fc.option(
    fc.record({
      quantity: fc.integer({ min: 1, max: 3 }),
      lines: fc.integer({ min: 1, max: 14 }),
      adjustments: fc.array(fc.integer({ min: -5_000, max: -1 }), { maxLength: 3 }),
    }),
    { nil: null },
  ),
  source: fc.constantFrom("web", "web", "pos", "shopify_draft_order"),
  status: fc.constantFrom("paid", "paid", "partially_refunded", "pending"),
  offset: fc.constantFrom("+03:00", "Z", "-05:00", "+14:00"),
  day: fc.integer({ min: 1, max: 21 }),
  tip: fc.integer({ min: 0, max: 3 }).map((n) => (n === 0 ? 1_000 : 0)),
  context: fc.constantFrom(
    "01-single-item-citizen",
    "22-presentment-eur-invoiced-in-eur",
    "07-zero-rate-export-with-exemption",
    "36-shop-ahead-of-turkey",
    "28-no-tax-lines-prices-exclude-vat",
  ),
});
type Generated = typeof orderArb extends fc.Arbitrary<infer T> ? T : never;

function restOrder(g: Generated, id: number) {
  const shop = "TRY";
  const presentment = g.presentment?.currency ?? shop;
  const factor = g.presentment?.rate ?? 1;
  const set = (amount: string) => ({
    shop_money: { amount, currency_code: shop },
    presentment_money: {
      amount: (Math.round((Number(amount) * 100) / factor) / 100).toFixed(2),
      currency_code: presentment,
    },
  });
  const withSets = <T extends { price: string }>(t: T) => ({ ...t, price_set: set(t.price) });
  const at = `2026-11-${String(g.day).padStart(2, "0")}T10:00:00${g.offset}`;
  const lineItems = g.lines.map((l, i) => ({
    id: id * 100 + i,
    product_id: l.hasProduct ? 7000 + i : null,
    variant_id: l.hasProduct ? 8000 + i : null,
    title: l.title,
    variant_title: l.variant_title,
    name: l.title,
    sku: l.sku,
    quantity: l.quantity,
    current_quantity: Math.max(0, l.quantity - l.removed),
    price: money(l.cents),
    price_set: set(money(l.cents)),
    total_discount: "0.00",
    total_discount_set: set("0.00"),
    discount_allocations: l.discount_allocations.map((a) => {
      const amount = money(Math.floor((l.cents * l.quantity * a.percent) / 100));
      return { amount, amount_set: set(amount), discount_application_index: a.discount_application_index };
    }),
    tax_lines: l.tax_lines.map(withSets),
    taxable: true,
    requires_shipping: l.requires_shipping,
    gift_card: l.gift_card,
  }));
  const total =
    lineItems.reduce((sum, l) => sum + Number(l.price) * l.quantity, 0) +
    g.shipping.reduce((sum, s) => sum + s.cents / 100, 0);
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${id}`,
    order_number: id % 1_000_000,
    created_at: at,
    updated_at: at,
    processed_at: at,
    source_name: g.source,
    test: false,
    currency: shop,
    presentment_currency: presentment,
    taxes_included: g.taxesIncluded,
    total_price: total.toFixed(2),
    total_price_set: set(total.toFixed(2)),
    current_total_price: total.toFixed(2),
    current_total_price_set: set(total.toFixed(2)),
    total_tax: "1.00",
    total_tax_set: set("1.00"),
    total_tip_received: money(g.tip),
    email: g.customer?.email ?? null,
    phone: null,
    customer: g.customer ? { id: id + 1, ...g.customer } : null,
    billing_address: g.billing,
    shipping_address: g.shippingAddress,
    discount_applications: [
      { type: "discount_code", code: "KOD" },
      { type: "automatic", title: "Otomatik" },
    ],
    line_items: lineItems,
    shipping_lines: g.shipping.map((s, i) => {
      const price = money(s.cents);
      const discounted = money(Math.round((s.cents * (100 - s.off)) / 100));
      return {
        id: id * 10 + i,
        title: s.title,
        code: s.title,
        price,
        price_set: set(price),
        discounted_price: discounted,
        discounted_price_set: set(discounted),
        tax_lines: s.tax_lines.map(withSets),
        discount_allocations: [],
      };
    }),
    note_attributes: g.notes,
    payment_gateway_names: g.gateways,
    financial_status: g.status,
    fulfillments: g.fulfillments.map((f, i) => ({
      id: id * 10 + i,
      status: f.status,
      created_at: at,
      tracking_company: f.company,
      tracking_number: f.company ? `T${i}` : null,
    })),
    refunds: g.refund
      ? [
          {
            id: id * 10,
            created_at: at,
            refund_line_items: Array.from({ length: g.refund.lines }, (_, k) => {
              const line = lineItems[k % lineItems.length];
              return { line_item_id: line.id, quantity: Math.min(g.refund!.quantity, line.quantity) };
            }),
            order_adjustments: g.refund.adjustments.map((cents) => ({
              kind: "refund_discrepancy",
              amount: money(cents),
            })),
          },
        ]
      : [],
  };
}

let standin: Standin;
let client: AdminGraphql;

beforeAll(async () => {
  standin = await startStandin({ scopes: ["read_orders", "read_all_orders"], bucketSize: 1e12, restoreRate: 1e12 });
  // In-process transport: the stand-in's own request handler, without sockets, so many orders run quickly.
  const inProcess = (async (_url: string, init: RequestInit) => {
    const { status, json } = await standin.request(JSON.parse(String(init.body)));
    return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
  }) as unknown as typeof fetch;
  client = createAdminClient({
    shop: standin.shop,
    endpoint: standin.graphqlUrl(),
    accessToken: standin.accessToken,
    fetch: inProcess,
    bucket: new BucketState(),
  });
});
afterAll(() => standin?.stop());

describe("GraphQL order → webhook order, property", () => {
  it("every generated order maps byte for byte the same through the Admin API as from its webhook", async () => {
    let id = 6_000_000_000;
    let paged = 0;
    let pagedRefunds = 0;
    let problems = 0;
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(orderArb, async (g) => {
        const rest = restOrder(g, ++id);
        const parsed = parseShopifyOrder(rest);
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
        standin.upsertOrders([rest]);
        const read = await readOrderWith(client, id);
        expect(read).not.toBeNull();
        const context = fixtureContext(g.context);
        const fromWebhook = mapOrderToInvoice(parsed.order, context);
        expect(JSON.stringify(mapOrderToInvoice(read!, context))).toBe(JSON.stringify(fromWebhook));
        if (g.lines.length > 5 || g.shipping.length > 2) paged++;
        // The refunds as the webhook has them, whole (their lines and adjustments page separately).
        const refunds = (o: typeof read) => (o!.refunds ?? []).map((r) => [r.refund_line_items, r.order_adjustments]);
        expect(JSON.stringify(refunds(read))).toBe(JSON.stringify(refunds(parsed.order)));
        if (g.refund && (g.refund.lines > 10 || g.refund.adjustments.length > 2)) pagedRefunds++;
        if (!fromWebhook.ok) {
          problems++;
          for (const p of fromWebhook.problems)
            if (p.severity === "error") codes.set(p.code, (codes.get(p.code) ?? 0) + 1);
        }
      }),
      { numRuns: 300, seed: 20261123 },
    );
    console.log(
      `graphql property: 300 orders, ${paged} needed more than one page of lines, ${pagedRefunds} of refund lines or adjustments, ${problems} mapped to problems`,
      JSON.stringify([...codes]),
    );
    // The generator reaches the paging path, invoice bodies and refusals, so the property says something about each.
    expect(paged).toBeGreaterThan(20);
    expect(pagedRefunds).toBeGreaterThan(10);
    expect(problems).toBeGreaterThan(0);
    expect(300 - problems).toBeGreaterThan(100);
  }, 120_000);
});
