// The whole flow against the sandbox: webhook → row → worker → POST → callback → GET → completed,
// and every way it can go wrong ending in exactly one invoice.
import { describe, expect, it } from "vitest";
import { claimDueRows } from "../../app/invoices/claim.server";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { RejectedError } from "../../app/invoicing-service/errors";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { getSettings } from "../../app/settings/settings.server";
import { callbackUrlFor } from "../../app/invoices/process.server";
import { action as callbackAction } from "../../app/routes/callbacks.invoices.$id";
import {
  connectShop,
  makeScheduledRowsDue,
  noWaybillCalls,
  pipelineForEachTest,
  waitForInvoices,
} from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";
import { callRoute } from "../helpers/routes";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";
import { createHmac } from "node:crypto";
import { DateTime } from "luxon";

const pipeline = pipelineForEachTest();

const settled = (rows: Array<{ state: string }>) =>
  rows.length > 0 && rows.every((r) => ["completed", "failed", "needs_attention", "cancelled"].includes(r.state));
const invoicesAtService = (orderId: string) => pipeline.sandbox.invoices.byOrderId(orderId);

describe("the invoicing pipeline", () => {
  it("turns a paid order into a completed invoice with serial number and PDF, through the callback", async () => {
    const worker = await pipeline.startWorker();
    const order = paidOrder();
    expect((await pipeline.deliverPaid(order)).status).toBe(200);
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    // Series, the issue year (the sandbox's, which moves with the clock), and a 9-digit sequence.
    expect(row.serialNumber).toMatch(/^[A-Z]{3}20\d{2}\d{9}$/);
    expect(row.ettn).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.pdfUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pdf\/.+\.pdf$/);
    expect(row.documentKind).toBe("e_archive"); // a citizen buyer without an e-invoice mailbox
    expect((row.remoteTotals as { grand_total: string }).grand_total).toBe("1349.80");
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: row.id } });
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["received", "queued", "posted", "callback", "status"]),
    );
    // The callback was delivered to the app and accepted.
    const delivered = pipeline.sandbox.callbacks.filter((c) => c.invoiceId === row.remoteId);
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered.every((c) => c.url === callbackUrlFor(pipeline.appUrl, row.id))).toBe(true);
    expect(invoicesAtService(String(order.id))).toHaveLength(1);
    await worker.stop();
  });

  it("the same order delivered five times at once gives one POST and one invoice", async () => {
    const worker = await pipeline.startWorker();
    const order = paidOrder();
    await Promise.all(Array.from({ length: 5 }, () => pipeline.deliverPaid(order)));
    await waitForInvoices(settled);
    await worker.idle();
    expect(pipeline.posts()).toBe(1);
    expect(invoicesAtService(String(order.id))).toHaveLength(1);
    await worker.stop();
  });

  it("retries a 5xx later and ends with exactly one invoice", async () => {
    pipeline.sandbox.faults.failNext(1, { method: "POST", path: "/api/invoices", status: 503 });
    const worker = await pipeline.startWorker();
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    const [retrying] = await waitForInvoices((rows) => rows[0]?.state === "queued" && rows[0].attempts === 1);
    expect(retrying.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(retrying.lastError).toMatch(/503/);
    expect(await makeScheduledRowsDue()).toHaveLength(1);
    worker.wake();
    await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(invoicesAtService(String(order.id))).toHaveLength(1);
    await worker.stop();
  });

  it("honours 429 Retry-After", async () => {
    pipeline.sandbox.faults.rateLimitNext(1, 30, { method: "POST", path: "/api/invoices" });
    const worker = await pipeline.startWorker();
    const before = Date.now();
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.attempts === 1 && rows[0].state === "queued");
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + 30_000);
    await worker.stop();
  });

  it("settles a create whose answer was lost by looking it up, without a second invoice", async () => {
    pipeline.sandbox.faults.loseCreateAnswers(1);
    const worker = await pipeline.startWorker();
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    await waitForInvoices((rows) => rows[0]?.state === "queued" && rows[0].attempts === 1);
    expect(invoicesAtService(String(order.id))).toHaveLength(1);
    await makeScheduledRowsDue();
    worker.wake();
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(invoicesAtService(String(order.id))).toHaveLength(1);
    expect(pipeline.posts()).toBe(1);
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: row.id } });
    expect(events.map((e) => e.type)).toContain("settled");
    await worker.stop();
  });

  it("a timeout on create is settled the same way", async () => {
    pipeline.sandbox.faults.delayNext(1, 2500, { method: "POST", path: "/api/invoices" });
    const worker = await pipeline.startWorker();
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "queued" && rows[0].attempts === 1);
    expect(row.lastError).toMatch(/timeout/i);
    await makeScheduledRowsDue();
    worker.wake();
    const [done] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(invoicesAtService(String(order.id))).toHaveLength(1);
    // The second attempt asked the service instead of posting again.
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: done.id } });
    expect(events.map((e) => e.type)).toContain("settled");
    expect(events.map((e) => e.type)).not.toContain("posted");
    // Exactly one create reached the service (its delayed answer is logged when it is finally sent).
    for (let i = 0; i < 100 && pipeline.posts() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pipeline.posts()).toBe(1);
    await worker.stop();
  });

  it("a worker killed mid-post loses nothing and duplicates nothing (lease expiry)", async () => {
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    // A worker claims the row, counts the attempt, posts... and dies before storing the answer.
    const [claim] = await claimDueRows({
      workerId: "dead-worker",
      now: new Date(),
      limit: 1,
      perShopLimit: 2,
      leaseMs: 300,
    });
    const row = await prisma.invoice.update({
      where: { id: claim.id },
      data: { attempts: { increment: 1 } },
      include: { shop: true },
    });
    const settings = await getSettings(SHOP);
    const parsed = parseShopifyOrder(row.orderSnapshot);
    if (!parsed.ok) throw new Error("fixture order did not parse");
    const mapped = mapOrderToInvoice(parsed.order, {
      settings: settings.mapping,
      shop: {
        domain: SHOP,
        timezone: row.shop.timezone,
        currency: row.shop.currency,
        storefrontUrl: row.shop.storefrontUrl,
      },
      now: new Date(),
      saleChannelId: pipeline.sandbox.account.saleChannelId,
      invoiceIntegrationId: pipeline.sandbox.account.invoiceIntegrationId,
    });
    if (!mapped.ok) throw new Error(JSON.stringify(mapped.problems));
    await new InvoicingClient({ baseUrl: pipeline.sandbox.url, apiKey: pipeline.sandbox.account.apiKey }).createInvoice(
      mapped.body,
    );
    expect(invoicesAtService(String(order.id))).toHaveLength(1);

    // A live worker takes the row once the lease has expired, and settles it by lookup.
    const worker = await pipeline.startWorker();
    await new Promise((resolve) => setTimeout(resolve, 350));
    worker.wake();
    const [done] = await waitForInvoices((rows) => rows[0]?.state === "processing" || rows[0]?.state === "completed");
    expect(done.remoteId).toBe(invoicesAtService(String(order.id))[0].id);
    expect(invoicesAtService(String(order.id))).toHaveLength(1);
    expect(pipeline.posts()).toBe(1);
    await worker.stop();
  });

  it("recovers a lost callback by reading the status again", async () => {
    pipeline.sandbox.faults.dropCallbacks(Infinity);
    const worker = await pipeline.startWorker();
    await pipeline.deliverPaid(paidOrder());
    const [processing] = await waitForInvoices((rows) => rows[0]?.state === "processing");
    expect(processing.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 5_000);
    await new Promise((resolve) => setTimeout(resolve, 150)); // the sandbox formalises meanwhile
    await makeScheduledRowsDue();
    worker.wake();
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(row.serialNumber).toBeTruthy();
    expect(await prisma.invoiceEvent.count({ where: { invoiceId: row.id, type: "callback" } })).toBe(0);
    await worker.stop();
  });

  it("stops on problems the merchant must fix, with coded messages, and does not post", async () => {
    const worker = await pipeline.startWorker();
    const order = paidOrder({
      line_items: [{ ...paidOrder().line_items[0], tax_lines: [{ rate: 0.05, price: "16.66", title: "KDV" }] }],
    });
    await pipeline.deliverPaid(order);
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
    expect((row.problems as Array<{ code: string }>).map((p) => p.code)).toContain("line.unsupported_tax_rate");
    expect(pipeline.posts()).toBe(0);
    await worker.stop();
  });

  it("a tax number that fails its checksum is reported with its value and field before anything is posted", async () => {
    const worker = await pipeline.startWorker();
    await pipeline.deliverPaid(
      paidOrder({
        note_attributes: [
          { name: "Vergi Numarası", value: "1234567891" },
          { name: "Vergi Dairesi", value: "Kadıköy" },
        ],
      }),
    );
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
    expect(row.problems).toEqual([
      expect.objectContaining({
        code: "customer.invalid_tax_number",
        params: { value: "1234567891", source: "Vergi Numarası" },
      }),
    ]);
    expect(pipeline.posts()).toBe(0);
    await worker.stop();
  });

  it("a 20,000-character company title from the cart is not invoiced: the invoice needs the merchant, nothing is posted", async () => {
    const worker = await pipeline.startWorker();
    const title = "Moda Kitabevi ".repeat(1_500).slice(0, 20_000);
    await pipeline.deliverPaid(
      paidOrder({
        note_attributes: [
          { name: "Vergi Numarası", value: "9860008925" },
          { name: "Vergi Dairesi", value: "Kadıköy" },
          { name: "Şirket Unvanı", value: title },
        ],
      }),
    );
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
    expect(row.problems).toEqual([
      expect.objectContaining({
        code: "customer.attribute_too_long",
        params: { source: "Şirket Unvanı", length: 20_000, max: 255 },
      }),
    ]);
    expect(pipeline.posts()).toBe(0);
    await worker.stop();
  });

  it("a rejected API key needs the merchant, and is not retried", async () => {
    await connectShop(pipeline.sandbox, SHOP, { apiKey: "wrong-key-1234567890" });
    const worker = await pipeline.startWorker();
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
    expect(row.problems).toEqual([expect.objectContaining({ code: "settings.api_key_rejected" })]);
    expect(row.nextAttemptAt).toBeNull();
    await worker.stop();
  });

  it("a refusal the client classes as never-retry (an unexpected 4xx) needs the merchant, after one POST", async () => {
    let creates = 0;
    const refusing = {
      createInvoice: async () => {
        creates += 1;
        throw new RejectedError(
          { method: "POST", path: "/invoices", create: true },
          { status: 400, serviceMessage: "Bad Request" },
        );
      },
      getInvoice: async () => {
        throw new Error("not called");
      },
      findInvoicesByOrderId: async () => [],
      ...noWaybillCalls,
    };
    const worker = await pipeline.startWorker({ clientFor: () => refusing });
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
    expect(row.problems).toEqual([expect.objectContaining({ code: "service.rejected" })]);
    expect(row.nextAttemptAt).toBeNull();
    expect(creates).toBe(1);
    await worker.stop();
  });

  it("a stored service address the guard refuses (an older row) needs the merchant; nothing is sent, nothing retried", async () => {
    await prisma.shopSettings.update({
      where: { shopDomain: SHOP },
      data: { baseUrl: "https://metadata.internal.example/api" },
    });
    const worker = await pipeline.startWorker({ clientFor: undefined });
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
    expect(row.problems).toEqual([expect.objectContaining({ code: "settings.base_url_not_allowed" })]);
    expect(row.nextAttemptAt).toBeNull();
    expect(pipeline.requests).toEqual([]);
    await worker.stop();
  });

  it("a pdf_url from the service that is not a web address is not stored", async () => {
    const record = {
      id: 901,
      workflow_status: "completed",
      formal_status: "completed",
      serial_number: "ARS2026000000901",
      pdf_url: "javascript:alert(document.cookie)",
      errors: [],
    };
    const stub = {
      createInvoice: async () => record,
      getInvoice: async () => record,
      findInvoicesByOrderId: async () => [],
      ...noWaybillCalls,
    };
    const worker = await pipeline.startWorker({ clientFor: () => stub });
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(row.serialNumber).toBe("ARS2026000000901");
    expect(row.pdfUrl).toBeNull();
    await worker.stop();
  });

  it("a serial number from the service that is not GİB's form is not stored; the invoice needs the merchant", async () => {
    for (const serial of ['<img src=x onerror="alert(1)">', "ARS2026", "ars2026000000901", "ARS20260000009011"]) {
      const record = {
        id: 902,
        workflow_status: "completed",
        formal_status: "completed",
        serial_number: serial,
        pdf_url: "https://service.example/p.pdf",
        errors: [],
      };
      const stub = {
        createInvoice: async () => record,
        getInvoice: async () => record,
        findInvoicesByOrderId: async () => [],
        ...noWaybillCalls,
      };
      await prisma.invoice.deleteMany();
      const worker = await pipeline.startWorker({ clientFor: () => stub });
      await pipeline.deliverPaid(paidOrder());
      const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
      await worker.stop();
      expect(row.serialNumber, serial).toBeNull();
      expect(row.problems).toEqual([
        expect.objectContaining({ code: "service.serial_invalid", params: { details: JSON.stringify(serial) } }),
      ]);
      expect(row.nextAttemptAt).toBeNull();
    }
  });

  it("a forged callback, or one for another shop's invoice, changes nothing", async () => {
    await connectShop(pipeline.sandbox, OTHER_SHOP);
    const worker = await pipeline.startWorker();
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    await worker.stop();
    const before = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    const eventsBefore = await prisma.invoiceEvent.count();
    // A fresh time on the service's clock (Istanbul): older callbacks are ignored as stale.
    const time = DateTime.now().setZone("Europe/Istanbul").toFormat("yyyy-MM-dd HH:mm:ss");
    const send = (id: string, payload: object) =>
      callRoute(
        callbackAction,
        new Request(`${pipeline.appUrl}/callbacks/invoices/${id}`, {
          method: "POST",
          body: JSON.stringify(payload),
          headers: { "Content-Type": "application/json" },
        }),
        { id },
      );
    const sign = (key: string, invoiceId: number) =>
      createHmac("sha512", key).update(`${invoiceId}1${time}`).digest("hex");

    const forged = await send(row.id, {
      invoice_id: row.remoteId,
      team_id: 1,
      time,
      hash: sign("not-the-key", row.remoteId!),
    });
    expect(forged.status).toBe(401);
    const wrongInvoice = await send(row.id, {
      invoice_id: row.remoteId! + 999,
      team_id: 1,
      time,
      hash: sign(pipeline.sandbox.account.apiKey, row.remoteId! + 999),
    });
    expect(wrongInvoice.status).toBe(404);
    const unknown = await send("no-such-invoice", {
      invoice_id: row.remoteId,
      team_id: 1,
      time,
      hash: sign(pipeline.sandbox.account.apiKey, row.remoteId!),
    });
    expect(unknown.status).toBe(404);
    const malformed = await send(row.id, { invoice_id: "x" });
    expect(malformed.status).toBe(400);
    expect(await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).toEqual(before);
    expect(await prisma.invoiceEvent.count()).toBe(eventsBefore);
    // A genuine one is accepted and only schedules a re-read.
    const genuine = await send(row.id, {
      invoice_id: row.remoteId,
      team_id: 1,
      time,
      hash: sign(pipeline.sandbox.account.apiKey, row.remoteId!),
    });
    expect(genuine.status).toBe(200);
    expect(await genuine.json()).toEqual({ ok: true });
  });

  it("a test invoice goes through the dummy integration", async () => {
    const { sendTestInvoice } = await import("../../app/invoices/actions.server");
    const worker = await pipeline.startWorker();
    const result = await sendTestInvoice(SHOP);
    expect(result.ok).toBe(true);
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(pipeline.sandbox.invoices.get(row.remoteId!)!.invoice_integration_id).toBe(
      pipeline.sandbox.account.dummyIntegrationId,
    );
    await worker.stop();
  });
});
