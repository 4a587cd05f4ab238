// The order list's bulk action and the order page's action: selected orders are read as they stand now and
// recorded once; an order the app has is reported, one waiting for its trigger is queued; refusals say why.
// "Invoice now" reads the order as it stands, and falls back to the payment-time order in words.
import { describe, expect, it } from "vitest";
import { action } from "../../app/routes/api.orders.invoice";
import { invoiceSelectedOrders, numericOrderId } from "../../app/invoices/bulk-invoice.server";
import { invoiceNow } from "../../app/invoices/actions.server";
import { recordPaidOrder } from "../../app/invoices/enqueue.server";
import { saveConnection } from "../../app/settings/settings.server";
import { callRoute } from "../helpers/routes";
import { adminFetchRequest, APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";
import { fakeReader } from "../helpers/order-reader";

describe("invoicing selected orders", () => {
  freshShopsForEachTest();

  it("queues new paid orders, reports the ones already invoiced, and refuses unpaid, cancelled and unknown ones with the reason", async () => {
    const fresh = paidOrder();
    const known = paidOrder();
    await recordPaidOrder(SHOP, known, { topic: "orders/paid" });
    const unpaid = paidOrder({ financial_status: "pending" });
    const cancelled = paidOrder({ cancelled_at: "2026-11-22T10:00:00Z" });
    const reader = fakeReader([fresh, known, unpaid, cancelled]);
    const summary = await invoiceSelectedOrders(
      SHOP,
      [String(fresh.id), String(known.id), String(unpaid.id), String(cancelled.id), "999"],
      reader,
    );
    expect(summary).toMatchObject({ queued: 1, already: 1, refused: 3 });
    expect(
      summary.results.map((r) => [r.name, r.result, "reason" in r ? r.reason : "state" in r ? r.state : ""]),
    ).toEqual([
      [fresh.name, "queued", ""],
      [known.name, "already", "queued"],
      [unpaid.name, "refused", "not_paid"],
      [cancelled.name, "refused", "cancelled"],
      [null, "refused", "not_found"],
    ]);
    const row = await prisma.invoice.findFirstOrThrow({
      where: { shopDomain: SHOP, orderId: String(fresh.id) },
      include: { events: true },
    });
    expect(row.state).toBe("queued");
    expect(row.events.find((e) => e.type === "received")!.message).toMatch(/bulk action/);
    // Twice: nothing new.
    const again = await invoiceSelectedOrders(SHOP, [String(fresh.id)], reader);
    expect(again).toMatchObject({ queued: 0, already: 1 });
    expect(await prisma.invoice.count({ where: { shopDomain: SHOP } })).toBe(2);
    // Another shop's order ids find nothing of this shop's.
    expect((await invoiceSelectedOrders(OTHER_SHOP, [String(known.id)], fakeReader([]))).results[0]).toMatchObject({
      result: "refused",
      reason: "not_found",
    });
  });

  it("queues an order waiting for its trigger with the order as it stands now; an Admin API failure is a refusal in words", async () => {
    await saveConnection(SHOP, { trigger: "manual" });
    const order = paidOrder();
    await recordPaidOrder(SHOP, order, { topic: "orders/paid" });
    const edited = { ...order, note_attributes: [{ name: "Vergi Numarası", value: "1234567890" }] };
    const broken = fakeReader([edited]);
    broken.readOrder = async () => {
      throw new Error("Shopify answered 503");
    };
    expect((await invoiceSelectedOrders(SHOP, [String(order.id)], broken)).results[0]).toMatchObject({
      result: "refused",
      reason: "admin_api",
      detail: "Shopify answered 503",
    });
    expect(await invoiceSelectedOrders(SHOP, [String(order.id)], fakeReader([edited]))).toMatchObject({ queued: 1 });
    const row = await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    expect(row.state).toBe("queued");
    expect((row.orderSnapshot as { note_attributes: unknown[] }).note_attributes).toEqual(edited.note_attributes);
  });

  it("Invoice now reads the order as it stands, and says so when it had to use the order as paid", async () => {
    await saveConnection(SHOP, { trigger: "manual" });
    const [a, b] = [paidOrder(), paidOrder()];
    await recordPaidOrder(SHOP, a, { topic: "orders/paid" });
    await recordPaidOrder(SHOP, b, { topic: "orders/paid" });
    const rowA = await prisma.invoice.findFirstOrThrow({ where: { orderId: String(a.id) } });
    const rowB = await prisma.invoice.findFirstOrThrow({ where: { orderId: String(b.id) } });
    const now = { ...a, note_attributes: [{ name: "TC Kimlik No", value: "10000000078" }] };
    expect(await invoiceNow(SHOP, rowA.id, new Date(), fakeReader([now]))).toEqual({ ok: true, from: "shopify" });
    const readA = await prisma.invoice.findUniqueOrThrow({ where: { id: rowA.id }, include: { events: true } });
    expect((readA.orderSnapshot as { note_attributes: unknown[] }).note_attributes).toEqual(now.note_attributes);
    expect(readA.events.some((e) => /as it stands in Shopify now/.test(e.message ?? ""))).toBe(true);
    const down = fakeReader([]);
    down.readOrder = async () => {
      throw new Error("Shopify answered 503");
    };
    expect(await invoiceNow(SHOP, rowB.id, new Date(), down)).toEqual({ ok: true, from: "snapshot" });
    const readB = await prisma.invoice.findUniqueOrThrow({ where: { id: rowB.id }, include: { events: true } });
    expect(readB.state).toBe("queued");
    expect(
      readB.events.some((e) =>
        /as it was when paid: it could not be read from Shopify \(Shopify answered 503\)/.test(e.message ?? ""),
      ),
    ).toBe(true);
    expect(await invoiceNow(OTHER_SHOP, rowB.id, new Date(), down)).toEqual({ ok: false, reason: "not_found" });
  });

  it("takes numeric ids and order GIDs only", () => {
    expect(numericOrderId("gid://shopify/Order/123")).toBe("123");
    expect(numericOrderId("123")).toBe("123");
    expect(numericOrderId("gid://shopify/Product/1")).toBeNull();
    expect(numericOrderId("1 OR 1=1")).toBeNull();
  });

  it("the route needs a session token and a well-formed body", async () => {
    const anonymous = await callRoute(
      action,
      new Request(`${APP_ORIGIN}/api/orders/invoice`, { method: "POST", body: "{}" }),
    );
    expect(anonymous.status).not.toBe(200);
    for (const body of [
      "not json",
      JSON.stringify({ orderIds: [] }),
      JSON.stringify({ orderIds: Array.from({ length: 51 }, (_, i) => String(i + 1)) }),
      JSON.stringify({ orderIds: ["gid://shopify/Product/1"] }),
    ]) {
      const request = await adminFetchRequest("/api/orders/invoice", SHOP, {
        method: "POST",
        body,
        headers: { Origin: "https://extensions.shopifycdn.com" },
      });
      const response = await callRoute(action, request);
      expect(response.status).toBe(400);
      expect(response.headers.get("Access-Control-Allow-Origin")).toBeTruthy();
    }
    expect(await prisma.invoice.count()).toBe(0);
  });
});
