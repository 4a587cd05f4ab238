// What the paged order read costs at Shopify's rates (issue 26, point 3), by the stand-in's cost model (Shopify's
// published rules): a full page of ORDERS_PAGE_MAX orders stays under the 1,000 points one query may request, and an
// ordinary order (one line, one shipping line) costs what the mapping needs, no more. bench/order-cost.bench.ts
// prints the cost of each field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BucketState, createAdminClient } from "../../app/shopify/client.server";
import { listOrdersWith, ORDERS_PAGE_MAX } from "../../app/shopify/order-reads";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { paidOrder } from "../helpers/orders";

let standin: Standin;
const orders = Array.from({ length: 3 * ORDERS_PAGE_MAX }, () => paidOrder());

beforeAll(async () => {
  // The orders' dates are fixed: without read_all_orders the stand-in, as Shopify, hides orders older than 60 days.
  standin = await startStandin({
    orders,
    scopes: ["read_orders", "read_all_orders"],
    bucketSize: 1_000_000,
    restoreRate: 1_000_000,
  });
});
afterAll(() => standin.stop());

describe("the paged order read's cost", () => {
  it("reads full pages of ORDERS_PAGE_MAX orders, each under Shopify's single-query limit, at most 55 actual points per ordinary order", async () => {
    const client = createAdminClient({
      shop: standin.shop,
      endpoint: standin.graphqlUrl(),
      accessToken: standin.accessToken,
      bucket: new BucketState(),
    });
    const before = standin.stats();
    let read = 0;
    let after: string | null = null;
    do {
      // MAX_COST_EXCEEDED (a page requesting more than 1,000 points) would throw here.
      const page = await listOrdersWith(client, { query: "", after, sortKey: "ID" });
      expect(page.orders.length === ORDERS_PAGE_MAX || !page.pageInfo.hasNextPage).toBe(true);
      read += page.orders.length;
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    const stats = standin.stats();
    expect(read).toBe(orders.length);
    expect(stats.queries - before.queries).toBe(3);
    // 66.4 before the fields the mapping never reads were dropped.
    expect((stats.pointsSpent - before.pointsSpent) / read).toBeLessThanOrEqual(55);
  });
});
