// The Admin API stand-in's contract: the command's first line, the access token, Shopify's shapes (GIDs, money
// as Decimal strings, UTC DateTime, connections with pageInfo and cursors), the search filters the app uses,
// sort keys, cost and THROTTLED, and the mutations the app sends, answered with userErrors and recorded.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { fixtureNames, fixtureOrder } from "../orders/fixture-loader";

type Rest = Record<string, unknown> & { id: number; created_at: string; updated_at: string; financial_status: string };
const orders = fixtureNames().map(fixtureOrder) as Rest[];
let standin: Standin;

async function gql(query: string, variables: Record<string, unknown> = {}, token = standin.accessToken) {
  const response = await fetch(standin.graphqlUrl("2026-10"), {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": token },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Every id a query returns, page after page. */
async function ids(args: string, first = 4): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const { body } = await gql(
      `query($after: String) { orders(first: ${first}, after: $after, ${args}) { edges { cursor node { legacyResourceId } } pageInfo { hasNextPage endCursor } } }`,
      { after },
    );
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    out.push(...body.data.orders.edges.map((e: { node: { legacyResourceId: string } }) => e.node.legacyResourceId));
    if (!body.data.orders.pageInfo.hasNextPage) return out;
    after = body.data.orders.pageInfo.endCursor;
  }
  throw new Error("endless pages");
}

beforeAll(async () => {
  standin = await startStandin({
    orders,
    scopes: ["read_orders", "write_orders", "read_all_orders"],
    now: () => new Date("2026-11-23T12:00:00Z"),
  });
});
afterAll(() => standin?.stop());

describe("the command", () => {
  it("prints {url, shop, accessToken} as its first stdout line and serves the --orders file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "standin-"));
    const file = path.join(dir, "orders.json");
    writeFileSync(file, JSON.stringify(orders.slice(0, 3)));
    const child = spawn(
      "npm",
      [
        "run",
        "--silent",
        "shopify:standin",
        "--",
        "--port",
        "0",
        "--orders",
        file,
        "--shop",
        "contract-test.myshopify.com",
        "--scopes",
        "read_orders,write_orders,read_all_orders",
        "--quiet",
      ],
      { stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      const first = JSON.parse(line) as { url: string; shop: string; accessToken: string };
      expect(Object.keys(first).sort()).toEqual(["accessToken", "shop", "url"]);
      expect(first.shop).toBe("contract-test.myshopify.com");
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${first.url}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-shopify-access-token": first.accessToken },
        body: JSON.stringify({ query: "{ orders(first: 10) { nodes { id } } shop { myshopifyDomain } }" }),
      });
      const body = (await response.json()) as {
        data: { orders: { nodes: unknown[] }; shop: { myshopifyDomain: string } };
      };
      expect(body.data.orders.nodes).toHaveLength(3);
      expect(body.data.shop.myshopifyDomain).toBe("contract-test.myshopify.com");
    } finally {
      process.kill(-child.pid!, "SIGTERM");
    }
  }, 60_000);
});

describe("access", () => {
  it("refuses a missing or wrong access token with Shopify's 401", async () => {
    const wrong = await gql("{ shop { name } }", {}, "shpat_wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors).toMatch(/Invalid API key or access token/);
  });

  it("answers 404 outside the Admin GraphQL path", async () => {
    expect((await fetch(`${standin.url}/admin/api/2026-10/orders.json`)).status).toBe(404);
  });

  it("an invalid query is a validation error, not a crash", async () => {
    const { status, body } = await gql("{ orders(first: 1) { nodes { nope } } }");
    expect(status).toBe(200);
    expect(body.errors[0].message).toMatch(/Cannot query field "nope"/);
  });
});

describe("Shopify's shapes", () => {
  it("GIDs, legacy ids, Decimal money and UTC DateTime", async () => {
    const o = orders[0];
    const { body } = await gql(
      `query($id: ID!) { order(id: $id) { id legacyResourceId createdAt totalPriceSet { shopMoney { amount currencyCode } } lineItems(first: 1) { nodes { id } } } }`,
      { id: `gid://shopify/Order/${o.id}` },
    );
    const order = body.data.order;
    expect(order.id).toBe(`gid://shopify/Order/${o.id}`);
    expect(order.legacyResourceId).toBe(String(o.id));
    expect(order.createdAt).toBe(new Date(o.created_at).toISOString().replace(".000Z", "Z"));
    expect(order.totalPriceSet.shopMoney).toEqual({ amount: "549.7", currencyCode: "TRY" });
    expect(order.lineItems.nodes[0].id).toMatch(/^gid:\/\/shopify\/LineItem\/\d+$/);
  });

  it("a connection needs first or last, at most 250", async () => {
    expect((await gql("{ orders { nodes { id } } }")).body.errors[0].message).toMatch(/first or last/);
    expect((await gql("{ orders(first: 251) { nodes { id } } }")).body.errors[0].message).toMatch(/250/);
  });

  it("a query over the cost limit is refused whole with MAX_COST_EXCEEDED", async () => {
    const { body } = await gql("{ orders(first: 250) { nodes { lineItems(first: 250) { nodes { id } } } } }");
    expect(body.errors[0].extensions).toMatchObject({ code: "MAX_COST_EXCEEDED", maxCost: 1000 });
    expect(body.data).toBeUndefined();
  });
});

describe("pagination, sort keys and search", () => {
  const sorted = (list: Rest[], key: (o: Rest) => string | number) =>
    [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id)).map((o) => String(o.id));

  it("pages by cursor through every order exactly once, in id order by default", async () => {
    expect(await ids("")).toEqual(sorted(orders, (o) => o.id));
  });

  it("last and before page backwards", async () => {
    const all = sorted(orders, (o) => o.id);
    const tail = await gql(
      `{ orders(last: 3) { edges { cursor node { legacyResourceId } } pageInfo { hasNextPage hasPreviousPage } } }`,
    );
    expect(
      tail.body.data.orders.edges.map((e: { node: { legacyResourceId: string } }) => e.node.legacyResourceId),
    ).toEqual(all.slice(-3));
    expect(tail.body.data.orders.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    const before = tail.body.data.orders.edges[0].cursor;
    const previous = await gql(
      `query($before: String) { orders(last: 3, before: $before) { nodes { legacyResourceId } pageInfo { hasNextPage } } }`,
      { before },
    );
    expect(previous.body.data.orders.nodes.map((n: { legacyResourceId: string }) => n.legacyResourceId)).toEqual(
      all.slice(-6, -3),
    );
    expect(previous.body.data.orders.pageInfo.hasNextPage).toBe(true);
  });

  it("sortKey CREATED_AT and UPDATED_AT order by instant; reverse turns it round", async () => {
    expect(await ids("sortKey: CREATED_AT")).toEqual(sorted(orders, (o) => Date.parse(o.created_at)));
    expect(await ids("sortKey: UPDATED_AT, reverse: true")).toEqual(
      sorted(orders, (o) => Date.parse(o.updated_at)).reverse(),
    );
  });

  it("financial_status, created_at and updated_at ranges, id ranges, OR and NOT", async () => {
    const paid = orders
      .filter((o) => o.financial_status === "paid")
      .map((o) => String(o.id))
      .sort();
    expect((await ids(`query: "financial_status:paid"`)).sort()).toEqual(paid);
    const cut = "2026-11-20T12:00:00Z";
    const after = orders
      .filter((o) => Date.parse(o.created_at) >= Date.parse(cut))
      .map((o) => String(o.id))
      .sort();
    // The filters select proper, non-empty parts of the fixtures, so each comparison can fail.
    expect(paid.length).toBeGreaterThan(0);
    expect(paid.length).toBeLessThan(orders.length);
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThan(orders.length);
    expect((await ids(`query: "created_at:>='${cut}'"`)).sort()).toEqual(after);
    expect((await ids(`query: "updated_at:<'${cut}'"`)).sort()).toEqual(
      orders
        .filter((o) => Date.parse(o.updated_at) < Date.parse(cut))
        .map((o) => String(o.id))
        .sort(),
    );
    const mid = [...orders].sort((a, b) => a.id - b.id)[10].id;
    expect(await ids(`query: "id:>=${mid}"`)).toEqual(
      sorted(
        orders.filter((o) => o.id >= mid),
        (o) => o.id,
      ),
    );
    const either = orders
      .filter((o) => ["paid", "partially_refunded"].includes(o.financial_status))
      .map((o) => String(o.id))
      .sort();
    expect((await ids(`query: "financial_status:paid OR financial_status:partially_refunded"`)).sort()).toEqual(either);
    expect((await ids(`query: "-financial_status:paid"`)).sort()).toEqual(
      orders
        .filter((o) => o.financial_status !== "paid")
        .map((o) => String(o.id))
        .sort(),
    );
  });

  it("a bare date is a day in the shop's time zone (Istanbul)", async () => {
    const day = orders.filter((o) => {
      const local = new Date(Date.parse(o.created_at) + 3 * 3600_000).toISOString().slice(0, 10);
      return local === "2026-11-20";
    });
    expect(day.length).toBeGreaterThan(0);
    expect(day.length).toBeLessThan(orders.length);
    expect((await ids(`query: "created_at:2026-11-20"`)).sort()).toEqual(day.map((o) => String(o.id)).sort());
  });

  it("an unknown search field matches nothing and says so in extensions.search", async () => {
    const { body } = await gql(`{ orders(first: 5, query: "colour:blue") { nodes { id } } }`);
    expect(body.data.orders.nodes).toEqual([]);
    expect(body.extensions.search[0].warnings[0]).toEqual({
      field: "colour",
      message: "Invalid search field for this query.",
    });
  });

  it("an order added between two pages (updated_at order) is not lost", async () => {
    const first = await gql(
      `{ orders(first: 5, sortKey: UPDATED_AT) { nodes { legacyResourceId } pageInfo { endCursor } } }`,
    );
    const late = {
      ...orders[0],
      id: 9_900_000_001,
      name: "#9901",
      updated_at: "2026-11-23T11:00:00Z",
      created_at: "2026-11-23T11:00:00Z",
    };
    standin.upsertOrders([late]);
    const rest = await gql(
      `query($after: String) { orders(first: 250, after: $after, sortKey: UPDATED_AT) { nodes { legacyResourceId } } }`,
      { after: first.body.data.orders.pageInfo.endCursor },
    );
    const all = [...first.body.data.orders.nodes, ...rest.body.data.orders.nodes].map(
      (n: { legacyResourceId: string }) => n.legacyResourceId,
    );
    expect(all).toContain(String(late.id));
    expect(new Set(all).size).toBe(all.length);
  });
});

describe("mutations", () => {
  const orderId = () => `gid://shopify/Order/${orders[1].id}`;

  it("tagsAdd and tagsRemove change the order's tags, answer userErrors, and are recorded", async () => {
    await fetch(`${standin.url}/__standin/mutations`, { method: "DELETE" });
    const add = await gql(
      `mutation($id: ID!, $tags: [String!]!) { tagsAdd(id: $id, tags: $tags) { node { id ... on Order { tags } } userErrors { field message } } }`,
      { id: orderId(), tags: ["e-fatura", "e-arşiv"] },
    );
    expect(add.body.data.tagsAdd).toEqual({ node: { id: orderId(), tags: ["e-fatura", "e-arşiv"] }, userErrors: [] });
    const remove = await gql(
      `mutation($id: ID!, $tags: [String!]!) { tagsRemove(id: $id, tags: $tags) { node { ... on Order { tags } } userErrors { field message } } }`,
      { id: orderId(), tags: ["e-arşiv"] },
    );
    expect(remove.body.data.tagsRemove.node.tags).toEqual(["e-fatura"]);
    const missing = await gql(
      `mutation { tagsAdd(id: "gid://shopify/Order/1", tags: ["x"]) { node { id } userErrors { field message } } }`,
    );
    expect(missing.body.data.tagsAdd).toEqual({
      node: null,
      userErrors: [{ field: ["id"], message: "Order does not exist" }],
    });
    const recorded = (await (await fetch(`${standin.url}/__standin/mutations`)).json()) as {
      mutations: Array<{ field: string; arguments: unknown; userErrors: unknown[] }>;
    };
    expect(recorded.mutations.map((m) => m.field)).toEqual(["tagsAdd", "tagsRemove", "tagsAdd"]);
    expect(recorded.mutations[0].arguments).toEqual({ id: orderId(), tags: ["e-fatura", "e-arşiv"] });
    expect(recorded.mutations[2].userErrors).toHaveLength(1);
  });

  it("metafieldsSet stores app-owned metafields, refuses bad values with elementIndex, all or nothing", async () => {
    const set = `mutation($metafields: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $metafields) { metafields { namespace key value type } userErrors { field message code elementIndex } } }`;
    const ok = await gql(set, {
      metafields: [
        {
          ownerId: orderId(),
          namespace: "$app:invoice",
          key: "number",
          type: "single_line_text_field",
          value: "GIB2026000000001",
        },
      ],
    });
    expect(ok.body.data.metafieldsSet).toEqual({
      metafields: [
        { namespace: "app--1--invoice", key: "number", value: "GIB2026000000001", type: "single_line_text_field" },
      ],
      userErrors: [],
    });
    const bad = await gql(set, {
      metafields: [
        { ownerId: orderId(), namespace: "$app:invoice", key: "url", type: "url", value: "https://example.com/a.pdf" },
        { ownerId: orderId(), namespace: "$app:invoice", key: "data", type: "json", value: "{not json" },
      ],
    });
    expect(bad.body.data.metafieldsSet.metafields).toBeNull();
    expect(bad.body.data.metafieldsSet.userErrors).toEqual([
      {
        field: ["metafields", "1", "value"],
        message: "Value is invalid JSON.",
        code: "INVALID_VALUE",
        elementIndex: 1,
      },
    ]);
    const read = await gql(
      `query($id: ID!) { order(id: $id) { number: metafield(namespace: "$app:invoice", key: "number") { value } url: metafield(namespace: "$app:invoice", key: "url") { value } } }`,
      { id: orderId() },
    );
    expect(read.body.data.order).toEqual({ number: { value: "GIB2026000000001" }, url: null });
  });

  it("metafieldDefinitionCreate creates once, then answers TAKEN", async () => {
    const create = `mutation($definition: MetafieldDefinitionInput!) { metafieldDefinitionCreate(definition: $definition) { createdDefinition { namespace key type { name } ownerType } userErrors { field message code } } }`;
    const definition = {
      name: "E-fatura",
      namespace: "$app:invoice",
      key: "link",
      type: "url",
      ownerType: "ORDER",
      access: { customerAccount: "READ" },
    };
    const first = await gql(create, { definition });
    expect(first.body.data.metafieldDefinitionCreate).toEqual({
      createdDefinition: { namespace: "app--1--invoice", key: "link", type: { name: "url" }, ownerType: "ORDER" },
      userErrors: [],
    });
    const again = await gql(create, { definition });
    expect(again.body.data.metafieldDefinitionCreate.createdDefinition).toBeNull();
    expect(again.body.data.metafieldDefinitionCreate.userErrors[0].code).toBe("TAKEN");
  });

  it("flowTriggerReceive takes a handle and a JSON payload; a blank handle is a userError", async () => {
    const trigger = `mutation($handle: String, $payload: JSON) { flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } } }`;
    expect(
      (await gql(trigger, { handle: "invoice-issued", payload: { "Order ID": 1, invoice_number: "GIB1" } })).body.data
        .flowTriggerReceive.userErrors,
    ).toEqual([]);
    expect((await gql(trigger, { handle: "", payload: {} })).body.data.flowTriggerReceive.userErrors).toEqual([
      { field: ["handle"], message: "Handle can't be blank" },
    ]);
    const recorded = standin.mutations().filter((m) => m.field === "flowTriggerReceive");
    expect(recorded[0].arguments).toEqual({
      handle: "invoice-issued",
      payload: { "Order ID": 1, invoice_number: "GIB1" },
    });
  });
});

describe("cost and faults", () => {
  it("THROTTLED on demand, in Shopify's shape, with the cost in extensions", async () => {
    await fetch(`${standin.url}/__standin/faults`, { method: "POST", body: JSON.stringify({ throttled: 1 }) });
    const throttled = await gql("{ shop { name } }");
    expect(throttled.status).toBe(200);
    expect(throttled.body.errors).toEqual([
      {
        message: "Throttled",
        extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
      },
    ]);
    expect(throttled.body.extensions.cost).toMatchObject({
      requestedQueryCost: 1,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 2000, restoreRate: 100 },
    });
    const next = await gql("{ shop { name } }");
    expect(next.body.data.shop.name).toBeTruthy();
  });

  it("5xx on demand, n times", async () => {
    await fetch(`${standin.url}/__standin/faults`, {
      method: "POST",
      body: JSON.stringify({ serverErrors: 2, status: 502 }),
    });
    expect((await gql("{ shop { name } }")).status).toBe(502);
    expect((await gql("{ shop { name } }")).status).toBe(502);
    expect((await gql("{ shop { name } }")).status).toBe(200);
  });

  it("an empty bucket answers THROTTLED without running the query", async () => {
    const small = await startStandin({
      orders: orders.slice(0, 3),
      bucketSize: 10,
      restoreRate: 1,
      now: () => new Date("2026-11-23T12:00:00Z"),
    });
    try {
      const q = { query: "{ orders(first: 3) { nodes { id } } }" };
      expect((await small.request(q)).json.extensions.cost.throttleStatus.currentlyAvailable).toBe(5);
      expect((await small.request(q)).json.extensions.cost.throttleStatus.currentlyAvailable).toBe(0);
      const third = await small.request(q);
      expect(third.json.errors[0].extensions.code).toBe("THROTTLED");
      expect(third.json.data).toBeUndefined();
    } finally {
      await small.stop();
    }
  });
});
