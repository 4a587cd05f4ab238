// An invoice formalised at the sandbox and the shop's completed row that points to it (no pdf_url stored, so a
// PDF can only come through the app): for the tests of the PDF routes.
import type { Sandbox } from "../../sandbox/server";
import { clientFor, invoiceBody, waitFor } from "../contract/helpers";
import { createInvoiceRow, prisma } from "./db";
import { SHOP } from "./shopify";

export async function formalisedInvoice(sandbox: Sandbox, shop = SHOP, orderId?: string) {
  const client = clientFor(sandbox);
  const created = await client.createInvoice(invoiceBody(sandbox.account));
  const record = await waitFor(
    async () => {
      const read = await client.getInvoice(created.id);
      return read.formal_status === "completed" && read;
    },
    5_000,
    "formalisation",
  );
  const pending = await createInvoiceRow(shop, orderId ? { orderId } : {});
  const row = await prisma.invoice.update({
    where: { id: pending.id },
    data: { state: "completed", remoteId: record.id, serialNumber: record.serial_number, pdfUrl: null },
  });
  return { row, record };
}
