// The waybills resource of the invoicing service: read a waybill, invoice it (POST /waybills/{id}/invoice), and
// settle such a create whose outcome is unknown.
import { postInvoiceBody } from "./invoices";
import { WaybillRecordSchema, type InvoiceRecord, type InvoiceRequest, type WaybillRecord } from "./schemas";
import { idSegment, type InvoicingTransport } from "./transport";

export async function getWaybill(transport: InvoicingTransport, id: number): Promise<WaybillRecord> {
  return transport.json({ method: "GET", path: `/waybills/${idSegment(id)}`, create: false }, WaybillRecordSchema);
}

/** POST /waybills/{id}/invoice: same body and rules as createInvoice (invoices.ts). */
export async function createInvoiceFromWaybill(
  transport: InvoicingTransport,
  waybillId: number,
  body: InvoiceRequest,
): Promise<InvoiceRecord> {
  return postInvoiceBody(
    transport,
    { method: "POST", path: `/waybills/${idSegment(waybillId)}/invoice`, create: true },
    body,
  );
}

/**
 * After an unknown outcome or a refusal of POST /waybills/{id}/invoice: the waybill's `invoice_id` says
 * whether an invoice was made from it (spec: set when the waybill is invoiced). It is this caller's only if
 * it carries the caller's `callbackUrl` (records echo it "as sent") and, when both are known, the integration
 * it was posted to (a test invoice is not the live one); otherwise `takenBy` is its id.
 */
export async function settleWaybillCreate(
  client: {
    getWaybill: (id: number) => Promise<WaybillRecord>;
    getInvoice: (id: number) => Promise<InvoiceRecord>;
  },
  {
    waybillId,
    callbackUrl,
    invoiceIntegrationId,
  }: { waybillId: number; callbackUrl: string; invoiceIntegrationId?: number | null },
): Promise<{ record: InvoiceRecord | null; takenBy?: number }> {
  const waybill = await client.getWaybill(waybillId);
  if (waybill.invoice_id == null) return { record: null };
  const record = await client.getInvoice(waybill.invoice_id);
  const sameIntegration =
    invoiceIntegrationId == null ||
    record.invoice_integration_id == null ||
    record.invoice_integration_id === invoiceIntegrationId;
  return record.callback_url?.trim() === callbackUrl && sameIntegration
    ? { record }
    : { record: null, takenBy: record.id };
}
