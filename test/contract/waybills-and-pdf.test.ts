// Contract: the calls behind invoices from waybills and the PDF download, against the sandbox: the lookup
// that settles a waybill invoice's unknown outcome, and the streamed formal PDF with its refusals.
import { describe, expect, it } from "vitest";
import { settleWaybillCreate, type InvoicingClient } from "../../app/invoicing-service/client";
import { NotFoundError, ResponseFormatError } from "../../app/invoicing-service/errors";
import { startSandbox, type SandboxAccount } from "../../sandbox/server";
import { withSandbox } from "../helpers/sandbox";
import { clientFor, companyCustomer, invoiceBody, waitFor } from "./helpers";

const sandbox = withSandbox({ formalizeDelayMs: 10 });

async function waybillBody(client: InvoicingClient, account: SandboxAccount, id: number, callbackUrl: string) {
  const waybill = await client.getWaybill(id);
  const delivery = waybill.parties!.find((p) => p.role === "delivery")!;
  return invoiceBody(account, {
    order_id: undefined,
    order_created_at: undefined,
    callback_url: callbackUrl,
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
      tax_rate: "20" as const,
    })),
  });
}

describe("settling a waybill invoice (the lookup for an invoice without an order id)", () => {
  it("finds nothing before the waybill is invoiced, the caller's invoice by its callback address after, and another's as taken", async () => {
    const account = sandbox.addAccount();
    const client = clientFor(sandbox, account);
    const id = account.waybillIds.completed;
    const mine = "https://app.example/callbacks/invoices/row-1";
    expect(await settleWaybillCreate(client, { waybillId: id, callbackUrl: mine })).toEqual({ record: null });
    const created = await client.createInvoiceFromWaybill(id, await waybillBody(client, account, id, mine));
    const settled = await settleWaybillCreate(client, { waybillId: id, callbackUrl: mine });
    expect(settled.record?.id).toBe(created.id);
    expect(
      await settleWaybillCreate(client, { waybillId: id, callbackUrl: "https://app.example/callbacks/invoices/row-2" }),
    ).toEqual({ record: null, takenBy: created.id });
    // Same row, but posted to another integration (a test invoice is never taken for the live one).
    expect(
      await settleWaybillCreate(client, {
        waybillId: id,
        callbackUrl: mine,
        invoiceIntegrationId: account.dummyIntegrationId,
      }),
    ).toEqual({ record: null, takenBy: created.id });
    expect(
      (
        await settleWaybillCreate(client, {
          waybillId: id,
          callbackUrl: mine,
          invoiceIntegrationId: account.invoiceIntegrationId,
        })
      ).record?.id,
    ).toBe(created.id);
    // The seeded waybill invoiced before (invoice without a callback address) is never taken for ours.
    expect(
      await settleWaybillCreate(client, { waybillId: account.waybillIds.invoiced, callbackUrl: mine }),
    ).toMatchObject({ record: null, takenBy: expect.any(Number) });
    // Another account's waybill is 404 to this key.
    await expect(settleWaybillCreate(clientFor(sandbox), { waybillId: id, callbackUrl: mine })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe("the formal PDF, streamed", () => {
  it("streams the same bytes as the whole download, only for the key's own formalised invoices", async () => {
    const client = clientFor(sandbox);
    const record = await client.createInvoice(invoiceBody(sandbox.account));
    await waitFor(
      async () => (await client.getInvoice(record.id)).formal_status === "completed",
      5_000,
      "formalisation",
    );
    const { body } = await client.openFormalPdf(record.id);
    const streamed = Buffer.from(await new Response(body).arrayBuffer());
    expect(streamed.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(streamed.equals(Buffer.from(await client.getFormalPdf(record.id)))).toBe(true);
    await expect(clientFor(sandbox, sandbox.addAccount()).openFormalPdf(record.id)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(client.openFormalPdf(record.id, { maxBytes: 100 })).rejects.toBeInstanceOf(ResponseFormatError);
  });

  it("is 404 before formalisation", async () => {
    const slow = await startSandbox({ port: 0, formalizeDelayMs: 60_000 });
    try {
      const client = clientFor(slow);
      const record = await client.createInvoice(invoiceBody(slow.account));
      await expect(client.openFormalPdf(record.id)).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      await slow.stop();
    }
  });
});
