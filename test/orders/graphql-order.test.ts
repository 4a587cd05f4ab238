// One order model for both shapes: every fixture order, served by the Admin API stand-in in its GraphQL shape and
// read back through the app's client (the query the app really sends, line items page by page), maps to the
// byte-identical result (invoice body, totals, problems) as the webhook's REST form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import {
  GraphqlOrderSchema,
  legacyId,
  REFUNDS_FIRST,
  toWebhookJson,
  toWebhookOrder,
  webhookAmount,
} from "../../app/orders/graphql-order";
import { orderSnapshot, parseShopifyOrder, type ShopifyOrder } from "../../app/orders/order";
import { createAdminClient, type AdminGraphql } from "../../app/shopify/client.server";
import { readOrderWith } from "../../app/shopify/order-reads";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { bulkReaderOf } from "../helpers/standin";
import { fixtureContext, fixtureNames, fixtureOrder } from "./fixture-loader";

const names = fixtureNames();
let standin: Standin;
let client: AdminGraphql;

function webhookOrder(name: string): ShopifyOrder {
  const parsed = parseShopifyOrder(fixtureOrder(name));
  if (!parsed.ok) throw new Error(`${name}: ${JSON.stringify(parsed.problems)}`);
  return parsed.order;
}

beforeAll(async () => {
  // All orders visible (read_all_orders) and a bucket that never throttles: this test is about shapes.
  standin = await startStandin({
    orders: names.map(fixtureOrder),
    scopes: ["read_orders", "read_all_orders"],
    bucketSize: 1_000_000,
    restoreRate: 1_000_000,
  });
  client = createAdminClient({ shop: standin.shop, endpoint: standin.graphqlUrl(), accessToken: standin.accessToken });
});
afterAll(() => standin?.stop());

describe("GraphQL order → webhook order", () => {
  it("covers every fixture", () => expect(names.length).toBeGreaterThanOrEqual(39));

  it.each(names)("%s: read through the Admin API, it maps byte for byte like its webhook", async (name) => {
    const webhook = webhookOrder(name);
    const read = await readOrderWith(client, webhook.id);
    expect(read).not.toBeNull();
    const context = fixtureContext(name);
    const fromWebhook = JSON.stringify(mapOrderToInvoice(webhook, context));
    const fromGraphql = JSON.stringify(mapOrderToInvoice(read!, context));
    expect(fromGraphql).toBe(fromWebhook);
    // Same lines, same order, and the same id the pipeline keys on.
    expect(read!.id).toBe(webhook.id);
    expect(read!.line_items.map((l) => l.id)).toEqual(webhook.line_items.map((l) => l.id));
  });

  it.each(names.slice(0, 5))(
    "%s: the order as the pipeline stores it (its snapshot) maps the same when read back",
    async (name) => {
      const read = await readOrderWith(client, webhookOrder(name).id);
      const again = parseShopifyOrder(JSON.parse(JSON.stringify(orderSnapshot(read))));
      if (!again.ok) throw new Error(JSON.stringify(again.problems));
      const context = fixtureContext(name);
      expect(JSON.stringify(mapOrderToInvoice(again.order, context))).toBe(
        JSON.stringify(mapOrderToInvoice(read!, context)),
      );
    },
  );

  it("a 120-line order is read whole, page by page", async () => {
    const name = names.find((n) => n.startsWith("37-"))!;
    const before = client.stats.requests;
    const read = await readOrderWith(client, webhookOrder(name).id);
    expect(read!.line_items).toHaveLength(webhookOrder(name).line_items.length);
    expect(webhookOrder(name).line_items.length).toBeGreaterThan(100);
    expect(client.stats.requests - before).toBeGreaterThan(2);
  });

  it("a refund with 25 refund lines and 3 adjustments (more than a first page holds) is read whole, page by page", async () => {
    // Fixture 37 (120 lines), refunded: one unit of each of its first 25 lines back, shipping refunded in 3 parts.
    type RestLine = { id: number; quantity: number };
    const base = fixtureOrder(names.find((n) => n.startsWith("37-"))!) as { line_items: RestLine[] };
    const id = 5_810_003_799;
    const refunded = base.line_items.slice(0, 25).map((line) => line.id);
    const order = {
      ...base,
      id,
      admin_graphql_api_id: `gid://shopify/Order/${id}`,
      name: "#REFUND25",
      financial_status: "partially_refunded",
      line_items: base.line_items.map((line) =>
        refunded.includes(line.id) ? { ...line, current_quantity: line.quantity - 1 } : line,
      ),
      refunds: [
        {
          id: 5_810_003_798,
          created_at: "2026-11-20T10:00:00+03:00",
          refund_line_items: refunded.map((lineItemId, i) => ({
            id: 5_810_003_700 + i,
            line_item_id: lineItemId,
            quantity: 1,
          })),
          order_adjustments: [1, 2, 3].map((i) => ({
            id: 5_810_003_790 + i,
            kind: "shipping_refund",
            amount: `-${i}.50`,
            tax_amount: "0.00",
          })),
        },
      ],
    };
    standin.upsertOrders([order]);
    const parsed = parseShopifyOrder(order);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));

    const before = client.stats.requests;
    const read = await readOrderWith(client, id);
    expect(read!.refunds![0].refund_line_items!.map((line) => line.line_item_id)).toEqual(refunded);
    expect(read!.refunds![0].order_adjustments!.map((adjustment) => adjustment.amount)).toEqual([
      "-1.50",
      "-2.50",
      "-3.50",
    ]);
    // The order, 3 more pages of line items, 1 more of refund lines (10 + 15) and 1 more of adjustments (2 + 1).
    expect(client.stats.requests - before).toBe(6);
    const context = fixtureContext("37-wholesale-120-lines");
    const fromWebhook = JSON.stringify(mapOrderToInvoice(parsed.order, context));
    expect(JSON.stringify(mapOrderToInvoice(read!, context))).toBe(fromWebhook);
    // The refund itself as the webhook form has it (the line items' current quantities already say what was
    // refunded, so it is the refund that would be short, not the invoice body).
    const project = (o: typeof read) =>
      o!.refunds!.map((r) => ({
        lines: r.refund_line_items!.map((l) => [l.line_item_id, l.quantity]),
        adjustments: r.order_adjustments!.map((a) => [a.kind, a.amount]),
      }));
    expect(project(read)).toEqual(project(parsed.order));
  });

  it("an order with more refunds than the first read asks for gets every refund (Order.refunds has no cursor)", async () => {
    const base = fixtureOrder(names.find((n) => n.startsWith("01-"))!) as Record<string, unknown>;
    const id = 5_810_004_799;
    const refundIds = Array.from({ length: REFUNDS_FIRST + 2 }, (_, i) => 5_810_004_700 + i);
    const order = {
      ...base,
      id,
      admin_graphql_api_id: `gid://shopify/Order/${id}`,
      name: "#REFUNDS7",
      financial_status: "partially_refunded",
      // Goodwill refunds of 1.00 each: no lines, one adjustment.
      refunds: refundIds.map((refundId, i) => ({
        id: refundId,
        created_at: `2026-11-2${i % 3}T10:00:00+03:00`,
        refund_line_items: [],
        order_adjustments: [{ id: refundId + 50, kind: "refund_discrepancy", amount: "-1.00", tax_amount: "0.00" }],
      })),
    };
    standin.upsertOrders([order]);
    const before = client.stats.requests;
    const read = await readOrderWith(client, id);
    expect(read!.refunds!.map((refund) => refund.id)).toEqual(refundIds);
    // The order, then its refunds again without the limit.
    expect(client.stats.requests - before).toBe(2);
  });

  it("read in one bulk operation, every fixture is the order the paged read gives, field for field", async () => {
    // The bulk query selects the same order fields with its connections unpaged (docs/decisions/0028-bulk-reading.md);
    // orders with refunds are read again in full, as Shopify refuses refund lines inside a bulk query.
    const bulk = bulkReaderOf(client);
    const started = await bulk.start(standin.shop, "");
    if (!started.ok) throw new Error(started.message);
    let url: string | null = null;
    for (let i = 0; i < 500 && !url; i++) {
      url = (await bulk.status(standin.shop, started.id))?.url ?? null;
      if (!url) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const read = (await bulk.download(standin.shop, url!)) as ShopifyOrder[];
    const fixtures = new Set(names.map((name) => webhookOrder(name).id));
    const byId = (orders: ShopifyOrder[]) => orders.filter((o) => fixtures.has(o.id)).sort((a, b) => a.id - b.id);
    const paged = await Promise.all([...fixtures].map((id) => readOrderWith(client, id)));
    expect(byId(read)).toHaveLength(fixtures.size);
    expect(byId(read)).toEqual(byId(paged.map((o) => o!)));
  });

  it("an unknown order is null", async () => {
    expect(await readOrderWith(client, 999_999_999)).toBeNull();
  });
});

describe("conversion details", () => {
  it("Shopify's shortest decimals become webhook amounts without rounding", () => {
    expect(webhookAmount("249.9")).toBe("249.90");
    expect(webhookAmount("10.0")).toBe("10.00");
    expect(webhookAmount("0.125")).toBe("0.125");
    expect(webhookAmount("-3.5")).toBe("-3.50");
  });

  it("GIDs become numeric ids, a malformed one is refused", () => {
    expect(legacyId("gid://shopify/Order/5810000001")).toBe(5810000001);
    expect(legacyId("gid://shopify/MailingAddress/12?model_name=Address")).toBe(12);
    expect(() => legacyId("5810000001")).toThrow(/^not a Shopify GID: 5810000001$/);
    // A GID is the whole value, from its scheme: an address that merely contains one is not one.
    expect(() => legacyId("https://admin.shopify.com/store/x/gid://shopify/Order/5810000001")).toThrow(
      /not a Shopify GID/,
    );
  });

  it("the schema refuses an answer whose money is not a decimal", async () => {
    const { json } = await standin.request({
      query: `{ order(id: "gid://shopify/Order/${webhookOrder(names[0]).id}") { id } }`,
    });
    expect(json.data.order.id).toMatch(/^gid:\/\/shopify\/Order\/\d+$/);
    const bad = {
      ...minimalOrder(),
      totalPriceSet: {
        shopMoney: { amount: 12.5, currencyCode: "TRY" },
        presentmentMoney: { amount: "12.5", currencyCode: "TRY" },
      },
    };
    expect(GraphqlOrderSchema.safeParse(bad).success).toBe(false);
    expect(GraphqlOrderSchema.safeParse(minimalOrder()).success).toBe(true);
    // legacyResourceId is Shopify's UnsignedInt64, the REST id: digits only.
    for (const legacyResourceId of ["1a", "1.0", "", "gid://shopify/Order/1"]) {
      expect(GraphqlOrderSchema.safeParse({ ...minimalOrder(), legacyResourceId }).success, legacyResourceId).toBe(
        false,
      );
    }
    expect(toWebhookOrder(GraphqlOrderSchema.parse(minimalOrder())).total_price).toBe("12.50");
  });

  it("note attributes, gateways, fulfillments and refunds keep their webhook names", () => {
    const json = toWebhookJson(
      GraphqlOrderSchema.parse({
        ...minimalOrder(),
        customAttributes: [{ key: "Vergi No", value: "1234567890" }],
        paymentGatewayNames: ["iyzico"],
        displayFinancialStatus: "PARTIALLY_REFUNDED",
        fulfillments: [
          {
            id: "gid://shopify/Fulfillment/7",
            status: "SUCCESS",
            createdAt: "2026-11-21T07:00:00Z",
            trackingInfo: [{ company: "Aras Kargo", number: "A1" }],
          },
        ],
        refunds: [
          {
            id: "gid://shopify/Refund/9",
            createdAt: null,
            refundLineItems: {
              nodes: [{ quantity: 1, lineItem: { id: "gid://shopify/LineItem/5" } }],
              pageInfo: { hasNextPage: false, endCursor: null },
            },
            orderAdjustments: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
          },
        ],
      }),
    );
    expect(json).toMatchObject({
      note_attributes: [{ name: "Vergi No", value: "1234567890" }],
      payment_gateway_names: ["iyzico"],
      financial_status: "partially_refunded",
      fulfillments: [{ id: 7, status: "success", tracking_company: "Aras Kargo", tracking_number: "A1" }],
      refunds: [{ id: 9, refund_line_items: [{ line_item_id: 5, quantity: 1 }], order_adjustments: [] }],
    });
  });
});

describe("what the schema refuses, naming where (bulk-reads.ts reports the path and the message)", () => {
  const issues = (order: unknown) => {
    const result = GraphqlOrderSchema.safeParse(order);
    return result.success
      ? []
      : result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
  };
  const withTotal = (amount: string) => ({
    ...minimalOrder(),
    totalPriceSet: {
      shopMoney: { amount, currencyCode: "TRY" },
      presentmentMoney: { amount: "12.5", currencyCode: "TRY" },
    },
  });

  it("money is Shopify's Decimal, a signed decimal number as text: a whole number is one, Turkish notation or a currency is not", () => {
    for (const amount of ["12", "-3.5", "0.0", "249.9"]) expect(issues(withTotal(amount)), amount).toEqual([]);
    for (const amount of ["1.234,50", "12,5", "12.5 TL", "TL 12.5", "12."]) {
      expect(issues(withTotal(amount)), amount).toEqual([
        { path: "totalPriceSet.shopMoney.amount", message: "decimal amount expected" },
      ]);
    }
  });

  it("an id is the GID of its type: a bare number or another type's GID is refused", () => {
    const withLine = (id: string) => ({
      ...minimalOrder(),
      lineItems: { nodes: [graphqlLine({ id })], pageInfo: { hasNextPage: false, endCursor: null } },
    });
    expect(issues(withLine("gid://shopify/LineItem/5"))).toEqual([]);
    expect(issues(withLine("5"))).toEqual([{ path: "lineItems.nodes.0.id", message: "a LineItem GID expected" }]);
    expect(issues(withLine("gid://shopify/Product/5"))).toEqual([
      { path: "lineItems.nodes.0.id", message: "a LineItem GID expected" },
    ]);
  });
});

describe("conversion of a line item and of statuses", () => {
  it("a discount allocation keeps the index of its discount application (REST discount_application_index)", () => {
    const allocation = { allocatedAmountSet: bagOf("10.0"), discountApplication: { index: 2 } };
    const json = toWebhookJson(
      GraphqlOrderSchema.parse({
        ...minimalOrder(),
        lineItems: {
          nodes: [graphqlLine({ discountAllocations: [allocation] })],
          pageInfo: { hasNextPage: false, endCursor: null },
        },
      }),
    );
    expect((json.line_items as Array<Record<string, unknown>>)[0].discount_allocations).toEqual([
      {
        amount: "10.00",
        amount_set: {
          shop_money: { amount: "10.00", currency_code: "TRY" },
          presentment_money: { amount: "10.00", currency_code: "TRY" },
        },
        discount_application_index: 2,
      },
    ]);
  });

  it("an order without a financial status (displayFinancialStatus is nullable) has none", () => {
    expect(
      toWebhookJson(GraphqlOrderSchema.parse({ ...minimalOrder(), displayFinancialStatus: null })).financial_status,
    ).toBeNull();
  });
});

function bagOf(amount: string) {
  return { shopMoney: { amount, currencyCode: "TRY" }, presentmentMoney: { amount, currencyCode: "TRY" } };
}

function graphqlLine(over: Record<string, unknown> = {}) {
  return {
    id: "gid://shopify/LineItem/5",
    name: "Kupa",
    title: "Kupa",
    variantTitle: null,
    sku: null,
    quantity: 1,
    currentQuantity: 1,
    taxable: true,
    requiresShipping: true,
    isGiftCard: false,
    originalUnitPriceSet: bagOf("120.0"),
    discountAllocations: [],
    taxLines: [],
    product: null,
    variant: null,
    ...over,
  };
}

function minimalOrder() {
  const bag = (amount: string) => ({
    shopMoney: { amount, currencyCode: "TRY" },
    presentmentMoney: { amount, currencyCode: "TRY" },
  });
  const page = { hasNextPage: false, endCursor: null };
  return {
    id: "gid://shopify/Order/1",
    legacyResourceId: "1",
    name: "#1",
    number: 1,
    createdAt: "2026-11-20T11:05:11Z",
    updatedAt: "2026-11-20T11:05:11Z",
    processedAt: "2026-11-20T11:05:11Z",
    test: false,
    sourceName: "web",
    currencyCode: "TRY",
    presentmentCurrencyCode: "TRY",
    taxesIncluded: true,
    totalPriceSet: bag("12.5"),
    currentTotalPriceSet: bag("12.5"),
    subtotalPriceSet: null,
    totalTaxSet: null,
    totalDiscountsSet: null,
    totalTipReceivedSet: bag("0.0"),
    email: null,
    phone: null,
    displayFinancialStatus: "PAID",
    paymentGatewayNames: [],
    customAttributes: [],
    customer: null,
    billingAddress: null,
    shippingAddress: null,
    lineItems: { nodes: [], pageInfo: page },
    shippingLines: { nodes: [], pageInfo: page },
    fulfillments: [],
    refunds: [],
  };
}
