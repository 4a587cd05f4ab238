// The app's Admin API path end to end: `npm run shop:setup --access-token` stores the stand-in's token in the
// shop's offline session, SHOPIFY_ADMIN_API_URL points the app at the stand-in, and readOrder/listOrders load the
// session through the library (unauthenticated.admin) and read orders in the webhook's shape.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { fixtureNames, fixtureOrder } from "../orders/fixture-loader";

const SHOP = "standin-shop.myshopify.com";
const orders = fixtureNames().slice(0, 8).map(fixtureOrder) as Array<{ id: number; name: string }>;
let standin: Standin;
let sandbox: Sandbox;

beforeAll(async () => {
  standin = await startStandin({ shop: SHOP, orders, scopes: ["read_orders", "write_orders", "read_all_orders"] });
  sandbox = await startSandbox({ port: 0 });
  // Before the app's configuration is first read (env() reads it once).
  process.env.SHOPIFY_ADMIN_API_URL = standin.url;
  const account = sandbox.account;
  await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/shop-setup.ts",
      "--shop",
      SHOP,
      "--api-key",
      account.apiKey,
      "--base-url",
      sandbox.url,
      "--sale-channel-id",
      String(account.saleChannelId),
      "--integration-id",
      String(account.invoiceIntegrationId),
      "--access-token",
      standin.accessToken,
      "--scopes",
      "read_orders,write_orders",
    ],
    { env: { ...process.env, LOCAL_SERVICES: "1" }, timeout: 60_000 },
  );
}, 90_000);
afterAll(async () => {
  await standin?.stop();
  await sandbox?.stop();
});

describe("Admin API through the shop's offline session", () => {
  it("readOrder returns the order as it stands now, in the webhook's shape", async () => {
    const { readOrder } = await import("../../app/shopify/orders.server");
    const order = await readOrder(SHOP, orders[0].id);
    expect(order).toMatchObject({ id: orders[0].id, name: orders[0].name, financial_status: "paid" });
    expect(order!.line_items.length).toBeGreaterThan(0);
  });

  it("listOrders pages through the search results", async () => {
    const { listOrders } = await import("../../app/shopify/orders.server");
    const seen: number[] = [];
    let after: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listOrders>> = await listOrders(SHOP, {
        query: "financial_status:paid",
        first: 3,
        after,
      });
      seen.push(...page.orders.map((o) => o.id));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    const paid = orders
      .filter((o) => (o as unknown as { financial_status: string }).financial_status === "paid")
      .map((o) => o.id);
    expect(seen.sort()).toEqual(paid.sort());
  });

  it("a shop without an offline session is 'no_session'", async () => {
    const { readOrder } = await import("../../app/shopify/orders.server");
    await expect(readOrder("other-shop.myshopify.com", 1)).rejects.toMatchObject({ kind: "no_session" });
  });

  it("mutations reach the stand-in and are recorded", async () => {
    const { adminGraphql } = await import("../../app/shopify/admin.server");
    const { z } = await import("zod");
    const admin = await adminGraphql(SHOP);
    const data = await admin.graphql(
      `mutation Tag($id: ID!, $tags: [String!]!) { tagsAdd(id: $id, tags: $tags) { node { id } userErrors { field message } } }`,
      { id: `gid://shopify/Order/${orders[0].id}`, tags: ["e-fatura"] },
      z.object({
        tagsAdd: z.object({ node: z.object({ id: z.string() }).nullable(), userErrors: z.array(z.unknown()) }),
      }),
    );
    expect(data.tagsAdd.userErrors).toEqual([]);
    const recorded = (await (await fetch(`${standin.url}/__standin/mutations`)).json()) as {
      mutations: Array<{ field: string; arguments: unknown }>;
    };
    expect(recorded.mutations).toEqual([
      expect.objectContaining({
        field: "tagsAdd",
        arguments: { id: `gid://shopify/Order/${orders[0].id}`, tags: ["e-fatura"] },
      }),
    ]);
  });
});
