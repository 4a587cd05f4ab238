// The customer's link to their invoice PDF (the customer account block, order e-mails, Flow): an address of the
// app, signed for one invoice of one shop, that streams the formal PDF from the service with the shop's key.
// The service's own pdf_url may be missing, plain http, or need the key; this link works for every formalised
// invoice and names the file by its serial number. It has no expiry (an e-mail or an order page keeps it for years)
// but can be revoked: the signature covers the invoice's link version (Invoice.pdfLinkVersion), and
// customers/redact clears it, after which the link answers 404 like any unknown one. Version 1 signs exactly what
// links made before versions existed signed, so those keep working. It opens only a completed, legal invoice (not
// a test-mode or cancelled one); rotating SHOPIFY_API_SECRET revokes every link (docs/decisions/0015-order-write-back.md).
import { createHmac, timingSafeEqual } from "node:crypto";
import prisma from "../db.server";
import { env } from "../env.server";
import { STATE } from "../invoice-state/transitions";
import { PDF_LINK, PDF_SHOP, type Verdict } from "../http/throttle.server";

const signature = (shop: string, invoiceId: string, version: number) =>
  createHmac("sha256", env().SHOPIFY_API_SECRET)
    .update(version === 1 ? `customer-pdf:${shop}:${invoiceId}` : `customer-pdf:${shop}:${invoiceId}:v${version}`)
    .digest("base64url");

/** The public address of one invoice's PDF for its current link version; null once the link was revoked. */
export function customerPdfUrl(shop: string, invoiceId: string, version: number | null): string | null {
  if (version === null) return null;
  return new URL(
    `/invoice-pdf/${encodeURIComponent(invoiceId)}/${signature(shop, invoiceId, version)}`,
    env().SHOPIFY_APP_URL,
  ).toString();
}

export type CustomerPdfGrant = { ok: true; shop: string } | { ok: false; status: 404 | 409 };

/** The shop whose invoice the link opens, when the signature is right and the invoice may be shown to a customer. */
export async function verifyCustomerPdf(invoiceId: string, given: string): Promise<CustomerPdfGrant> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(invoiceId) || !/^[A-Za-z0-9_-]{43}$/.test(given)) return { ok: false, status: 404 };
  const row = await prisma.invoice.findUnique({
    where: { id: invoiceId },
    select: {
      shopDomain: true,
      state: true,
      remoteId: true,
      isTest: true,
      postedInTestMode: true,
      pdfLinkVersion: true,
    },
  });
  // An unknown invoice, a revoked link and a wrong signature look the same.
  if (!row || row.pdfLinkVersion === null) return { ok: false, status: 404 };
  const expected = Buffer.from(signature(row.shopDomain, invoiceId, row.pdfLinkVersion));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { ok: false, status: 404 };
  if (row.isTest || row.postedInTestMode) return { ok: false, status: 404 };
  // Only a formalised invoice in force: not yet formalised, failed or cancelled (void) is not offered.
  if (row.remoteId === null || row.state !== STATE.completed) return { ok: false, status: 409 };
  return { ok: true, shop: row.shopDomain };
}

/** 429 with Retry-After, once verified: any one link, and all of a shop's links together, are throttled. */
export async function pdfLinkThrottled(shop: string, invoiceId: string, now = Date.now()): Promise<Response | null> {
  const link = await PDF_LINK.take(invoiceId, now);
  const verdict: Verdict = link.allowed ? await PDF_SHOP.take(shop, now) : link;
  if (verdict.allowed) return null;
  return new Response("Too many requests for this invoice's PDF: try again shortly.", {
    status: 429,
    headers: { "Retry-After": String(Math.ceil(verdict.retryAfterMs / 1000)) },
  });
}
