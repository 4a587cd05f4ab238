// The hot statements' interface (HotStatements) and the types its callers and implementations share, with the list
// of its statements. No implementation here: hot.server.ts chooses one (Prisma's client or a dialect's SQL).
import type { Prisma } from "#prisma/sqlite";

export interface DeliveryKey {
  shopDomain: string;
  topic: string;
  eventId: string;
}

export interface NewEvent {
  type: string;
  at: Date;
  message?: string | null;
  data?: unknown;
  dedupeKey?: string | null;
}

/** Column → value, as in a Prisma update of Invoice (no nested writes, no increments). */
export type InvoiceValues = Record<string, unknown>;

export interface CallbackTarget {
  id: string;
  shopDomain: string;
  teamId: number | null;
  apiKeyEncrypted: string | null;
}

export interface ClaimRowsOptions {
  owner: string;
  now: Date;
  leaseUntil: Date;
  limit: number;
  perShopLimit: number;
  /** Every priority a row can have (the claim reads each shop's due rows per priority). */
  priorities: readonly number[];
}

export interface ClaimedRowRef {
  id: string;
  shopDomain: string;
}

/** A claimed row as the worker reads it (as Prisma's `include: { shop: { include: { settings: true } } }` gives it). */
export type RefundRow = Prisma.RefundGetPayload<object>;

export type JobInvoice = Prisma.InvoiceGetPayload<{ include: { shop: { include: { settings: true } } } }>;

export interface JobRow {
  row: JobInvoice;
  /** Whether the order has edits not yet read again (the worker reads the order again only then). */
  unreadEdits: boolean;
  /** The scopes recorded on the shop's offline session (comma-separated), or null without one. */
  offlineScope: string | null;
}

/** The end of a job, stored in one transaction only while `owner` still holds the row's lease. */
export interface FinishJob {
  id: string;
  owner: string;
  shopDomain: string;
  /** The row's new columns; the lease is released with them. */
  values: InvoiceValues;
  events: NewEvent[];
  /** Refunds this job dealt with, and how (only those not handled yet). */
  refunds: Array<{ ids: string[]; handling: string }>;
  /**
   * Makes the order's write-back due now, as the caller's rule decides from the shop's offline scopes (read in the
   * same transaction); null: no write-back.
   */
  writeBack: ((offlineScope: string | null) => WriteBackStart) | null;
  /** The service's team learned from a record, stored while the shop's settings have none. */
  teamId: number | null;
  /** For a row left processing: a callback recorded since then asks for a read now. */
  callbacksSince: Date | null;
}

/** The columns of a write-back made due, as decided by the caller (app/invoices/write-back-due.server.ts writeBackStart). */
export interface WriteBackStart {
  status: string;
  nextAttemptAt: Date | null;
  lastError: string | null;
}

export type CallbackMark = "marked" | "early" | "not_found" | "duplicate";

export interface HotStatements {
  /** Records a webhook event; false when the same event was recorded already. */
  recordDelivery(key: DeliveryKey, webhookId: string | null): Promise<boolean>;
  setDeliveryResult(key: DeliveryKey, result: string): Promise<void>;
  /** The shop's stored invoicing trigger (null without settings), or null when the shop is not installed. */
  shopTrigger(shop: string): Promise<{ trigger: string | null } | null>;
  /** Inserts an invoice row and its events unless the shop already has a row for the order. */
  insertInvoice(values: InvoiceValues, events: NewEvent[]): Promise<"created" | "duplicate" | "unknown_shop">;
  /**
   * The worker's claim in one statement: picks up to `limit` due rows (live before past, each shop's oldest first,
   * round-robin over shops, at most each shop's free share of `perShopLimit` counted over every worker's live
   * leases) and leases them to `owner`. PostgreSQL locks them with FOR UPDATE SKIP LOCKED in the same statement.
   * Ordered live first, then oldest first.
   */
  claimRows(options: ClaimRowsOptions): Promise<ClaimedRowRef[]>;
  /** Leases up to `limit` due write-backs (oldest first) to `owner`, in one statement. */
  claimWriteBacks(
    owner: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<Array<{ invoiceId: string; shopDomain: string }>>;
  /** The earliest moment an invoice row (its lease's end, if later) or a write-back becomes due, to sleep until then. */
  nextDue(): Promise<Date | null>;
  /** A claimed row with its shop and the shop's settings, and whether the order has unread edits: one read. */
  jobRow(id: string): Promise<JobRow | null>;
  /** An order's refunds, oldest first (as Prisma reads them). */
  refundsOf(shop: string, orderId: string): Promise<RefundRow[]>;
  /** Stores a job's end (see FinishJob); `stored` is false when the lease was lost. */
  finishJob(job: FinishJob): Promise<{ stored: boolean; rereadNow: boolean }>;
  /**
   * The heartbeat of jobs in flight: extends `owner`'s leases on these rows to `until`. Returns the rows still held
   * (a row missing was taken over after its lease expired; its job's end will not be stored).
   */
  renewLeases(owner: string, ids: string[], until: Date): Promise<string[]>;
  /**
   * Frees `owner`'s leases on rows whose job ended without storing its end (the database went away): the rows are due
   * again at once, and their next attempt starts with the lookup. A row already finished or taken over is left alone.
   */
  releaseLeases(owner: string, ids: string[]): Promise<number>;
  /** Updates a row only while `owner` holds its lease; false when the lease was lost. */
  updateLeased(
    id: string,
    owner: string,
    values: InvoiceValues,
    options?: { incrementAttempts?: boolean },
  ): Promise<boolean>;
  /** What a callback for an invoice row is checked with: the row's shop, its team and its encrypted API key. */
  callbackTarget(invoiceId: string): Promise<CallbackTarget | null>;
  /** A verified callback: the row due for a read at `readAt` (unless sooner), or recorded while it is being posted. */
  markCallback(invoiceId: string, remoteId: number, event: NewEvent, readAt: Date, now: Date): Promise<CallbackMark>;
  /** A status read of a processing invoice at `readAt` unless one is due sooner; true when one was scheduled. */
  scheduleRead(invoiceId: string, remoteId: number, readAt: Date): Promise<boolean>;
  /** PostgreSQL: NOTIFY on `channel` (workers in other processes LISTEN); SQLite: nothing (one host, polling). */
  notify(channel: string): Promise<void>;
  close(): Promise<void>;
}

/** The statements of HotStatements, in the order the benchmark reports them. */
export const HOT_STATEMENTS = [
  "recordDelivery",
  "setDeliveryResult",
  "shopTrigger",
  "insertInvoice",
  "claimRows",
  "claimWriteBacks",
  "nextDue",
  "jobRow",
  "refundsOf",
  "finishJob",
  "renewLeases",
  "releaseLeases",
  "updateLeased",
  "callbackTarget",
  "markCallback",
  "scheduleRead",
  "notify",
] as const satisfies ReadonlyArray<keyof HotStatements>;
export type HotStatementName = (typeof HOT_STATEMENTS)[number];
/** Which path runs a statement: Prisma's client, or the dialect's hand-written SQL (where it has any). */
export type Via = "prisma" | "sql";

/** The statements a dialect keeps as hand-written SQL (a class per database), and its close. */
export type DialectStatements = Partial<Omit<HotStatements, "close">> & Pick<HotStatements, "close">;
