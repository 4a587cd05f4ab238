// The signature covers a delivery's body, never its topic or shop headers: a captured, genuinely signed body re-sent
// under another topic must be refused (400) before anything changes, through the production server's direct path
// and through the Remix routes alike (both are answerDelivery).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { action as paidRoute } from "../../app/routes/webhooks.orders.paid";
import { action as cancelledRoute } from "../../app/routes/webhooks.orders.cancelled";
import { action as shopRedactRoute } from "../../app/routes/webhooks.shop.redact";
import { action as uninstalledRoute } from "../../app/routes/webhooks.app.uninstalled";
import { webhookMiddleware } from "../../app/webhooks/node-transport.server";
import { WEBHOOK_TOPICS, type WebhookTopic } from "../../app/webhooks/topics.server";
import { webhookHeaders } from "../../scripts/lib/shopify-signing";
import { callRoute } from "../helpers/routes";
import { APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { installShop, prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";
import { afterSaleFixture } from "../helpers/after-sale";

let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = http.createServer((req, res) => webhookMiddleware(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

// One genuine body of each topic, as Shopify sends it.
const genuine = (): Record<WebhookTopic, unknown> => ({
  "orders/paid": paidOrder(),
  // Cash on delivery: fulfilled before it is paid.
  "orders/fulfilled": paidOrder({ financial_status: "pending", fulfillment_status: "fulfilled" }),
  "orders/cancelled": afterSaleFixture("cancelled-1001"),
  "orders/updated": paidOrder({ tags: "vip" }),
  "orders/edited": afterSaleFixture("edited-1002"),
  "refunds/create": afterSaleFixture("refund-partial-lines"),
  "bulk_operations/finish": {
    admin_graphql_api_id: "gid://shopify/BulkOperation/1",
    completed_at: "2026-11-24T10:00:00Z",
    created_at: "2026-11-24T09:59:00Z",
    error_code: null,
    status: "completed",
    type: "query",
  },
  "app/uninstalled": { id: 1, name: "Dükkan", domain: "dukkan.com.tr", myshopify_domain: SHOP },
  "customers/data_request": {
    shop_id: 1,
    shop_domain: SHOP,
    customer: { id: 7001 },
    orders_requested: [5550001],
    data_request: { id: 9 },
  },
  "customers/redact": { shop_id: 1, shop_domain: SHOP, customer: { id: 7001 }, orders_to_redact: [5550001] },
  "shop/redact": { shop_id: 1, shop_domain: SHOP },
});

describe("each topic's body shape", () => {
  const topics = Object.keys(WEBHOOK_TOPICS) as WebhookTopic[];
  const bodies = genuine();
  it.each(topics)("%s takes its own body and refuses every other topic's", (topic) => {
    const { shape } = WEBHOOK_TOPICS[topic];
    expect(shape(bodies[topic], SHOP)).toBeNull();
    // orders/updated is any order as it stands: its body is every order topic's shape, and theirs is its. That is
    // harmless: its delivery only makes the app read the order again through the Admin API, and never trusts the body.
    const orderTopics = ["orders/paid", "orders/fulfilled", "orders/cancelled", "orders/updated"];
    const interchangeable = (other: WebhookTopic) =>
      (topic === "orders/updated" || other === "orders/updated") &&
      orderTopics.includes(topic) &&
      orderTopics.includes(other);
    const taken = topics.filter(
      (other) => other !== topic && !interchangeable(other) && shape(bodies[other], SHOP) === null,
    );
    expect(taken).toEqual([]);
    for (const hostile of [null, [], "x", 1, {}]) expect(shape(hostile, SHOP)).not.toBeNull();
  });

  it("an order that is not paid, or was cancelled, is not an orders/paid body", () => {
    const { shape } = WEBHOOK_TOPICS["orders/paid"];
    expect(shape(paidOrder({ financial_status: "pending" }), SHOP)).not.toBeNull();
    expect(shape(paidOrder({ cancelled_at: "2026-11-21T15:00:00+03:00" }), SHOP)).not.toBeNull();
    expect(shape(paidOrder({ admin_graphql_api_id: "gid://shopify/Refund/1" }), SHOP)).not.toBeNull();
    expect(shape(paidOrder({ financial_status: "partially_refunded" }), SHOP)).toBeNull();
  });

  it("another shop's privacy request or shop resource is refused", () => {
    for (const topic of ["app/uninstalled", "customers/data_request", "customers/redact", "shop/redact"] as const) {
      expect(WEBHOOK_TOPICS[topic].shape(bodies[topic], OTHER_SHOP), topic).not.toBeNull();
    }
  });
});

describe("a signed body re-sent under another topic", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.webhookDelivery.deleteMany();
    await installShop(SHOP);
  });

  const sign = (topic: string, body: unknown) => {
    const rawBody = JSON.stringify(body);
    return {
      path: `/webhooks/${topic}`,
      headers: webhookHeaders({ topic, shop: SHOP, rawBody, secret: API_SECRET_KEY }),
      body: rawBody,
    };
  };
  const throughNode = async ({ path, headers, body }: ReturnType<typeof sign>) => {
    const response = await fetch(origin + path, { method: "POST", headers, body });
    return { status: response.status, body: await response.text() };
  };
  const throughRemix = async ({ path, headers, body }: ReturnType<typeof sign>, route: typeof paidRoute) => {
    const response = await callRoute(route, new Request(new URL(path, APP_ORIGIN), { method: "POST", headers, body }));
    return { status: response.status, body: await response.text() };
  };

  it("a captured orders/paid body sent as orders/cancelled: 400 on both paths, the invoice stays queued", async () => {
    const order = paidOrder();
    expect((await throughNode(sign("orders/paid", order))).status).toBe(200);
    const replay = sign("orders/cancelled", order);
    const node = await throughNode(replay);
    expect(node.status).toBe(400);
    expect(JSON.parse(node.body)).toEqual({ ok: false, error: expect.stringContaining("cancelled_at") });
    expect(await throughRemix(replay, cancelledRoute)).toEqual(node);
    const row = await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP }, include: { events: true } });
    expect(row).toMatchObject({ state: "queued", cancelledInShop: false });
    expect(row.events.map((event) => event.type)).not.toContain("cancelled");
    expect(await prisma.webhookDelivery.count()).toBe(1);
    // The genuine cancellation of that order still goes through.
    expect(
      (
        await throughRemix(
          sign("orders/cancelled", { ...order, cancelled_at: "2026-11-21T15:00:00+03:00" }),
          cancelledRoute,
        )
      ).status,
    ).toBe(200);
    expect(await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } })).toMatchObject({
      state: "cancelled",
    });
  });

  it("a customers/redact body sent as shop/redact, an order sent as app/uninstalled: 400, the shop keeps its data", async () => {
    expect((await throughRemix(sign("orders/paid", paidOrder()), paidRoute)).status).toBe(200);
    const redact = sign("shop/redact", genuine()["customers/redact"]);
    expect((await throughNode(redact)).status).toBe(400);
    expect((await throughRemix(redact, shopRedactRoute)).status).toBe(400);
    const uninstall = sign("app/uninstalled", paidOrder());
    expect((await throughNode(uninstall)).status).toBe(400);
    expect((await throughRemix(uninstall, uninstalledRoute)).status).toBe(400);
    expect(await prisma.invoice.count({ where: { shopDomain: SHOP } })).toBe(1);
    expect(await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).toMatchObject({ uninstalledAt: null });
  });
});
