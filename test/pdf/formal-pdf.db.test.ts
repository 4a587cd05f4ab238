// The formal PDF through the app (GET /app/invoices/{id}/pdf) against the sandbox: the shop's key, a
// streamed PDF under the serial number's file name, and nothing for another shop or before formalisation.
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/app.invoices.$id.pdf";
import { pdfFileName } from "../../app/pdf/formal-pdf.server";
import { clientFor, invoiceBody } from "../contract/helpers";
import { sandboxForEachTest } from "../helpers/pipeline";
import { createInvoiceRow, prisma } from "../helpers/db";
import { formalisedInvoice } from "../helpers/formalised-invoice";
import { callRoute } from "../helpers/routes";
import { adminFetchRequest, APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";

const sandbox = sandboxForEachTest({ formalizeDelayMs: 10, shops: [SHOP, OTHER_SHOP] });
const { requests } = sandbox;

const get = async (id: string, shop = SHOP) =>
  callRoute(loader, await adminFetchRequest(`/app/invoices/${id}/pdf`, shop), { id });

describe("the formal PDF through the app", () => {
  it("streams the service's formal PDF with the shop's key, as a download named after the serial number", async () => {
    const { row, record } = await formalisedInvoice(sandbox);
    const response = await get(row.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${record.serial_number}.pdf"`);
    expect(record.serial_number).toMatch(/^ARS\d{13}$/);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.body).toBeInstanceOf(ReadableStream);
    const bytes = Buffer.from(await response.arrayBuffer());
    const direct = Buffer.from(await clientFor(sandbox).getFormalPdf(record.id));
    expect(bytes.equals(direct)).toBe(true);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(requests.filter((line) => line.startsWith(`GET /api/invoices/${record.id}/formal-pdf `))).toHaveLength(2);
  });

  it("answers 404 for another shop's invoice and for an unknown id, without asking the service", async () => {
    const { row } = await formalisedInvoice(sandbox, OTHER_SHOP);
    requests.length = 0;
    for (const id of [row.id, "no-such-invoice"]) {
      const response = await get(id, SHOP);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/json/);
      expect(await response.json()).toEqual({ ok: false, reason: "not_found" });
    }
    expect(requests).toEqual([]);
  });

  it("answers 409 (not ready) before the service has the invoice or has formalised it", async () => {
    const queued = await createInvoiceRow(SHOP);
    expect((await get(queued.id)).status).toBe(409);
    const draft = await clientFor(sandbox).createInvoice({
      ...invoiceBody(sandbox.account),
      workflow_status: "predraft",
    } as never);
    await prisma.invoice.update({ where: { id: queued.id }, data: { remoteId: draft.id, state: "processing" } });
    const response = await get(queued.id);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ ok: false, reason: "not_ready" });
  });

  it("answers 502 when the service fails", async () => {
    const { row } = await formalisedInvoice(sandbox);
    sandbox.faults.failNext(1, { status: 503, path: "/api/invoices/*" });
    expect((await get(row.id)).status).toBe(502);
  });

  it("refuses a request without a session token", async () => {
    const { row } = await formalisedInvoice(sandbox);
    const response = await callRoute(loader, new Request(`${APP_ORIGIN}/app/invoices/${row.id}/pdf`), { id: row.id });
    expect(response.status).not.toBe(200);
    expect(response.headers.get("content-type")).not.toBe("application/pdf");
  });

  it("names the file after the serial number, safely, or after the service's id", () => {
    expect(pdfFileName("ARS2026000000123", 9)).toBe("ARS2026000000123.pdf");
    expect(pdfFileName('ARS"/../x', 9)).toBe("ARSx.pdf");
    expect(pdfFileName(null, 9)).toBe("fatura-9.pdf");
  });
});
