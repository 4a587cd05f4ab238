// The shapes every step of a claimed row's work shares (./process.server.ts and the modules it calls): its deps,
// the row as read, and the Outcome each step returns for the entry to store. Types only, so any step may import them.
import type { Prisma } from "#prisma/sqlite";
import type { JobInvoice, JobRow } from "../db/hot-statements";
import type { Connection } from "../settings/settings.server";
import type { InvoicingClient } from "../invoicing-service/client";
import type { ReadOrder } from "../after-sale/before-posting.server";
import type { EventType } from "./states";
import type { ReadCompany } from "./company.server";

export interface ProcessDeps {
  now: () => Date;
  /** The app's public address; callbacks go to {appUrl}/callbacks/invoices/{invoice id}. */
  appUrl: string;
  clientFor?: (
    connection: Connection,
  ) => Pick<
    InvoicingClient,
    "createInvoice" | "getInvoice" | "findInvoicesByOrderId" | "createInvoiceFromWaybill" | "getWaybill"
  > &
    Partial<Pick<InvoicingClient, "deleteInvoice" | "listInvoiceIntegrations">>;
  random?: () => number;
  /** Reads an edited order again before it is invoiced; default: the Admin API (app/shopify readOrder). */
  readOrder?: ReadOrder;
  /** Reads a B2B order's company; default: the Admin API (./company.server.ts). */
  readCompany?: ReadCompany;
}

export type Row = JobInvoice;

/** What the row's read also said: the order's edits are read only when there are any unread. */
export type Facts = Omit<JobRow, "row">;

export interface Outcome {
  data: Prisma.InvoiceUpdateManyMutationInput;
  events: Array<{ type: EventType; message?: string; data?: Prisma.InputJsonValue }>;
  /** The service's team (account) of the shop's key, as its invoice records say: callbacks must carry it. */
  teamId?: number;
  /** Refunds this work dealt with, and how (the Refund rows' `handling`). */
  refunds?: Array<{ ids: string[]; handling: string }>;
}

export type Client = ReturnType<NonNullable<ProcessDeps["clientFor"]>>;
