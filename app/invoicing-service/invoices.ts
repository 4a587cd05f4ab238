// The invoices resource of the invoicing service: create (POST /invoices), read, look up by order, delete, and
// settling a create whose outcome is unknown. The invoice body's cleaning, check and JSON text are here too.
import { z } from "zod";
import { ValidationError, type RequestContext } from "./errors";
import { dec } from "./money";
import { InvoiceRecordSchema, InvoiceRequestSchema, type InvoiceRecord, type InvoiceRequest } from "./schemas";
import { cleanDocumentText } from "./text";
import { RawJson, idSegment, type InvoicingTransport } from "./transport";

/** How many invoices one order lookup asks for; duplicate protection allows one per sale channel. */
const ORDER_LOOKUP_LIMIT = 50;

/** POST /invoices. */
export async function createInvoice(transport: InvoicingTransport, body: InvoiceRequest): Promise<InvoiceRecord> {
  return postInvoiceBody(transport, { method: "POST", path: "/invoices", create: true }, body);
}

/**
 * Posts an invoice body (to /invoices or a waybill's /invoice): every string of it cleaned of invisible characters
 * first (text.ts), then checked against the request schema, then sent as a create.
 */
export async function postInvoiceBody(
  transport: InvoicingTransport,
  request: RequestContext,
  body: InvoiceRequest,
): Promise<InvoiceRecord> {
  const clean = cleanDocumentText(body);
  checkRequest(request, clean);
  return transport.json(request, InvoiceRecordSchema, { body: invoiceBodyJson(clean), create: true });
}

export async function getInvoice(transport: InvoicingTransport, id: number): Promise<InvoiceRecord> {
  return transport.json({ method: "GET", path: `/invoices/${idSegment(id)}`, create: false }, InvoiceRecordSchema);
}

/** Invoices whose order_id is `orderId`, of any sale channel of the account. */
export async function findInvoicesByOrderId(
  transport: InvoicingTransport,
  orderId: string,
  limit: number = ORDER_LOOKUP_LIMIT,
): Promise<InvoiceRecord[]> {
  const query = new URLSearchParams({ limit: String(limit), "filters[$or][0][order_id][$eq]": orderId });
  return transport.json({ method: "GET", path: `/invoices?${query}`, create: false }, z.array(InvoiceRecordSchema));
}

export async function deleteInvoice(transport: InvoicingTransport, id: number): Promise<void> {
  await transport.send({ method: "DELETE", path: `/invoices/${idSegment(id)}`, create: false }, {});
}

/** What a create was posted with: the lookup asks for exactly this. */
export interface PostedWith {
  saleChannelId: number;
  /** The integration posted to; null when unknown (then any integration of the channel matches). */
  invoiceIntegrationId?: number | null;
  /** The order id as sent to the service. */
  orderId: string;
  /** The callback address the create carried: it tells a record that does not say its order_id. */
  callbackUrl?: string;
}

/**
 * After a create whose outcome is unknown (error.retry === "unknown") or a DuplicateOrderError: the invoice
 * of this sale channel, integration and order, or null when none exists, which means posting again is safe.
 * Pass what the create was posted with, not the current settings: they may have changed since.
 */
export async function settleUnknownCreate(
  client: { findInvoicesByOrderId: (orderId: string, limit?: number) => Promise<InvoiceRecord[]> },
  { saleChannelId, invoiceIntegrationId, orderId, callbackUrl }: PostedWith,
): Promise<InvoiceRecord | null> {
  const found = await client.findInvoicesByOrderId(orderId);
  const matches = found.filter(
    (invoice) =>
      invoice.sale_channel_id === saleChannelId &&
      // A test invoice (dummy integration) of the same order is not the live one, and the other way round.
      (invoiceIntegrationId == null ||
        invoice.invoice_integration_id == null ||
        invoice.invoice_integration_id === invoiceIntegrationId) &&
      // The spec's record has no order_id. When the record says it, it must match (the service may ignore the
      // filter); when not, the record is this order's only if it echoes our callback address ("as sent"), or a
      // service that ignored the filter would hand us another order's invoice.
      (invoice.order_id != null
        ? invoice.order_id === orderId
        : callbackUrl !== undefined && invoice.callback_url?.trim() === callbackUrl),
  );
  // Duplicate protection allows one; should there be more, the oldest is the one that counts.
  matches.sort((a, b) => a.id - b.id);
  return matches[0] ?? null;
}

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

/**
 * The invoice body as JSON text. The spec types quantity, unit_price, discount and currency_rate as numbers
 * (a strict service refuses "12.50"), while the app holds amounts as exact decimal strings (0003). Each is
 * written as a JSON number with the decimal's own digits ("27.775" → 27.775), so no amount passes through a
 * binary float on our side; extra_taxes' tax_rate, whose type the spec does not show, is left as it is.
 */
export function invoiceBodyJson(body: InvoiceRequest): RawJson {
  const numbers: string[] = [];
  const marker = `\u0000num${Math.random().toString(36).slice(2)}:`;
  const asNumber = (value: unknown) => {
    if (typeof value !== "string" || !DECIMAL_TEXT.test(value)) return value;
    numbers.push(dec(value).toFixed());
    return `${marker}${numbers.length - 1}`;
  };
  const marked = {
    ...body,
    ...(body.currency_rate !== undefined ? { currency_rate: asNumber(body.currency_rate) } : {}),
    lines: body.lines.map((line) => ({
      ...line,
      quantity: asNumber(line.quantity),
      unit_price: asNumber(line.unit_price),
      ...(line.discount !== undefined ? { discount: asNumber(line.discount) } : {}),
    })),
  };
  const text = JSON.stringify(marked);
  // The marker has a random part and a NUL (written \u0000), so no text of the body is taken for it.
  const escaped = JSON.stringify(marker)
    .slice(1, -1)
    .replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
  return new RawJson(text.replace(new RegExp(`"${escaped}(\\d+)"`, "g"), (_, i: string) => numbers[Number(i)]));
}

function checkRequest(request: RequestContext, body: InvoiceRequest): void {
  const result = InvoiceRequestSchema.safeParse(body);
  if (result.success) return;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "(root)";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  throw new ValidationError(request, fieldErrors);
}
