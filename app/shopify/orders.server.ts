// readOrder/listOrders for an installed shop: its offline session's client (admin.server.ts) and the reads of
// order-reads.ts.
import { adminGraphql } from "./admin.server";
import { listOrdersWith, readOrderWith, type ListOrdersOptions, type Order, type OrderPage } from "./order-reads";

export {
  listOrdersWith,
  readOrderWith,
  orderGid,
  ORDERS_PAGE_MAX,
  type ListOrdersOptions,
  type Order,
  type OrderPage,
} from "./order-reads";

/** The order as it stands now, in the webhook's shape; null if Shopify has no such order for this shop. */
export async function readOrder(shop: string, orderId: string | number): Promise<Order | null> {
  return readOrderWith(await adminGraphql(shop), orderId);
}

/** One page of the shop's orders matching a Shopify search query, oldest update first by default. */
export async function listOrders(shop: string, options: ListOrdersOptions): Promise<OrderPage> {
  return listOrdersWith(await adminGraphql(shop), options);
}
