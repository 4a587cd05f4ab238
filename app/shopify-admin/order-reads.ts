// Orders read through the Admin GraphQL API with a given client, returned in the webhook's REST shape
// (app/orders/graphql-order.ts), so reconciliation, past orders and "invoice now" feed the same mapping as the
// orders/paid webhook. No configuration is read here (benchmarks and tests bring their own client);
// app/shopify-admin/orders.server.ts wires the shop's session.
// An order's line items (and shipping lines) beyond the first page are read page by page before it is returned:
// an order is never invoiced from part of its lines.
import { z } from "zod";
import type { ShopifyOrder } from "../orders/order";
import {
  GraphqlLineItemSchema,
  GraphqlOrderSchema,
  GraphqlShippingLineSchema,
  LINE_ITEM_FIELDS,
  ORDER_FIELDS,
  SHIPPING_LINE_FIELDS,
  toWebhookOrder,
  type GraphqlOrder,
} from "../orders/graphql-order";
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

export const ORDERS_PAGE_MAX = 5;
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

const ReadOrderData = z.object({ order: GraphqlOrderSchema.nullable() });
const ListOrdersData = z.object({ orders: z.object({ nodes: z.array(GraphqlOrderSchema), pageInfo: PageInfo }) });
const MoreLineItems = z.object({ order: z.object({ lineItems: z.object({ nodes: z.array(GraphqlLineItemSchema), pageInfo: PageInfo }) }).nullable() });
const MoreShippingLines = z.object({ order: z.object({ shippingLines: z.object({ nodes: z.array(GraphqlShippingLineSchema), pageInfo: PageInfo }) }).nullable() });

/** "gid://shopify/Order/123" for 123, "123" or a GID. */
export function orderGid(orderId: string | number): string {
  const text = String(orderId);
  if (/^gid:\/\/shopify\/Order\/\d+$/.test(text)) return text;
  if (/^\d+$/.test(text)) return `gid://shopify/Order/${text}`;
  throw new AdminApiError("graphql", `not an order id: ${text}`);
}

/** Reads the pages of line items and shipping lines the first answer did not hold. */
async function complete(client: AdminGraphql, order: GraphqlOrder): Promise<GraphqlOrder> {
  const lineItems = [...order.lineItems.nodes];
  let page = order.lineItems.pageInfo;
  while (page.hasNextPage) {
    const data = await client.graphql(MORE_LINE_ITEMS, { id: order.id, after: page.endCursor }, MoreLineItems);
    if (!data.order) throw new AdminApiError("invalid_response", `${order.name} disappeared while its line items were read`);
    lineItems.push(...data.order.lineItems.nodes);
    page = data.order.lineItems.pageInfo;
  }
  const shippingLines = [...order.shippingLines.nodes];
  page = order.shippingLines.pageInfo;
  while (page.hasNextPage) {
    const data = await client.graphql(MORE_SHIPPING_LINES, { id: order.id, after: page.endCursor }, MoreShippingLines);
    if (!data.order) throw new AdminApiError("invalid_response", `${order.name} disappeared while its shipping lines were read`);
    shippingLines.push(...data.order.shippingLines.nodes);
    page = data.order.shippingLines.pageInfo;
  }
  for (const refund of order.refunds) {
    // Refund pages beyond the first are not read: an order with more is refused rather than invoiced wrong.
    if (refund.refundLineItems.pageInfo.hasNextPage || refund.orderAdjustments.pageInfo.hasNextPage) {
      throw new AdminApiError("invalid_response", `${order.name} has a refund with more lines than the app reads at once`);
    }
  }
  return {
    ...order,
    lineItems: { nodes: lineItems, pageInfo: { hasNextPage: false, endCursor: null } },
    shippingLines: { nodes: shippingLines, pageInfo: { hasNextPage: false, endCursor: null } },
  };
}

function convert(order: GraphqlOrder): Order {
  try {
    return toWebhookOrder(order);
  } catch (error) {
    throw new AdminApiError("invalid_response", `${order.name} could not be read as an order: ${(error as Error).message.slice(0, 300)}`);
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
    { first, after: options.after ?? null, query: options.query, sortKey: options.sortKey ?? "UPDATED_AT", reverse: options.reverse ?? false },
    ListOrdersData,
  );
  const orders: Order[] = [];
  for (const node of data.orders.nodes) orders.push(convert(await complete(client, node)));
  return { orders, pageInfo: data.orders.pageInfo };
}
