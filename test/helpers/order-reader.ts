// An in-memory OrderReader for tests that are about the app's side of reading orders (not Shopify's API):
// serves the orders it holds in pages, and records each query it was asked.
import type { OrderReader } from "../../app/shopify/order-reader";

export interface FakeReader extends OrderReader {
  orders: Array<Record<string, unknown>>;
  queries: string[];
  /** Runs before each page is answered (to hold a pass mid-way, or fail it). */
  beforePage?: () => Promise<void>;
}

export function fakeReader(orders: Array<Record<string, unknown>> = [], pageSize = 2): FakeReader {
  const reader: FakeReader = {
    orders,
    queries: [],
    async listOrders(_shop, { query, first, after }) {
      reader.queries.push(query);
      await reader.beforePage?.();
      const start = after ? Number(after) : 0;
      const size = Math.min(first ?? pageSize, pageSize);
      const page = reader.orders.slice(start, start + size);
      const end = start + page.length;
      return {
        orders: page,
        pageInfo: { hasNextPage: end < reader.orders.length, endCursor: page.length ? String(end) : null },
      };
    },
    async readOrder(_shop, orderId) {
      return (
        reader.orders.find((order) => String(order.id) === String(orderId).replace(/^gid:\/\/shopify\/Order\//, "")) ??
        null
      );
    },
  };
  return reader;
}
