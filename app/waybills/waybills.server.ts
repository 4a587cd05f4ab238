// Invoices from waybills, the server side of the "Invoice from a waybill" page: read a waybill of the shop's
// invoicing account and say at once why it cannot be invoiced (not found or another account's, incoming,
// not completed, already invoiced), then record the merchant's checked form as an Invoice row. The worker
// posts it like any other row (app/invoices/process.server.ts); nothing here posts an invoice.
import type { Prisma } from "#prisma/sqlite";
import prisma from "../db.server";
import { InvoicingClient } from "../invoicing-service/client";
import { AuthenticationError, BlockedError, InvoicingError, NotFoundError } from "../invoicing-service/errors";
import type { WaybillRecord } from "../invoicing-service/schemas";
import { logger } from "../logger.server";
import { localParts, TURKEY_ZONE } from "../orders/dates";
import { signalWork } from "../jobs/signal.server";
import { connectionFor, type Connection, type ConnectionProblem } from "../settings/settings.server";
import type { WaybillSnapshot } from "./snapshot";
import {
  draftFromWaybill,
  isLate,
  readForm,
  waybillInvoiceBody,
  type FormErrors,
  type WaybillInvoiceForm,
} from "./waybill-invoice";
import { foldForSearch } from "../i18n/search-fold";
import { fromStates, targetOf, type InvoiceState } from "../invoice-state/transitions";

const READ_TIMEOUT_MS = 10_000;

export type WaybillRefusal =
  | { reason: "not_configured"; missing: ConnectionProblem[] }
  | { reason: "invalid_id" }
  | { reason: "not_found"; waybillId: number }
  | { reason: "incoming"; waybillId: number; number: string }
  | { reason: "not_completed"; waybillId: number; number: string; status: string }
  | { reason: "already_invoiced"; waybillId: number; number: string; invoiceId: number }
  | { reason: "in_app"; waybillId: number; invoiceRowId: string }
  | { reason: "api_key_rejected" }
  | { reason: "address_not_allowed" }
  | { reason: "service"; detail: string };

export interface WaybillView {
  id: number;
  documentNumber: string;
  issueDate: string;
  status: string;
  currency: string;
  currencyRate: string;
  /** The app's earlier attempt at this waybill, when it can be submitted again (it needed attention). */
  retryOf: string | null;
  /** Invoiced today, the invoice comes later than 7 days after the waybill's date (VUK 231/5). */
  late: boolean;
  /** The shop is in test mode: the invoice goes to the test account, and the service may count the waybill as invoiced. */
  testMode: boolean;
}

export type WaybillRead =
  { ok: true; waybill: WaybillView; form: WaybillInvoiceForm } | { ok: false; refusal: WaybillRefusal };

type WaybillClient = Pick<InvoicingClient, "getWaybill">;
export type WaybillClientFor = (connection: Connection) => WaybillClient;
const defaultClientFor: WaybillClientFor = (connection) =>
  new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, timeoutMs: READ_TIMEOUT_MS });

/** The row key of a waybill's invoice: Shopify order ids are numbers, so it can never equal one. */
export const waybillOrderId = (waybillId: number) => `waybill-${waybillId}`;

/** A waybill id as typed: the service's id (a positive number), not the document number. */
export function parseWaybillId(value: unknown): number | null {
  const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
  if (!/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const str = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/** The waybill's direction, when the service says it (the field is not in the spec; the sandbox sends it). */
function directionOf(waybill: WaybillRecord): string {
  return str((waybill as Record<string, unknown>).direction ?? (waybill as Record<string, unknown>).type).toLowerCase();
}

/**
 * Reads the waybill with the shop's key and decides whether it can be invoiced, in the order the service
 * would refuse it. The app's own rows come first: a waybill the app is already invoicing is not read again.
 */
export async function readWaybill(
  shop: string,
  rawId: unknown,
  now = new Date(),
  clientFor: WaybillClientFor = defaultClientFor,
): Promise<WaybillRead> {
  const waybillId = parseWaybillId(rawId);
  if (waybillId === null) return { ok: false, refusal: { reason: "invalid_id" } };
  const connection = await connectionFor(shop);
  if (!connection.ok) return { ok: false, refusal: { reason: "not_configured", missing: connection.missing } };

  const existing = await prisma.invoice.findUnique({
    where: { shopDomain_orderId: { shopDomain: shop, orderId: waybillOrderId(waybillId) } },
    select: { id: true, state: true, remoteId: true },
  });
  const retryable =
    existing && existing.remoteId === null && fromStates("merchant_retry").includes(existing.state as InvoiceState);
  if (existing && !retryable) return { ok: false, refusal: { reason: "in_app", waybillId, invoiceRowId: existing.id } };

  let waybill: WaybillRecord;
  try {
    waybill = await clientFor(connection.connection).getWaybill(waybillId);
  } catch (error) {
    // The service answers 404 for an unknown id and for another account's alike.
    if (error instanceof NotFoundError) return { ok: false, refusal: { reason: "not_found", waybillId } };
    if (error instanceof AuthenticationError) return { ok: false, refusal: { reason: "api_key_rejected" } };
    if (error instanceof BlockedError) return { ok: false, refusal: { reason: "address_not_allowed" } };
    logger.warn(
      { shop, waybillId, err: error instanceof InvoicingError ? error.message : String(error) },
      "waybill read failed",
    );
    return {
      ok: false,
      refusal: { reason: "service", detail: error instanceof InvoicingError ? error.kind : "network" },
    };
  }
  const number = str(waybill.document_number) || String(waybillId);
  if (directionOf(waybill) === "incoming") return { ok: false, refusal: { reason: "incoming", waybillId, number } };
  const status = str(waybill.status).toLowerCase();
  if (status !== "completed")
    return { ok: false, refusal: { reason: "not_completed", waybillId, number, status: status || "?" } };
  if (waybill.invoice_id != null)
    return {
      ok: false,
      refusal: { reason: "already_invoiced", waybillId, number, invoiceId: Number(waybill.invoice_id) },
    };

  const today = localParts(now.getTime(), TURKEY_ZONE).date;
  const issueDate = str(waybill.issue_date).slice(0, 10);
  return {
    ok: true,
    waybill: {
      id: waybillId,
      documentNumber: number,
      issueDate,
      status,
      currency: str(waybill.currency).toUpperCase() || "TRY",
      currencyRate: str(waybill.currency_rate) || "1",
      retryOf: existing?.id ?? null,
      late: isLate(issueDate, today),
      testMode: connection.connection.testMode,
    },
    form: draftFromWaybill(waybill, connection.connection.mapping, today),
  };
}

export type SubmitResult =
  { ok: true; invoiceId: string } | { ok: false; refusal: WaybillRefusal } | { ok: false; errors: FormErrors };

/**
 * Checks the waybill again (it may have changed since the page was opened), checks the form with the
 * same rules the worker will build the body with, and records the row: queued, or, for an earlier attempt
 * that needed attention and never reached the service, that row again with the corrected form.
 */
export async function submitWaybillInvoice(
  shop: string,
  rawId: unknown,
  input: unknown,
  now = new Date(),
  clientFor: WaybillClientFor = defaultClientFor,
): Promise<SubmitResult> {
  const read = await readWaybill(shop, rawId, now, clientFor);
  if (!read.ok) return read;
  const { waybill } = read;
  const connection = await connectionFor(shop);
  if (!connection.ok) return { ok: false, refusal: { reason: "not_configured", missing: connection.missing } };
  const shopRow = await prisma.shop.findUnique({ where: { domain: shop }, select: { timezone: true } });

  // The waybill's number and date identify it: they come from the waybill, whatever the browser sent.
  const form = readForm(input);
  if (waybill.documentNumber) form.waybillNumber = waybill.documentNumber;
  if (/^\d{4}-\d{2}-\d{2}$/.test(waybill.issueDate)) form.waybillDate = waybill.issueDate;
  const facts = { id: waybill.id, currency: waybill.currency, currencyRate: waybill.currencyRate };
  const built = waybillInvoiceBody(form, {
    waybill: facts,
    settings: connection.connection.mapping,
    saleChannelId: connection.connection.saleChannelId,
    invoiceIntegrationId: connection.connection.invoiceIntegrationId,
    now,
    timezone: shopRow?.timezone ?? TURKEY_ZONE,
  });
  if (!built.ok) return { ok: false, errors: built.errors };

  const snapshot: WaybillSnapshot = {
    source: "waybill",
    waybill: { ...facts, documentNumber: waybill.documentNumber, issueDate: waybill.issueDate },
    form,
  };
  const fields = {
    orderName: waybill.documentNumber,
    orderCreatedAt: new Date(
      /^\d{4}-\d{2}-\d{2}$/.test(waybill.issueDate) ? `${waybill.issueDate}T00:00:00+03:00` : now.toISOString(),
    ),
    customerId: null,
    customerName: built.customerName.slice(0, 255),
    customerSearch: foldForSearch(built.customerName.slice(0, 255)),
    orderTotal: built.totals.grand_total,
    currency: waybill.currency,
    orderSnapshot: snapshot as unknown as Prisma.InputJsonValue,
    state: targetOf("record"),
    nextAttemptAt: now,
    problems: [] as unknown as Prisma.InputJsonValue,
    lastError: null,
  };
  const orderId = waybillOrderId(waybill.id);
  let invoiceId: string;
  if (waybill.retryOf) {
    // Only while it still needs attention and never reached the service: the attempt count is kept, so an
    // earlier attempt whose outcome was unknown is settled through the waybill before anything is posted.
    const updated = await prisma.invoice.updateMany({
      where: { id: waybill.retryOf, shopDomain: shop, remoteId: null, state: { in: fromStates("merchant_retry") } },
      data: fields,
    });
    if (updated.count !== 1)
      return { ok: false, refusal: { reason: "in_app", waybillId: waybill.id, invoiceRowId: waybill.retryOf } };
    await prisma.invoiceEvent.create({
      data: {
        invoiceId: waybill.retryOf,
        type: "queued",
        at: now,
        message: "waybill invoice corrected and queued again by the merchant",
        data: { note: "waybill_corrected" },
      },
    });
    invoiceId = waybill.retryOf;
  } else {
    try {
      const row = await prisma.invoice.create({
        data: {
          ...fields,
          shopDomain: shop,
          orderId,
          waybillId: waybill.id,
          events: {
            create: [
              { type: "received", at: now, data: { source: "waybill", waybillId: waybill.id } },
              { type: "queued", at: now },
            ],
          },
        },
        select: { id: true },
      });
      invoiceId = row.id;
    } catch (error) {
      // Submitted twice at once: the first one is the invoice.
      if ((error as { code?: string }).code !== "P2002") throw error;
      const other = await prisma.invoice.findUniqueOrThrow({
        where: { shopDomain_orderId: { shopDomain: shop, orderId } },
        select: { id: true },
      });
      return { ok: false, refusal: { reason: "in_app", waybillId: waybill.id, invoiceRowId: other.id } };
    }
  }
  await signalWork();
  logger.info({ shop, waybillId: waybill.id, invoice: invoiceId }, "waybill invoice recorded");
  return { ok: true, invoiceId };
}
