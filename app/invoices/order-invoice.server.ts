// What the order page's admin block shows: the invoice of one order of the authenticated shop.
import prisma from "../db.server";
import { safeLink } from "../invoicing-service/links";
import { linkOptions } from "../http/outbound-guard.server";
import { STATE } from "../invoice-state/transitions";
import { closureFrom } from "./closure";

export interface OrderInvoiceSummary {
  /** The row's state, or "issued_in_panel" for one closed by hand as issued in the invoicing panel. */
  state: string;
  documentKind: string | null;
  serialNumber: string | null;
  pdfUrl: string | null;
  invoiceId: string;
  /** A test invoice (test mode, dummy integration): not a legal invoice. */
  test: boolean;
}

/** The order's invoice in this shop, or null. `orderId` may be numeric or a gid://shopify/Order/N. */
export async function orderInvoice(shop: string, orderId: string): Promise<OrderInvoiceSummary | null> {
  const numeric = /(\d+)$/.exec(orderId)?.[1];
  if (!numeric) return null;
  const row = await prisma.invoice.findUnique({
    where: { shopDomain_orderId: { shopDomain: shop, orderId: numeric } },
    select: {
      id: true,
      state: true,
      documentKind: true,
      serialNumber: true,
      pdfUrl: true,
      isTest: true,
      postedInTestMode: true,
      closure: true,
    },
  });
  return row
    ? {
        invoiceId: row.id,
        state: row.state === STATE.closed && closureFrom(row.closure)?.as === "panel" ? "issued_in_panel" : row.state,
        documentKind: row.documentKind,
        serialNumber: row.serialNumber,
        pdfUrl: safeLink(row.pdfUrl, linkOptions()),
        test: row.isTest || row.postedInTestMode,
      }
    : null;
}
