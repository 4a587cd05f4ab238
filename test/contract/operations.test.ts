// Contract: the app's client (app/invoicing-service/client.ts) against the sandbox, operation by operation, with
// the asynchronous formalisation, callbacks, documents and account isolation.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callbackSignature,
  parseCallback,
  verifyCallback,
} from "../../app/invoicing-service/callback-signature.server";
import { settleUnknownCreate, type InvoicingClient } from "../../app/invoicing-service/client";
import {
  AuthenticationError,
  DuplicateOrderError,
  NotFoundError,
  ValidationError,
} from "../../app/invoicing-service/errors";
import { computeTotals } from "../../app/invoicing-service/totals";
import {
  ANONYMOUS_TAX_NUMBER,
  E_ARCHIVE_VKN_EXAMPLE,
  E_INVOICE_TAX_NUMBERS,
  INVALID_TCKN_EXAMPLE,
  INVALID_VKN_EXAMPLE,
  VALID_TCKN_EXAMPLE,
  DELETE_REFUSED_MESSAGE,
  startSandbox,
  type SandboxAccount,
} from "../../sandbox/server";
import { withSandbox } from "../helpers/sandbox";
import {
  clientFor,
  companyCustomer,
  invoiceBody,
  nextOrderId,
  raw,
  startCallbackReceiver,
  today,
  waitFor,
} from "./helpers";

const sandbox = withSandbox({ formalizeDelayMs: 25 });
let client: InvoicingClient;
let other: SandboxAccount;
let otherClient: InvoicingClient;
let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;

beforeAll(async () => {
  client = clientFor(sandbox);
  other = sandbox.addAccount();
  otherClient = clientFor(sandbox, other);
  receiver = await startCallbackReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

const year = () => today().slice(0, 4);
const completed = (id: number, c: InvoicingClient = client) =>
  waitFor(
    async () => {
      const record = await c.getInvoice(id);
      return record.workflow_status === "completed" || record.workflow_status === "failed" ? record : undefined;
    },
    5_000,
    `invoice ${id} to finish`,
  );

describe("account operations", () => {
  it("checkAuth resolves with the key and AuthenticationError (401, never retried) without it", async () => {
    await expect(client.checkAuth()).resolves.toBeUndefined();
    const bad = clientFor(sandbox, { apiKey: "wrong-key" });
    const error = await bad.checkAuth().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, retry: "never" });
    await expect(bad.getInvoice(1001)).rejects.toBeInstanceOf(AuthenticationError);
    expect(await raw(sandbox, "GET", "/invoices/1001", undefined, "wrong-key")).toMatchObject({
      status: 401,
      json: { message: "Unauthenticated." },
    });
  });

  it("lists the account's invoice integrations and sales channels", async () => {
    const integrations = await client.listInvoiceIntegrations();
    expect(integrations.map((i) => i.id).sort()).toEqual(
      [sandbox.account.invoiceIntegrationId, sandbox.account.dummyIntegrationId].sort(),
    );
    expect(integrations.every((i) => i.name.length > 0)).toBe(true);
    const channels = await client.listSaleChannels();
    expect(channels.map((c) => c.id)).toEqual([sandbox.account.saleChannelId]);
    expect((await otherClient.listSaleChannels()).map((c) => c.id)).toEqual([other.saleChannelId]);
  });

  it("a new account has no sales channel; one created for the shop's domain is listed and used to invoice", async () => {
    const fresh = sandbox.addEmptyAccount();
    const freshClient = clientFor(sandbox, fresh);
    expect(await freshClient.listSaleChannels()).toEqual([]);
    const created = await freshClient.createSaleChannel("yeni-magaza.myshopify.com");
    expect(created).toMatchObject({ id: expect.any(Number), name: "yeni-magaza.myshopify.com" });
    const listed = await freshClient.listSaleChannels();
    expect(listed).toEqual([
      expect.objectContaining({
        id: created.id,
        sale_channel: "shopify",
        settings: { domain: "yeni-magaza.myshopify.com" },
      }),
    ]);
    // Only this account sees it, and it invoices through it.
    expect((await client.listSaleChannels()).map((c) => c.id)).not.toContain(created.id);
    const record = await freshClient.createInvoice(
      invoiceBody({ saleChannelId: created.id, invoiceIntegrationId: fresh.dummyIntegrationId }),
    );
    expect(record.sale_channel_id).toBe(created.id);
    const refused = await client
      .createInvoice(
        invoiceBody({ saleChannelId: created.id, invoiceIntegrationId: sandbox.account.dummyIntegrationId }),
      )
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
  });

  it("refuses a sales channel without a valid shop domain (422 naming the field) and a bad key (401)", async () => {
    for (const domain of ["", "not a domain", "https://shop.example/"]) {
      const error = await client.createSaleChannel(domain).catch((e: unknown) => e);
      expect(error, domain).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fieldErrors).toHaveProperty(["settings.domain"]);
    }
    expect(
      await raw(sandbox, "POST", "/integrations/sale-channel", {
        sale_channel: "amazon",
        settings: { domain: "x.example" },
      }),
    ).toMatchObject({ status: 422, json: { errors: { sale_channel: [expect.any(String)] } } });
    const bad = await clientFor(sandbox, { apiKey: "wrong-key" })
      .createSaleChannel("x.myshopify.com")
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(AuthenticationError);
  });

  it("saves the account webhook (update-or-create on the URL) and rejects an invalid URL", async () => {
    await client.saveAccountWebhook("https://shop.example/webhooks/invoicing");
    await client.saveAccountWebhook("https://shop.example/webhooks/invoicing");
    expect(sandbox.webhooks(sandbox.account.apiKey)).toEqual(["https://shop.example/webhooks/invoicing"]);
    const error = await client.saveAccountWebhook("not a url").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).fieldErrors)).toEqual(["webhook_url"]);
  });
});

describe("invoices", () => {
  it("creates an invoice: processing/pending, no document yet, exact totals, one unit of quota", async () => {
    const quota = sandbox.quotaUsed(sandbox.account.apiKey);
    const body = invoiceBody(sandbox.account);
    const record = await client.createInvoice(body);
    expect(record).toMatchObject({
      team_id: sandbox.account.teamId,
      type: "SATIS",
      sale_channel_id: sandbox.account.saleChannelId,
      invoice_integration_id: sandbox.account.invoiceIntegrationId,
      order_id: body.order_id,
      workflow_status: "processing",
      formal_status: "pending",
      ettn: null,
      serial_number: null,
      pdf_url: null,
      errors: [],
      lines_total: "55.55",
      discount_total: "0.00",
      tax_total: "11.11",
      extra_tax_total: "0.00",
      grand_total: "66.66",
      receiver: { name: "Ayşe", surname: "Yılmaz", tax_number: ANONYMOUS_TAX_NUMBER },
    });
    expect(record.lines).toEqual([
      expect.objectContaining({ name: "Tişört", quantity: "2.00", unit_price: "27.775", grand_total: "66.66" }),
    ]);
    expect(record.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000000Z$/);
    expect(sandbox.quotaUsed(sandbox.account.apiKey)).toBe(quota + 1);
  });

  it("computes totals with app/invoicing-service/totals.ts, discounts and extra taxes included", async () => {
    const lines = [
      {
        id: 1,
        name: "A",
        quantity: "3",
        unit: "C62",
        unit_price: "33.33",
        tax_rate: "20" as const,
        discount_type: "percentage" as const,
        discount: "12.5",
      },
      {
        id: 2,
        name: "B",
        quantity: "0.5",
        unit: "KGM",
        unit_price: "19.99",
        tax_rate: "1" as const,
        discount_type: "amount" as const,
        discount: "0.99",
      },
      {
        id: 3,
        name: "C",
        quantity: "1",
        unit: "C62",
        unit_price: "100",
        tax_rate: "0" as const,
        exemption_code: "301",
        exemption_reason: "11/1-a Mal İhracatı",
        extra_taxes: [{ tax_code: "4080", tax_rate: "7.5" }],
      },
    ];
    const record = await client.createInvoice(invoiceBody(sandbox.account, { lines }));
    const expected = computeTotals(lines);
    expect(record).toMatchObject(expected);
    // By hand: A 99.99 − 12.50 (12.49875) + 17.50; B 10.00 (9.995) − 0.99 + 0.09; C 100 + 7.50 extra.
    expect(record).toMatchObject({
      lines_total: "209.99",
      discount_total: "13.49",
      tax_total: "17.59",
      extra_tax_total: "7.50",
      grand_total: "221.59",
    });
    expect(record.lines!.map((l) => l.grand_total)).toEqual(["104.99", "9.10", "107.50"]);
  });

  it("reads an invoice, and finds it by order id in the own team only", async () => {
    const body = invoiceBody(sandbox.account);
    const created = await client.createInvoice(body);
    expect((await client.getInvoice(created.id)).order_id).toBe(body.order_id);
    // The same order id in the other team is a different invoice, never listed for this team.
    const foreign = await otherClient.createInvoice(invoiceBody(other, { order_id: body.order_id }));
    expect((await client.findInvoicesByOrderId(body.order_id!)).map((i) => i.id)).toEqual([created.id]);
    expect((await otherClient.findInvoicesByOrderId(body.order_id!)).map((i) => i.id)).toEqual([foreign.id]);
    expect(await client.findInvoicesByOrderId("no-such-order")).toEqual([]);
  });

  it("answers 404 for another team's invoice exactly as for an unknown one", async () => {
    const mine = await client.createInvoice(invoiceBody(sandbox.account));
    for (const call of [
      () => otherClient.getInvoice(mine.id),
      () => otherClient.deleteInvoice(mine.id),
      () => otherClient.getFormalPdf(mine.id),
      () => client.getInvoice(999_999),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, serviceMessage: "Not found." });
    }
    expect((await client.getInvoice(mine.id)).id).toBe(mine.id);
  });

  it("rejects a second invoice for the same sale channel and order with DuplicateOrderError", async () => {
    const body = invoiceBody(sandbox.account);
    const first = await client.createInvoice(body);
    const quota = sandbox.quotaUsed(sandbox.account.apiKey);
    const error = await client.createInvoice({ ...body, issue_time: "11:00" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toMatchObject({ status: 422, retry: "never" });
    expect((error as DuplicateOrderError).fieldErrors).toEqual({
      order_id: ["An invoice already exists for this order."],
    });
    expect(sandbox.quotaUsed(sandbox.account.apiKey)).toBe(quota);
    expect(sandbox.invoices.byOrderId(body.order_id!, sandbox.account.teamId)).toHaveLength(1);
    expect(
      (await settleUnknownCreate(client, { saleChannelId: sandbox.account.saleChannelId, orderId: body.order_id! }))
        ?.id,
    ).toBe(first.id);
  });

  it("deletes an invoice before formalisation: gone afterwards, recorded, and its order may be invoiced again", async () => {
    // Its own sandbox that holds formalisation for a minute: the delete comes while the invoice is surely pending.
    const held = await startSandbox({ port: 0, formalizeDelayMs: 60_000 });
    try {
      const heldClient = clientFor(held);
      const body = invoiceBody(held.account);
      const record = await heldClient.createInvoice(body);
      expect(record.formal_status).toBe("pending");
      await heldClient.deleteInvoice(record.id);
      await expect(heldClient.getInvoice(record.id)).rejects.toBeInstanceOf(NotFoundError);
      expect(held.deletions.filter((d) => d.invoiceId === record.id)).toEqual([
        expect.objectContaining({
          outcome: "deleted",
          formalStatus: "pending",
          orderId: body.order_id,
          teamId: held.account.teamId,
        }),
      ]);
      await expect(heldClient.deleteInvoice(record.id)).rejects.toBeInstanceOf(NotFoundError);
      const again = await heldClient.createInvoice(body);
      expect(again.id).not.toBe(record.id);
    } finally {
      await held.stop();
    }
  });

  it("refuses to delete a formalised invoice (422, recorded as refused): it stays, with its serial number", async () => {
    const body = invoiceBody(sandbox.account);
    const record = await client.createInvoice(body);
    const done = await completed(record.id);
    expect(done.formal_status).toBe("completed");
    const error = await client.deleteInvoice(record.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, retry: "never", fieldErrors: { invoice: [DELETE_REFUSED_MESSAGE] } });
    const still = await client.getInvoice(record.id);
    expect(still).toMatchObject({ formal_status: "completed", serial_number: done.serial_number });
    expect(sandbox.deletions.filter((d) => d.invoiceId === record.id)).toEqual([
      expect.objectContaining({ outcome: "refused", formalStatus: "completed" }),
    ]);
    // Its order stays invoiced: a second invoice for it is still a duplicate.
    await expect(client.createInvoice(body)).rejects.toBeInstanceOf(DuplicateOrderError);
  });

  it("deletes an invoice whose formalisation failed (nothing reached the authority)", async () => {
    const body = invoiceBody(sandbox.account, { customer: companyCustomer(INVALID_VKN_EXAMPLE) });
    const record = await client.createInvoice(body);
    expect((await completed(record.id)).formal_status).toBe("failed");
    await client.deleteInvoice(record.id);
    await expect(client.getInvoice(record.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(sandbox.deletions.filter((d) => d.invoiceId === record.id)).toEqual([
      expect.objectContaining({ outcome: "deleted", formalStatus: "failed" }),
    ]);
  });

  it("consumes no quota with the dummy integration, yet formalises and calls back", async () => {
    const quota = sandbox.quotaUsed(sandbox.account.apiKey);
    const record = await client.createInvoice(
      invoiceBody(sandbox.account, {
        invoice_integration_id: sandbox.account.dummyIntegrationId,
        callback_url: receiver.url,
      }),
    );
    const done = await completed(record.id);
    expect(done.formal_status).toBe("completed");
    await waitFor(
      () => sandbox.callbacks.filter((c) => c.invoiceId === record.id && c.status === 200).length === 2,
      5_000,
      "callbacks",
    );
    expect(sandbox.quotaUsed(sandbox.account.apiKey)).toBe(quota);
  });
});

describe("formalisation", () => {
  it("completes: callback → GET shows completed with serial, ETTN and pdf_url; the PDF downloads without the key", async () => {
    const record = await client.createInvoice(invoiceBody(sandbox.account, { callback_url: receiver.url }));
    // The callback arrives at the local receiver, signed; it carries no status, so the invoice is read.
    const finalCallback = await waitFor(
      async () => {
        for (const { body } of receiver.received) {
          const payload = parseCallback(body);
          if (payload?.invoice_id === record.id && (await client.getInvoice(record.id)).workflow_status === "completed")
            return payload;
        }
        return undefined;
      },
      5_000,
      "the completing callback",
    );
    expect(verifyCallback(finalCallback, sandbox.account.apiKey)).toBe(true);
    const invoice = await client.getInvoice(record.id);
    expect(invoice).toMatchObject({
      workflow_status: "completed",
      formal_status: "completed",
      profile: "EARSIVFATURA",
      errors: [],
    });
    expect(invoice.serial_number).toMatch(new RegExp(`^ARS${year()}\\d{9}$`));
    expect(invoice.ettn).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(invoice.pdf_url).toBe(`${sandbox.origin}/pdf/${invoice.ettn}.pdf`);

    const download = await fetch(invoice.pdf_url!); // no Authorization header
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    const pdf = Buffer.from(await download.arrayBuffer()).toString("latin1");
    expect(pdf.startsWith("%PDF-1.4")).toBe(true);
    expect(pdf.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(pdf).toContain(invoice.serial_number!);

    const formal = await client.getFormalPdf(record.id);
    expect(Buffer.from(formal).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // Every status change called back (pending → running → completed), each delivery answered 200.
    const deliveries = await waitFor(
      () => {
        const mine = sandbox.callbacks.filter((c) => c.invoiceId === record.id);
        return mine.length === 2 && mine.every((d) => !d.pending) && mine;
      },
      5_000,
      "both deliveries to settle",
    );
    expect(deliveries.map((d) => [d.formalStatus, d.status])).toEqual([
      ["running", 200],
      ["completed", 200],
    ]);
  });

  it("signs callbacks with HMAC-SHA512(API key, invoice_id + team_id + time), lowercase hex", async () => {
    const record = await client.createInvoice(invoiceBody(sandbox.account, { callback_url: receiver.url }));
    const received = await waitFor(
      () => receiver.received.find((r) => (r.body as { invoice_id?: number }).invoice_id === record.id),
      5_000,
      "a callback",
    );
    const body = received.body as { invoice_id: number; team_id: number; time: string; hash: string };
    expect(received.contentType).toMatch(/^application\/json/);
    expect(Object.keys(body).sort()).toEqual(["hash", "invoice_id", "team_id", "time"]);
    expect(body).toMatchObject({ invoice_id: record.id, team_id: sandbox.account.teamId });
    expect(body.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const independent = createHmac("sha512", sandbox.account.apiKey)
      .update(`${body.invoice_id}${body.team_id}${body.time}`)
      .digest("hex");
    expect(body.hash).toBe(independent);
    expect(body.hash).toMatch(/^[0-9a-f]{128}$/);
    expect(callbackSignature(body, sandbox.account.apiKey)).toBe(independent);
    expect(
      verifyCallback(
        {
          ...body,
          hash: createHmac("sha512", "another-key")
            .update(`${body.invoice_id}${body.team_id}${body.time}`)
            .digest("hex"),
        },
        sandbox.account.apiKey,
      ),
    ).toBe(false);
  });

  it("issues an e-invoice (EFT series, TEMELFATURA or the sent profile) to a registered recipient, else e-archive (ARS)", async () => {
    const registered = await client.createInvoice(
      invoiceBody(sandbox.account, { customer: companyCustomer(E_INVOICE_TAX_NUMBERS[0]) }),
    );
    const registeredTicari = await client.createInvoice(
      invoiceBody(sandbox.account, { profile: "TICARIFATURA", customer: companyCustomer(E_INVOICE_TAX_NUMBERS[1]) }),
    );
    const unregistered = await client.createInvoice(
      invoiceBody(sandbox.account, { customer: companyCustomer(E_ARCHIVE_VKN_EXAMPLE) }),
    );
    const person = await client.createInvoice(
      invoiceBody(sandbox.account, {
        customer: { ...invoiceBody(sandbox.account).customer!, tax_number: VALID_TCKN_EXAMPLE },
      }),
    );
    const a = await completed(registered.id);
    const b = await completed(registeredTicari.id);
    const c = await completed(unregistered.id);
    const d = await completed(person.id);
    expect(a).toMatchObject({ formal_status: "completed", profile: "TEMELFATURA" });
    expect(b).toMatchObject({ formal_status: "completed", profile: "TICARIFATURA" });
    expect(c).toMatchObject({ formal_status: "completed", profile: "EARSIVFATURA" });
    expect(d).toMatchObject({ formal_status: "completed", profile: "EARSIVFATURA" });
    expect(a.serial_number).toMatch(new RegExp(`^EFT${year()}\\d{9}$`));
    expect(b.serial_number).toMatch(new RegExp(`^EFT${year()}\\d{9}$`));
    expect(c.serial_number).toMatch(new RegExp(`^ARS${year()}\\d{9}$`));
    expect(d.serial_number).toMatch(new RegExp(`^ARS${year()}\\d{9}$`));
    // Sequences run per series: the two e-invoices are consecutive.
    expect(Number(b.serial_number!.slice(7)) - Number(a.serial_number!.slice(7))).toBe(1);
  });

  it("always issues e-archive to 11111111111, even if that number were registered", async () => {
    const sandbox2 = await startSandbox({
      port: 0,
      formalizeDelayMs: 10,
      seed: { eInvoiceTaxNumbers: [ANONYMOUS_TAX_NUMBER, E_ARCHIVE_VKN_EXAMPLE] },
    });
    try {
      const c2 = clientFor(sandbox2);
      const anonymous = await c2.createInvoice(invoiceBody(sandbox2.account));
      const registered = await c2.createInvoice(
        invoiceBody(sandbox2.account, { customer: companyCustomer(E_ARCHIVE_VKN_EXAMPLE) }),
      );
      expect(await completed(anonymous.id, c2)).toMatchObject({
        profile: "EARSIVFATURA",
        serial_number: expect.stringMatching(/^ARS/),
      });
      expect(await completed(registered.id, c2)).toMatchObject({
        profile: "TEMELFATURA",
        serial_number: expect.stringMatching(/^EFT/),
      });
    } finally {
      await sandbox2.stop();
    }
  });

  it("issues e-archive to a foreign buyer's 2222222222 (no check digit, like the anonymous number)", async () => {
    const record = await client.createInvoice(
      invoiceBody(sandbox.account, { customer: companyCustomer("2222222222") }),
    );
    expect(await completed(record.id)).toMatchObject({
      formal_status: "completed",
      profile: "EARSIVFATURA",
      serial_number: expect.stringMatching(/^ARS/),
    });
  });

  it("fails formalisation for a tax number with a wrong check digit: failed statuses, errors[], a callback, no PDF", async () => {
    const person = await client.createInvoice(
      invoiceBody(sandbox.account, {
        callback_url: receiver.url,
        customer: { ...invoiceBody(sandbox.account).customer!, tax_number: INVALID_TCKN_EXAMPLE },
      }),
    );
    const company = await client.createInvoice(
      invoiceBody(sandbox.account, { customer: companyCustomer(INVALID_VKN_EXAMPLE) }),
    );
    for (const id of [person.id, company.id]) {
      const failed = await completed(id);
      expect(failed).toMatchObject({
        workflow_status: "failed",
        formal_status: "failed",
        ettn: null,
        serial_number: null,
        pdf_url: null,
      });
      expect(failed.errors).toEqual([
        { code: "RECEIVER_TAX_NUMBER_INVALID", message: expect.stringContaining("not a valid VKN or TCKN") },
      ]);
      await expect(client.getFormalPdf(id)).rejects.toBeInstanceOf(NotFoundError);
    }
    await waitFor(
      () => sandbox.callbacks.some((c) => c.invoiceId === person.id && c.formalStatus === "failed" && c.status === 200),
      5_000,
      "failure callback",
    );
  });

  it("fails formalisation for a VAT-exempt line whose exemption code the tax authority does not know", async () => {
    const record = await client.createInvoice(
      invoiceBody(sandbox.account, {
        lines: [
          {
            id: 9,
            name: "İhraç",
            quantity: "1",
            unit: "C62",
            unit_price: "10",
            tax_rate: "0",
            exemption_code: "999",
            exemption_reason: "?",
          },
        ],
      }),
    );
    const failed = await completed(record.id);
    expect(failed.formal_status).toBe("failed");
    expect(failed.errors).toEqual([expect.objectContaining({ code: "EXEMPTION_CODE_UNKNOWN" })]);
  });

  it("has no formal PDF before formalisation", async () => {
    const slow = await startSandbox({ port: 0, formalizeDelayMs: 60_000 });
    try {
      const c = clientFor(slow);
      const record = await c.createInvoice(invoiceBody(slow.account));
      await expect(c.getFormalPdf(record.id)).rejects.toBeInstanceOf(NotFoundError);
      expect((await c.getInvoice(record.id)).formal_status).toBe("pending");
    } finally {
      await slow.stop();
    }
  });
});

describe("waybills", () => {
  const waybillBody = async (c: InvoicingClient, account: SandboxAccount, id: number) => {
    const waybill = await c.getWaybill(id);
    const delivery = waybill.parties!.find((p) => p.role === "delivery")!;
    return invoiceBody(account, {
      order_id: undefined,
      order_created_at: undefined,
      waybill_number: waybill.document_number!,
      waybill_date: waybill.issue_date!,
      customer: {
        ...companyCustomer(delivery.identifier_number!, `waybill-${id}`),
        title: delivery.title!,
        tax_office: delivery.tax_office!,
      },
      lines: waybill.lines!.map((l) => ({
        id: l.seller_product_code!,
        name: l.name!,
        quantity: l.quantity!,
        unit: l.unit!,
        unit_price: l.unit_price!,
        tax_rate: l.tax_rate as "20",
      })),
    });
  };

  it("reads a waybill with parties and lines", async () => {
    const waybill = await client.getWaybill(sandbox.account.waybillIds.completed);
    expect(waybill).toMatchObject({
      id: sandbox.account.waybillIds.completed,
      status: "completed",
      invoice_id: null,
      currency: "TRY",
    });
    expect(waybill.parties!.some((p) => p.role === "delivery" && p.identifier_number)).toBe(true);
    expect(waybill.lines!.length).toBeGreaterThan(0);
    await expect(otherClient.getWaybill(sandbox.account.waybillIds.completed)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("invoices a completed outgoing waybill once: invoice_id set, quota deducted; a second time is rejected", async () => {
    const id = sandbox.account.waybillIds.completed;
    const body = await waybillBody(client, sandbox.account, id);
    const quota = sandbox.quotaUsed(sandbox.account.apiKey);
    const record = await client.createInvoiceFromWaybill(id, body);
    expect(record).toMatchObject({
      workflow_status: "processing",
      formal_status: "pending",
      waybill_number: body.waybill_number,
    });
    expect((await client.getWaybill(id)).invoice_id).toBe(record.id);
    expect(sandbox.quotaUsed(sandbox.account.apiKey)).toBe(quota + 1);
    const again = await client.createInvoiceFromWaybill(id, body).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ValidationError);
    expect((again as ValidationError).fieldErrors).toEqual({
      waybill: ["An invoice was already created for this waybill."],
    });
  });

  it("rejects a waybill already invoiced before (seeded), a draft one, and answers 404 for an incoming or foreign one", async () => {
    const ids = sandbox.account.waybillIds;
    const invoiced = await client.getWaybill(ids.invoiced);
    expect(invoiced.invoice_id).toBe(1001);
    expect((await client.getInvoice(1001)).formal_status).toBe("completed");
    const e1 = await client
      .createInvoiceFromWaybill(ids.invoiced, await waybillBody(client, sandbox.account, ids.invoiced))
      .catch((e: unknown) => e);
    expect((e1 as ValidationError).fieldErrors).toEqual({
      waybill: ["An invoice was already created for this waybill."],
    });
    const e2 = await client
      .createInvoiceFromWaybill(ids.draft, await waybillBody(client, sandbox.account, ids.draft))
      .catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(ValidationError);
    expect((e2 as ValidationError).fieldErrors).toEqual({ waybill: ["Only completed waybills can be invoiced."] });
    const body = await waybillBody(client, sandbox.account, ids.incoming);
    await expect(client.createInvoiceFromWaybill(ids.incoming, body)).rejects.toBeInstanceOf(NotFoundError);
    await expect(otherClient.createInvoiceFromWaybill(ids.completed, invoiceBody(other))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("validates a waybill invoice body like a create", async () => {
    const id = other.waybillIds.completed;
    const body = await waybillBody(otherClient, other, id);
    const response = await raw(
      sandbox,
      "POST",
      `/waybills/${id}/invoice`,
      { ...body, lines: [{ ...body.lines[0], quantity: 0, unit_price: Number(body.lines[0].unit_price) }] },
      other.apiKey,
    );
    expect(response.status).toBe(422);
    expect(Object.keys(response.json.errors)).toEqual(["lines.0.quantity"]);
    expect((await otherClient.getWaybill(id)).invoice_id).toBeNull();
  });
});

describe("order ids", () => {
  it("settleUnknownCreate finds nothing for an order never invoiced", async () => {
    expect(
      await settleUnknownCreate(client, { saleChannelId: sandbox.account.saleChannelId, orderId: nextOrderId() }),
    ).toBeNull();
  });
});
