// The formal PDF of one invoice through the app: read from the service with the shop's key
// (GET /invoices/{id}/formal-pdf), for invoices whose pdf_url is missing or needs the key. Looked up by id AND the
// shop: another shop's invoice id finds nothing, exactly like an unknown one.
// A formalised invoice's PDF never changes: the first read keeps it (InvoicePdf, up to PDF_CACHE_MAX_BYTES) and
// every later one, from any process, is served from there; reads of the same PDF at once in one process share one
// request to the service (issue 35, point 3). A larger PDF is streamed through, never held.
import prisma from "../db.server";
import { STATE } from "../invoice-state/transitions";
import { InvoicingClient } from "../invoicing-service/client";
import { InvoicingError, NotFoundError } from "../invoicing-service/errors";
import { logger } from "../logger.server";
import { apiKeyFor } from "../settings/settings.server";

/** A download may take longer than an API call: the body flows at the browser's pace. */
const PDF_TIMEOUT_MS = 60_000;
/** A formal PDF up to this size is kept once read (an e-Arşiv invoice is tens of kilobytes). */
export const PDF_CACHE_MAX_BYTES = 5 * 1024 * 1024;

/** Reads of one invoice's PDF under way in this process: a burst of them makes one request to the service. */
const reading = new Map<string, Promise<Uint8Array | null>>();

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
      state: true,
      shop: { select: { settings: { select: { baseUrl: true } } } },
    },
  });
  if (!row) return { ok: false, status: 404, reason: "not_found" };
  if (row.remoteId === null) return { ok: false, status: 409, reason: "not_ready" };
  const fileName = pdfFileName(row.serialNumber, row.remoteId);
  const formal = row.state === STATE.completed;
  if (formal) {
    const kept = await keptPdf(row.id);
    if (kept) return bytesDownload(kept, fileName);
  }
  const baseUrl = row.shop.settings?.baseUrl;
  const apiKey = await apiKeyFor(shop);
  if (!baseUrl || !apiKey) return { ok: false, status: 409, reason: "not_ready" };
  const client = clientFor({ baseUrl, apiKey });
  const remoteId = row.remoteId;
  try {
    if (formal) {
      // One read of it at a time in this process; the readers arriving meanwhile wait for it and share it. A reader
      // that looked for the kept copy just before an earlier read stored it and arrives after that read ended finds
      // the copy now (looked for again inside the shared read), instead of reading the service a second time.
      let shared = reading.get(row.id);
      if (!shared) {
        const id = row.id;
        shared = (async () => {
          return (await keptPdf(id)) ?? readToKeep(id, shop, () => client.openFormalPdf(remoteId));
        })().finally(() => reading.delete(id));
        reading.set(id, shared);
      }
      const bytes = await shared;
      if (bytes) return bytesDownload(bytes, fileName);
      // Too large to keep (or of no declared size): streamed to each reader.
    }
    const { body, length } = await client.openFormalPdf(remoteId);
    return { ok: true, body, length, fileName };
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

/** The formal PDF kept for every process once read, if it is. */
async function keptPdf(invoiceId: string): Promise<Uint8Array<ArrayBuffer> | null> {
  const kept = await prisma.invoicePdf.findUnique({ where: { invoiceId }, select: { bytes: true } });
  return kept ? kept.bytes : null;
}

/**
 * A formalised invoice's PDF read whole and kept for every later read, when the service declares a size up to
 * PDF_CACHE_MAX_BYTES; null for a larger one or one of no declared size (not read). Throws what the client throws.
 */
async function readToKeep(
  invoiceId: string,
  shop: string,
  open: () => ReturnType<Pick<InvoicingClient, "openFormalPdf">["openFormalPdf"]>,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const { body, length } = await open();
  if (length === null || length > PDF_CACHE_MAX_BYTES) {
    await body.cancel().catch(() => undefined);
    return null;
  }
  const bytes = new Uint8Array(await new Response(body).arrayBuffer());
  await prisma.invoicePdf
    .upsert({
      where: { invoiceId },
      create: { invoiceId, shopDomain: shop, bytes },
      update: {},
    })
    .catch((error: unknown) => logger.warn({ shop, invoice: invoiceId, err: error }, "keeping a formal PDF failed"));
  return bytes;
}

function bytesDownload(bytes: Uint8Array, fileName: string): Extract<PdfDownload, { ok: true }> {
  return {
    ok: true,
    fileName,
    length: bytes.byteLength,
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
  };
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
