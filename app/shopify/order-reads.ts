// Orders read through the Admin GraphQL API with a given client, returned in the webhook's REST shape
// (app/orders/graphql-order.ts), so reconciliation, past orders and "invoice now" feed the same mapping as the
// orders/paid webhook. No configuration is read here (benchmarks and tests bring their own client);
// app/shopify/orders.server.ts wires the shop's session.
// An order's line items, shipping lines, and each refund's lines and adjustments beyond the first page are read
// page by page before it is returned: an order is never invoiced from part of its lines or refunds.
import { z } from "zod";
import type { ShopifyOrder } from "../orders/order";
import {
  GraphqlLineItemSchema,
  GraphqlOrderAdjustmentSchema,
  GraphqlOrderSchema,
  GraphqlRefundLineItemSchema,
  GraphqlShippingLineSchema,
  LINE_ITEM_FIELDS,
  ORDER_ADJUSTMENT_FIELDS,
  ORDER_FIELDS,
  REFUND_FIELDS,
  REFUND_LINE_ITEM_FIELDS,
  REFUNDS_FIRST,
  SHIPPING_LINE_FIELDS,
  toWebhookOrder,
  type GraphqlOrder,
} from "../orders/graphql-order";
import type {
  ListOrdersQuery,
  OrderLineItemsQuery,
  OrderRefundsQuery,
  OrderShippingLinesQuery,
  ReadOrderQuery,
  RefundLineItemsQuery,
  RefundOrderAdjustmentsQuery,
} from "./admin.generated";
import { answerShape } from "./answers";
import type { AdminGraphql } from "./client.server";
import { AdminApiError } from "./errors";

/** An order in the webhook's shape, as the mapping reads it. */
export type Order = ShopifyOrder;

export interface OrderPage {
  orders: Order[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export interface ListOrdersOptions {
  /** Shopify search syntax, e.g. "financial_status:paid updated_at:>='2026-11-20T00:00:00Z'". */
  query: string;
  /** Orders per page (default and most 5: a page of full orders costs about 930 of the 1000 points one query may request). */
  first?: number;
  after?: string | null;
  /** Default UPDATED_AT (what reconciliation walks). */
  sortKey?: "UPDATED_AT" | "CREATED_AT" | "ID" | "PROCESSED_AT";
  reverse?: boolean;
}

export const ORDERS_PAGE_MAX = 9;
const LINES_PAGE = 50;

const PageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

const READ_ORDER = `query ReadOrder($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`;
const LIST_ORDERS = `query ListOrders($first: Int!, $after: String, $query: String, $sortKey: OrderSortKeys, $reverse: Boolean) {
  orders(first: $first, after: $after, query: $query, sortKey: $sortKey, reverse: $reverse) {
    nodes { ${ORDER_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;
const MORE_LINE_ITEMS = `query OrderLineItems($id: ID!, $after: String) { order(id: $id) {
  lineItems(first: ${LINES_PAGE}, after: $after) { nodes { ${LINE_ITEM_FIELDS} } pageInfo { hasNextPage endCursor } } } }`;
const MORE_SHIPPING_LINES = `query OrderShippingLines($id: ID!, $after: String) { order(id: $id) {
  shippingLines(first: ${LINES_PAGE}, after: $after) { nodes { ${SHIPPING_LINE_FIELDS} } pageInfo { hasNextPage endCursor } } } }`;

// A refund's further pages through `refund(id:)`: 50 refund lines cost 2 + 50 × 2 = 102 points requested.
const MORE_REFUND_LINE_ITEMS = `query RefundLineItems($id: ID!, $after: String) { refund(id: $id) {
  refundLineItems(first: ${LINES_PAGE}, after: $after) { nodes { ${REFUND_LINE_ITEM_FIELDS} } pageInfo { hasNextPage endCursor } } } }`;
const MORE_ORDER_ADJUSTMENTS = `query RefundOrderAdjustments($id: ID!, $after: String) { refund(id: $id) {
  orderAdjustments(first: ${LINES_PAGE}, after: $after) { nodes { ${ORDER_ADJUSTMENT_FIELDS} } pageInfo { hasNextPage endCursor } } } }`;

// Every refund of an order whose first answer held REFUNDS_FIRST (the list may have been cut there).
const ALL_REFUNDS = `query OrderRefunds($id: ID!) { order(id: $id) { refunds { ${REFUND_FIELDS} } } }`;

const ReadOrderData = answerShape<ReadOrderQuery>()(z.object({ order: GraphqlOrderSchema.nullable() }));
const AllRefunds = answerShape<OrderRefundsQuery>()(
  z.object({ order: GraphqlOrderSchema.pick({ refunds: true }).nullable() }),
);
const ListOrdersData = answerShape<ListOrdersQuery>()(
  z.object({ orders: z.object({ nodes: z.array(GraphqlOrderSchema), pageInfo: PageInfo }) }),
);
const MoreLineItems = answerShape<OrderLineItemsQuery>()(
  z.object({
    order: z.object({ lineItems: z.object({ nodes: z.array(GraphqlLineItemSchema), pageInfo: PageInfo }) }).nullable(),
  }),
);
const MoreRefundLineItems = answerShape<RefundLineItemsQuery>()(
  z.object({
    refund: z
      .object({ refundLineItems: z.object({ nodes: z.array(GraphqlRefundLineItemSchema), pageInfo: PageInfo }) })
      .nullable(),
  }),
);
const MoreOrderAdjustments = answerShape<RefundOrderAdjustmentsQuery>()(
  z.object({
    refund: z
      .object({ orderAdjustments: z.object({ nodes: z.array(GraphqlOrderAdjustmentSchema), pageInfo: PageInfo }) })
      .nullable(),
  }),
);
const MoreShippingLines = answerShape<OrderShippingLinesQuery>()(
  z.object({
    order: z
      .object({ shippingLines: z.object({ nodes: z.array(GraphqlShippingLineSchema), pageInfo: PageInfo }) })
      .nullable(),
  }),
);

/** "gid://shopify/Order/123" for 123, "123" or a GID. */
export function orderGid(orderId: string | number): string {
  const text = String(orderId);
  if (/^gid:\/\/shopify\/Order\/\d+$/.test(text)) return text;
  if (/^\d+$/.test(text)) return `gid://shopify/Order/${text}`;
  throw new AdminApiError("graphql", `not an order id: ${text}`);
}

/** Reads the pages of line items, shipping lines, refund lines and adjustments the first answer did not hold. */
async function complete(client: AdminGraphql, order: GraphqlOrder): Promise<GraphqlOrder> {
  const lineItems = [...order.lineItems.nodes];
  let page = order.lineItems.pageInfo;
  while (page.hasNextPage) {
    const data = await client.graphql(MORE_LINE_ITEMS, { id: order.id, after: page.endCursor }, MoreLineItems);
    if (!data.order)
      throw new AdminApiError("invalid_response", `${order.name} disappeared while its line items were read`);
    lineItems.push(...data.order.lineItems.nodes);
    page = data.order.lineItems.pageInfo;
  }
  const shippingLines = [...order.shippingLines.nodes];
  page = order.shippingLines.pageInfo;
  while (page.hasNextPage) {
    const data = await client.graphql(MORE_SHIPPING_LINES, { id: order.id, after: page.endCursor }, MoreShippingLines);
    if (!data.order)
      throw new AdminApiError("invalid_response", `${order.name} disappeared while its shipping lines were read`);
    shippingLines.push(...data.order.shippingLines.nodes);
    page = data.order.shippingLines.pageInfo;
  }
  let firstRefunds = order.refunds;
  if (firstRefunds.length >= REFUNDS_FIRST) {
    const data = await client.graphql(ALL_REFUNDS, { id: order.id }, AllRefunds);
    if (!data.order)
      throw new AdminApiError("invalid_response", `${order.name} disappeared while its refunds were read`);
    firstRefunds = data.order.refunds;
  }
  const refunds: GraphqlOrder["refunds"] = [];
  for (const refund of firstRefunds) {
    const refundLineItems = [...refund.refundLineItems.nodes];
    page = refund.refundLineItems.pageInfo;
    while (page.hasNextPage) {
      const data = await client.graphql(
        MORE_REFUND_LINE_ITEMS,
        { id: refund.id, after: page.endCursor },
        MoreRefundLineItems,
      );
      if (!data.refund)
        throw new AdminApiError("invalid_response", `a refund of ${order.name} disappeared while its lines were read`);
      refundLineItems.push(...data.refund.refundLineItems.nodes);
      page = data.refund.refundLineItems.pageInfo;
    }
    const orderAdjustments = [...refund.orderAdjustments.nodes];
    page = refund.orderAdjustments.pageInfo;
    while (page.hasNextPage) {
      const data = await client.graphql(
        MORE_ORDER_ADJUSTMENTS,
        { id: refund.id, after: page.endCursor },
        MoreOrderAdjustments,
      );
      if (!data.refund)
        throw new AdminApiError(
          "invalid_response",
          `a refund of ${order.name} disappeared while its adjustments were read`,
        );
      orderAdjustments.push(...data.refund.orderAdjustments.nodes);
      page = data.refund.orderAdjustments.pageInfo;
    }
    refunds.push({
      ...refund,
      refundLineItems: { nodes: refundLineItems, pageInfo: DONE },
      orderAdjustments: { nodes: orderAdjustments, pageInfo: DONE },
    });
  }
  return {
    ...order,
    lineItems: { nodes: lineItems, pageInfo: DONE },
    shippingLines: { nodes: shippingLines, pageInfo: DONE },
    refunds,
  };
}

const DONE = { hasNextPage: false, endCursor: null };

function convert(order: GraphqlOrder): Order {
  try {
    return toWebhookOrder(order);
  } catch (error) {
    throw new AdminApiError(
      "invalid_response",
      `${order.name} could not be read as an order: ${(error as Error).message.slice(0, 300)}`,
    );
  }
}

/** The order as it stands now, or null if the shop has no such order (or the app may not see it). */
export async function readOrderWith(client: AdminGraphql, orderId: string | number): Promise<Order | null> {
  const data = await client.graphql(READ_ORDER, { id: orderGid(orderId) }, ReadOrderData);
  if (!data.order) return null;
  return convert(await complete(client, data.order));
}

export async function listOrdersWith(client: AdminGraphql, options: ListOrdersOptions): Promise<OrderPage> {
  const first = Math.min(Math.max(1, Math.floor(options.first ?? ORDERS_PAGE_MAX)), ORDERS_PAGE_MAX);
  const data = await client.graphql(
    LIST_ORDERS,
    {
      first,
      after: options.after ?? null,
      query: options.query,
      sortKey: options.sortKey ?? "UPDATED_AT",
      reverse: options.reverse ?? false,
    },
    ListOrdersData,
  );
  const orders: Order[] = [];
  for (const node of data.orders.nodes) orders.push(convert(await complete(client, node)));
  return { orders, pageInfo: data.orders.pageInfo };
}
