// Reconciliation records what no webhook brought, exactly once, whatever runs twice or arrives late.
import { describe, expect, it } from "vitest";
import { action as paid } from "../../app/routes/webhooks.orders.paid";
import { OVERLAP_MS, reconcileShop, shopsDueForReconciliation } from "../../app/reconciliation/reconcile.server";
import { saveConnection } from "../../app/settings/settings.server";
import { callRoute } from "../helpers/routes";
import { OTHER_SHOP, SHOP, signedWebhookRequest } from "../helpers/shopify";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";
import { fakeReader } from "../helpers/order-reader";

const deliverPaid = (body: unknown, shop = SHOP) =>
  callRoute(paid, signedWebhookRequest({ topic: "orders/paid", body, shop }));
const rows = (shop = SHOP) =>
  prisma.invoice.findMany({ where: { shopDomain: shop }, include: { events: true }, orderBy: { orderName: "asc" } });

describe("reconciliation", () => {
  freshShopsForEachTest();

  it("records the paid order no webhook brought, says so, and leaves the delivered one alone", async () => {
    const delivered = paidOrder();
    const missed = paidOrder();
    const unpaid = paidOrder({ financial_status: "pending" });
    await deliverPaid(delivered);
    const reader = fakeReader([delivered, missed, unpaid]);
    const result = await reconcileShop(SHOP, { reader, owner: "t" });
    expect(result).toMatchObject({ status: "done", read: 3, recorded: 1, duplicate: 1, skipped: 1 });
    const all = await rows();
    expect(all.map((row) => row.orderId).sort()).toEqual([String(delivered.id), String(missed.id)].sort());
    const found = all.find((row) => row.orderId === String(missed.id))!;
    expect(found.state).toBe("queued");
    expect(found.priority).toBe(0);
    const received = found.events.find((event) => event.type === "received")!;
    expect(received.message).toMatch(/reconciliation/);
    expect(received.data).toMatchObject({ source: "reconciliation" });
    // Only paid orders are asked for.
    expect(reader.queries[0]).toMatch(/financial_status:paid/);
    expect(reader.queries[0]).toMatch(/updated_at:>=/);
  });

  it("a second pass and a late webhook add nothing", async () => {
    const missed = paidOrder();
    const reader = fakeReader([missed]);
    await reconcileShop(SHOP, { reader, owner: "t" });
    const before = await rows();
    expect(await reconcileShop(SHOP, { reader, owner: "t" })).toMatchObject({
      status: "done",
      recorded: 0,
      duplicate: 1,
    });
    const late = await deliverPaid(missed);
    expect(await late.json()).toMatchObject({ result: "duplicate" });
    expect(await rows()).toEqual(before);
  });

  it("a webhook racing a pass for the same orders leaves one row per order", async () => {
    const orders = Array.from({ length: 6 }, () => paidOrder());
    const reader = fakeReader(orders, 2);
    const [result] = await Promise.all([
      reconcileShop(SHOP, { reader, owner: "t" }),
      ...orders.map((order) => deliverPaid(order)),
    ]);
    expect(result.status).toBe("done");
    const all = await rows();
    expect(all).toHaveLength(6);
    expect(new Set(all.map((row) => row.orderId)).size).toBe(6);
    if (result.status === "done") expect(result.recorded + result.duplicate).toBe(6);
  });

  it("follows the shop's trigger as the webhooks would: manual waits, on fulfilment only fulfilled orders queue, cancelled is recorded cancelled", async () => {
    await saveConnection(SHOP, { trigger: "fulfilled" });
    const open = paidOrder();
    const shipped = paidOrder({ fulfillment_status: "fulfilled" });
    const cancelled = paidOrder({ cancelled_at: "2026-11-21T15:00:00+03:00" });
    await reconcileShop(SHOP, { reader: fakeReader([open, shipped, cancelled]), owner: "t" });
    const state = async (order: { id: number }) =>
      (await prisma.invoice.findFirstOrThrow({ where: { orderId: String(order.id) } })).state;
    expect(await state(open)).toBe("waiting");
    expect(await state(shipped)).toBe("queued");
    expect(await state(cancelled)).toBe("cancelled");
    await saveConnection(OTHER_SHOP, { trigger: "manual" });
    const manual = paidOrder();
    await reconcileShop(OTHER_SHOP, { reader: fakeReader([manual]), owner: "t" });
    expect(await state(manual)).toBe("waiting");
  });

  it("one pass per shop at a time: a second pass while one runs is turned away, another shop's is not", async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const reader = fakeReader([paidOrder()]);
    reader.beforePage = () => hold;
    const first = reconcileShop(SHOP, { reader, owner: "a" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await reconcileShop(SHOP, { reader: fakeReader([paidOrder()]), owner: "b" })).toEqual({ status: "busy" });
    expect(await reconcileShop(OTHER_SHOP, { reader: fakeReader([]), owner: "b" })).toMatchObject({ status: "done" });
    expect(await shopsDueForReconciliation(new Date(), 60_000)).toEqual([]);
    release();
    expect(await first).toMatchObject({ status: "done", recorded: 1 });
  });

  it("reads from the last pass's start less the overlap, and keeps the watermark when a pass fails", async () => {
    const t0 = new Date("2026-11-23T10:00:00Z");
    const t1 = new Date("2026-11-23T11:00:00Z");
    const reader = fakeReader([]);
    await reconcileShop(SHOP, { reader, owner: "t", now: () => t0 });
    await reconcileShop(SHOP, { reader, owner: "t", now: () => t1 });
    expect(reader.queries[1]).toContain(`updated_at:>='${new Date(t0.getTime() - OVERLAP_MS).toISOString()}'`);
    reader.beforePage = () => Promise.reject(new Error("Shopify answered 503"));
    expect(await reconcileShop(SHOP, { reader, owner: "t", now: () => new Date("2026-11-23T12:00:00Z") })).toEqual({
      status: "failed",
      error: "Shopify answered 503",
    });
    const row = await prisma.reconciliation.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(row.watermark).toEqual(t1);
    expect(row.lastError).toBe("Shopify answered 503");
    expect(row.leaseUntil).toBeNull();
  });

  it("is due for installed shops never run, run an interval ago, or asked for; never for uninstalled ones", async () => {
    const now = new Date();
    expect((await shopsDueForReconciliation(now, 3_600_000)).sort()).toEqual([OTHER_SHOP, SHOP].sort());
    await reconcileShop(SHOP, { reader: fakeReader([]), owner: "t", now: () => now });
    await reconcileShop(OTHER_SHOP, { reader: fakeReader([]), owner: "t", now: () => now });
    expect(await shopsDueForReconciliation(now, 3_600_000)).toEqual([]);
    expect(await shopsDueForReconciliation(new Date(now.getTime() + 3_600_001), 3_600_000)).toHaveLength(2);
    await prisma.reconciliation.update({ where: { shopDomain: SHOP }, data: { requestedAt: now } });
    expect(await shopsDueForReconciliation(now, 3_600_000)).toEqual([SHOP]);
    await prisma.shop.update({ where: { domain: SHOP }, data: { uninstalledAt: now } });
    expect(await shopsDueForReconciliation(now, 3_600_000)).toEqual([]);
  });
});
