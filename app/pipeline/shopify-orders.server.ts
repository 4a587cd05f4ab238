// The app's OrderReader: Shopify's Admin GraphQL API with the shop's offline session (app/shopify-admin).
import { listOrders, readOrder } from "../shopify-admin";
import type { OrderReader } from "./order-reader";

export const shopifyOrders: OrderReader = {
  listOrders: (shop, { query, first, after, sortKey }) => listOrders(shop, { query, first, after, sortKey }),
  readOrder: (shop, orderId) => readOrder(shop, orderId),
};
