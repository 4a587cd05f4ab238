// The formal PDF of one invoice through the app: read from the service with the shop's key
// (GET /invoices/{id}/formal-pdf) and streamed on, for invoices whose pdf_url is missing or needs the key.
// Looked up by id AND the session's shop: another shop's invoice id finds nothing, exactly like an unknown one.
import prisma from "../db.server";
import { InvoicingClient } from "../invoicing-service/client";
import { InvoicingError, NotFoundError } from "../invoicing-service/errors";
import { logger } from "../logger.server";
import { apiKeyFor } from "../settings/settings.server";

/** A download may take longer than an API call: the body flows at the browser's pace. */
const PDF_TIMEOUT_MS = 60_000;

export type PdfDownload =
  | { ok: true; body: ReadableStream<Uint8Array>; fileName: string; length: number | null }
  | { ok: false; status: 404 | 409 | 502; reason: "not_found" | "not_ready" | "service" };

export type PdfClientFor = (connection: { baseUrl: string; apiKey: string }) => Pick<InvoicingClient, "openFormalPdf">;

const defaultClientFor: PdfClientFor = (connection) =>
  new InvoicingClient({ ...connection, timeoutMs: PDF_TIMEOUT_MS });

/** The file name a merchant files the invoice under: its serial number (ARS2026000000123.pdf). */
export function pdfFileName(serialNumber: string | null, remoteId: number): string {
  const serial = serialNumber?.replace(/[^A-Za-z0-9_-]/g, "");
  return serial ? `${serial}.pdf` : `fatura-${remoteId}.pdf`;
}

export async function openInvoicePdf(
  shop: string,
  invoiceId: string,
  clientFor: PdfClientFor = defaultClientFor,
): Promise<PdfDownload> {
  const row = await prisma.invoice.findFirst({
    where: { id: invoiceId, shopDomain: shop },
    select: {
      id: true,
      remoteId: true,
      serialNumber: true,
      shop: { select: { settings: { select: { baseUrl: true } } } },
    },
  });
  if (!row) return { ok: false, status: 404, reason: "not_found" };
  const baseUrl = row.shop.settings?.baseUrl;
  const apiKey = await apiKeyFor(shop);
  if (row.remoteId === null || !baseUrl || !apiKey) return { ok: false, status: 409, reason: "not_ready" };
  try {
    const { body, length } = await clientFor({ baseUrl, apiKey }).openFormalPdf(row.remoteId);
    return { ok: true, body, length, fileName: pdfFileName(row.serialNumber, row.remoteId) };
  } catch (error) {
    // The service has no formal PDF until the invoice is formalised.
    if (error instanceof NotFoundError) return { ok: false, status: 409, reason: "not_ready" };
    logger.warn(
      {
        shop,
        invoice: row.id,
        err: error instanceof InvoicingError ? `${error.kind}: ${error.message}` : String(error),
      },
      "formal PDF download failed",
    );
    return { ok: false, status: 502, reason: "service" };
  }
}

/** The answer for the browser: a download of a PDF, never cached by a shared cache, never sniffed as anything else. */
export function pdfResponse(download: Extract<PdfDownload, { ok: true }>): Response {
  const headers = new Headers({
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${download.fileName}"`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (download.length !== null) headers.set("Content-Length", String(download.length));
  return new Response(download.body, { status: 200, headers });
}
