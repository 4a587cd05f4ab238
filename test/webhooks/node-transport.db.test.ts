// The production server answers Shopify's deliveries on node's own request (app/webhooks/node-transport.server.ts);
// `shopify app dev` and these tests' other files go through the Remix routes. Both must answer every delivery the
// same way and leave the same rows: the same deliveries are sent through both, side by side.
import http from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { action as paidRoute } from "../../app/routes/webhooks.orders.paid";
import { action as uninstalledRoute } from "../../app/routes/webhooks.app.uninstalled";
import { BODY_LIMITS } from "../../app/http/body-limit.server";
import { webhookMiddleware } from "../../app/webhooks/node-transport.server";
import { webhookHeaders } from "../../scripts/lib/shopify-signing";
import { callRoute } from "../helpers/routes";
import { APP_ORIGIN, SHOP } from "../helpers/shopify";
import { installShop, prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";

let server: http.Server;
let origin: string;
let passedOn: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) =>
    webhookMiddleware(req, res, () => {
      passedOn.push(`${req.method} ${req.url}`);
      res.writeHead(404).end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: string;
}

function delivery(
  topic: string,
  body: unknown,
  options: { path?: string; secret?: string; eventId?: string; drop?: string } = {},
): Delivery {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const headers = webhookHeaders({
    topic,
    shop: SHOP,
    rawBody: raw,
    secret: options.secret ?? API_SECRET_KEY,
    eventId: options.eventId,
  });
  if (options.drop) delete headers[options.drop];
  return { path: options.path ?? `/webhooks/${topic}`, headers, body: raw };
}

async function throughNode({ path, headers, body }: Delivery) {
  const response = await fetch(origin + path, { method: "POST", headers, body });
  return { status: response.status, body: await response.text() };
}

async function throughRemix({ path, headers, body }: Delivery, route = paidRoute) {
  const response = await callRoute(route, new Request(new URL(path, APP_ORIGIN), { method: "POST", headers, body }));
  return { status: response.status, body: await response.text() };
}

const rows = async () => ({
  invoices: await prisma.invoice.count(),
  deliveries: await prisma.webhookDelivery.count(),
  uninstalled: (await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).uninstalledAt !== null,
});

describe("the production server's webhook path and the Remix routes", () => {
  beforeEach(async () => {
    passedOn = [];
    await prisma.shop.deleteMany();
    await prisma.webhookDelivery.deleteMany();
    await installShop(SHOP);
  });

  const refused: Array<[string, () => Delivery, number]> = [
    ["a forged signature", () => delivery("orders/paid", paidOrder(), { secret: "not-the-app-secret" }), 401],
    ["no signature", () => delivery("orders/paid", paidOrder(), { drop: "X-Shopify-Hmac-Sha256" }), 400],
    ["no shop header", () => delivery("orders/paid", paidOrder(), { drop: "X-Shopify-Shop-Domain" }), 400],
    [
      "another topic at this address",
      () => delivery("orders/cancelled", paidOrder(), { path: "/webhooks/orders/paid" }),
      400,
    ],
    ["a signed body that is not JSON", () => delivery("orders/paid", "{not json"), 400],
  ];
  for (const [name, make, status] of refused) {
    it(`${name}: ${status}, the same answer, and nothing recorded`, async () => {
      const sent = make();
      const node = await throughNode(sent);
      const remix = await throughRemix(sent);
      expect(node).toEqual(remix);
      expect(node.status).toBe(status);
      expect(JSON.parse(node.body)).toMatchObject({ ok: false });
      expect(await rows()).toEqual({ invoices: 0, deliveries: 0, uninstalled: false });
    });
  }

  it("a paid order: queued once through either, a repeat of its event is a duplicate through the other", async () => {
    const first = delivery("orders/paid", paidOrder(), { eventId: randomUUID() });
    expect(await throughNode(first)).toEqual({ status: 200, body: JSON.stringify({ ok: true, result: "queued" }) });
    expect(await throughRemix(first)).toEqual({ status: 200, body: JSON.stringify({ ok: true, result: "duplicate" }) });
    const second = delivery("orders/paid", paidOrder(), { eventId: randomUUID() });
    expect(await throughRemix(second)).toEqual({ status: 200, body: JSON.stringify({ ok: true, result: "queued" }) });
    expect(await throughNode(second)).toEqual({ status: 200, body: JSON.stringify({ ok: true, result: "duplicate" }) });
    expect(await rows()).toMatchObject({ invoices: 2, deliveries: 2 });
  });

  it("an events delivery (Shopify-* headers, no event id since @shopify/shopify-api 15): once, its retry by webhook id a duplicate", async () => {
    const raw = JSON.stringify(paidOrder());
    const classic = webhookHeaders({ topic: "orders/paid", shop: SHOP, rawBody: raw, secret: API_SECRET_KEY });
    const headers = {
      "Content-Type": "application/json",
      "Shopify-Hmac-Sha256": classic["X-Shopify-Hmac-Sha256"],
      "Shopify-Topic": "orders/paid",
      "Shopify-Shop-Domain": SHOP,
      "Shopify-API-Version": "2026-10",
      "Shopify-Webhook-Id": randomUUID(),
      "Shopify-Triggered-At": new Date().toISOString(),
    };
    const sent: Delivery = { path: "/webhooks/orders/paid", headers, body: raw };
    expect(await throughRemix(sent)).toEqual({ status: 200, body: JSON.stringify({ ok: true, result: "queued" }) });
    expect(await throughNode(sent)).toEqual({ status: 200, body: JSON.stringify({ ok: true, result: "duplicate" }) });
    const forged = {
      ...sent,
      headers: {
        ...headers,
        "Shopify-Hmac-Sha256": classic["X-Shopify-Hmac-Sha256"].replace(/^./, (c) => (c === "A" ? "B" : "A")),
      },
    };
    expect((await throughNode(forged)).status).toBe(401);
    expect(await rows()).toMatchObject({ invoices: 1, deliveries: 1 });
  });

  it("every topic's address is answered directly: app/uninstalled", async () => {
    const sent = delivery("app/uninstalled", { id: 1, domain: SHOP, myshopify_domain: SHOP });
    expect(await throughNode(sent)).toEqual({ status: 200, body: JSON.stringify({ ok: true, result: "uninstalled" }) });
    expect(await rows()).toMatchObject({ uninstalled: true });
    expect(await throughRemix(sent, uninstalledRoute)).toEqual({
      status: 200,
      body: JSON.stringify({ ok: true, result: "duplicate" }),
    });
  });

  it("an address that is no topic's, and other methods, are passed on (to Remix)", async () => {
    await fetch(`${origin}/webhooks/orders/unknown`, { method: "POST", body: "{}" });
    await fetch(`${origin}/webhooks/orders/paid`);
    await fetch(`${origin}/webhooks/constructor`, { method: "POST", body: "{}" });
    expect(passedOn).toEqual([
      "POST /webhooks/orders/unknown",
      "GET /webhooks/orders/paid",
      "POST /webhooks/constructor",
    ]);
  });

  /** Sends headers and `sent` bytes, then waits for the answer without sending the rest. */
  function partialUpload(
    headers: Record<string, string>,
    chunks: number,
  ): Promise<{ status: number; connection?: string; body: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(`${origin}/webhooks/orders/paid`, { method: "POST", headers }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () =>
          resolve({ status: response.statusCode!, connection: response.headers.connection, body }),
        );
      });
      request.on("error", reject);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let i = 0; i < chunks; i++) request.write(chunk);
      // Never ended: a server that waited for the whole body would never answer.
    });
  }

  it("a declared body over the limit gets 413 before any of it is read, and the connection is closed", async () => {
    const headers = { ...delivery("orders/paid", "{}").headers, "Content-Length": String(300 * 1024 * 1024) };
    const answer = await partialUpload(headers, 1);
    expect(answer).toEqual({
      status: 413,
      connection: "close",
      body: JSON.stringify({ ok: false, error: `body larger than ${BODY_LIMITS.webhook} bytes` }),
    });
    expect(await rows()).toEqual({ invoices: 0, deliveries: 0, uninstalled: false });
  });

  it("a chunked body is cut off once past the limit: 413", async () => {
    const headers = { ...delivery("orders/paid", "{}").headers, "Transfer-Encoding": "chunked" };
    const answer = await partialUpload(headers, BODY_LIMITS.webhook / (64 * 1024) + 2);
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    expect(await rows()).toEqual({ invoices: 0, deliveries: 0, uninstalled: false });
  });
});
