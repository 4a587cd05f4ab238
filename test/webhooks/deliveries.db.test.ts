// Each webhook route acts only on its own topic, once per event (X-Shopify-Event-Id), and never for a shop that
// did not install the app.
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { action as paid } from "../../app/routes/webhooks.orders.paid";
import { action as cancelled } from "../../app/routes/webhooks.orders.cancelled";
import { action as uninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { sessionStorage } from "../../app/shopify.server";
import { pruneWebhookDeliveries } from "../../app/webhooks/deliveries.server";
import { callRoute } from "../helpers/routes";
import { offlineSession, SHOP, signedWebhookRequest } from "../helpers/shopify";
import { installShop, prisma, uninstalledFor } from "../helpers/db";
import { paidOrder } from "../helpers/orders";

const NEVER_INSTALLED = "never-installed.myshopify.com";

describe("webhook deliveries", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.session.deleteMany();
    await prisma.webhookDelivery.deleteMany();
    await installShop(SHOP);
  });

  it("a route acts only on its own topic: a delivery of another topic is a 400 and changes nothing", async () => {
    const order = paidOrder();
    // A genuine orders/cancelled delivery (valid signature) sent to the orders/paid address.
    const misrouted = await callRoute(
      paid,
      signedWebhookRequest({ topic: "orders/cancelled", path: "/webhooks/orders/paid", body: order }),
    );
    expect(misrouted.status).toBe(400);
    expect(await prisma.invoice.count()).toBe(0);
    const toUninstall = await callRoute(
      uninstalled,
      signedWebhookRequest({ topic: "shop/redact", path: "/webhooks/app/uninstalled", body: { shop_domain: SHOP } }),
    );
    expect(toUninstall.status).toBe(400);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).uninstalledAt).toBeNull();
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("an event is acted on once: a replay of an old app/uninstalled after a reinstall changes nothing", async () => {
    const eventId = randomUUID();
    const first = await callRoute(
      uninstalled,
      signedWebhookRequest({
        topic: "app/uninstalled",
        body: { id: 1, domain: SHOP, myshopify_domain: SHOP },
        eventId,
      }),
    );
    expect(await first.json()).toEqual({ ok: true, result: "uninstalled" });
    await installShop(SHOP); // the merchant installs again
    const replay = await callRoute(
      uninstalled,
      signedWebhookRequest({
        topic: "app/uninstalled",
        body: { id: 1, domain: SHOP, myshopify_domain: SHOP },
        eventId,
        webhookId: randomUUID(),
      }),
    );
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ ok: true, result: "duplicate" });
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).uninstalledAt).toBeNull();
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("the same event of another topic is not a duplicate", async () => {
    const eventId = randomUUID();
    const order = paidOrder();
    expect(
      await (await callRoute(paid, signedWebhookRequest({ topic: "orders/paid", body: order, eventId }))).json(),
    ).toEqual({ ok: true, result: "queued" });
    expect(
      await (
        await callRoute(
          cancelled,
          signedWebhookRequest({
            topic: "orders/cancelled",
            body: { ...order, cancelled_at: "2026-11-21T15:00:00+03:00" },
            eventId,
          }),
        )
      ).json(),
    ).toEqual({ ok: true, result: "cancelled" });
  });

  it("a delivery whose work failed is not remembered, so Shopify's retry is acted on", async () => {
    const eventId = randomUUID();
    const malformed = await callRoute(
      paid,
      signedWebhookRequest({ topic: "orders/paid", body: { name: "#1" }, eventId }),
    );
    expect(malformed.status).toBe(400);
    expect(await prisma.webhookDelivery.count()).toBe(0);
    const retried = await callRoute(paid, signedWebhookRequest({ topic: "orders/paid", body: paidOrder(), eventId }));
    expect(await retried.json()).toEqual({ ok: true, result: "queued" });
  });

  it("a shop that never installed gets no Shop row and no invoice; its delivery is recorded", async () => {
    const response = await callRoute(
      paid,
      signedWebhookRequest({ topic: "orders/paid", body: paidOrder(), shop: NEVER_INSTALLED }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, result: "unknown_shop" });
    expect(await prisma.shop.count({ where: { domain: NEVER_INSTALLED } })).toBe(0);
    expect(await prisma.invoice.count()).toBe(0);
    expect(await prisma.webhookDelivery.findMany({ where: { shopDomain: NEVER_INSTALLED } })).toEqual([
      expect.objectContaining({ topic: "ORDERS_PAID", result: "unknown_shop" }),
    ]);
    const cancel = await callRoute(
      cancelled,
      signedWebhookRequest({
        topic: "orders/cancelled",
        body: paidOrder({ cancelled_at: "2026-11-21T15:00:00+03:00" }),
        shop: NEVER_INSTALLED,
      }),
    );
    expect(await cancel.json()).toEqual({ ok: true, result: "unknown_shop" });
    expect(await prisma.shop.count({ where: { domain: NEVER_INSTALLED } })).toBe(0);
  });

  it("a shop Shopify installed (it has a session) whose first authentication did not finish is recorded and invoiced", async () => {
    const shop = "half-installed.myshopify.com";
    await sessionStorage.storeSession(offlineSession(shop));
    const response = await callRoute(paid, signedWebhookRequest({ topic: "orders/paid", body: paidOrder(), shop }));
    expect(await response.json()).toEqual({ ok: true, result: "queued" });
    expect(await prisma.shop.count({ where: { domain: shop } })).toBe(1);
    expect(await prisma.invoice.count({ where: { shopDomain: shop } })).toBe(1);
  });

  it("shop/redact removes the shop's delivery records; old records are pruned after a week", async () => {
    await callRoute(paid, signedWebhookRequest({ topic: "orders/paid", body: paidOrder() }));
    await prisma.webhookDelivery.create({
      data: {
        shopDomain: "old.myshopify.com",
        topic: "ORDERS_PAID",
        eventId: "e-old",
        receivedAt: new Date(Date.now() - 8 * 86_400_000),
      },
    });
    expect(await pruneWebhookDeliveries()).toBe(1);
    await uninstalledFor(SHOP, 49);
    await callRoute(shopRedact, signedWebhookRequest({ topic: "shop/redact", body: { shop_domain: SHOP } }));
    expect(await prisma.webhookDelivery.count({ where: { shopDomain: SHOP } })).toBe(0);
  });
});
