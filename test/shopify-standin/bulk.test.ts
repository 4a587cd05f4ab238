// The stand-in's bulk query operations, as Shopify documents them (shopify.dev/docs/api/usage/bulk-operations/queries):
// the rules a bulk query must follow, the concurrency limit of the API version, the operation's progress through
// node(id:) and currentBulkOperation, the JSONL file with `__parentId` lines, the signed bulk_operations/finish
// delivery, and the faults tests ask for (FAILED, EXPIRED, a download cut half-way, a webhook that never comes).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { shopifyHmac } from "../../scripts/lib/shopify-signing";
import { buildSchema } from "graphql";
import { checkBulkQuery } from "../../shopify-standin/bulk";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { paidOrder } from "../helpers/orders";

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are read loosely here */

const SECRET = "bulk-test-secret";
const deliveries: Array<{ headers: http.IncomingHttpHeaders; body: string; path: string }> = [];
let receiver: http.Server;
let standin: Standin;
const orders = [
  paidOrder({ line_items: [paidOrder().line_items[0], { ...paidOrder().line_items[0], id: 77_000_001 }] }),
  paidOrder(),
  paidOrder(),
];

async function gql(query: string, variables: Record<string, unknown> = {}, version = "2026-10") {
  const response = await fetch(standin.graphqlUrl(version), {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": standin.accessToken },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as any;
}

const RUN = `mutation Run($query: String!) { bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { code field message } } }`;
const POLL = `query Poll($id: ID!) { node(id: $id) { ... on BulkOperation { id status errorCode objectCount rootObjectCount url fileSize } } }`;
const LINES = orders.reduce((sum, order) => sum + 1 + (order.line_items as unknown[]).length, 0);
const ORDERS_QUERY = `{ orders(query: "financial_status:paid") { edges { node { id name lineItems { edges { node { id quantity } } } } } } }`;

async function run(query: string, version = "2026-10") {
  return (await gql(RUN, { query }, version)).data.bulkOperationRunQuery;
}

async function finished(id: string) {
  for (let i = 0; i < 200; i++) {
    const node = (await gql(POLL, { id })).data.node;
    if (!["CREATED", "RUNNING"].includes(node.status)) return node;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the operation never finished");
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body, path: req.url ?? "" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  // The orders' dates are fixed: without read_all_orders the stand-in, as Shopify, hides orders older than 60 days.
  standin = await startStandin({
    orders,
    scopes: ["read_orders", "write_orders", "read_all_orders"],
    bulkMsPerObject: 5,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    webhookSecret: SECRET,
  });
});

afterAll(async () => {
  await standin.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

afterEach(async () => {
  // Let every operation of a test finish, so the next test starts with none running.
  await new Promise((resolve) => setTimeout(resolve, 60));
});

describe("bulk query operations", () => {
  it("runs a query over a whole connection and serves its JSONL file, nested nodes as lines with __parentId", async () => {
    const started = await run(ORDERS_QUERY);
    expect(started.userErrors).toEqual([]);
    expect(started.bulkOperation.status).toBe("CREATED");
    expect(started.bulkOperation.id).toMatch(/^gid:\/\/shopify\/BulkOperation\/\d+$/);
    const done = await finished(started.bulkOperation.id);
    expect(done).toMatchObject({
      status: "COMPLETED",
      errorCode: null,
      objectCount: String(LINES),
      rootObjectCount: "3",
    });
    const current = (await gql(`{ currentBulkOperation { id status url } }`)).data.currentBulkOperation;
    expect(current).toMatchObject({ id: started.bulkOperation.id, status: "COMPLETED", url: done.url });

    const response = await fetch(done.url);
    const text = await response.text();
    expect(Number(done.fileSize)).toBe(Buffer.byteLength(text));
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const parents = lines.filter((line) => !line.__parentId);
    expect(parents.map((line) => line.id).sort()).toEqual(orders.map((o) => `gid://shopify/Order/${o.id}`).sort());
    expect(parents[0]).not.toHaveProperty("lineItems");
    const first = `gid://shopify/Order/${orders[0].id}`;
    expect(lines.filter((line) => line.__parentId === first).map((line) => line.id)).toEqual(
      orders[0].line_items.map((item: { id: number }) => `gid://shopify/LineItem/${item.id}`),
    );
    expect(lines.filter((line) => line.__parentId)).toHaveLength(LINES - 3);
  });

  it("delivers bulk_operations/finish signed with the app's secret, with Shopify's payload", async () => {
    deliveries.length = 0;
    const started = await run(ORDERS_QUERY);
    await finished(started.bulkOperation.id);
    for (let i = 0; i < 100 && deliveries.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const [delivery] = deliveries;
    expect(delivery.path).toBe("/webhooks/bulk_operations/finish");
    expect(delivery.headers["x-shopify-topic"]).toBe("bulk_operations/finish");
    expect(delivery.headers["x-shopify-shop-domain"]).toBe(standin.shop);
    expect(delivery.headers["x-shopify-hmac-sha256"]).toBe(shopifyHmac(delivery.body, SECRET));
    expect(JSON.parse(delivery.body)).toMatchObject({
      admin_graphql_api_id: started.bulkOperation.id,
      status: "completed",
      error_code: null,
      type: "query",
    });
  });

  it.each([
    ["no connection", `{ shop { name } }`, /connection as their top-level field/],
    ["the top-level node field", `{ node(id: "gid://shopify/Order/1") { id } }`, /node/],
    [
      "a connection inside a list",
      `{ orders { edges { node { id refunds { id refundLineItems { edges { node { quantity } } } } } } } }`,
      /within a list field/,
    ],
    [
      "six connections",
      `{ orders { nodes { id a: lineItems { nodes { id } } b: lineItems { nodes { id } } c: shippingLines { nodes { id } } d: metafields { nodes { id } } e: shippingLines { nodes { id } } } } }`,
      /more than 5 connections/,
    ],
    ["variables", `query($q: String) { orders(query: $q) { nodes { id } } }`, /variables/],
    ["an invalid field", `{ orders { nodes { idd } } }`, /Cannot query field "idd"/],
  ])("refuses a query with %s as Shopify does", async (_name, query, message: RegExp) => {
    const answer = await run(query);
    expect(answer.bulkOperation).toBeNull();
    expect(answer.userErrors[0].code).toBe("INVALID");
    expect(answer.userErrors[0].message).toMatch(message);
  });

  it("refuses connections nested three levels deep, and allows two", () => {
    // The stand-in's subset has no third level under orders; the rule is checked on a schema that has one.
    const schema = buildSchema(`type PageInfo { hasNextPage: Boolean! }
      type C { id: ID! }
      type CConnection { nodes: [C!]! }
      type B { id: ID! cs: CConnection! }
      type BConnection { nodes: [B!]! }
      type A { id: ID! bs: BConnection! }
      type AConnection { nodes: [A!]! }
      type QueryRoot { as: AConnection! }
      schema { query: QueryRoot }`);
    expect(checkBulkQuery(schema, `{ as { nodes { id bs { nodes { id cs { nodes { id } } } } } } }`)).toEqual({
      error: expect.stringMatching(/nesting depth greater than 2/),
    });
    expect(checkBulkQuery(schema, `{ as { nodes { id bs { nodes { id } } } } }`)).not.toHaveProperty("error");
  });

  it("runs at most five bulk queries at once from API 2026-01, one before", async () => {
    await standin.request({ query: "{ shop { name } }" }); // nothing running from earlier tests
    standin.setFaults({ bulkMsPerObject: 100 });
    try {
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await run(ORDERS_QUERY));
      expect(answers.slice(0, 5).every((a) => a.userErrors.length === 0)).toBe(true);
      expect(answers[5].bulkOperation).toBeNull();
      expect(answers[5].userErrors[0].code).toBe("LIMIT_REACHED");
      const old = await run(ORDERS_QUERY, "2025-10");
      expect(old.userErrors[0].code).toBe("OPERATION_IN_PROGRESS");
      await finished(answers[4].bulkOperation.id);
      const later = await run(ORDERS_QUERY);
      expect(later.userErrors).toEqual([]);
      await finished(later.bulkOperation.id);
    } finally {
      standin.setFaults({ bulkMsPerObject: 5 });
    }
  });

  it("fails an operation on demand with an error code, and without the scope with ACCESS_DENIED", async () => {
    standin.setFaults({ bulkFailures: 1, bulkErrorCode: "TIMEOUT" });
    const failed = await finished((await run(ORDERS_QUERY)).bulkOperation.id);
    expect(failed).toMatchObject({ status: "FAILED", errorCode: "TIMEOUT", url: null });
    const next = await finished((await run(ORDERS_QUERY)).bulkOperation.id);
    expect(next.status).toBe("COMPLETED");

    const noScope = await startStandin({ orders, scopes: ["write_orders"], bulkMsPerObject: 0 });
    try {
      const answer = (await noScope.request({ query: RUN, variables: { query: ORDERS_QUERY } })).json as any;
      const id = answer.data.bulkOperationRunQuery.bulkOperation.id;
      let node: any = null;
      for (let i = 0; i < 200 && (!node || ["CREATED", "RUNNING"].includes(node.status)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        node = ((await noScope.request({ query: POLL, variables: { id } })).json as any).data.node;
      }
      expect(node).toMatchObject({ status: "FAILED", errorCode: "ACCESS_DENIED" });
    } finally {
      await noScope.stop();
    }
  });

  it("expires a file on demand: EXPIRED, no url, and the old address refuses", async () => {
    const first = await finished((await run(ORDERS_QUERY)).bulkOperation.id);
    standin.setFaults({ bulkExpired: 1 });
    const id = (await run(ORDERS_QUERY)).bulkOperation.id;
    await new Promise((resolve) => setTimeout(resolve, 60));
    const expired = (await gql(POLL, { id })).data.node;
    expect(expired).toMatchObject({ status: "EXPIRED", url: null });
    expect((await fetch(first.url)).status).toBe(200);
  });

  it("cuts a download half-way on demand", async () => {
    const done = await finished((await run(ORDERS_QUERY)).bulkOperation.id);
    standin.setFaults({ bulkCutDownloads: 1 });
    await expect(fetch(done.url).then((r) => r.text())).rejects.toThrow();
    expect((await (await fetch(done.url)).text()).trim().split("\n")).toHaveLength(LINES);
  });

  it("drops the finish webhook on demand (polling is then the only way to learn the end)", async () => {
    deliveries.length = 0;
    standin.setFaults({ bulkDroppedWebhooks: 1 });
    const done = await finished((await run(ORDERS_QUERY)).bulkOperation.id);
    expect(done.status).toBe("COMPLETED");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(deliveries).toHaveLength(0);
  });

  it("counts orders matching a search, as ordersCount does", async () => {
    const answer = await gql(
      `query { ordersCount(query: "financial_status:paid") { count precision } capped: ordersCount(limit: 2) { count precision } }`,
    );
    expect(answer.data.ordersCount).toEqual({ count: 3, precision: "EXACT" });
    expect(answer.data.capped).toEqual({ count: 2, precision: "AT_LEAST" });
  });
});
