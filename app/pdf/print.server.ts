// Printing invoices from Shopify's order pages (extensions/order-invoice-print): which of the selected orders have
// an invoice to print, a short-lived signed address for their PDFs, and the PDFs merged into one document.
// The print preview loads its `src` as a plain GET without the admin's session token, so the extension first asks
// the authenticated /api/print/invoices, which answers with an address signed for this shop and these invoices
// only, valid for PRINT_TOKEN_TTL_MS (docs/decisions/0015-order-write-back.md).
import { createHmac, timingSafeEqual } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import prisma from "../db.server";
import { env } from "../env.server";
import { openInvoicePdf, type PdfClientFor } from "./formal-pdf.server";
import { STATE } from "../invoice-state/transitions";
import { PDF_SHOP, PRINTS } from "../http/throttle.server";

/** At most this many orders in one print (Shopify's bulk selection is larger; a print of 50 invoices is plenty). */
export const PRINT_MAX_ORDERS = 50;
/** A print merges PDFs in memory (pdf-lib): one over this is left out, and it stops adding past the total. */
export const PRINT_PDF_MAX_BYTES = 5 * 1024 * 1024;
export const PRINT_TOTAL_MAX_BYTES = 40 * 1024 * 1024;
export const PRINT_TOKEN_TTL_MS = 10 * 60_000;

export type PrintStatus = "ready" | "not_yet" | "none";

export interface PrintableOrder {
  orderId: string;
  orderName: string | null;
  status: PrintStatus;
  invoiceId: string | null;
  serialNumber: string | null;
}

/** "gid://shopify/Order/123" or "123" → "123"; anything else → null. */
export function orderIdOf(value: string): string | null {
  const match = /^(?:gid:\/\/shopify\/Order\/)?(\d{1,20})$/.exec(value.trim());
  return match ? match[1] : null;
}

/** The selected orders' invoices, the session's shop only: printable once completed at the service. */
export async function printableOrders(shop: string, orderIds: string[]): Promise<PrintableOrder[]> {
  const ids = [...new Set(orderIds)].slice(0, PRINT_MAX_ORDERS);
  const rows = await prisma.invoice.findMany({
    where: { shopDomain: shop, orderId: { in: ids }, isTest: false, waybillId: null },
    select: { id: true, orderId: true, orderName: true, state: true, remoteId: true, serialNumber: true },
  });
  const byOrder = new Map(rows.map((row) => [row.orderId, row]));
  return ids.map((orderId) => {
    const row = byOrder.get(orderId);
    if (!row) return { orderId, orderName: null, status: "none", invoiceId: null, serialNumber: null };
    const ready = row.state === STATE.completed && row.remoteId !== null;
    return {
      orderId,
      orderName: row.orderName,
      status: ready ? "ready" : "not_yet",
      invoiceId: ready ? row.id : null,
      serialNumber: row.serialNumber,
    };
  });
}

const sign = (payload: string) =>
  createHmac("sha256", env().SHOPIFY_API_SECRET).update(`print:${payload}`).digest("base64url");

/** An address part that lets the print preview load exactly these invoices of this shop, for a few minutes. */
export function signPrintToken(shop: string, invoiceIds: string[], now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ s: shop, i: invoiceIds, e: now + PRINT_TOKEN_TTL_MS })).toString(
    "base64url",
  );
  return `${payload}.${sign(payload)}`;
}

export function verifyPrintToken(token: string, now = Date.now()): { shop: string; invoiceIds: string[] } | null {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      s?: unknown;
      i?: unknown;
      e?: unknown;
    };
    if (typeof data.s !== "string" || typeof data.e !== "number" || data.e < now) return null;
    if (
      !Array.isArray(data.i) ||
      data.i.length === 0 ||
      data.i.length > PRINT_MAX_ORDERS ||
      !data.i.every((id) => typeof id === "string")
    )
      return null;
    return { shop: data.s, invoiceIds: data.i as string[] };
  } catch {
    return null;
  }
}

export type MergedPdf =
  | { ok: true; bytes: Uint8Array; count: number; leftOut: number }
  | { ok: false; status: 404 | 409 | 429 | 502; retryAfterMs?: number };

/**
 * The invoices' formal PDFs (read with the shop's key, shop-scoped; kept copies first) as one document, in the given
 * order. A shop's prints are throttled, and what is held at once is bounded: a PDF over PRINT_PDF_MAX_BYTES is left
 * out, and the print stops at PRINT_TOTAL_MAX_BYTES of PDFs (`leftOut` counts both) (issue 35, point 3).
 */
export async function mergedInvoicePdf(
  shop: string,
  invoiceIds: string[],
  clientFor?: PdfClientFor,
  now = Date.now(),
): Promise<MergedPdf> {
  for (const throttle of [PRINTS, PDF_SHOP]) {
    const verdict = await throttle.take(shop, now);
    if (!verdict.allowed) return { ok: false, status: 429, retryAfterMs: verdict.retryAfterMs };
  }
  const merged = await PDFDocument.create();
  let count = 0;
  let leftOut = 0;
  let total = 0;
  for (const id of invoiceIds) {
    if (total >= PRINT_TOTAL_MAX_BYTES) {
      leftOut++;
      continue;
    }
    const download = await openInvoicePdf(shop, id, clientFor);
    if (!download.ok) {
      if (invoiceIds.length === 1) return { ok: false, status: download.status };
      continue;
    }
    const bytes = await readUpTo(download.body, Math.min(PRINT_PDF_MAX_BYTES, PRINT_TOTAL_MAX_BYTES - total));
    if (!bytes) {
      leftOut++;
      continue;
    }
    total += bytes.byteLength;
    let source: PDFDocument;
    try {
      source = await PDFDocument.load(bytes);
    } catch {
      continue;
    }
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
    count++;
  }
  if (count === 0) return { ok: false, status: 502 };
  return { ok: true, bytes: await merged.save(), count, leftOut };
}

/** The whole stream if it is at most `max` bytes; null (and the stream cancelled) once it is more. */
async function readUpTo(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
