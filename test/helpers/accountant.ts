// Accountant package tests' data (test/accountant/): invoices issued at the sandbox with the shop's completed rows
// for them, and a ZIP read back into its files.
import yauzl from "yauzl";
import type { Sandbox } from "../../sandbox/server";
import { documentKindOf, type InvoiceRecord, type InvoiceRequest } from "../../app/invoicing-service/schemas";
import { clientFor, invoiceBody, waitFor } from "../contract/helpers";
import { createInvoiceRow, prisma } from "./db";

export const person = {
  id: "p-1",
  type: "person" as const,
  tax_number: "11111111111",
  name: "Ayşe",
  surname: "Yılmaz",
  country: "Türkiye",
  address: "Atatürk Cad. 1",
  city: "İstanbul",
  district: "Kadıköy",
};

/** An invoice posted to the sandbox, formalised, and the shop's completed row for it (created on its issue day, as the order came). */
export async function issuedInvoice(
  sandbox: Sandbox,
  shop: string,
  overrides: Partial<InvoiceRequest>,
  row: { createdAt?: string; postedInTestMode?: boolean } = {},
) {
  const client = clientFor(sandbox);
  const body = invoiceBody(sandbox.account, { customer: person, ...overrides });
  const created = await client.createInvoice(body);
  const record: InvoiceRecord = await waitFor(
    async () => {
      const read = await client.getInvoice(created.id);
      return read.formal_status === "completed" && read;
    },
    5_000,
    "formalisation",
  );
  const pending = await createInvoiceRow(shop);
  const { lines_total, discount_total, tax_total, extra_tax_total, grand_total } = record;
  const stored = await prisma.invoice.update({
    where: { id: pending.id },
    data: {
      state: "completed",
      remoteId: record.id,
      serialNumber: record.serial_number,
      ettn: record.ettn,
      documentKind: documentKindOf(record),
      requestBody: body as object,
      remoteTotals: { lines_total, discount_total, tax_total, extra_tax_total, grand_total },
      postedInTestMode: row.postedInTestMode ?? false,
      createdAt: new Date(row.createdAt ?? `${body.issue_date}T08:00:00Z`),
    },
  });
  return { row: stored, record, body };
}

/** A ZIP's files by name. */
export async function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
        stream.on("error", reject);
      });
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return files;
}
