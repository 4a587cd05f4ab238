// Invoices from waybills against the sandbox (waybills 31-34 of each account: completed, draft, incoming,
// already invoiced), through the page's loader and action and the real worker: every refusal is a clear
// message with nothing posted, and an accepted waybill becomes an Invoice row like any other.
import { describe, expect, it } from "vitest";
import { loader, action } from "../../app/routes/app.waybills";
import { callbackUrlFor } from "../../app/invoices/process.server";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { BlockedError, ValidationError } from "../../app/invoicing-service/errors";
import { issueTestInvoicesForReal } from "../../app/invoices/actions.server";
import { readWaybill } from "../../app/waybills/waybills.server";
import type { SandboxAccount } from "../../sandbox/server";
import { clientFor, invoiceBody } from "../contract/helpers";
import { connectShop, makeScheduledRowsDue, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { prisma } from "../helpers/db";
import { callRoute } from "../helpers/routes";
import { adminFetchRequest, OTHER_SHOP, SHOP } from "../helpers/shopify";

/** A fresh account per test: each has its own waybills, and a completed waybill can be invoiced once. */
let account: SandboxAccount;

const pipeline = pipelineForEachTest({
  setUp: async ({ sandbox }) => {
    await prisma.session.deleteMany();
    account = sandbox.addAccount();
    await connectShop(sandbox, SHOP, { account });
  },
});

const connect = (shop: string, to: SandboxAccount, testMode = false) =>
  connectShop(pipeline.sandbox, shop, { account: to, testMode });

type Read =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  | { ok: true; waybill: { id: number; documentNumber: string; retryOf: string | null; testMode: boolean }; form: any }
  | { ok: false; refusal: { reason: string } & Record<string, unknown> };

async function read(id: string | number, shop = SHOP): Promise<Read> {
  const response = await callRoute(loader, await adminFetchRequest(`/app/waybills?id=${id}`, shop));
  expect(response.status).toBe(200);
  return ((await response.json()) as { read: Read }).read;
}

async function submit(waybillId: unknown, form: unknown, shop = SHOP) {
  const request = await adminFetchRequest("/app/waybills", shop, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ waybillId, form }),
  });
  const response = await callRoute(action, request);
  return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const waybillPosts = () => pipeline.requests.filter((line) => line.startsWith("POST /api/waybills/")).length;
const final = (rows: Array<{ state: string }>) =>
  rows.length === 1 && ["completed", "failed", "needs_attention"].includes(rows[0].state);

async function readable(id: number) {
  const result = await read(id);
  if (!result.ok) throw new Error(JSON.stringify(result.refusal));
  return result;
}

describe("invoice from a waybill", () => {
  it("reads a completed waybill into a prefilled invoice: recipient from the delivery party, lines with product codes", async () => {
    const result = await readable(account.waybillIds.completed);
    expect(result.waybill).toMatchObject({
      id: account.waybillIds.completed,
      documentNumber: expect.stringMatching(/^\d{13}$/),
      retryOf: null,
      testMode: false,
    });
    expect(result.form.customer).toMatchObject({
      type: "company",
      taxNumber: "1234567890",
      title: "Anadolu Yapı Market Ltd. Şti.",
      taxOffice: "Çankaya",
      city: "Ankara",
      district: "Çankaya",
    });
    expect(
      result.form.lines.map((l: { id: string; quantity: string; unit: string; unitPrice: string }) => [
        l.id,
        l.quantity,
        l.unit,
        l.unitPrice,
      ]),
    ).toEqual([
      ["VIDA-M8", "100", "C62", "1.25"],
      ["KABLO-3X25", "12.5", "MTR", "18.40"],
    ]);
    expect(result.form.waybillNumber).toBe(result.waybill.documentNumber);
    expect(pipeline.requests.filter((line) => !line.startsWith("GET /api/waybills/"))).toEqual([]);
  });

  it("refuses each waybill the service would refuse, with its own message, and posts nothing", async () => {
    const other = pipeline.sandbox.addAccount();
    const quota = pipeline.sandbox.quotaUsed(account.apiKey);
    const cases: Array<[string | number, string]> = [
      [account.waybillIds.draft, "not_completed"],
      [account.waybillIds.incoming, "incoming"],
      [account.waybillIds.invoiced, "already_invoiced"],
      [other.waybillIds.completed, "not_found"], // another account's id: 404 like an unknown one
      [999_999, "not_found"],
      ["abc", "invalid_id"],
    ];
    for (const [id, reason] of cases) {
      const result = await read(id);
      expect(result.ok, `${id}`).toBe(false);
      if (!result.ok) expect(result.refusal.reason, `${id}`).toBe(reason);
      // Submitting anyway (a crafted request) is refused the same way.
      const submitted = await submit(id, (await readable(account.waybillIds.completed)).form);
      expect(submitted.status, `${id}`).toBe(409);
      expect(submitted.body.refusal.reason).toBe(reason);
    }
    const invoiced = await read(account.waybillIds.invoiced);
    expect(!invoiced.ok && invoiced.refusal).toMatchObject({
      reason: "already_invoiced",
      invoiceId: expect.any(Number),
    });
    expect(waybillPosts()).toBe(0);
    expect(pipeline.sandbox.quotaUsed(account.apiKey)).toBe(quota);
    expect(await prisma.invoice.count()).toBe(0);
  });

  it("refuses an invalid form field by field, records nothing, posts nothing", async () => {
    const { form } = await readable(account.waybillIds.completed);
    form.customer.taxNumber = "1234567891";
    form.lines[0].quantity = "0";
    form.lines[1].taxRate = "0";
    const { status, body } = await submit(account.waybillIds.completed, form);
    expect(status).toBe(422);
    expect(body.errors).toEqual({
      "customer.taxNumber": { code: "vkn", params: { value: "1234567891" } },
      "lines.0.quantity": { code: "positive" },
      "lines.1.exemptionCode": { code: "exemption_code" },
      "lines.1.exemptionReason": { code: "exemption_pair" },
    });
    expect(await prisma.invoice.count()).toBe(0);
    expect(waybillPosts()).toBe(0);
  });

  it("an accepted waybill becomes an invoice row like any other: posted once, called back, completed with serial number and PDF", async () => {
    const { form, waybill } = await readable(account.waybillIds.completed);
    form.customer.email = "muhasebe@anadoluyapi.example";
    form.lines[0].unitPrice = "1.30"; // corrected by the merchant: 130 + 230 net, 72 VAT
    const quota = pipeline.sandbox.quotaUsed(account.apiKey);
    const submitted = await submit(waybill.id, form);
    expect(submitted.status).toBe(200);
    const queued = await prisma.invoice.findUniqueOrThrow({ where: { id: submitted.body.invoiceId } });
    expect(queued).toMatchObject({
      shopDomain: SHOP,
      orderId: `waybill-${waybill.id}`,
      waybillId: waybill.id,
      orderName: waybill.documentNumber,
      state: "queued",
      customerName: "Anadolu Yapı Market Ltd. Şti.",
      orderTotal: "432.00",
      customerId: null,
    });

    const worker = await pipeline.startWorker();
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(row.serialNumber).toMatch(/^ARS\d{13}$/); // 1234567890 has no e-invoice mailbox
    expect(row.documentKind).toBe("e_archive");
    expect(row.pdfUrl).toMatch(/\/pdf\/.+\.pdf$/);
    expect((row.remoteTotals as { grand_total: string }).grand_total).toBe(row.orderTotal);
    expect(row.requestBody).toMatchObject({
      waybill_number: waybill.documentNumber,
      callback_url: callbackUrlFor(pipeline.appUrl, row.id),
      customer: { id: `waybill-${waybill.id}`, email: "muhasebe@anadoluyapi.example" },
    });
    const atService = pipeline.sandbox.invoices.get(row.remoteId!)!;
    expect(atService).toMatchObject({
      waybill_id: waybill.id,
      waybill_number: waybill.documentNumber,
      invoice_integration_id: account.invoiceIntegrationId,
    });
    expect(atService.lines[0]).toMatchObject({ product_id: "VIDA-M8", unit_price: "1.30" });
    expect((await clientFor(pipeline.sandbox, account).getWaybill(waybill.id)).invoice_id).toBe(row.remoteId);
    expect(pipeline.sandbox.callbacks.some((c) => c.invoiceId === row.remoteId && c.status === 200)).toBe(true);
    expect(pipeline.sandbox.quotaUsed(account.apiKey)).toBe(quota + 1);
    expect(waybillPosts()).toBe(1);
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: row.id } });
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["received", "queued", "posted", "callback", "status"]),
    );
    await worker.stop();

    // The app now holds this waybill's invoice: reading it again points there, and nothing is posted again.
    const again = await read(waybill.id);
    expect(!again.ok && again.refusal).toEqual({ reason: "in_app", waybillId: waybill.id, invoiceRowId: row.id });
    expect((await submit(waybill.id, form)).status).toBe(409);
    expect(waybillPosts()).toBe(1);
  });

  it("in test mode the waybill invoice goes through the dummy integration (no quota)", async () => {
    await connect(SHOP, account, true);
    const { form, waybill } = await readable(account.waybillIds.completed);
    expect(waybill).toMatchObject({ testMode: true }); // the page warns that the waybill may count as invoiced
    const quota = pipeline.sandbox.quotaUsed(account.apiKey);
    expect((await submit(waybill.id, form)).status).toBe(200);
    const worker = await pipeline.startWorker();
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(pipeline.sandbox.invoices.get(row.remoteId!)!.invoice_integration_id).toBe(account.dummyIntegrationId);
    expect(pipeline.sandbox.quotaUsed(account.apiKey)).toBe(quota);
    // After going live it is not offered to be issued for real: its test invoice holds the waybill at the service.
    expect(row.postedInTestMode).toBe(true);
    await connect(SHOP, account, false);
    expect(await issueTestInvoicesForReal(SHOP)).toEqual({ ok: true, count: 0 });
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).state).toBe("completed");
    await worker.stop();
  });

  it("a lost answer is settled through the waybill's invoice_id, never by posting again: one invoice", async () => {
    const { form, waybill } = await readable(account.waybillIds.completed);
    await submit(waybill.id, form);
    pipeline.sandbox.faults.loseCreateAnswers(1);
    const worker = await pipeline.startWorker();
    const [retrying] = await waitForInvoices((rows) => rows[0]?.state === "queued" && rows[0].attempts === 1);
    expect(retrying.remoteId).toBeNull();
    expect(waybillPosts()).toBe(1);
    await makeScheduledRowsDue();
    worker.wake();
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(waybillPosts()).toBe(1);
    expect(
      pipeline.sandbox.invoices.all().filter((i) => i.team_id === account.teamId && i.waybill_id === waybill.id),
    ).toHaveLength(1);
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: row.id } });
    expect(events.map((e) => e.type)).toContain("settled");
    expect(pipeline.requests.some((line) => line.startsWith(`GET /api/waybills/${waybill.id} `))).toBe(true);
    await worker.stop();
  });

  it("a waybill invoiced elsewhere after it was queued needs the merchant: nothing adopted, nothing posted twice", async () => {
    const { form, waybill } = await readable(account.waybillIds.completed);
    await submit(waybill.id, form);
    // Someone invoices the waybill in the panel (another callback address) before the worker gets to it.
    const elsewhere = await clientFor(pipeline.sandbox, account).createInvoiceFromWaybill(waybill.id, {
      ...invoiceBody(account, { order_id: undefined, order_created_at: undefined }),
      waybill_number: waybill.documentNumber,
    });
    const worker = await pipeline.startWorker();
    const [row] = await waitForInvoices(final);
    expect(row.state).toBe("needs_attention");
    expect(row.remoteId).toBeNull();
    expect(row.problems).toEqual([
      {
        code: "waybill.already_invoiced",
        params: { waybillId: waybill.id, invoiceId: elsewhere.id },
        severity: "error",
      },
    ]);
    expect(
      pipeline.sandbox.invoices.all().filter((i) => i.waybill_id === waybill.id && i.team_id === account.teamId),
    ).toHaveLength(1);
    await worker.stop();
  });

  it("after a refusal that left the waybill free, the merchant corrects it and the same row is queued again", async () => {
    const { form, waybill } = await readable(account.waybillIds.completed);
    await submit(waybill.id, form);
    // The service refuses the first create with a validation error (the waybill stays free).
    let refuse = true;
    const worker = await pipeline.startWorker({
      clientFor: (connection) => {
        const real = new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, timeoutMs: 1500 });
        return {
          createInvoice: (body) => real.createInvoice(body),
          getInvoice: (id) => real.getInvoice(id),
          findInvoicesByOrderId: (id) => real.findInvoicesByOrderId(id),
          getWaybill: (id) => real.getWaybill(id),
          createInvoiceFromWaybill: async (id, body) => {
            if (!refuse) return real.createInvoiceFromWaybill(id, body);
            refuse = false;
            throw new ValidationError(
              { method: "POST", path: `/waybills/${id}/invoice`, create: true },
              { "customer.district": ["The customer.district field is invalid."] },
              { status: 422 },
            );
          },
        };
      },
    });
    const [refused] = await waitForInvoices(final);
    expect(refused.state).toBe("needs_attention");
    expect(refused.problems).toEqual([expect.objectContaining({ code: "service.rejected" })]);

    const again = await readable(waybill.id);
    expect(again.waybill.retryOf).toBe(refused.id);
    again.form.description = "Sipariş no 4711";
    expect((await submit(waybill.id, again.form)).body).toEqual({ ok: true, invoiceId: refused.id });
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(row.id).toBe(refused.id);
    expect(row.requestBody).toMatchObject({ description: "Sipariş no 4711" });
    expect(row.attempts).toBe(2); // kept: the second attempt first asked the waybill whether the first one made an invoice
    expect(waybillPosts()).toBe(1);
    expect(
      pipeline.sandbox.invoices.all().filter((i) => i.waybill_id === waybill.id && i.team_id === account.teamId),
    ).toHaveLength(1);
    await worker.stop();
  });

  it("says so when the service address is not one the app may send the key to, and asks nothing else", async () => {
    const blocked = await readWaybill(SHOP, account.waybillIds.completed, new Date(), () => ({
      getWaybill: async () => {
        throw new BlockedError({ method: "GET", path: "/waybills/1", create: false }, "host");
      },
    }));
    expect(blocked).toEqual({ ok: false, refusal: { reason: "address_not_allowed" } });
  });

  it("is scoped to the session's shop: another shop connected to another account cannot read or invoice this account's waybill", async () => {
    const other = pipeline.sandbox.addAccount();
    await connect(OTHER_SHOP, other);
    const result = await read(account.waybillIds.completed, OTHER_SHOP);
    expect(!result.ok && result.refusal.reason).toBe("not_found");
    const { form } = await readable(account.waybillIds.completed);
    expect((await submit(account.waybillIds.completed, form, OTHER_SHOP)).status).toBe(409);
    expect(await prisma.invoice.count()).toBe(0);
  });
});
