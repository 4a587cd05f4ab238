// GET /app/invoices/{id}/pdf: the invoice's formal PDF through the app (the session's shop only).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { openInvoicePdf, pdfResponse } from "../pdf/formal-pdf.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const download = await openInvoicePdf(session.shop, params.id ?? "");
  if (!download.ok) return json({ ok: false, reason: download.reason }, { status: download.status });
  return pdfResponse(download);
};
