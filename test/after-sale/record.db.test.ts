// refunds/create, orders/edited and the refunds of orders/cancelled: verified, recorded once by their Shopify id
// whatever the order and number of deliveries, against the order's invoice row.
import { beforeEach, describe, expect, it } from "vitest";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";
import { afterSaleFixture, deliver, orderFixture } from "../helpers/after-sale";

const refunds = (shop = SHOP) =>
  prisma.refund.findMany({ where: { shopDomain: shop }, orderBy: { refundedAt: "asc" } });

describe("after-sale webhooks", () => {
  freshShopsForEachTest();
  beforeEach(async () => {
    await prisma.webhookDelivery.deleteMany();
  });

  it("a partial refund with line items is stored with its items, quantities, amount and restock flag", async () => {
    await deliver("orders/paid", orderFixture("01-single-item-citizen"));
    const answer = await deliver("refunds/create", afterSaleFixture("refund-partial-lines"));
    expect(answer).toEqual({ status: 200, json: { ok: true, result: "recorded" } });
    const [refund] = await refunds();
    expect(refund).toMatchObject({
      orderId: "5810000001",
      refundId: "9100000001",
      hasLineItems: true,
      shipping: "0.00",
      amount: "249.90",
      giftCardAmount: "0.00",
      restock: true,
      currency: "TRY",
      handling: null,
    });
    expect(refund.refundedAt.toISOString()).toBe("2026-11-20T12:00:00.000Z");
    expect(refund.lineItems).toEqual([
      {
        lineItemId: "58100000011",
        name: "Seramik Kupa",
        sku: expect.any(String),
        quantity: 1,
        subtotal: "249.90",
        tax: "41.65",
        restockType: "return",
        giftCard: false,
      },
    ]);
    // The invoice row's trail says a refund came.
    const row = await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP }, include: { events: true } });
    expect(row.events.map((e) => e.type)).toContain("refund");
  });

  it("a shipping-only refund, an amount-only refund and a gift-card order's refund are told apart", async () => {
    for (const name of ["refund-shipping-only", "refund-amount-only", "refund-gift-card-order"]) {
      expect((await deliver("refunds/create", afterSaleFixture(name))).json).toEqual({ ok: true, result: "recorded" });
    }
    const byId = Object.fromEntries((await refunds()).map((r) => [r.refundId, r]));
    expect(byId["9100000002"]).toMatchObject({
      hasLineItems: false,
      shipping: "49.90",
      amount: "49.90",
      restock: false,
      lineItems: [],
    });
    expect(byId["9100000003"]).toMatchObject({
      hasLineItems: false,
      shipping: "0.00",
      amount: "100.00",
      lineItems: [],
    });
    expect(byId["9100000004"]).toMatchObject({ hasLineItems: true, amount: "1000.00", restock: false });
    expect(byId["9100000004"].lineItems).toEqual([
      expect.objectContaining({ giftCard: true, quantity: 1, restockType: "no_restock" }),
    ]);
  });

  it("duplicates: a retried event and a second event for the same refund leave one row", async () => {
    const body = afterSaleFixture("refund-partial-lines");
    expect((await deliver("refunds/create", body, { eventId: "evt-1" })).json).toEqual({
      ok: true,
      result: "recorded",
    });
    expect((await deliver("refunds/create", body, { eventId: "evt-1" })).json).toEqual({
      ok: true,
      result: "duplicate",
    });
    expect((await deliver("refunds/create", body, { eventId: "evt-2" })).json).toEqual({
      ok: true,
      result: "duplicate",
    });
    expect(await refunds()).toHaveLength(1);
  });

  it("out of order: a refund before orders/paid is kept and belongs to the row that comes later", async () => {
    await deliver("refunds/create", afterSaleFixture("refund-partial-lines"));
    expect(await prisma.invoice.count()).toBe(0);
    await deliver("orders/paid", orderFixture("01-single-item-citizen"));
    const row = await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    expect(await prisma.refund.findMany({ where: { shopDomain: row.shopDomain, orderId: row.orderId } })).toHaveLength(
      1,
    );
  });

  it("a forged refund is 401 and a malformed one 400; neither records anything; an unknown shop only answers", async () => {
    expect(
      (await deliver("refunds/create", afterSaleFixture("refund-partial-lines"), { secret: "forged" })).status,
    ).toBe(401);
    const malformed = await deliver("refunds/create", { ...afterSaleFixture("refund-partial-lines"), order_id: "abc" });
    expect(malformed.status).toBe(400);
    expect(malformed.json?.error).toMatch(/^order_id/);
    expect(
      (
        await deliver("refunds/create", afterSaleFixture("refund-partial-lines"), {
          shop: "never-installed.myshopify.com",
        })
      ).json,
    ).toEqual({ ok: true, result: "unknown_shop" });
    expect(await prisma.refund.count()).toBe(0);
  });

  it("the same refund id in two shops is two refunds, each shop's own", async () => {
    await deliver("refunds/create", afterSaleFixture("refund-partial-lines"));
    await deliver("refunds/create", afterSaleFixture("refund-partial-lines"), { shop: OTHER_SHOP });
    expect(await refunds(SHOP)).toHaveLength(1);
    expect(await refunds(OTHER_SHOP)).toHaveLength(1);
  });

  it("orders/cancelled stores the refund it carries; the refund's own webhook later is a duplicate", async () => {
    await deliver("orders/paid", orderFixture("01-single-item-citizen"));
    expect((await deliver("orders/cancelled", afterSaleFixture("cancelled-1001"))).json).toEqual({
      ok: true,
      result: "cancelled",
    });
    expect((await refunds()).map((r) => [r.refundId, r.amount, r.shipping])).toEqual([
      ["9100000011", "549.70", "49.90"],
    ]);
    expect((await deliver("refunds/create", afterSaleFixture("refund-cancel-1001"))).json).toEqual({
      ok: true,
      result: "duplicate",
    });
    expect(await refunds()).toHaveLength(1);
  });

  it("a refund that reaches a row already closed with nothing at the service is settled at once, as withdrawn or as no invoice", async () => {
    // The worker can withdraw the invoice and close the row between orders/cancelled's two steps (the cancellation,
    // then the refunds it carries); no worker looks at a closed row again, so the refund is settled where it lands.
    await deliver("orders/paid", orderFixture("01-single-item-citizen"));
    const row = await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    await prisma.invoice.update({
      where: { id: row.id },
      data: { state: "cancelled", remoteId: null, nextAttemptAt: null },
    });
    await prisma.invoiceEvent.create({
      data: { invoiceId: row.id, type: "withdrawn", message: "deleted before formalisation" },
    });
    await deliver("refunds/create", afterSaleFixture("refund-partial-lines"));
    expect((await refunds()).map((r) => [r.refundId, r.handling, r.handledAt !== null])).toEqual([
      ["9100000001", "withdrawn", true],
    ]);

    // Closed without ever reaching the service: the refund is of an order that has no invoice.
    await prisma.invoiceEvent.deleteMany({ where: { invoiceId: row.id, type: "withdrawn" } });
    await deliver("refunds/create", afterSaleFixture("refund-shipping-only"));
    const byId = Object.fromEntries((await refunds()).map((r) => [r.refundId, r.handling]));
    expect(byId).toEqual({ "9100000001": "withdrawn", "9100000002": "no_invoice" });
  });

  it("a refund of a row still open is left for the worker", async () => {
    await deliver("orders/paid", orderFixture("01-single-item-citizen"));
    await deliver("refunds/create", afterSaleFixture("refund-partial-lines"));
    expect((await refunds()).map((r) => r.handling)).toEqual([null]);
  });

  it("orders/edited is recorded once per edit, before or after orders/paid, and noted on the row", async () => {
    const edit = afterSaleFixture("edited-1002");
    expect((await deliver("orders/edited", edit)).json).toEqual({ ok: true, result: "recorded" });
    expect((await deliver("orders/edited", edit, { eventId: "another" })).json).toEqual({
      ok: true,
      result: "duplicate",
    });
    await deliver("orders/paid", orderFixture("02-mixed-rates-free-shipping"));
    const edits = await prisma.orderEdit.findMany({ where: { shopDomain: SHOP } });
    expect(edits).toEqual([expect.objectContaining({ orderId: "5810000002", editId: "9200000001", readAt: null })]);
    expect((await deliver("orders/edited", { order_edit: { id: "x" } })).status).toBe(400);
  });
});
