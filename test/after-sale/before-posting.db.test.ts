// After the sale, end to end against the sandbox: refunds, cancellations and edits before the invoice is posted,
// and after it is formalised. The end state is checked at the sandbox (what was posted or deleted) and in the app
// (the row, the refunds' handling). The window between posting and formalisation: after-sale-window.test.ts.
import { describe, expect, it } from "vitest";
import { pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { prisma } from "../helpers/db";
import { SHOP } from "../helpers/shopify";
import { deliver, scenario } from "../helpers/after-sale";
import { createAdminClient } from "../../app/shopify/client.server";
import { readOrderWith } from "../../app/shopify/orders.server";
import { startStandin } from "../../shopify-standin/server";

const pipeline = pipelineForEachTest();
const atService = (orderId: string) => pipeline.sandbox.invoices.byOrderId(orderId);
const linesAt = (orderId: string) =>
  atService(orderId).map((inv) => inv.lines.map((l) => [l.name, Number(l.quantity)]));
const refundsOf = (orderId: string) =>
  prisma.refund.findMany({ where: { shopDomain: SHOP, orderId }, orderBy: { refundedAt: "asc" } });
const settled = (state: string) => waitForInvoices((rows) => rows.length === 1 && rows[0].state === state, 25_000);

describe("before the invoice is posted", () => {
  it("partial refund with line items: the refunded unit is not invoiced", async () => {
    const o = scenario("01-single-item-citizen");
    await deliver("orders/paid", o.order);
    await deliver("refunds/create", o.fixture("refund-partial-lines"));
    await pipeline.startWorker();
    const [row] = await settled("completed");
    expect(linesAt(o.id)).toEqual([
      [
        ["Seramik Kupa - Lacivert", 1],
        ["Kargo: Standart Kargo", 1],
      ],
    ]);
    expect(atService(o.id)[0].grand_total).toBe("299.80");
    expect(row.remoteId).toBe(atService(o.id)[0].id);
    expect((await refundsOf(o.id)).map((r) => r.handling)).toEqual(["before_invoice"]);
  });

  it("out of order and repeated: a refund delivered twice before orders/paid is applied once", async () => {
    const o = scenario("01-single-item-citizen");
    const refund = o.fixture("refund-partial-lines");
    await deliver("refunds/create", refund, { eventId: "a" });
    await deliver("refunds/create", refund, { eventId: "b" });
    await deliver("orders/paid", o.order);
    await deliver("orders/paid", o.order);
    await pipeline.startWorker();
    await settled("completed");
    expect(atService(o.id)).toHaveLength(1);
    expect(linesAt(o.id)).toEqual([
      [
        ["Seramik Kupa - Lacivert", 1],
        ["Kargo: Standart Kargo", 1],
      ],
    ]);
    expect(await refundsOf(o.id)).toHaveLength(1);
  });

  it("shipping-only refund: the goods are invoiced, the shipping is not", async () => {
    const o = scenario("01-single-item-citizen");
    await deliver("orders/paid", o.order);
    await deliver("refunds/create", o.fixture("refund-shipping-only"));
    await pipeline.startWorker();
    await settled("completed");
    expect(linesAt(o.id)).toEqual([[["Seramik Kupa - Lacivert", 2]]]);
    expect(atService(o.id)[0].grand_total).toBe("499.80");
  });

  it("amount-only refund: the goods are invoiced as sold, with a warning; the refund is kept for the accountant", async () => {
    const o = scenario("02-mixed-rates-free-shipping");
    await deliver("orders/paid", o.order);
    await deliver("refunds/create", o.fixture("refund-amount-only"));
    await pipeline.startWorker();
    const [row] = await settled("completed");
    expect(atService(o.id)[0].grand_total).toBe("1915.25");
    expect((row.problems as Array<{ code: string }>).map((p) => p.code)).toContain("order.refund_adjustments_ignored");
    expect((await refundsOf(o.id)).map((r) => r.handling)).toEqual(["amount_only"]);
  });

  it("refund of a gift-card order: nothing was to be invoiced, nothing is posted, the row ends cancelled", async () => {
    const o = scenario("18-gift-card-only");
    await deliver("orders/paid", o.order);
    await deliver("refunds/create", o.fixture("refund-gift-card-order"));
    await pipeline.startWorker();
    await settled("cancelled");
    expect(atService(o.id)).toEqual([]);
    expect((await refundsOf(o.id)).map((r) => r.handling)).toEqual(["no_invoice"]);
  });

  it("a gift card and an item: refunding one candle leaves one candle and the shipping on the invoice, never the gift card", async () => {
    const o = scenario("17-gift-card-with-item");
    await deliver("orders/paid", o.order);
    await deliver("refunds/create", o.fixture("refund-gift-card-with-item"));
    await pipeline.startWorker();
    await settled("completed");
    expect(linesAt(o.id)).toEqual([
      [
        ["Kokulu Mum", 1],
        ["Kargo: Standart Kargo", 1],
      ],
    ]);
  });

  it("full refund: no invoice at all", async () => {
    const o = scenario("06-shipping-discounted");
    await deliver("orders/paid", o.order);
    await deliver("refunds/create", o.fixture("refund-full"));
    await pipeline.startWorker();
    await settled("cancelled");
    expect(atService(o.id)).toEqual([]);
    expect(pipeline.posts()).toBe(0);
  });

  it("cancel before posting: no invoice, and the cancellation's refund is recorded", async () => {
    const o = scenario("01-single-item-citizen");
    await deliver("orders/paid", o.order);
    await deliver("orders/cancelled", o.fixture("cancelled-1001"));
    await pipeline.startWorker();
    await settled("cancelled");
    expect(atService(o.id)).toEqual([]);
    expect((await refundsOf(o.id)).map((r) => r.amount)).toEqual(["549.70"]);
  });

  it("edit before posting: the order is read again (Admin API) and invoiced as it stands", async () => {
    const o = scenario("02-mixed-rates-free-shipping");
    await deliver("orders/paid", o.order);
    await deliver("orders/edited", o.fixture("edited-1002"));
    const reads: string[] = [];
    await pipeline.startWorker({
      readOrder: async (shop, orderId) => {
        reads.push(`${shop} ${orderId}`);
        return o.fixture("edited-1002-order");
      },
    });
    const [row] = await settled("completed");
    expect(reads).toEqual([`${SHOP} ${o.id}`]);
    expect(linesAt(o.id)[0]).toContainEqual(["Kitap: Kürk Mantolu Madonna", 1]);
    expect(atService(o.id)[0].grand_total).toBe("1825.75");
    expect(
      (row.orderSnapshot as { line_items: Array<{ current_quantity?: number }> }).line_items[1].current_quantity,
    ).toBe(1);
    expect((await prisma.orderEdit.findFirstOrThrow({ where: { shopDomain: SHOP } })).readAt).toBeInstanceOf(Date);
  });

  it("edit before posting, read through the Admin API (GraphQL, the local stand-in): invoiced as it stands", async () => {
    const o = scenario("02-mixed-rates-free-shipping");
    const standin = await startStandin({
      shop: SHOP,
      orders: [o.fixture("edited-1002-order")],
      scopes: ["read_orders", "read_all_orders"],
    });
    try {
      const admin = createAdminClient({ shop: SHOP, endpoint: standin.graphqlUrl(), accessToken: standin.accessToken });
      await deliver("orders/paid", o.order);
      await deliver("orders/edited", o.fixture("edited-1002"));
      await pipeline.startWorker({ readOrder: (_shop, orderId) => readOrderWith(admin, orderId) });
      await settled("completed");
      expect(linesAt(o.id)[0]).toContainEqual(["Kitap: Kürk Mantolu Madonna", 1]);
      expect(atService(o.id)[0].grand_total).toBe("1825.75");
      expect(standin.stats().requests).toBeGreaterThan(0);
    } finally {
      await standin.stop();
    }
  });

  it("edit before posting, the order cannot be read again: nothing is posted, the row waits and says why", async () => {
    const o = scenario("02-mixed-rates-free-shipping");
    await deliver("orders/paid", o.order);
    await deliver("orders/edited", o.fixture("edited-1002"));
    await pipeline.startWorker({ readOrder: async () => Promise.reject(new Error("Admin API 503")) });
    await waitForInvoices((rows) => rows.length === 1 && (rows[0].lastError ?? "").includes("Admin API 503"), 25_000);
    await pipeline.stopWorkers();
    const row = await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    expect(row).toMatchObject({ state: "queued", remoteId: null });
    expect((row.problems as Array<{ code: string }>).map((p) => p.code)).toEqual(["order.edited_unread"]);
    expect(pipeline.posts()).toBe(0);
  });
});

describe("after the invoice is formalised", () => {
  it("a refund changes nothing at the service; it is marked for the invoice page", async () => {
    const o = scenario("01-single-item-citizen");
    await deliver("orders/paid", o.order);
    const worker = await pipeline.startWorker();
    const [before] = await settled("completed");
    await deliver("refunds/create", o.fixture("refund-partial-lines"));
    worker.wake();
    expect((await refundsOf(o.id)).map((r) => r.handling)).toEqual(["after_formalisation"]);
    const [after] = await prisma.invoice.findMany({ where: { shopDomain: SHOP } });
    expect(after).toMatchObject({ state: "completed", serialNumber: before.serialNumber, remoteId: before.remoteId });
    expect(pipeline.sandbox.deletions).toEqual([]);
    expect(linesAt(o.id)).toEqual([
      [
        ["Seramik Kupa - Lacivert", 2],
        ["Kargo: Standart Kargo", 1],
      ],
    ]);
  });

  it("a cancellation asks the merchant (the invoice page shows the path); nothing is deleted", async () => {
    const o = scenario("01-single-item-citizen");
    await deliver("orders/paid", o.order);
    await pipeline.startWorker();
    await settled("completed");
    await deliver("orders/cancelled", o.fixture("cancelled-1001"));
    const [row] = await settled("needs_attention");
    expect((row.problems as Array<{ code: string }>).map((p) => p.code)).toEqual(["invoice.cancelled_after_invoicing"]);
    expect(pipeline.sandbox.deletions).toEqual([]);
    expect(atService(o.id)[0].formal_status).toBe("completed");
  });
});
