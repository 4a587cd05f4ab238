// The Admin API client against the stand-in: the cost bucket and THROTTLED answers slow it down without losing a
// page, 5xx answers are retried, retries end, and each failure has its own kind. Time is simulated: the
// stand-in's bucket and the client's sleeps share one clock, so nothing here waits for real.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAdminClient, BucketState, type AdminClientOptions } from "../../app/shopify/client.server";
import { AdminAccessDeniedError, AdminApiError, isAccessDenied } from "../../app/shopify/errors";
import { listOrdersWith, readOrderWith, type Order } from "../../app/shopify/order-reads";
import { startStandin, type Standin, type StandinOptions } from "../../shopify-standin/server";
import { fixtureNames, fixtureOrder } from "../orders/fixture-loader";

const orders = fixtureNames().map(fixtureOrder) as Array<{ id: number; updated_at: string }>;
let standin: Standin | undefined;
afterEach(async () => {
  await standin?.stop();
  standin = undefined;
});

/** A stand-in and a client sharing a simulated clock; `sleeps` lists every wait the client asked for. */
async function setup(options: StandinOptions = {}, client: Partial<AdminClientOptions> = {}) {
  let clock = Date.parse("2026-11-23T12:00:00Z");
  const sleeps: number[] = [];
  standin = await startStandin({
    orders,
    scopes: ["read_orders", "write_orders", "read_all_orders"],
    now: () => new Date(clock),
    ...options,
  });
  const admin = createAdminClient({
    shop: standin.shop,
    endpoint: standin.graphqlUrl(),
    accessToken: standin.accessToken,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    bucket: new BucketState(),
    ...client,
  });
  return { admin, sleeps, standin };
}

async function readAll(admin: Parameters<typeof listOrdersWith>[0], query = "", first = 5): Promise<Order[]> {
  const all: Order[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page = await listOrdersWith(admin, { query, first, after, sortKey: "UPDATED_AT" });
    all.push(...page.orders);
    if (!page.pageInfo.hasNextPage) return all;
    after = page.pageInfo.endCursor;
  }
  throw new Error("no end of pages");
}

const allIds = () => orders.map((o) => o.id).sort();

describe("the cost bucket", () => {
  it("a small bucket makes the client wait between pages, and every order is read exactly once", async () => {
    // 1000 points, 50 restored per second: a page of 5 full orders requests about 930.
    const { admin, sleeps, standin } = await setup({ bucketSize: 1000, restoreRate: 50 });
    const read = await readAll(admin);
    expect(read.map((o) => o.id).sort()).toEqual(allIds());
    expect(sleeps.length).toBeGreaterThan(0);
    expect(admin.stats.waitedMs).toBeGreaterThan(0);
    // Waiting up front, the client is seldom refused; a refusal is retried, never skipped.
    expect(standin.stats().throttled).toBeLessThanOrEqual(admin.stats.throttledRetries);
  });

  it("THROTTLED answers slow the reader down without losing a page", async () => {
    const { admin, sleeps, standin } = await setup();
    const first = await listOrdersWith(admin, { query: "", first: 5 });
    standin.setFaults({ throttled: 3 });
    const rest: Order[] = [];
    let after = first.pageInfo.endCursor;
    for (;;) {
      const page = await listOrdersWith(admin, { query: "", first: 5, after });
      rest.push(...page.orders);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect([...first.orders, ...rest].map((o) => o.id).sort()).toEqual(allIds());
    expect(admin.stats.throttledRetries).toBe(3);
    expect(standin.stats().throttled).toBe(3);
    expect(sleeps.filter((ms) => ms > 0).length).toBeGreaterThanOrEqual(3);
  });

  it("gives up after a bounded number of THROTTLED answers, with kind 'throttled'", async () => {
    const { admin, standin } = await setup({}, { maxThrottledAttempts: 4 });
    standin.setFaults({ throttled: 1000 });
    const error = await readOrderWith(admin, orders[0].id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminApiError);
    expect((error as AdminApiError).kind).toBe("throttled");
    expect((error as AdminApiError).transient).toBe(true);
    expect(standin.stats().throttled).toBe(4);
  });

  it("reports the cost in extensions the way Shopify does", async () => {
    const { standin } = await setup({ bucketSize: 2000, restoreRate: 100 });
    const { json } = await standin.request({
      query: "{ orders(first: 3) { nodes { id name } pageInfo { hasNextPage endCursor } } }",
    });
    expect(json.extensions.cost).toEqual({
      requestedQueryCost: 5,
      actualQueryCost: 5,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1995, restoreRate: 100 },
    });
  });
});

describe("failures", () => {
  it("5xx answers are retried with backoff and the read succeeds", async () => {
    const { admin, sleeps, standin } = await setup();
    standin.setFaults({ serverErrors: 2, status: 502 });
    const order = await readOrderWith(admin, orders[0].id);
    expect(order?.id).toBe(orders[0].id);
    expect(admin.stats.failureRetries).toBe(2);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]).toBeGreaterThanOrEqual(sleeps[0] / 2);
  });

  it("gives up on 5xx after a bounded number of attempts, with kind 'unavailable'", async () => {
    const { admin, standin } = await setup({}, { maxAttempts: 3 });
    standin.setFaults({ serverErrors: 1000 });
    const error = (await readOrderWith(admin, orders[0].id).catch((e: unknown) => e)) as AdminApiError;
    expect(error.kind).toBe("unavailable");
    expect(error.details.attempts).toBe(3);
    expect(standin.stats().serverErrors).toBe(3);
  });

  it("a network failure is retried, then 'unavailable'", async () => {
    const { admin } = await setup(
      {},
      { endpoint: "http://127.0.0.1:9/admin/api/2026-10/graphql.json", maxAttempts: 2 },
    );
    const error = (await readOrderWith(admin, 1).catch((e: unknown) => e)) as AdminApiError;
    expect(error.kind).toBe("unavailable");
    expect(admin.stats.failureRetries).toBe(1);
  });

  it("a wrong access token is 'unauthorized' at once", async () => {
    const { admin } = await setup({}, { accessToken: "shpat_wrong" });
    const error = (await readOrderWith(admin, orders[0].id).catch((e: unknown) => e)) as AdminApiError;
    expect(error.kind).toBe("unauthorized");
    expect(admin.stats.requests).toBe(1);
  });

  it("a missing scope is AdminAccessDeniedError, naming the scope", async () => {
    const { admin, standin } = await setup({ scopes: ["read_orders"] });
    const mutation = `mutation Tag($id: ID!, $tags: [String!]!) { tagsAdd(id: $id, tags: $tags) { node { id } userErrors { field message } } }`;
    const error = await admin
      .graphql(mutation, { id: `gid://shopify/Order/${orders[0].id}`, tags: ["e-fatura"] }, z.unknown())
      .catch((e: unknown) => e);
    expect(isAccessDenied(error)).toBe(true);
    expect((error as AdminAccessDeniedError).requiredAccess).toContain("write_orders");
    expect(standin.mutations()).toEqual([]);
  });

  it("orders older than 60 days are invisible without read_all_orders", async () => {
    const { admin } = await setup({ scopes: ["read_orders"], now: () => new Date("2027-03-01T00:00:00Z") });
    expect(await readOrderWith(admin, orders[0].id)).toBeNull();
    expect((await listOrdersWith(admin, { query: "" })).orders).toEqual([]);
  });

  it("an answer of the wrong shape is 'invalid_response'", async () => {
    const { admin } = await setup();
    const error = (await admin
      .graphql("{ shop { name } }", {}, z.object({ shop: z.object({ name: z.number() }) }))
      .catch((e: unknown) => e)) as AdminApiError;
    expect(error.kind).toBe("invalid_response");
  });

  it("a query Shopify would refuse is 'graphql', not retried", async () => {
    const { admin } = await setup();
    const error = (await admin
      .graphql("{ orders(first: 5) { nodes { noSuchField } } }", {}, z.unknown())
      .catch((e: unknown) => e)) as AdminApiError;
    expect(error.kind).toBe("graphql");
    expect(admin.stats.requests).toBe(1);
  });
});
