// The app's OrderReaders: Shopify's Admin GraphQL API with the shop's offline session (app/shopify-admin).
import { adminGraphql, listOrders, readOrder } from "../shopify-admin";
import { readOrderWith } from "../shopify-admin/orders.server";
import type { OrderReader } from "./order-reader";

/** For background work (reconciliation, past-orders runs): the client's full patience with Shopify. */
export const shopifyOrders: OrderReader = {
  listOrders: (shop, { query, first, after, sortKey }) => listOrders(shop, { query, first, after, sortKey }),
  readOrder: (shop, orderId) => readOrder(shop, orderId),
};

/** While a merchant waits for the answer (Invoice now, the order list's bulk action): fewer, shorter attempts. */
export const interactiveOrders: OrderReader = {
  ...shopifyOrders,
  readOrder: async (shop, orderId) => readOrderWith(await adminGraphql(shop, { maxAttempts: 2, timeoutMs: 8_000, maxWaitMs: 5_000 }), orderId),
};
