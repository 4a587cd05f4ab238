// The app's OrderReaders: Shopify's Admin GraphQL API with the shop's offline session (app/shopify).
import { env } from "../env.server";
import { guardedFetch } from "../http/outbound-guard.server";
import { API_VERSION } from "./api-version";
import { adminGraphql, listOrders, readOrder } from "./";
import {
  BULK_FILE_HOSTS,
  BULK_FILE_MAX_BYTES,
  bulkOperationWith,
  bulkOrdersToWebhook,
  bulkQueriesAtOnce,
  countOrdersWith,
  downloadBulkOrders,
  startBulkOrdersWith,
} from "./bulk-reads";
import { readOrderWith } from "./orders.server";
import type { BulkReader, OrderReader } from "./order-reader";

/**
 * Bulk files are read through the outbound guard: only from Shopify's file host (or, in development, the stand-in
 * that SHOPIFY_ADMIN_API_URL names), and without the shop's access token (a file link is signed on its own).
 */
function bulkFileFetch(): typeof fetch {
  const base = env().SHOPIFY_ADMIN_API_URL;
  return base
    ? guardedFetch({ allowedHosts: [new URL(base).host.toLowerCase()], allowLocal: true })
    : guardedFetch({ allowedHosts: BULK_FILE_HOSTS, allowLocal: false });
}

const shopifyBulk: BulkReader = {
  atOnce: bulkQueriesAtOnce(String(API_VERSION)),
  countOrders: async (shop, query) => countOrdersWith(await adminGraphql(shop), query),
  start: async (shop, query) => startBulkOrdersWith(await adminGraphql(shop), query),
  status: async (shop, id) => bulkOperationWith(await adminGraphql(shop), id),
  download: async (shop, url) => {
    const raw = await downloadBulkOrders(bulkFileFetch(), url, { maxBytes: BULK_FILE_MAX_BYTES });
    return bulkOrdersToWebhook(await adminGraphql(shop), raw);
  },
};

/** For background work (reconciliation, past-orders runs): the client's full patience with Shopify. */
export const shopifyOrders: OrderReader = {
  listOrders: (shop, { query, first, after, sortKey }) => listOrders(shop, { query, first, after, sortKey }),
  readOrder: (shop, orderId) => readOrder(shop, orderId),
  bulk: shopifyBulk,
};

/** While a merchant waits for the answer (Invoice now, the order list's bulk action): fewer, shorter attempts. */
export const interactiveOrders: OrderReader = {
  listOrders: shopifyOrders.listOrders,
  readOrder: async (shop, orderId) =>
    readOrderWith(await adminGraphql(shop, { maxAttempts: 2, timeoutMs: 8_000, maxWaitMs: 5_000 }), orderId),
};
