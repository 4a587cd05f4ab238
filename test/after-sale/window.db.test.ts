// Posted but not yet formalised (the sandbox holds formalisation for a minute): a cancellation deletes the invoice
// at the service and the row ends cancelled; a partial refund deletes it and re-issues it for the kept lines; an
// amount-only refund changes no line and deletes nothing. End state checked at the sandbox and in the app.
import { describe, expect, it } from "vitest";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { recordRefundsOf } from "../../app/after-sale/record.server";
import { pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { prisma } from "../helpers/db";
import { SHOP } from "../helpers/shopify";
import { deliver, scenario } from "../helpers/after-sale";

const pipeline = pipelineForEachTest({ formalizeDelayMs: 60_000 });
const atService = (orderId: string) => pipeline.sandbox.invoices.byOrderId(orderId);
const deletionsOf = (orderId: string) => pipeline.sandbox.deletions.filter((d) => d.orderId === orderId);
const refundsOf = (orderId: string) => prisma.refund.findMany({ where: { shopDomain: SHOP, orderId } });

async function posted(order: unknown) {
  await deliver("orders/paid", order);
  const [row] = await waitForInvoices(
    (rows) => rows.length === 1 && rows[0].state === "processing" && rows[0].remoteId !== null,
    25_000,
  );
  return row;
}

describe("posted, not yet formalised", () => {
  it("cancellation: the invoice is deleted at the service, the row ends cancelled", async () => {
    const o = scenario("01-single-item-citizen");
    await pipeline.startWorker();
    const row = await posted(o.order);
    expect(atService(o.id)[0].formal_status).toBe("pending");
    await deliver("orders/cancelled", o.fixture("cancelled-1001"));
    const [after] = await waitForInvoices((rows) => rows[0].state === "cancelled", 25_000);
    expect(after).toMatchObject({ remoteId: null, serialNumber: null, cancelledInShop: true });
    expect(atService(o.id)).toEqual([]);
    expect(deletionsOf(o.id)).toEqual([
      expect.objectContaining({ invoiceId: row.remoteId, outcome: "deleted", formalStatus: "pending" }),
    ]);
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: row.id }, orderBy: { at: "asc" } });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["withdrawn", "cancelled"]));
    expect((await refundsOf(o.id)).map((r) => r.handling)).toEqual(["withdrawn"]);
  });

  it("cancellation whose refund is stored while the invoice is being deleted: the closed row's refund is settled too", async () => {
    const o = scenario("01-single-item-citizen");
    const cancelled = o.fixture("cancelled-1001") as { refunds?: unknown[] };
    expect(cancelled.refunds?.length).toBeGreaterThan(0);
    // orders/cancelled stores the cancellation, then the refunds it carries: here the refund lands while the worker
    // deletes the invoice (after it read the order's refunds, before it closes the row).
    await pipeline.startWorker({
      clientFor: (connection) => {
        const real = new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey });
        return Object.assign(Object.create(real) as InvoicingClient, {
          deleteInvoice: async (id: number) => {
            await recordRefundsOf(SHOP, cancelled, { topic: "orders/cancelled" });
            return real.deleteInvoice(id);
          },
        });
      },
    });
    await posted(o.order);
    await deliver("orders/cancelled", { ...cancelled, refunds: [] });
    await waitForInvoices((rows) => rows[0].state === "cancelled", 25_000);
    expect(atService(o.id)).toEqual([]);
    expect((await refundsOf(o.id)).map((r) => r.handling)).toEqual(["withdrawn"]);
  });

  it("partial refund: the invoice is deleted and issued again for the kept lines, never left wrong", async () => {
    const o = scenario("01-single-item-citizen");
    await pipeline.startWorker();
    const first = await posted(o.order);
    expect(atService(o.id)[0].grand_total).toBe("549.70");
    await deliver("refunds/create", o.fixture("refund-partial-lines"));
    const [after] = await waitForInvoices(
      (rows) => rows[0].state === "processing" && rows[0].remoteId !== null && rows[0].remoteId !== first.remoteId,
      25_000,
    );
    const [reissued] = atService(o.id);
    expect(atService(o.id)).toHaveLength(1);
    expect(reissued).toMatchObject({ id: after.remoteId, grand_total: "299.80" });
    expect(reissued.lines.map((l) => [l.name, Number(l.quantity)])).toEqual([
      ["Seramik Kupa - Lacivert", 1],
      ["Kargo: Standart Kargo", 1],
    ]);
    expect(deletionsOf(o.id)).toEqual([expect.objectContaining({ invoiceId: first.remoteId, outcome: "deleted" })]);
    expect((await refundsOf(o.id)).map((r) => r.handling)).toEqual(["reissued"]);
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: first.id }, orderBy: { at: "asc" } });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["refund", "withdrawn", "reissue", "posted"]));
  });

  it("full refund: deleted at the service, the row ends cancelled", async () => {
    const o = scenario("06-shipping-discounted");
    await pipeline.startWorker();
    await posted(o.order);
    await deliver("refunds/create", o.fixture("refund-full"));
    await waitForInvoices((rows) => rows[0].state === "cancelled", 25_000);
    expect(atService(o.id)).toEqual([]);
    expect(deletionsOf(o.id).map((d) => d.outcome)).toEqual(["deleted"]);
  });

  it("amount-only refund: no line changes, nothing is deleted; the refund is kept for the accountant", async () => {
    const o = scenario("02-mixed-rates-free-shipping");
    await pipeline.startWorker();
    const row = await posted(o.order);
    await deliver("refunds/create", o.fixture("refund-amount-only"));
    await expect
      .poll(async () => (await refundsOf(o.id)).map((r) => r.handling), { timeout: 25_000 })
      .toEqual(["amount_only"]);
    expect(deletionsOf(o.id)).toEqual([]);
    expect(atService(o.id).map((i) => i.id)).toEqual([row.remoteId]);
    expect((await prisma.invoice.findFirstOrThrow({ where: { id: row.id } })).state).toBe("processing");
  });
});
