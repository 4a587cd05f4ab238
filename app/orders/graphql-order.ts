// One order model for both shapes: an order read through the Admin GraphQL API becomes exactly the webhook's
// REST-shaped order that the mapping reads (app/orders/order.ts). Pure: no I/O. ORDER_FIELDS is the selection
// the app sends; GraphqlOrderSchema validates what comes back; toWebhookOrder converts.
// Field correspondences (shopify.dev Admin GraphQL Order, LineItem, MoneyBag, TaxLine, DiscountAllocation,
// ShippingLine, Refund, Fulfillment): money bags → `*_set` with `shop_money`/`presentment_money` and the plain
// amount in shop money; GIDs → numeric ids; `customAttributes` → `note_attributes`; enums → lower case.
// Shopify prints Decimal amounts shortest ("249.9"); they become two-decimal strings ("249.90") as in webhooks.
// Only what the mapping reads is asked for (every object costs a point per order at Shopify's 100 points/s): not
// the order's subtotal or total discounts, nor a line's total discount (the mapping works from the prices, the
// discount allocations and the tax lines).
import { z } from "zod";
import { Decimal } from "../invoicing-service/money";
import { ShopifyOrderSchema, type ShopifyOrder } from "./order";

/**
 * Line items per page inside an order (more are read page by page). The nested page sizes set a page's requested
 * cost, which must stay under Shopify's single-query limit of 1,000: smaller ones let a page hold more orders
 * (ORDERS_PAGE_MAX), so reading takes fewer round trips; an order with more lines costs one more query
 * (docs/decisions/0010-admin-api-and-standin.md, 0028-bulk-reading.md; `npx tsx bench/order-cost.bench.ts`).
 */
export const LINE_ITEMS_PAGE = 3;

const MONEY = "amount currencyCode";
const BAG = `shopMoney { ${MONEY} } presentmentMoney { ${MONEY} }`;
const TAX_LINES = `taxLines { title rate priceSet { ${BAG} } }`;
const ALLOCATIONS = `discountAllocations { allocatedAmountSet { ${BAG} } discountApplication { index } }`;
const PAGE_INFO = "pageInfo { hasNextPage endCursor }";

export const LINE_ITEM_FIELDS = `id name title variantTitle sku quantity currentQuantity taxable requiresShipping isGiftCard
  originalUnitPriceSet { ${BAG} } ${ALLOCATIONS} ${TAX_LINES}
  product { id } variant { id }`;

export const SHIPPING_LINE_FIELDS = `id title code originalPriceSet { ${BAG} } discountedPriceSet { ${BAG} } ${TAX_LINES} ${ALLOCATIONS}`;

export const REFUND_LINE_ITEM_FIELDS = "quantity lineItem { id }";
export const ORDER_ADJUSTMENT_FIELDS = `reason amountSet { ${BAG} }`;
/**
 * `Order.refunds` is a list, not a connection: it has no cursor. The first read asks for this many; an answer that
 * is full is read again without the limit (app/shopify/order-reads.ts), so no refund is ever cut off.
 */
export const REFUNDS_FIRST = 5;
export const REFUND_FIELDS = `id createdAt
    refundLineItems(first: 5) { nodes { ${REFUND_LINE_ITEM_FIELDS} } ${PAGE_INFO} }
    orderAdjustments(first: 1) { nodes { ${ORDER_ADJUSTMENT_FIELDS} } ${PAGE_INFO} }`;

const ADDRESS =
  "firstName lastName name company address1 address2 city province provinceCode zip country countryCodeV2 phone";

/**
 * The order's own fields, its buyer and its addresses: the same in the paged read and in a bulk operation, which
 * differ only in the connections below them.
 */
const ORDER_HEAD = `
  id legacyResourceId name number createdAt updatedAt processedAt test sourceName
  currencyCode presentmentCurrencyCode taxesIncluded
  totalPriceSet { ${BAG} } currentTotalPriceSet { ${BAG} } totalTaxSet { ${BAG} } totalTipReceivedSet { ${BAG} }
  email phone displayFinancialStatus paymentGatewayNames
  customAttributes { key value }
  customer { id firstName lastName defaultEmailAddress { emailAddress } defaultPhoneNumber { phoneNumber } }
  billingAddress { ${ADDRESS} }
  shippingAddress { ${ADDRESS} }`;
const FULFILLMENTS = "fulfillments(first: 5) { id status createdAt trackingInfo(first: 1) { company number } }";

/** The order as the app reads it. `$lineItems` sets the line items per page. */
export const ORDER_FIELDS = `${ORDER_HEAD}
  lineItems(first: ${LINE_ITEMS_PAGE}) { nodes { ${LINE_ITEM_FIELDS} } ${PAGE_INFO} }
  shippingLines(first: 1) { nodes { ${SHIPPING_LINE_FIELDS} } ${PAGE_INFO} }
  ${FULFILLMENTS}
  refunds(first: ${REFUNDS_FIRST}) { ${REFUND_FIELDS} }`;

/**
 * The same order for a bulk operation (`bulkOperationRunQuery`): the same head, but nested connections carry no
 * page size (a bulk query reads them whole; their nodes come back as JSONL lines of their own with `__parentId`,
 * told apart by `__typename`), and refunds are ids only, because Shopify refuses a connection inside a list field
 * (`Order.refunds` is a list, `Refund.refundLineItems` a connection): an order with refunds is read again in full
 * (app/shopify/bulk-reads.ts).
 */
export const BULK_ORDER_FIELDS = `${ORDER_HEAD}
  lineItems { edges { node { __typename ${LINE_ITEM_FIELDS} } } }
  shippingLines { edges { node { __typename ${SHIPPING_LINE_FIELDS} } } }
  ${FULFILLMENTS}
  refunds { id }`;

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, "decimal amount expected");
const gidOf = (type: string) =>
  z.string().regex(new RegExp(`^gid://shopify/${type}/\\d+(\\?.*)?$`), `a ${type} GID expected`);
const Money = z.object({ amount: decimal, currencyCode: z.string() });
const Bag = z.object({ shopMoney: Money, presentmentMoney: Money });
const TaxLine = z.object({ title: z.string(), rate: z.number().nullable(), priceSet: Bag });
const Allocation = z.object({ allocatedAmountSet: Bag, discountApplication: z.object({ index: z.number().int() }) });
const PageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });
const connection = <T extends z.ZodType>(node: T) => z.object({ nodes: z.array(node), pageInfo: PageInfo });

export const GraphqlLineItemSchema = z.object({
  id: gidOf("LineItem"),
  name: z.string(),
  title: z.string(),
  variantTitle: z.string().nullable(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  currentQuantity: z.number().int(),
  taxable: z.boolean(),
  requiresShipping: z.boolean(),
  isGiftCard: z.boolean(),
  originalUnitPriceSet: Bag,
  discountAllocations: z.array(Allocation),
  taxLines: z.array(TaxLine),
  product: z.object({ id: gidOf("Product") }).nullable(),
  variant: z.object({ id: gidOf("ProductVariant") }).nullable(),
});

export const GraphqlShippingLineSchema = z.object({
  id: gidOf("ShippingLine").nullable(),
  title: z.string(),
  code: z.string().nullable(),
  originalPriceSet: Bag,
  discountedPriceSet: Bag,
  taxLines: z.array(TaxLine),
  discountAllocations: z.array(Allocation),
});

export const GraphqlRefundLineItemSchema = z.object({
  quantity: z.number().int(),
  lineItem: z.object({ id: gidOf("LineItem") }),
});
export const GraphqlOrderAdjustmentSchema = z.object({ reason: z.string().nullable(), amountSet: Bag });

const Address = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  name: z.string().nullable(),
  company: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  provinceCode: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
  countryCodeV2: z.string().nullable(),
  phone: z.string().nullable(),
});

export const GraphqlOrderSchema = z.object({
  id: gidOf("Order"),
  legacyResourceId: z.string().regex(/^\d+$/),
  name: z.string(),
  number: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  processedAt: z.string(),
  test: z.boolean(),
  sourceName: z.string().nullable(),
  currencyCode: z.string(),
  presentmentCurrencyCode: z.string(),
  taxesIncluded: z.boolean(),
  totalPriceSet: Bag,
  currentTotalPriceSet: Bag,
  totalTaxSet: Bag.nullable(),
  totalTipReceivedSet: Bag,
  email: z.string().nullable(),
  phone: z.string().nullable(),
  displayFinancialStatus: z.string().nullable(),
  paymentGatewayNames: z.array(z.string()),
  customAttributes: z.array(z.object({ key: z.string(), value: z.string().nullable() })),
  customer: z
    .object({
      id: gidOf("Customer"),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      defaultEmailAddress: z.object({ emailAddress: z.string() }).nullable(),
      defaultPhoneNumber: z.object({ phoneNumber: z.string() }).nullable(),
    })
    .nullable(),
  billingAddress: Address.nullable(),
  shippingAddress: Address.nullable(),
  lineItems: connection(GraphqlLineItemSchema),
  shippingLines: connection(GraphqlShippingLineSchema),
  fulfillments: z.array(
    z.object({
      id: gidOf("Fulfillment"),
      status: z.string(),
      createdAt: z.string(),
      trackingInfo: z.array(z.object({ company: z.string().nullable(), number: z.string().nullable() })),
    }),
  ),
  refunds: z.array(
    z.object({
      id: gidOf("Refund"),
      createdAt: z.string().nullable(),
      refundLineItems: connection(GraphqlRefundLineItemSchema),
      orderAdjustments: connection(GraphqlOrderAdjustmentSchema),
    }),
  ),
});

export type GraphqlOrder = z.infer<typeof GraphqlOrderSchema>;
export type GraphqlLineItem = z.infer<typeof GraphqlLineItemSchema>;
export type GraphqlShippingLine = z.infer<typeof GraphqlShippingLineSchema>;
type Bag = z.infer<typeof Bag>;
type TaxLine = z.infer<typeof TaxLine>;
type Allocation = z.infer<typeof Allocation>;
type Address = z.infer<typeof Address>;

/** The numeric id of a GID ("gid://shopify/Order/123" → 123). */
export function legacyId(gid: string): number {
  const match = /^gid:\/\/shopify\/\w+\/(\d+)/.exec(gid);
  if (!match) throw new Error(`not a Shopify GID: ${gid}`);
  return Number(match[1]);
}

/** "249.9" → "249.90": at least two decimals, as webhooks print amounts; never rounded. */
export function webhookAmount(amount: string): string {
  const value = new Decimal(amount);
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}

function moneySet(bag: Bag) {
  return {
    shop_money: { amount: webhookAmount(bag.shopMoney.amount), currency_code: bag.shopMoney.currencyCode },
    presentment_money: {
      amount: webhookAmount(bag.presentmentMoney.amount),
      currency_code: bag.presentmentMoney.currencyCode,
    },
  };
}

const shopAmount = (bag: Bag) => webhookAmount(bag.shopMoney.amount);

function taxLines(lines: TaxLine[]) {
  return lines.map((t) => ({
    title: t.title,
    price: shopAmount(t.priceSet),
    price_set: moneySet(t.priceSet),
    rate: t.rate ?? 0,
  }));
}

function allocations(list: Allocation[]) {
  return list.map((a) => ({
    amount: shopAmount(a.allocatedAmountSet),
    amount_set: moneySet(a.allocatedAmountSet),
    discount_application_index: a.discountApplication.index,
  }));
}

function address(a: Address | null) {
  if (!a) return null;
  return {
    first_name: a.firstName,
    last_name: a.lastName,
    name: a.name,
    company: a.company,
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    province: a.province,
    province_code: a.provinceCode,
    zip: a.zip,
    country: a.country,
    country_code: a.countryCodeV2,
    phone: a.phone,
  };
}

function lineItem(item: GraphqlLineItem) {
  return {
    id: legacyId(item.id),
    admin_graphql_api_id: item.id,
    product_id: item.product ? legacyId(item.product.id) : null,
    variant_id: item.variant ? legacyId(item.variant.id) : null,
    title: item.title,
    variant_title: item.variantTitle,
    name: item.name,
    sku: item.sku,
    quantity: item.quantity,
    current_quantity: item.currentQuantity,
    price: shopAmount(item.originalUnitPriceSet),
    price_set: moneySet(item.originalUnitPriceSet),
    discount_allocations: allocations(item.discountAllocations),
    tax_lines: taxLines(item.taxLines),
    taxable: item.taxable,
    requires_shipping: item.requiresShipping,
    gift_card: item.isGiftCard,
  };
}

function shippingLine(line: GraphqlShippingLine) {
  return {
    id: line.id ? legacyId(line.id) : null,
    title: line.title,
    code: line.code,
    price: shopAmount(line.originalPriceSet),
    price_set: moneySet(line.originalPriceSet),
    discounted_price: shopAmount(line.discountedPriceSet),
    discounted_price_set: moneySet(line.discountedPriceSet),
    tax_lines: taxLines(line.taxLines),
    discount_allocations: allocations(line.discountAllocations),
  };
}

/**
 * The order as a webhook would have sent it, as plain JSON (what the app stores as the order's snapshot).
 * `lineItems`/`shippingLines` and each refund's lines and adjustments must be complete: the caller reads further
 * pages first (hasNextPage is ignored here).
 */
export function toWebhookJson(order: GraphqlOrder): Record<string, unknown> {
  return {
    id: Number(order.legacyResourceId),
    admin_graphql_api_id: order.id,
    name: order.name,
    order_number: order.number,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    processed_at: order.processedAt,
    source_name: order.sourceName,
    test: order.test,
    currency: order.currencyCode,
    presentment_currency: order.presentmentCurrencyCode,
    taxes_included: order.taxesIncluded,
    total_price: shopAmount(order.totalPriceSet),
    total_price_set: moneySet(order.totalPriceSet),
    current_total_price: shopAmount(order.currentTotalPriceSet),
    current_total_price_set: moneySet(order.currentTotalPriceSet),
    ...(order.totalTaxSet
      ? { total_tax: shopAmount(order.totalTaxSet), total_tax_set: moneySet(order.totalTaxSet) }
      : {}),
    total_tip_received: shopAmount(order.totalTipReceivedSet),
    email: order.email,
    phone: order.phone,
    customer: order.customer
      ? {
          id: legacyId(order.customer.id),
          email: order.customer.defaultEmailAddress?.emailAddress ?? null,
          first_name: order.customer.firstName,
          last_name: order.customer.lastName,
          phone: order.customer.defaultPhoneNumber?.phoneNumber ?? null,
        }
      : null,
    billing_address: address(order.billingAddress),
    shipping_address: address(order.shippingAddress),
    line_items: order.lineItems.nodes.map(lineItem),
    shipping_lines: order.shippingLines.nodes.map(shippingLine),
    note_attributes: order.customAttributes.map((a) => ({ name: a.key, value: a.value })),
    payment_gateway_names: order.paymentGatewayNames,
    financial_status: order.displayFinancialStatus?.toLowerCase() ?? null,
    fulfillments: order.fulfillments.map((f) => ({
      id: legacyId(f.id),
      status: f.status.toLowerCase(),
      created_at: f.createdAt,
      tracking_company: f.trackingInfo[0]?.company ?? null,
      tracking_number: f.trackingInfo[0]?.number ?? null,
    })),
    refunds: order.refunds.map((r) => ({
      id: legacyId(r.id),
      created_at: r.createdAt,
      refund_line_items: r.refundLineItems.nodes.map((rl) => ({
        line_item_id: legacyId(rl.lineItem.id),
        quantity: rl.quantity,
      })),
      order_adjustments: r.orderAdjustments.nodes.map((a) => ({
        kind: a.reason === "REFUND_DISCREPANCY" ? "refund_discrepancy" : "shipping_refund",
        amount: shopAmount(a.amountSet),
      })),
    })),
  };
}

/** The order as the mapping reads it. */
export function toWebhookOrder(order: GraphqlOrder): ShopifyOrder {
  return ShopifyOrderSchema.parse(toWebhookJson(order));
}
