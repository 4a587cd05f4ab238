// The customer's signed link to one invoice PDF (app/pdf/customer-pdf.server.ts): no session, the signature is
// the permission. Anything wrong is a 404, a PDF not yet formalised a 409, a link or shop asked too often a 429.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { openInvoicePdf, pdfResponse } from "../pdf/formal-pdf.server";
import { pdfLinkThrottled, verifyCustomerPdf } from "../pdf/customer-pdf.server";

export const loader = async ({ params }: LoaderFunctionArgs) => {
  const grant = await verifyCustomerPdf(params.id ?? "", params.signature ?? "");
  if (!grant.ok)
    return new Response(grant.status === 409 ? "The invoice is not ready yet." : "Not Found", { status: grant.status });
  const throttled = await pdfLinkThrottled(grant.shop, params.id!);
  if (throttled) return throttled;
  const download = await openInvoicePdf(grant.shop, params.id!);
  if (!download.ok)
    return new Response(
      download.status === 409 ? "The invoice is not ready yet." : "The invoice PDF could not be read.",
      { status: download.status },
    );
  return pdfResponse(download);
};
