// Invoice rows with chosen dates, states and numbers, for the admin page tests.
import { prisma } from "./db";
import { foldForSearch } from "../../app/i18n/search-fold";

export interface SeedRow {
  orderName?: string;
  customerName?: string | null;
  state?: string;
  serialNumber?: string | null;
  pdfUrl?: string | null;
  /** The order's date; also when the app received it unless `receivedAt` says otherwise. */
  createdAt?: Date;
  receivedAt?: Date;
  orderTotal?: string;
  isTest?: boolean;
  remoteId?: number | null;
  problems?: unknown;
  remoteTotals?: unknown;
  requestBody?: unknown;
  orderSnapshot?: Record<string, unknown>;
}

let seq = 0;

export async function seedInvoice(shop: string, row: SeedRow = {}) {
  seq += 1;
  const customerName = row.customerName === undefined ? "Ayşe Yılmaz" : row.customerName;
  return prisma.invoice.create({
    data: {
      shopDomain: shop,
      orderId: String(6_000_000_000 + seq),
      orderName: row.orderName ?? `#${2000 + seq}`,
      orderCreatedAt: row.createdAt ?? new Date(),
      customerName,
      // As the app writes it (app/invoices/enqueue.server.ts).
      customerSearch: foldForSearch(customerName),
      orderTotal: row.orderTotal ?? "120.00",
      currency: "TRY",
      orderSnapshot: { id: 6_000_000_000 + seq, ...row.orderSnapshot } as object,
      state: row.state ?? "completed",
      serialNumber: row.serialNumber ?? null,
      pdfUrl: row.pdfUrl ?? null,
      isTest: row.isTest ?? false,
      remoteId: row.remoteId ?? null,
      ...(row.problems !== undefined ? { problems: row.problems as object } : {}),
      ...(row.remoteTotals !== undefined ? { remoteTotals: row.remoteTotals as object } : {}),
      ...(row.requestBody !== undefined ? { requestBody: row.requestBody as object } : {}),
      ...((row.receivedAt ?? row.createdAt) ? { createdAt: row.receivedAt ?? row.createdAt } : {}),
    },
  });
}
