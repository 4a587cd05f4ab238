// The needs-attention loop can be closed (issue 22, point 1): Retry and the re-evaluation after orders/updated read
// the order as it stands through the Admin API (the stored copy only as a named fallback); orders/updated is debounced,
// ignores changes that do not touch the buyer, addresses, note attributes or tax lines, and never makes a second
// invoice; the buyer can be set by hand; an invoice can be closed by hand (issued in the panel, no invoice needed)
// and reopened, and a closed one counts nowhere as needing attention.
import { describe, expect, it } from "vitest";
import { action as updatedRoute } from "../../app/routes/webhooks.orders.updated";
import { retryInvoice } from "../../app/invoices/actions.server";
import { closeInvoice, reopenInvoice, setBuyerOverride } from "../../app/invoices/fixes.server";
import { dashboardCounts, listInvoices, parseListParams } from "../../app/invoices/list.server";
import { getInvoiceDetail } from "../../app/invoices/detail.server";
import { orderInvoice } from "../../app/invoices/order-invoice.server";
import { desiredMetafields } from "../../app/write-back/plan";
import { writeBackInvoiceOf } from "../../app/write-back/run.server";
import { ORDER_UPDATE_DEBOUNCE_MS } from "../../app/after-sale/order-updated.server";
import type { OrderReader } from "../../app/shopify/order-reader";
import { makeScheduledRowsDue, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";
import { callRoute } from "../helpers/routes";
import { OTHER_SHOP, SHOP, signedWebhookRequest } from "../helpers/shopify";

const pipeline = pipelineForEachTest({ formalizeDelayMs: 10 });

const BAD_VKN = "1234567891"; // check digit off by one
const GOOD_VKN = "1234567890";
const company = (vkn: string) => [
  { name: "Vergi Numarası", value: vkn },
  { name: "Vergi Dairesi", value: "Kadıköy" },
  { name: "Şirket Unvanı", value: "Yılmaz Ticaret Ltd. Şti." },
];

/** Shopify's Admin API as the worker and Retry read it: the order as it stands now, set by the test. */
function shopifyNow() {
  let current: unknown = null;
  let failing: string | null = null;
  const reads: string[] = [];
  const readOrder = async (_shop: string, orderId: string) => {
    reads.push(orderId);
    if (failing) throw new Error(failing);
    return current;
  };
  return {
    set: (order: unknown) => (current = order),
    fail: (reason: string | null) => (failing = reason),
    reads,
    readOrder,
    reader: {
      readOrder,
      listOrders: async () => ({ orders: [], pageInfo: { hasNextPage: false, endCursor: null } }),
    } satisfies OrderReader,
  };
}

const updated = (body: unknown, eventId = `e-${Math.random()}`) =>
  callRoute(updatedRoute, signedWebhookRequest({ topic: "orders/updated", body, eventId }));

/** An order whose tax number is wrong: its invoice stops with needs_attention before anything is posted. */
async function needingAttention(shopify: ReturnType<typeof shopifyNow>) {
  const order = paidOrder({ note_attributes: company(BAD_VKN) });
  shopify.set(order);
  await pipeline.startWorker({ readOrder: shopify.readOrder });
  await pipeline.deliverPaid(order);
  const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "needs_attention");
  expect(row.problems).toEqual([expect.objectContaining({ code: "customer.invalid_tax_number" })]);
  return { order, row };
}

/** The customer of the body the invoice was posted with (as the service received it). */
const customerSent = (row: { requestBody: unknown }) =>
  (row.requestBody as { customer: Record<string, unknown> }).customer;

const events = (invoiceId: string) => prisma.invoiceEvent.findMany({ where: { invoiceId }, orderBy: { at: "asc" } });

describe("orders/updated re-evaluates an invoice needing attention", () => {
  it("ignores a change that does not touch the buyer (tags), is debounced, reads the order from Shopify, and makes one invoice", async () => {
    const shopify = shopifyNow();
    const { order, row } = await needingAttention(shopify);

    // The app's own write-back and the merchant's tags: no work at all.
    const tagged = await updated({ ...order, tags: "e-fatura, vip", updated_at: "2026-11-21T15:00:00+03:00" });
    expect(await tagged.json()).toMatchObject({ result: "ignored" });
    expect(await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      state: "needs_attention",
      refreshOrder: false,
      nextAttemptAt: null,
    });

    // The merchant corrects the tax number in Shopify: queued after a quiet time, to read the order again.
    const corrected = { ...order, note_attributes: company(GOOD_VKN), updated_at: "2026-11-21T15:01:00+03:00" };
    shopify.set(corrected);
    const before = Date.now();
    expect(await (await updated(corrected)).json()).toMatchObject({ result: "queued" });
    const queued = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    expect(queued).toMatchObject({ state: "queued", refreshOrder: true, problems: [] });
    expect(queued.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + ORDER_UPDATE_DEBOUNCE_MS);

    // A second change while the merchant is still editing pushes the attempt on; the history names the change once.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const readdressed = {
      ...corrected,
      billing_address: { ...(order as { billing_address: object }).billing_address, address1: "Moda Caddesi No: 3" },
    };
    shopify.set(readdressed);
    expect(await (await updated(readdressed)).json()).toMatchObject({ result: "queued" });
    const pushed = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    expect(pushed.nextAttemptAt!.getTime()).toBeGreaterThan(queued.nextAttemptAt!.getTime());
    expect((await events(row.id)).filter((e) => e.type === "order_updated")).toHaveLength(1);
    expect(pipeline.posts()).toBe(0);

    await makeScheduledRowsDue();
    const [done] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(shopify.reads).toEqual([String(order.id)]);
    expect(done.refreshOrder).toBe(false);
    expect((done.orderSnapshot as { billing_address: { address1: string } }).billing_address.address1).toBe(
      "Moda Caddesi No: 3",
    );
    expect(pipeline.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(1);
    expect(customerSent(done)).toMatchObject({ type: "company", tax_number: GOOD_VKN });
    expect((await events(row.id)).map((e) => e.type)).toContain("order_read");

    // Later updates of a completed invoice are ignored: never a second invoice.
    expect(await (await updated({ ...readdressed, note_attributes: company("9860008925") })).json()).toMatchObject({
      result: "ignored",
    });
    await makeScheduledRowsDue();
    await pipeline.startWorker().then((w) => w.idle());
    expect(pipeline.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(1);
    expect(pipeline.posts()).toBe(1);
  });

  it("a repeated delivery of the same event changes nothing; a waiting invoice is only marked to read the order again", async () => {
    await prisma.shopSettings.update({ where: { shopDomain: SHOP }, data: { trigger: "manual" } });
    const order = paidOrder({ note_attributes: company(BAD_VKN) });
    await pipeline.deliverPaid(order);
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "waiting");
    const changed = { ...order, note_attributes: company(GOOD_VKN) };
    expect(await (await updated(changed, "same-event")).json()).toMatchObject({ result: "marked" });
    expect(await (await updated(changed, "same-event")).json()).toMatchObject({ result: "duplicate" });
    expect(await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      state: "waiting",
      refreshOrder: true,
      nextAttemptAt: null,
    });
    expect((await events(row.id)).filter((e) => e.type === "order_updated")).toHaveLength(1);
  });

  it("when Shopify cannot be read, the stored copy is posted and the history says so", async () => {
    const shopify = shopifyNow();
    const { order, row } = await needingAttention(shopify);
    shopify.fail("Shopify is down (503)");
    await updated({ ...order, note_attributes: company(GOOD_VKN) });
    await makeScheduledRowsDue();
    await waitForInvoices((rows) => rows[0].state === "needs_attention" && !rows[0].refreshOrder);
    const failed = (await events(row.id)).find((e) => e.type === "order_read_failed");
    expect(failed?.message).toContain("Shopify is down (503)");
    expect(pipeline.posts()).toBe(0);
  });
});

describe("Retry reads the order as it stands in Shopify", () => {
  it("posts the corrected order, not the stored copy", async () => {
    const shopify = shopifyNow();
    const { order, row } = await needingAttention(shopify);
    shopify.set({ ...order, note_attributes: company(GOOD_VKN) });
    expect(await retryInvoice(SHOP, row.id, new Date(), shopify.reader)).toEqual({ ok: true, from: "shopify" });
    const [done] = await waitForInvoices((rows) => rows[0].state === "completed");
    expect(pipeline.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(1);
    expect(customerSent(done)).toMatchObject({ tax_number: GOOD_VKN });
    expect((await events(row.id)).find((e) => e.type === "merchant_retry")?.data).toEqual({ from: "shopify" });
  });

  it("when the Admin API does not answer the merchant, the worker reads it again before posting", async () => {
    const shopify = shopifyNow();
    const { order, row } = await needingAttention(shopify);
    const down = {
      readOrder: async () => Promise.reject(new Error("timeout")),
      listOrders: shopify.reader.listOrders,
    } satisfies OrderReader;
    shopify.set({ ...order, note_attributes: company(GOOD_VKN) });
    expect(await retryInvoice(SHOP, row.id, new Date(), down)).toEqual({ ok: true, from: "later" });
    await waitForInvoices((rows) => rows[0].state === "completed");
    expect(shopify.reads.length).toBeGreaterThanOrEqual(1);
    expect((await events(row.id)).map((e) => e.type)).toEqual(
      expect.arrayContaining(["merchant_retry", "order_read", "posted"]),
    );
  });
});

describe("fixes by hand on the invoice page", () => {
  it("the buyer set by hand: checked like the order's numbers, recorded with its reason, and the invoice goes out with it", async () => {
    const shopify = shopifyNow();
    const { order, row } = await needingAttention(shopify);
    const refused = await setBuyerOverride(SHOP, row.id, {
      kind: "company",
      taxNumber: BAD_VKN,
      title: "",
      taxOffice: "Kadıköy",
      reason: "",
    });
    expect(refused).toEqual({
      ok: false,
      reason: "invalid",
      errors: { taxNumber: "checksum", title: "required", reason: "required" },
    });
    expect(
      await setBuyerOverride(SHOP, row.id, {
        kind: "person",
        taxNumber: "10000000145",
        name: "Ayşe",
        surname: "Yılmaz",
        reason: "x",
      }),
    ).toMatchObject({ errors: { taxNumber: "checksum" } });
    expect(
      await setBuyerOverride(OTHER_SHOP, row.id, { kind: "person", name: "A", surname: "B", reason: "x" }),
    ).toEqual({ ok: false, reason: "not_found" });

    const set = await setBuyerOverride(SHOP, row.id, {
      kind: "company",
      taxNumber: "986 000 8925",
      title: "Yurtiçi Kargo Servisi A.Ş.",
      taxOffice: "Büyük Mükellefler",
      reason: "Müşteri telefonda bildirdi",
    });
    expect(set).toEqual({ ok: true, retried: true });
    const [done] = await waitForInvoices((rows) => rows[0].state === "completed");
    expect(pipeline.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(1);
    expect(customerSent(done)).toMatchObject({
      type: "company",
      tax_number: "9860008925",
      title: "Yurtiçi Kargo Servisi A.Ş.",
      tax_office: "Büyük Mükellefler",
      city: "İstanbul",
    });
    const event = (await events(row.id)).find((e) => e.type === "buyer_override");
    expect(event?.message).toBe("Müşteri telefonda bildirdi");
    // Once at the service, the buyer can no longer be changed here.
    expect(await setBuyerOverride(SHOP, row.id, { kind: "person", name: "A", surname: "B", reason: "x" })).toEqual({
      ok: false,
      reason: "not_allowed",
    });
  });

  it("closed as issued in the panel or as needing no invoice: out of every attention count, reversible, nothing posted", async () => {
    const shopify = shopifyNow();
    const { row } = await needingAttention(shopify);
    expect((await dashboardCounts(SHOP, "Europe/Istanbul")).needsAttention).toBe(1);

    expect(await closeInvoice(SHOP, row.id, { as: "panel", serial: "abc2026" })).toEqual({
      ok: false,
      reason: "invalid",
      errors: { serial: "serial_format" },
    });
    expect(await closeInvoice(SHOP, row.id, { as: "not_needed", reason: " " })).toEqual({
      ok: false,
      reason: "invalid",
      errors: { reason: "required" },
    });
    expect(await closeInvoice(OTHER_SHOP, row.id, { as: "not_needed", reason: "x" })).toEqual({
      ok: false,
      reason: "not_found",
    });

    const closing = new Date();
    expect(await closeInvoice(SHOP, row.id, { as: "panel", serial: "abc2026000000123" })).toEqual({ ok: true });
    const closed = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    expect(closed).toMatchObject({
      state: "closed",
      nextAttemptAt: null,
      closure: { as: "panel", serial: "ABC2026000000123", from: "needs_attention" },
    });
    expect((await dashboardCounts(SHOP, "Europe/Istanbul")).needsAttention).toBe(0);
    // The panel's serial is the invoice's serial wherever one is shown or searched, marked as issued in the panel.
    expect(closed.serialNumber).toBe("ABC2026000000123");
    const found = await listInvoices(
      SHOP,
      parseListParams(new URLSearchParams("q=ABC2026000000123")),
      "Europe/Istanbul",
    );
    expect(found.rows.map((r) => [r.id, r.serialNumber, r.issuedInPanel])).toEqual([
      [row.id, "ABC2026000000123", true],
    ]);
    expect(await getInvoiceDetail(SHOP, row.id)).toMatchObject({
      serialNumber: "ABC2026000000123",
      closure: { as: "panel" },
    });
    expect(await orderInvoice(SHOP, row.orderId)).toMatchObject({
      state: "issued_in_panel",
      serialNumber: "ABC2026000000123",
    });
    // The order carries the new state too (its write-back is due).
    const writeBack = await prisma.orderWriteBack.findUniqueOrThrow({ where: { invoiceId: row.id } });
    expect(writeBack.updatedAt.getTime()).toBeGreaterThanOrEqual(closing.getTime());
    // ...with the serial number the panel gave, as the order's invoice serial.
    expect(desiredMetafields(writeBackInvoiceOf(closed))).toMatchObject({
      invoice_state: "closed",
      invoice_serial: "ABC2026000000123",
    });
    expect(await retryInvoice(SHOP, row.id, new Date(), shopify.reader)).toEqual({ ok: false, reason: "not_allowed" });
    expect(await closeInvoice(SHOP, row.id, { as: "not_needed", reason: "x" })).toEqual({
      ok: false,
      reason: "not_allowed",
    });

    expect(await reopenInvoice(SHOP, row.id)).toEqual({ ok: true });
    const reopened = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    expect(reopened).toMatchObject({ state: "needs_attention", closure: null, serialNumber: null });
    expect(
      (await listInvoices(SHOP, parseListParams(new URLSearchParams("q=ABC2026000000123")), "Europe/Istanbul")).rows,
    ).toEqual([]);
    expect(await orderInvoice(SHOP, row.orderId)).toMatchObject({ state: "needs_attention", serialNumber: null });
    expect(reopened.problems).toEqual(row.problems);
    expect(await closeInvoice(SHOP, row.id, { as: "not_needed", reason: "Numune gönderimi, satış değil" })).toEqual({
      ok: true,
    });
    expect(
      desiredMetafields(writeBackInvoiceOf(await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } }))),
    ).toEqual({ invoice_state: "closed" });
    expect(
      (await events(row.id)).filter((e) => ["closed", "reopened"].includes(e.type)).map((e) => [e.type, e.message]),
    ).toEqual([
      ["closed", null],
      ["reopened", null],
      ["closed", "Numune gönderimi, satış değil"],
    ]);
    // A closed invoice's order changing later makes no work either.
    expect(
      await (await updated({ ...paidOrder(), id: Number(row.orderId), note_attributes: company(GOOD_VKN) })).json(),
    ).toMatchObject({ result: "ignored" });
    expect(pipeline.posts()).toBe(0);
  });
});
