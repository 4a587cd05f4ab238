// The print preview's document: the signed invoices' PDFs merged into one (see app/pdf/print.server.ts). The
// signature binds the shop and the invoice ids and expires within minutes; anything else is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { mergedInvoicePdf, verifyPrintToken } from "../pdf/print.server";

export const loader = async ({ params }: LoaderFunctionArgs) => {
  const grant = verifyPrintToken(params.token ?? "");
  if (!grant) return new Response("Not Found", { status: 404 });
  const merged = await mergedInvoicePdf(grant.shop, grant.invoiceIds);
  if (!merged.ok && merged.status === 429)
    return new Response("Too many prints: try again shortly.", {
      status: 429,
      headers: { "Retry-After": String(Math.ceil((merged.retryAfterMs ?? 1000) / 1000)) },
    });
  if (!merged.ok)
    return new Response(
      merged.status === 409 ? "The invoice is not ready yet." : "The invoice PDF could not be read.",
      { status: merged.status },
    );
  return new Response(new Uint8Array(merged.bytes), {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="faturalar.pdf"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
};
