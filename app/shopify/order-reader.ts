// What reconciliation, past-orders runs and the bulk action need from Shopify's Admin API: orders in the
// webhook's shape (app/orders/order.ts), found by Shopify's search syntax, page by page. The app's
// implementation is app/shopify (GraphQL with the shop's offline session); tests may pass their own.
export interface OrderPage {
  orders: unknown[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export interface OrderReader {
  listOrders(
    shop: string,
    args: { query: string; first?: number; after?: string | null; sortKey?: "UPDATED_AT" | "CREATED_AT" },
  ): Promise<OrderPage>;
  readOrder(shop: string, orderId: string): Promise<unknown | null>;
  /** Reading a large range with one bulk query operation (app/shopify/bulk-operations.server.ts); without it, everything is read page by page. */
  bulk?: BulkReader;
}

/** Shopify's bulk query operations over orders (app/shopify/bulk-reads.ts). */
export interface BulkReader {
  /** Bulk query operations Shopify lets the app run at once per shop, for its API version. */
  readonly atOnce: number;
  /** Orders matching the search (at most 10,000 counted). */
  countOrders(shop: string, query: string): Promise<number>;
  start(
    shop: string,
    query: string,
  ): Promise<{ ok: true; id: string } | { ok: false; code: string | null; message: string }>;
  /** The operation as Shopify reports it now; null if it does not know it. */
  status(
    shop: string,
    operationId: string,
  ): Promise<{ status: string; errorCode: string | null; objectCount: number; url: string | null } | null>;
  /** Every order of the operation's file, in the webhook's shape and complete (as `listOrders` returns them). */
  download(shop: string, url: string): Promise<unknown[]>;
}

/** Shopify search-syntax date-time. */
const at = (date: Date) => `'${date.toISOString()}'`;

/**
 * Paid orders (fully, or partially refunded) matching `terms`: written out as an OR of ANDs, which
 * Shopify's search and the local stand-in read the same way.
 */
export function paidOrdersQuery(terms: string[]): string {
  return ["paid", "partially_refunded"]
    .map((status) => [...terms, `financial_status:${status}`].join(" "))
    .join(" OR ");
}

/** Orders updated at or after `since` (reconciliation). */
export const updatedSinceQuery = (since: Date) => paidOrdersQuery([`updated_at:>=${at(since)}`]);

/** Orders created in [from, to) (a past-orders run). */
export const createdBetweenQuery = (from: Date, to: Date) =>
  paidOrdersQuery([`created_at:>=${at(from)}`, `created_at:<${at(to)}`]);
