// The order webhooks record rows and change nothing on repeats, forgeries or bad bodies.
import { describe, expect, it } from "vitest";
import { action as paid } from "../../app/routes/webhooks.orders.paid";
import { action as fulfilled } from "../../app/routes/webhooks.orders.fulfilled";
import { action as cancelled } from "../../app/routes/webhooks.orders.cancelled";
import { saveConnection } from "../../app/settings/settings.server";
import { callRoute } from "../helpers/routes";
import { OTHER_SHOP, SHOP, signedWebhookRequest } from "../helpers/shopify";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";

const deliver = (route: typeof paid, topic: string, body: unknown, shop = SHOP, extra: Record<string, string> = {}) =>
  callRoute(route, signedWebhookRequest({ topic, body, shop, ...extra }));

async function rows(shop = SHOP) {
  return prisma.invoice.findMany({ where: { shopDomain: shop }, include: { events: true } });
}

describe("order webhooks", () => {
  freshShopsForEachTest();

  it("orders/paid records one queued row with the order snapshot, and answers 200", async () => {
    const order = paidOrder();
    const response = await deliver(paid, "orders/paid", order);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, result: "queued" });
    const [row] = await rows();
    expect(row).toMatchObject({
      orderId: String(order.id),
      orderName: order.name,
      state: "queued",
      orderTotal: "1349.80",
      customerName: "Ayşe Yılmaz",
      customerId: "7300000001",
    });
    expect(row.nextAttemptAt).toBeInstanceOf(Date);
    expect((row.orderSnapshot as { line_items: unknown[] }).line_items).toHaveLength(2);
    // Only what the mapping reads is kept (test/orders/snapshot.test.ts lists it).
    expect(order).toHaveProperty("updated_at");
    expect(row.orderSnapshot).not.toHaveProperty("updated_at");
    expect(row.events.map((e) => e.type).sort()).toEqual(["queued", "received"]);
  });

  it("five concurrent deliveries of one order leave exactly one row and its first events", async () => {
    const order = paidOrder();
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => deliver(paid, "orders/paid", order, SHOP, { webhookId: `same-${i}` })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0].events).toHaveLength(2);
    const results = await Promise.all(responses.map((r) => r.json()));
    expect(results.filter((r) => r.result === "queued")).toHaveLength(1);
  });

  it("orders/paid after the invoice exists changes nothing", async () => {
    const order = paidOrder();
    await deliver(paid, "orders/paid", order);
    await prisma.invoice.updateMany({
      data: { state: "completed", serialNumber: "EAR2026000000001", nextAttemptAt: null, remoteId: 5 },
    });
    const before = await rows();
    const again = await deliver(paid, "orders/paid", { ...order, note: "redelivered after a timeout" });
    expect(again.status).toBe(200);
    expect(await rows()).toEqual(before);
  });

  it("a forged signature gets 401 and records nothing", async () => {
    const response = await deliver(paid, "orders/paid", paidOrder(), SHOP, { secret: "forged" });
    expect(response.status).toBe(401);
    expect(await prisma.invoice.count()).toBe(0);
  });

  it("a body without an order id or name gets a 400 that names the field, and records nothing", async () => {
    const noId = await deliver(paid, "orders/paid", {
      name: "#1",
      created_at: "2026-11-21T10:00:00+03:00",
      line_items: [],
    });
    expect(noId.status).toBe(400);
    expect((await noId.json()).error).toMatch(/^id/);
    const noName = await deliver(paid, "orders/paid", { ...paidOrder(), name: "" });
    expect(noName.status).toBe(400);
    expect(await prisma.invoice.count()).toBe(0);
  });

  it("the same order id in two shops makes two independent rows", async () => {
    const order = paidOrder();
    await deliver(paid, "orders/paid", order, SHOP);
    await deliver(paid, "orders/paid", order, OTHER_SHOP);
    expect(await prisma.invoice.count({ where: { orderId: String(order.id) } })).toBe(2);
  });

  it("orders/cancelled before orders/paid: nothing is ever queued for that order", async () => {
    const order = paidOrder();
    expect(
      (await deliver(cancelled, "orders/cancelled", { ...order, cancelled_at: "2026-11-21T15:00:00+03:00" })).status,
    ).toBe(200);
    expect((await deliver(paid, "orders/paid", order)).status).toBe(200);
    const [row] = await rows();
    expect(row.state).toBe("cancelled");
    expect(row.nextAttemptAt).toBeNull();
  });

  it("orders/cancelled cancels a queued job", async () => {
    const order = paidOrder();
    await deliver(paid, "orders/paid", order);
    expect(
      await (
        await deliver(cancelled, "orders/cancelled", { ...order, cancelled_at: "2026-11-21T15:00:00+03:00" })
      ).json(),
    ).toEqual({ ok: true, result: "cancelled" });
    const [row] = await rows();
    expect(row).toMatchObject({ state: "cancelled", nextAttemptAt: null });
  });

  it("orders/cancelled after invoicing keeps the invoice and asks the merchant", async () => {
    const order = paidOrder();
    await deliver(paid, "orders/paid", order);
    await prisma.invoice.updateMany({
      data: { state: "completed", remoteId: 77, serialNumber: "EAR2026000000009", nextAttemptAt: null },
    });
    expect(
      await (
        await deliver(cancelled, "orders/cancelled", { ...order, cancelled_at: "2026-11-21T15:00:00+03:00" })
      ).json(),
    ).toEqual({ ok: true, result: "marked" });
    const [row] = await rows();
    expect(row).toMatchObject({
      state: "needs_attention",
      cancelledInShop: true,
      serialNumber: "EAR2026000000009",
      remoteId: 77,
    });
    expect(row.problems).toEqual([{ code: "invoice.cancelled_after_invoicing", severity: "error" }]);
  });

  it("with the trigger 'on fulfilment', paid orders wait and orders/fulfilled queues them", async () => {
    await saveConnection(SHOP, { trigger: "fulfilled" });
    const order = paidOrder();
    expect(await (await deliver(paid, "orders/paid", order)).json()).toEqual({ ok: true, result: "waiting" });
    expect((await rows())[0]).toMatchObject({ state: "waiting", nextAttemptAt: null });
    const withFulfillment = {
      ...order,
      fulfillment_status: "fulfilled",
      fulfillments: [{ id: 1, tracking_company: "Yurtiçi Kargo", created_at: "2026-11-22T09:00:00+03:00" }],
    };
    expect(await (await deliver(fulfilled, "orders/fulfilled", withFulfillment)).json()).toEqual({
      ok: true,
      result: "queued",
    });
    const [row] = await rows();
    expect(row.state).toBe("queued");
    expect((row.orderSnapshot as { fulfillments: unknown[] }).fulfillments).toHaveLength(1);
  });

  it("with the trigger 'manual', orders wait and orders/fulfilled does not queue them", async () => {
    await saveConnection(SHOP, { trigger: "manual" });
    const order = paidOrder();
    await deliver(paid, "orders/paid", order);
    expect(
      await (await deliver(fulfilled, "orders/fulfilled", { ...order, fulfillment_status: "fulfilled" })).json(),
    ).toEqual({ ok: true, result: "ignored" });
    expect((await rows())[0].state).toBe("waiting");
  });
});
