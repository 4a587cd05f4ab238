// The pipeline's hot statements as prepared SQL through the database driver itself (better-sqlite3 or pg),
// not Prisma's query builder: the webhook's delivery record and row insert, the worker's claim, its
// writes around a post and at the end of a job, and a callback's mark. Prisma costs about 1 ms of CPU per
// statement here; a prepared statement costs a few microseconds (docs/decisions/0021-pipeline-performance.md).
// Everything else stays on Prisma. Values are written exactly as Prisma writes them (dates, JSON, booleans), so
// both read the same rows.
//
// SQLite: the statements run on Prisma's own connection (one per process), prepared once. Each call is synchronous,
// so nothing interleaves with it; it waits (asynchronously) while a Prisma transaction is open on the connection,
// so it never runs inside one.
import { randomBytes } from "node:crypto";
import type { Prisma } from "#prisma/sqlite";
import Database from "better-sqlite3";
import pg from "pg";
import { postgresConnectionString, postgresSchema, providerOf } from "./provider";
import { SQLITE_LOCK_WAIT_MS, sqliteConnectionOf, type Db } from "./client";
import { PrismaStatements } from "./hot-prisma.server";

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

const CALLBACK_TARGET = `SELECT i."id" AS "id", i."shopDomain" AS "shopDomain", s."teamId" AS "teamId", s."apiKeyEncrypted" AS "apiKeyEncrypted"
  FROM "Invoice" AS i LEFT JOIN "ShopSettings" AS s ON s."shopDomain" = i."shopDomain" WHERE i."id" = `;

const callbackTarget = (row: { id: string; shopDomain: string; teamId: unknown; apiKeyEncrypted: string | null } | undefined): CallbackTarget | null =>
  row ? { ...row, teamId: row.teamId === null ? null : Number(row.teamId) } : null;

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

type ClaimParam = "now" | "perShop" | "limit" | "priorities";

/** A due row whose lease is free (`i` names the row). */
const dueAndFree = (i: string, now: string) => `${i}."nextAttemptAt" <= ${now} AND (${i}."leaseUntil" IS NULL OR ${i}."leaseUntil" < ${now})`;

/**
 * The claim's choice, in rounds: every shop's next row before any shop's row after it, where a shop with k rows in
 * flight offers its first due row in round k + 1, and all live rows come before any past row. Within a round the
 * shops are taken in random order: over many claims each shop with due rows gets an equal part of the slots. (Oldest
 * shop first let the shops queued first take every slot while they had rows: a shop whose orders came after a large
 * shop's waited for all of them; bench/pipeline.bench.ts --only=fairness.)
 * `busy` counts every worker's live leases per shop from the partial index on leaseUntil, which holds only rows in
 * flight (SQLite's planner, without statistics, scanned the whole table in shop order for the GROUP BY instead: it is
 * told which index to use). `due` holds, for each shop with a free share and each priority,
 * only its first `perShop` due rows (oldest first), read from the index on (shopDomain, priority, nextAttemptAt, id):
 * a shop never gets more than `perShop` rows, so these are all the rows the ranking can keep, and the claim costs a
 * few index probes per shop however many rows are due (ranking every due row took 12–19 ms with 10,000 due;
 * bench/claim.bench.ts). `ranked` numbers them per shop (live first, then oldest) and per shop and priority (the
 * round); `picked` keeps each shop's free share. SQLite has no LATERAL: its `due` is a correlated IN with a LIMIT.
 * `p` names a parameter: now, perShop, limit, priorities (every priority a row can have, as a JSON array / int[]).
 */
/**
 * PostgreSQL picks this many times the free slots and locks the first free ones in the picked order: a worker claiming
 * while another locks the same rows (every NOTIFY wakes all workers at once) skips them and still fills its slots,
 * where picking only as many as the slots left it short until its next wake-up (decision 0030).
 */
const PG_CLAIM_SPARE = 4;

const claimChoice = (p: (name: ClaimParam) => string, provider: "sqlite" | "postgresql") => `busy AS (
    SELECT "shopDomain", COUNT(*) AS "n" FROM "Invoice"${provider === "sqlite" ? ` INDEXED BY "Invoice_leaseUntil_idx"` : ""} WHERE "leaseUntil" >= ${p("now")} GROUP BY "shopDomain"
  ), shops AS (
    SELECT s."domain" AS "shopDomain", COALESCE(b."n", 0) AS "busy" FROM "Shop" AS s LEFT JOIN busy AS b ON b."shopDomain" = s."domain"
    WHERE COALESCE(b."n", 0) < ${p("perShop")}
  ), due AS (${
    provider === "postgresql"
      ? `
    SELECT d."id", d."shopDomain", d."priority", d."nextAttemptAt", s."busy" FROM shops AS s CROSS JOIN unnest(${p("priorities")}) AS q("priority")
    CROSS JOIN LATERAL (
      SELECT i."id", i."shopDomain", i."priority", i."nextAttemptAt" FROM "Invoice" AS i
      WHERE i."shopDomain" = s."shopDomain" AND i."priority" = q."priority" AND ${dueAndFree("i", p("now"))}
      ORDER BY i."nextAttemptAt", i."id" LIMIT ${p("perShop")}
    ) AS d`
      : `
    SELECT i."id", i."shopDomain", i."priority", i."nextAttemptAt", s."busy" FROM shops AS s, json_each(${p("priorities")}) AS q, "Invoice" AS i
    WHERE i."id" IN (
      SELECT j."id" FROM "Invoice" AS j
      WHERE j."shopDomain" = s."shopDomain" AND j."priority" = q."value" AND ${dueAndFree("j", p("now"))}
      ORDER BY j."nextAttemptAt", j."id" LIMIT ${p("perShop")}
    )`
  }
  ), ranked AS (
    SELECT d."id", d."priority", d."busy", RANDOM() AS "draw",
      ROW_NUMBER() OVER (PARTITION BY d."shopDomain" ORDER BY d."priority", d."nextAttemptAt", d."id") AS "inShop",
      ROW_NUMBER() OVER (PARTITION BY d."shopDomain", d."priority" ORDER BY d."nextAttemptAt", d."id") AS "round"
    FROM due AS d
  ), picked AS (
    SELECT r."id", ROW_NUMBER() OVER (ORDER BY r."priority", r."round" + r."busy", r."draw") AS "ord" FROM ranked AS r
    WHERE r."inShop" <= ${p("perShop")} - r."busy"
    ORDER BY "ord"
    LIMIT ${provider === "postgresql" ? `${p("limit")} * ${PG_CLAIM_SPARE}` : p("limit")}
  )`;

/**
 * The claim's statements: the choice, and the lease of the chosen rows. SQLite runs it alone (writes are serialised),
 * so the rows it picks are still due when leased. PostgreSQL locks the chosen rows, skipping rows another worker is
 * claiming right now, and leases them in the same statement; under the lock it re-checks the due condition on the
 * row's newest version, so a row another worker leased or finished since this statement's snapshot is left out.
 * (`= ANY (ARRAY (…))` keeps the lock to the picked rows' primary keys: with `IN (…)` the generic plan of the
 * prepared statement hash-joined every due row to them.) Exported for bench/claim.bench.ts (its plans).
 */
const PG_CLAIM_PARAMS: Record<ClaimParam, string> = { now: "$1::timestamp(3)", perShop: "$2::int", limit: "$3::int", priorities: "$7::int[]" };
export const claimRowsSql = {
  sqlite: `WITH ${claimChoice((name) => `@${name}`, "sqlite")}
    UPDATE "Invoice" SET "leaseOwner" = @owner, "leaseUntil" = @until, "state" = CASE WHEN "remoteId" IS NULL THEN 'sending' ELSE "state" END, "updatedAt" = @updated
    WHERE "id" IN (SELECT "id" FROM picked)
    RETURNING "id", "shopDomain", "priority", "nextAttemptAt"`,
  postgresql: `WITH ${claimChoice((name) => PG_CLAIM_PARAMS[name], "postgresql")}, locked AS (
      SELECT i."id" FROM "Invoice" AS i
      WHERE i."id" = ANY (ARRAY (SELECT "id" FROM picked)) AND ${dueAndFree("i", "$1::timestamp(3)")}
      ORDER BY (SELECT k."ord" FROM picked AS k WHERE k."id" = i."id")
      LIMIT $3::int
      FOR UPDATE SKIP LOCKED
    )
    UPDATE "Invoice" AS u SET "leaseOwner" = $4, "leaseUntil" = $5::timestamp(3), "state" = CASE WHEN u."remoteId" IS NULL THEN 'sending' ELSE u."state" END, "updatedAt" = $6::timestamp(3)
    FROM locked WHERE u."id" = locked."id"
    RETURNING u."id", u."shopDomain", u."priority", u."nextAttemptAt"`,
};

/** Write-backs due now, oldest first; `p` names a parameter: now, limit. */
const writeBackChoice = (p: (name: "now" | "limit") => string) =>
  `SELECT "invoiceId" FROM "OrderWriteBack" WHERE "nextAttemptAt" <= ${p("now")} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${p("now")}) ORDER BY "nextAttemptAt" LIMIT ${p("limit")}`;

/** The next due moment of either queue (an invoice row's lease outlasting its due time counts from the lease's end). */
const NEXT_DUE = `SELECT
    (SELECT CASE WHEN "leaseUntil" > "nextAttemptAt" THEN "leaseUntil" ELSE "nextAttemptAt" END FROM "Invoice" WHERE "nextAttemptAt" IS NOT NULL ORDER BY "nextAttemptAt" LIMIT 1) AS "invoice",
    (SELECT MIN("nextAttemptAt") FROM "OrderWriteBack") AS "writeBack"`;

function earliest(row: { invoice: unknown; writeBack: unknown } | undefined): Date | null {
  const dates = [row?.invoice, row?.writeBack].filter((value) => value !== null && value !== undefined).map(toDate);
  return dates.length ? dates.reduce((a, b) => (a < b ? a : b)) : null;
}

/** Claimed rows in the order the worker starts them: live first, then oldest first. */
const claimOrder = (rows: Array<{ id: string; shopDomain: string; priority: unknown; nextAttemptAt: unknown }>): ClaimedRowRef[] =>
  rows
    .map((row) => ({ ...row, priority: Number(row.priority), at: new Date(row.nextAttemptAt as string | Date).getTime() }))
    .sort((a, b) => a.priority - b.priority || a.at - b.at || (a.id < b.id ? -1 : 1))
    .map(({ id, shopDomain }) => ({ id, shopDomain }));

/** A claimed row as the worker reads it (as Prisma's `include: { shop: { include: { settings: true } } }` gives it). */
export type RefundRow = Prisma.RefundGetPayload<object>;

export type JobInvoice = Prisma.InvoiceGetPayload<{ include: { shop: { include: { settings: true } } } }>;

export interface JobRow {
  row: JobInvoice;
  /** Whether the order has edits not yet read again (the worker reads the order again only then). */
  unreadEdits: boolean;
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

/** The columns of a write-back made due, as decided by the caller (app/writeback/scope.server.ts writeBackStart). */
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
  claimWriteBacks(owner: string, now: Date, leaseUntil: Date, limit: number): Promise<Array<{ invoiceId: string; shopDomain: string }>>;
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
  updateLeased(id: string, owner: string, values: InvoiceValues, options?: { incrementAttempts?: boolean }): Promise<boolean>;
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

// Columns the dynamic statements may name: never anything from outside the code.
const INVOICE_COLUMNS = new Set([
  "id", "shopDomain", "orderId", "orderName", "orderCreatedAt", "customerId", "customerName", "customerSearch", "orderTotal", "currency",
  "orderSnapshot", "state", "attempts", "nextAttemptAt", "leaseOwner", "leaseUntil", "remoteId", "workflowStatus",
  "formalStatus", "documentKind", "ettn", "serialNumber", "pdfUrl", "requestBody", "remoteTotals", "problems",
  "lastError", "syncAttempts", "cancelledInShop", "isTest", "saleChannelId", "invoiceIntegrationId", "postedInTestMode",
  "waybillId", "priority", "backfillId", "panelCancelConfirmedAt", "createdAt", "updatedAt", "refreshOrder", "buyerOverride", "closure",
]);
const JSON_COLUMNS = new Set(["orderSnapshot", "requestBody", "remoteTotals", "problems", "buyerOverride", "closure"]);

/** A collision-resistant id that sorts by creation time, like the cuid Prisma makes for `@default(cuid())`. */
let counter = 0;
// Random bytes drawn 6 KiB at a time: a call into the system's generator per id was 2.7 % of a delivery's CPU.
let entropy = Buffer.alloc(0);
let used = 0;
export function newId(): string {
  counter = (counter + 1) % 1_679_616;
  if (used + 6 > entropy.length) [entropy, used] = [randomBytes(6 * 1024), 0];
  used += 6;
  return `c${Date.now().toString(36).padStart(9, "0")}${counter.toString(36).padStart(4, "0")}${entropy.toString("hex", used - 6, used)}`;
}

function columnsOf(values: InvoiceValues): string[] {
  const columns = Object.keys(values).filter((column) => values[column] !== undefined);
  for (const column of columns) {
    if (!INVOICE_COLUMNS.has(column)) throw new Error(`hot statement: unknown Invoice column ${column}`);
    const value = values[column];
    if (!JSON_COLUMNS.has(column) && value !== null && typeof value === "object" && !(value instanceof Date)) {
      throw new Error(`hot statement: ${column} takes a plain value`);
    }
  }
  return columns;
}

const quote = (column: string) => `"${column}"`;

/** Prisma.DbNull clears a JSON column (SQL NULL); Prisma.JsonNull stores JSON's null. */
function jsonText(value: unknown): string | null {
  const name = (value as { _getName?: () => string } | null)?._getName?.();
  if (name === "DbNull") return null;
  if (name === "JsonNull") return "null";
  return JSON.stringify(value);
}

// ---------------------------------------------------------------- rows as Prisma reads them

type ScalarField = { name: string; type: string };
type RuntimeDataModel = { models: Record<string, { fields: Array<{ name: string; kind: string; type: string }> }> };
// Prisma 7's `prisma-client` generator has no Prisma.dmmf; a client carries the same models (both databases' clients
// are generated from one set), read from the first client given to createHotStatements.
let dataModel: RuntimeDataModel | null = null;
const scalarFields = (model: string): ScalarField[] =>
  dataModel!.models[model].fields.filter((f) => f.kind === "scalar").map((f) => ({ name: f.name, type: f.type }));

/** The job row's read: the invoice, its shop and its settings (columns named "shop.x" and "settings.x"), and two facts. */
const JOB_MODELS = [
  { alias: "i", model: "Invoice", prefix: "" },
  { alias: "h", model: "Shop", prefix: "shop." },
  { alias: "s", model: "ShopSettings", prefix: "settings." },
] as const;
let jobFields: Array<{ prefix: string; fields: ScalarField[] }> | null = null;
/** The text per placeholder style, built once: it names about 80 columns, and every job reads its row. */
const jobRowSqls = new Map<string, string>();
function jobRowSql(param: string): string {
  const cached = jobRowSqls.get(param);
  if (cached) return cached;
  jobFields ??= JOB_MODELS.map(({ model, prefix }) => ({ prefix, fields: scalarFields(model) }));
  const columns = JOB_MODELS.flatMap(({ alias }, k) => jobFields![k].fields.map((f) => `${alias}."${f.name}" AS "${jobFields![k].prefix}${f.name}"`));
  const sql = `SELECT ${columns.join(", ")},
      EXISTS (SELECT 1 FROM "OrderEdit" AS e WHERE e."shopDomain" = i."shopDomain" AND e."orderId" = i."orderId" AND e."readAt" IS NULL) AS "unreadEdits"
    FROM "Invoice" AS i JOIN "Shop" AS h ON h."domain" = i."shopDomain" LEFT JOIN "ShopSettings" AS s ON s."shopDomain" = i."shopDomain"
    WHERE i."id" = ${param}`;
  jobRowSqls.set(param, sql);
  return sql;
}

/** A stored date as a Date: Prisma's ISO text on SQLite (or SQLite's own "YYYY-MM-DD HH:MM:SS", UTC), a Date on PostgreSQL. */
function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "number") return new Date(value);
  const text = String(value);
  return new Date(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(text) ? `${text.replace(" ", "T")}Z` : text);
}

function decodeField(field: ScalarField, value: unknown, jsonIsText: boolean): unknown {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case "DateTime":
      return toDate(value);
    case "Json":
      return jsonIsText && typeof value === "string" ? JSON.parse(value) : value;
    case "Boolean":
      return typeof value === "boolean" ? value : Number(value) !== 0;
    case "Int":
      return Number(value);
    case "BigInt":
      return BigInt(value as string);
    default:
      return value;
  }
}

function decodeJobRow(raw: Record<string, unknown> | undefined, jsonIsText: boolean): JobRow | null {
  if (!raw) return null;
  const [invoice, shop, settings] = jobFields!.map(({ prefix, fields }) =>
    Object.fromEntries(fields.map((field) => [field.name, decodeField(field, raw[prefix + field.name], jsonIsText)])),
  );
  const row = { ...invoice, shop: { ...shop, settings: settings.shopDomain === null ? null : settings } } as unknown as JobInvoice;
  return { row, unreadEdits: decodeField({ name: "", type: "Boolean" }, raw.unreadEdits, false) as boolean };
}

let refundFields: ScalarField[] | null = null;
function refundsSql(shop: string, order: string): string {
  refundFields ??= scalarFields("Refund");
  return `SELECT ${refundFields.map((f) => `"${f.name}"`).join(", ")} FROM "Refund" WHERE "shopDomain" = ${shop} AND "orderId" = ${order} ORDER BY "refundedAt", "id"`;
}
const decodeRefund = (raw: Record<string, unknown>, jsonIsText: boolean) =>
  Object.fromEntries(refundFields!.map((field) => [field.name, decodeField(field, raw[field.name], jsonIsText)])) as unknown as RefundRow;

// ---------------------------------------------------------------- SQLite

/** Prisma's SQLite adapter writes dates as ISO 8601 text with "+00:00". */
const sqliteDate = (date: Date) => date.toISOString().replace("Z", "+00:00");

function sqliteValue(column: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (JSON_COLUMNS.has(column)) return jsonText(value);
  if (value instanceof Date) return sqliteDate(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

const sqliteCode = (error: unknown) => (error as { code?: string } | null)?.code ?? "";
const isBusy = (error: unknown) => sqliteCode(error).startsWith("SQLITE_BUSY") || sqliteCode(error).startsWith("SQLITE_LOCKED");

function sqliteHot(connection: () => Promise<Database.Database>): HotStatements {
  let db: Database.Database | null = null;
  let statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db!.prepare(sql)));
    return statement;
  };

  /** The connection, with the statements prepared on it; throws SQLITE_BUSY while a Prisma transaction is open on it. */
  async function ready(): Promise<Database.Database> {
    const current = await connection();
    if (current !== db) {
      // Prisma reconnected (after a disconnect): statements belong to the connection they were prepared on.
      db = current;
      statements = new Map();
      // WAL with synchronous=NORMAL: a commit is durable once the WAL is synced at a checkpoint, not at every
      // commit; a crash of the process loses nothing, a power loss can lose the last commits (0021).
      db.pragma("synchronous = NORMAL");
    }
    if (db.inTransaction) throw Object.assign(new Error("a Prisma transaction is open"), { code: "SQLITE_BUSY" });
    return db;
  }

  /** Retries `attempt` while another process writes (the connection itself waits 5 s for a lock first), 10 s at most. */
  async function retryingBusy<T>(attempt: () => Promise<T> | T): Promise<T> {
    const started = Date.now();
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!isBusy(error) || Date.now() - started > 10_000) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(25, 1 + tries)));
      }
    }
  }

  const read = <T>(work: () => T): Promise<T> => retryingBusy(async () => (await ready(), work()));

  // Group commit: the writes asked for while the event loop turns (the deliveries and jobs in flight) run as one
  // transaction, each in its own savepoint, and are answered once it is committed. A commit writes every page a
  // write touched to the WAL; consecutive inserts touch the same pages (the tables' and indexes' last leaves), so
  // one commit for many writes is most of the database's cost of a delivery saved (bench/results/pipeline.md Run 6).
  interface PendingWrite {
    work: () => unknown;
    several: boolean;
    settle: (outcome: { value: unknown } | { error: unknown }) => void;
  }
  let pending: PendingWrite[] = [];
  let flushing: Promise<void> | null = null;

  /** The batch as one IMMEDIATE transaction, each write in its own savepoint (or as its one statement). */
  const commitTogether = (connection: Database.Database, batch: PendingWrite[]) =>
    connection
      .transaction(() =>
        batch.map((write) => {
          try {
            return { value: write.several ? connection.transaction(write.work)() : write.work() };
          } catch (error) {
            // SQLite undid the whole transaction (a full disk, an I/O error): every write of the batch failed.
            if (!connection.inTransaction) throw error;
            return { error }; // this write's savepoint (or statement) is undone; the others stand
          }
        }),
      )
      .immediate();

  async function flush(): Promise<void> {
    const batch = pending;
    pending = [];
    try {
      const outcomes = await retryingBusy(async () => {
        const connection = await ready();
        // IMMEDIATE takes the write lock at BEGIN: a busy database fails there, before any write ran. It fails at
        // once: SQLite's own lock wait sleeps, which would stop this process's event loop (every request and job in
        // flight) while the other process commits; retryingBusy waits without blocking.
        connection.pragma("busy_timeout = 0");
        try {
          return commitTogether(connection, batch);
        } finally {
          connection.pragma(`busy_timeout = ${SQLITE_LOCK_WAIT_MS}`);
        }
      });
      batch.forEach((write, i) => write.settle(outcomes[i]));
    } catch (error) {
      for (const write of batch) write.settle({ error });
    }
  }

  /** Runs `work` (one statement, or several as one savepoint) in the next group commit; resolves once committed. */
  function write<T>(work: () => T, several = true): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      pending.push({ work, several, settle: (outcome) => ("error" in outcome ? reject(outcome.error) : resolve(outcome.value as T)) });
      // One batch at a time; the writes asked for meanwhile form the next one.
      flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async function drain(): Promise<void> {
        await flush();
        if (pending.length) return drain();
        flushing = null;
      });
    });
  }

  const insertEvents = (invoiceId: string, events: NewEvent[]) => {
    const insert = prepared(`INSERT INTO "InvoiceEvent" ("id", "invoiceId", "at", "type", "message", "data", "dedupeKey") VALUES (?, ?, ?, ?, ?, ?, ?)`);
    for (const event of events) {
      insert.run(newId(), invoiceId, sqliteDate(event.at), event.type, event.message ?? null, event.data === undefined || event.data === null ? null : JSON.stringify(event.data), event.dedupeKey ?? null);
    }
  };

  const update = (id: string, owner: string | null, values: InvoiceValues, increment = false) => {
    const columns = columnsOf(values);
    const sets = [...columns.map((column) => `${quote(column)} = ?`), `"updatedAt" = ?`, ...(increment ? [`"attempts" = "attempts" + 1`] : [])];
    const sql = `UPDATE "Invoice" SET ${sets.join(", ")} WHERE "id" = ?${owner === null ? "" : ` AND "leaseOwner" = ?`}`;
    const args = [...columns.map((column) => sqliteValue(column, values[column])), sqliteDate(new Date()), id, ...(owner === null ? [] : [owner])];
    return prepared(sql).run(...args).changes === 1;
  };

  return {
    async recordDelivery(key, webhookId) {
      const now = new Date();
      return write(
        () =>
          prepared(
            `INSERT INTO "WebhookDelivery" ("id", "shopDomain", "topic", "eventId", "webhookId", "result", "receivedAt") VALUES (?, ?, ?, ?, ?, 'processing', ?)
             ON CONFLICT ("shopDomain", "topic", "eventId") DO NOTHING`,
          ).run(newId(), key.shopDomain, key.topic, key.eventId, webhookId, sqliteDate(now)).changes === 1,
        false,
      );
    },
    async setDeliveryResult(key, result) {
      await write(() => prepared(`UPDATE "WebhookDelivery" SET "result" = ? WHERE "shopDomain" = ? AND "topic" = ? AND "eventId" = ?`).run(result, key.shopDomain, key.topic, key.eventId), false);
    },
    async shopTrigger(shop) {
      const row = await read(
        () =>
          prepared(`SELECT s."trigger" AS "trigger" FROM "Shop" AS h LEFT JOIN "ShopSettings" AS s ON s."shopDomain" = h."domain" WHERE h."domain" = ?`).get(shop) as
            | { trigger: string | null }
            | undefined,
      );
      return row ? { trigger: row.trigger } : null;
    },
    async insertInvoice(values, events) {
      const at = new Date();
      const row: InvoiceValues = { id: newId(), createdAt: at, updatedAt: at, ...values };
      const columns = columnsOf(row);
      const sql = `INSERT INTO "Invoice" (${columns.map(quote).join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ON CONFLICT ("shopDomain", "orderId") DO NOTHING`;
      try {
        return await write(() => {
          if (prepared(sql).run(...columns.map((column) => sqliteValue(column, row[column]))).changes !== 1) return "duplicate" as const;
          insertEvents(row.id as string, events);
          return "created" as const;
        });
      } catch (error) {
        if (sqliteCode(error) === "SQLITE_CONSTRAINT_FOREIGNKEY") return "unknown_shop";
        throw error;
      }
    },
    async claimRows({ owner, now, leaseUntil, limit, perShopLimit, priorities }) {
      if (limit <= 0) return [];
      const rows = await write(
        () =>
          prepared(claimRowsSql.sqlite).all({
            now: sqliteDate(now), perShop: perShopLimit, limit, priorities: JSON.stringify(priorities), owner, until: sqliteDate(leaseUntil), updated: sqliteDate(new Date()),
          }) as Parameters<typeof claimOrder>[0],
        false,
      );
      return claimOrder(rows);
    },
    async claimWriteBacks(owner, now, leaseUntil, limit) {
      if (limit <= 0) return [];
      return write(
        () =>
          prepared(
            `UPDATE "OrderWriteBack" SET "leaseOwner" = @owner, "leaseUntil" = @until, "updatedAt" = @updated
             WHERE "invoiceId" IN (${writeBackChoice((name) => `@${name}`)})
             RETURNING "invoiceId", "shopDomain"`,
          ).all({ owner, until: sqliteDate(leaseUntil), updated: sqliteDate(new Date()), now: sqliteDate(now), limit }) as Array<{ invoiceId: string; shopDomain: string }>,
        false,
      );
    },
    async renewLeases(owner, ids, until) {
      if (ids.length === 0) return [];
      const rows = await write(
        () =>
          prepared(`UPDATE "Invoice" SET "leaseUntil" = ? WHERE "id" IN (SELECT "value" FROM json_each(?)) AND "leaseOwner" = ? RETURNING "id"`).all(
            sqliteDate(until), JSON.stringify(ids), owner,
          ) as Array<{ id: string }>,
        false,
      );
      return rows.map((row) => row.id);
    },
    async releaseLeases(owner, ids) {
      if (ids.length === 0) return 0;
      return write(
        () =>
          prepared(`UPDATE "Invoice" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "updatedAt" = ? WHERE "id" IN (SELECT "value" FROM json_each(?)) AND "leaseOwner" = ?`).run(
            sqliteDate(new Date()), JSON.stringify(ids), owner,
          ).changes,
        false,
      );
    },
    async nextDue() {
      return earliest(await read(() => prepared(NEXT_DUE).get() as { invoice: unknown; writeBack: unknown } | undefined));
    },
    async jobRow(id) {
      return decodeJobRow(await read(() => prepared(jobRowSql("?")).get(id) as Record<string, unknown> | undefined), true);
    },
    async refundsOf(shop, orderId) {
      const rows = await read(() => prepared(refundsSql("?", "?")).all(shop, orderId) as Record<string, unknown>[]);
      return rows.map((row) => decodeRefund(row, true));
    },
    async finishJob(job) {
      return write(() => {
        if (!update(job.id, job.owner, { ...job.values, leaseOwner: null, leaseUntil: null })) return { stored: false, rereadNow: false };
        const now = sqliteDate(new Date());
        for (const refunds of job.refunds) {
          if (refunds.ids.length === 0) continue;
          prepared(`UPDATE "Refund" SET "handling" = ?, "handledAt" = ? WHERE "shopDomain" = ? AND "refundId" IN (SELECT "value" FROM json_each(?)) AND "handling" IS NULL`).run(
            refunds.handling,
            now,
            job.shopDomain,
            JSON.stringify(refunds.ids),
          );
        }
        insertEvents(job.id, job.events);
        if (job.writeBack) {
          const session = prepared(`SELECT "scope" FROM "Session" WHERE "shop" = ? AND "isOnline" = 0 LIMIT 1`).get(job.shopDomain) as { scope: string | null } | undefined;
          const start = job.writeBack(session?.scope ?? null);
          prepared(
            `INSERT INTO "OrderWriteBack" ("invoiceId", "shopDomain", "status", "attempts", "nextAttemptAt", "lastError", "updatedAt") VALUES (?, ?, ?, 0, ?, ?, ?)
             ON CONFLICT ("invoiceId") DO UPDATE SET "status" = excluded."status", "attempts" = 0, "nextAttemptAt" = excluded."nextAttemptAt", "lastError" = excluded."lastError", "updatedAt" = excluded."updatedAt", "version" = "OrderWriteBack"."version" + 1`,
          ).run(job.id, job.shopDomain, start.status, start.nextAttemptAt && sqliteDate(start.nextAttemptAt), start.lastError, now);
        }
        if (job.teamId !== null) {
          prepared(`UPDATE "ShopSettings" SET "teamId" = ?, "updatedAt" = ? WHERE "shopDomain" = ? AND "teamId" IS NULL`).run(job.teamId, now, job.shopDomain);
        }
        let rereadNow = false;
        if (job.callbacksSince) {
          rereadNow =
            prepared(
              `UPDATE "Invoice" SET "nextAttemptAt" = ?, "updatedAt" = ? WHERE "id" = ?
               AND EXISTS (SELECT 1 FROM "InvoiceEvent" WHERE "invoiceId" = ? AND "type" = 'callback' AND "at" >= ?)`,
            ).run(now, now, job.id, job.id, sqliteDate(job.callbacksSince)).changes === 1;
        }
        return { stored: true, rereadNow };
      });
    },
    async updateLeased(id, owner, values, options) {
      return write(() => update(id, owner, values, options?.incrementAttempts), false);
    },
    async callbackTarget(invoiceId) {
      return callbackTarget(await read(() => prepared(`${CALLBACK_TARGET}?`).get(invoiceId) as Parameters<typeof callbackTarget>[0]));
    },
    async markCallback(invoiceId, remoteId, event, readAt, now) {
      try {
        return await write(() => {
          const at = sqliteDate(now);
          const due = prepared(
            `UPDATE "Invoice" SET "updatedAt" = ?, "nextAttemptAt" = CASE WHEN "nextAttemptAt" IS NULL OR "nextAttemptAt" > ? THEN ? ELSE "nextAttemptAt" END
             WHERE "id" = ? AND "remoteId" = ?`,
          ).run(at, sqliteDate(readAt), sqliteDate(readAt), invoiceId, remoteId);
          const early =
            due.changes === 1 ? null : prepared(`UPDATE "Invoice" SET "updatedAt" = ? WHERE "id" = ? AND "remoteId" IS NULL AND "leaseUntil" > ?`).run(at, invoiceId, at);
          if (due.changes !== 1 && early!.changes !== 1) return "not_found" as const;
          insertEvents(invoiceId, [event]);
          return due.changes === 1 ? ("marked" as const) : ("early" as const);
        });
      } catch (error) {
        if (sqliteCode(error) === "SQLITE_CONSTRAINT_UNIQUE") return "duplicate";
        throw error;
      }
    },
    async scheduleRead(invoiceId, remoteId, readAt) {
      const at = sqliteDate(readAt);
      return write(
        () =>
          prepared(
            `UPDATE "Invoice" SET "nextAttemptAt" = ?, "updatedAt" = ? WHERE "id" = ? AND "remoteId" = ? AND "state" = 'processing' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" > ?)`,
          ).run(at, sqliteDate(new Date()), invoiceId, remoteId, at).changes === 1,
        false,
      );
    },
    async notify() {
      // Across processes on SQLite the workers poll.
    },
    async close() {
      // The connection is Prisma's: it closes it.
    },
  };
}

// ---------------------------------------------------------------- PostgreSQL

/** Prisma keeps DateTime in `timestamp(3)` columns as UTC: the same text, without a zone the session could shift. */
const pgDate = (date: Date) => date.toISOString().replace("Z", "");

function pgValue(column: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (JSON_COLUMNS.has(column)) return jsonText(value);
  if (value instanceof Date) return pgDate(value);
  return value;
}

/**
 * `timestamp(3)` columns hold UTC without a zone; pg would read them in the process's zone. Read as UTC instead
 * (only where rows are handed to the app as Prisma would: the job row).
 */
const UTC_TIMESTAMPS = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 1114 ? (text: string) => new Date(`${text.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

const pgCode = (error: unknown) => (error as { code?: string } | null)?.code ?? "";

function postgresHot(databaseUrl: string): HotStatements {
  const schema = postgresSchema(databaseUrl);
  const pool = new pg.Pool({
    connectionString: postgresConnectionString(databaseUrl),
    max: 5,
    options: `-c search_path="${schema}" -c TimeZone=UTC`,
    application_name: `e-fatura:${schema}`.slice(0, 63),
  });
  pool.on("error", () => undefined); // an idle connection that dies is replaced on the next query

  async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  const eventRows = (events: NewEvent[]) =>
    JSON.stringify(events.map((event) => ({ id: newId(), at: pgDate(event.at), type: event.type, message: event.message ?? null, data: event.data ?? null, dedupeKey: event.dedupeKey ?? null })));
  const insertEventsSql = (invoiceId: string, rows: string) => `INSERT INTO "InvoiceEvent" ("id", "invoiceId", "at", "type", "message", "data", "dedupeKey")
    SELECT e."id", ${invoiceId}, e."at", e."type", e."message", e."data", e."dedupeKey"
    FROM jsonb_to_recordset(${rows}::jsonb) AS e("id" text, "at" timestamp(3), "type" text, "message" text, "data" jsonb, "dedupeKey" text)`;
  const insertEvents = async (client: pg.ClientBase, invoiceId: string, events: NewEvent[]) => {
    if (events.length === 0) return;
    await client.query({ name: "hot-insert-events", text: insertEventsSql("$1", "$2"), values: [invoiceId, eventRows(events)] });
  };

  const cast = (column: string) => (JSON_COLUMNS.has(column) ? "::jsonb" : "");

  const update = async (client: pg.ClientBase, id: string, owner: string | null, values: InvoiceValues, increment = false) => {
    const columns = columnsOf(values);
    const args: unknown[] = columns.map((column) => pgValue(column, values[column]));
    const sets = [...columns.map((column, i) => `${quote(column)} = $${i + 1}${cast(column)}`), `"updatedAt" = $${args.push(pgDate(new Date()))}`];
    if (increment) sets.push(`"attempts" = "attempts" + 1`);
    let sql = `UPDATE "Invoice" SET ${sets.join(", ")} WHERE "id" = $${args.push(id)}`;
    if (owner !== null) sql += ` AND "leaseOwner" = $${args.push(owner)}`;
    return (await client.query(sql, args)).rowCount === 1;
  };

  return {
    async recordDelivery(key, webhookId) {
      const now = new Date();
      const result = await pool.query({
        name: "hot-record-delivery",
        text: `INSERT INTO "WebhookDelivery" ("id", "shopDomain", "topic", "eventId", "webhookId", "result", "receivedAt") VALUES ($1, $2, $3, $4, $5, 'processing', $6)
               ON CONFLICT ("shopDomain", "topic", "eventId") DO NOTHING`,
        values: [newId(), key.shopDomain, key.topic, key.eventId, webhookId, pgDate(now)],
      });
      return result.rowCount === 1;
    },
    async setDeliveryResult(key, result) {
      await pool.query({
        name: "hot-delivery-result",
        text: `UPDATE "WebhookDelivery" SET "result" = $1 WHERE "shopDomain" = $2 AND "topic" = $3 AND "eventId" = $4`,
        values: [result, key.shopDomain, key.topic, key.eventId],
      });
    },
    async shopTrigger(shop) {
      const { rows } = await pool.query<{ trigger: string | null }>({
        name: "hot-shop-trigger",
        text: `SELECT s."trigger" AS "trigger" FROM "Shop" AS h LEFT JOIN "ShopSettings" AS s ON s."shopDomain" = h."domain" WHERE h."domain" = $1`,
        values: [shop],
      });
      return rows.length ? { trigger: rows[0].trigger } : null;
    },
    async insertInvoice(values, events) {
      const at = new Date();
      const row: InvoiceValues = { id: newId(), createdAt: at, updatedAt: at, ...values };
      const columns = columnsOf(row);
      const sql = `INSERT INTO "Invoice" (${columns.map(quote).join(", ")}) VALUES (${columns.map((column, i) => `$${i + 1}${cast(column)}`).join(", ")})
                   ON CONFLICT ("shopDomain", "orderId") DO NOTHING`;
      try {
        return await transaction(async (client) => {
          if ((await client.query(sql, columns.map((column) => pgValue(column, row[column])))).rowCount !== 1) return "duplicate" as const;
          await insertEvents(client, row.id as string, events);
          return "created" as const;
        });
      } catch (error) {
        if (pgCode(error) === "23503") return "unknown_shop";
        throw error;
      }
    },
    async claimRows({ owner, now, leaseUntil, limit, perShopLimit, priorities }) {
      if (limit <= 0) return [];
      const { rows } = await pool.query({
        name: "hot-claim-rows",
        text: claimRowsSql.postgresql,
        values: [pgDate(now), perShopLimit, limit, owner, pgDate(leaseUntil), pgDate(new Date()), priorities],
      });
      return claimOrder(rows);
    },
    async claimWriteBacks(owner, now, leaseUntil, limit) {
      if (limit <= 0) return [];
      const { rows } = await pool.query<{ invoiceId: string; shopDomain: string }>({
        name: "hot-claim-write-backs",
        text: `WITH picked AS (${writeBackChoice((name) => (name === "now" ? "$1::timestamp(3)" : "$2::int"))} FOR UPDATE SKIP LOCKED)
               UPDATE "OrderWriteBack" AS w SET "leaseOwner" = $3, "leaseUntil" = $4::timestamp(3), "updatedAt" = $5::timestamp(3)
               FROM picked WHERE w."invoiceId" = picked."invoiceId"
               RETURNING w."invoiceId", w."shopDomain"`,
        values: [pgDate(now), limit, owner, pgDate(leaseUntil), pgDate(new Date())],
      });
      return rows;
    },
    async renewLeases(owner, ids, until) {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<{ id: string }>({
        name: "hot-renew-leases",
        text: `UPDATE "Invoice" SET "leaseUntil" = $1::timestamp(3) WHERE "id" = ANY ($2::text[]) AND "leaseOwner" = $3 RETURNING "id"`,
        values: [pgDate(until), ids, owner],
      });
      return rows.map((row) => row.id);
    },
    async releaseLeases(owner, ids) {
      if (ids.length === 0) return 0;
      const result = await pool.query({
        name: "hot-release-leases",
        text: `UPDATE "Invoice" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "updatedAt" = $1::timestamp(3) WHERE "id" = ANY ($2::text[]) AND "leaseOwner" = $3`,
        values: [pgDate(new Date()), ids, owner],
      });
      return result.rowCount ?? 0;
    },
    async nextDue() {
      const { rows } = await pool.query({ name: "hot-next-due", text: NEXT_DUE, types: UTC_TIMESTAMPS });
      return earliest(rows[0]);
    },
    async jobRow(id) {
      const { rows } = await pool.query({ name: "hot-job-row", text: jobRowSql("$1"), values: [id], types: UTC_TIMESTAMPS });
      return decodeJobRow(rows[0], false);
    },
    async refundsOf(shop, orderId) {
      const { rows } = await pool.query({ name: "hot-refunds-of", text: refundsSql("$1", "$2"), values: [shop, orderId], types: UTC_TIMESTAMPS });
      return rows.map((row) => decodeRefund(row, false));
    },
    async finishJob(job) {
      // One statement, one round trip (was BEGIN, the row, the events, the scope read and the write-back, COMMIT): the
      // row's update while the lease holds, and everything else only when it updated the row (`stored`). A single
      // statement is atomic on its own. The update takes the row's lock: a callback marking the row waits for it,
      // then finds the remote id stored.
      const now = pgDate(new Date());
      const values: InvoiceValues = { ...job.values, leaseOwner: null, leaseUntil: null, updatedAt: new Date() };
      const columns = columnsOf(values);
      const args: unknown[] = columns.map((column) => pgValue(column, values[column]));
      const arg = (value: unknown) => `$${args.push(value)}`;
      const sets = columns.map((column, i) => `${quote(column)} = $${i + 1}${cast(column)}`);
      // Parameters are numbered on first use: PostgreSQL refuses one the text never names.
      const lazy = (value: unknown, suffix = "") => {
        let name: string | undefined;
        return () => (name ??= `${arg(value)}${suffix}`);
      };
      const id = arg(job.id);
      const [shop, at] = [lazy(job.shopDomain), lazy(now, "::timestamp(3)")];
      const steps = [`stored AS (UPDATE "Invoice" SET ${sets.join(", ")} WHERE "id" = ${id} AND "leaseOwner" = ${arg(job.owner)} RETURNING "nextAttemptAt")`];
      if (job.events.length) steps.push(`events AS (${insertEventsSql(id, arg(eventRows(job.events)))} WHERE EXISTS (SELECT 1 FROM stored))`);
      // Each refund once, with the first handling named for it (as one update per handling did).
      const refunds = [...new Map(job.refunds.flatMap(({ ids, handling }) => ids.map((refundId) => [refundId, handling] as const)).reverse()).entries()];
      if (refunds.length) {
        steps.push(`refunds AS (UPDATE "Refund" AS r SET "handling" = x."handling", "handledAt" = ${at()}
          FROM jsonb_to_recordset(${arg(JSON.stringify(refunds.map(([refundId, handling]) => ({ refundId, handling }))))}::jsonb) AS x("refundId" text, "handling" text)
          WHERE r."shopDomain" = ${shop()} AND r."refundId" = x."refundId" AND r."handling" IS NULL AND EXISTS (SELECT 1 FROM stored))`);
      }
      if (job.writeBack) {
        // The caller's rule decides the write-back's start from the offline session's scopes, read just before.
        const { rows: sessions } = await pool.query<{ scope: string | null }>({
          name: "hot-offline-scope",
          text: `SELECT "scope" FROM "Session" WHERE "shop" = $1 AND "isOnline" = false LIMIT 1`,
          values: [job.shopDomain],
        });
        const start = job.writeBack(sessions[0]?.scope ?? null);
        steps.push(`write_back AS (
            INSERT INTO "OrderWriteBack" ("invoiceId", "shopDomain", "status", "attempts", "nextAttemptAt", "lastError", "updatedAt")
            SELECT ${id}, ${shop()}, ${arg(start.status)}, 0, ${arg(start.nextAttemptAt && pgDate(start.nextAttemptAt))}::timestamp(3), ${arg(start.lastError)}::text, ${at()}
            WHERE EXISTS (SELECT 1 FROM stored)
            ON CONFLICT ("invoiceId") DO UPDATE SET "status" = excluded."status", "attempts" = 0, "nextAttemptAt" = excluded."nextAttemptAt", "lastError" = excluded."lastError", "updatedAt" = excluded."updatedAt", "version" = "OrderWriteBack"."version" + 1
          )`);
      }
      if (job.teamId !== null) {
        steps.push(`team AS (UPDATE "ShopSettings" SET "teamId" = ${arg(job.teamId)}, "updatedAt" = ${at()} WHERE "shopDomain" = ${shop()} AND "teamId" IS NULL AND EXISTS (SELECT 1 FROM stored))`);
      }
      const { rows } = await pool.query<{ nextAttemptAt: string | null }>({
        text: `WITH ${steps.join(", ")} SELECT to_char("nextAttemptAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS "nextAttemptAt" FROM stored`,
        values: args,
      });
      if (rows.length === 0) return { stored: false, rereadNow: false };
      if (!job.callbacksSince) return { stored: true, rereadNow: false };
      // A callback recorded during the job asks for a read now. A second statement, after the first committed: one
      // statement reads in its own snapshot, which misses a callback that committed while the update waited for its
      // lock. It only brings forward the read the job scheduled (the row unchanged since, and not leased again).
      const { rowCount } = await pool.query({
        name: "hot-read-now-after-callback",
        text: `UPDATE "Invoice" SET "nextAttemptAt" = $1::timestamp(3), "updatedAt" = $1::timestamp(3)
               WHERE "id" = $2 AND "leaseOwner" IS NULL AND "nextAttemptAt" = $3::timestamp(3)
               AND EXISTS (SELECT 1 FROM "InvoiceEvent" WHERE "invoiceId" = $2 AND "type" = 'callback' AND "at" >= $4::timestamp(3))`,
        values: [pgDate(new Date()), job.id, rows[0].nextAttemptAt, pgDate(job.callbacksSince)],
      });
      return { stored: true, rereadNow: rowCount === 1 };
    },
    async updateLeased(id, owner, values, options) {
      return update(pool as unknown as pg.ClientBase, id, owner, values, options?.incrementAttempts);
    },
    async callbackTarget(invoiceId) {
      const { rows } = await pool.query({ name: "hot-callback-target", text: `${CALLBACK_TARGET}$1`, values: [invoiceId] });
      return callbackTarget(rows[0]);
    },
    async markCallback(invoiceId, remoteId, event, readAt, now) {
      const markDue = (client: pg.ClientBase) =>
        client.query({
          name: "hot-callback-due",
          text: `UPDATE "Invoice" SET "updatedAt" = $1, "nextAttemptAt" = CASE WHEN "nextAttemptAt" IS NULL OR "nextAttemptAt" > $2::timestamp(3) THEN $2::timestamp(3) ELSE "nextAttemptAt" END
                 WHERE "id" = $3 AND "remoteId" = $4`,
          values: [pgDate(now), pgDate(readAt), invoiceId, remoteId],
        });
      try {
        return await transaction(async (client) => {
          if ((await markDue(client)).rowCount === 1) {
            await insertEvents(client, invoiceId, [event]);
            return "marked" as const;
          }
          const early = await client.query({
            name: "hot-callback-early",
            text: `UPDATE "Invoice" SET "updatedAt" = $1::timestamp(3) WHERE "id" = $2 AND "remoteId" IS NULL AND "leaseUntil" > $1::timestamp(3)`,
            values: [pgDate(now), invoiceId],
          });
          if (early.rowCount === 1) {
            await insertEvents(client, invoiceId, [event]);
            return "early" as const;
          }
          // The worker may have stored the remote id between the two updates.
          if ((await markDue(client)).rowCount === 1) {
            await insertEvents(client, invoiceId, [event]);
            return "marked" as const;
          }
          return "not_found" as const;
        });
      } catch (error) {
        if (pgCode(error) === "23505") return "duplicate";
        throw error;
      }
    },
    async scheduleRead(invoiceId, remoteId, readAt) {
      const result = await pool.query({
        name: "hot-schedule-read",
        text: `UPDATE "Invoice" SET "nextAttemptAt" = $1::timestamp(3), "updatedAt" = $2::timestamp(3)
               WHERE "id" = $3 AND "remoteId" = $4 AND "state" = 'processing' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" > $1::timestamp(3))`,
        values: [pgDate(readAt), pgDate(new Date()), invoiceId, remoteId],
      });
      return result.rowCount === 1;
    },
    async notify(channel) {
      await pool.query({ name: "hot-notify", text: `SELECT pg_notify($1, '')`, values: [channel] });
    },
    async close() {
      await pool.end();
    },
  };
}

/** The statements of HotStatements, in the order the benchmark reports them. */
export const HOT_STATEMENTS = [
  "recordDelivery", "setDeliveryResult", "shopTrigger", "insertInvoice", "claimRows", "claimWriteBacks", "nextDue", "jobRow", "refundsOf",
  "finishJob", "renewLeases", "releaseLeases", "updateLeased", "callbackTarget", "markCallback", "scheduleRead", "notify",
] as const satisfies ReadonlyArray<keyof HotStatements>;
export type HotStatementName = (typeof HOT_STATEMENTS)[number];
/** Which path runs a statement: Prisma's client, or the dialect's hand-written SQL. */
export type Via = "prisma" | "sql";

/**
 * The hot statements for `db`'s database: each through the dialect's SQL or through Prisma, as `via` says (the
 * benchmark's A/B switch; by default the hand-written SQL). HOT_STATEMENTS_VIA=prisma (a benchmark's switch, for the
 * pipeline's processes) takes every statement that has a Prisma form through Prisma.
 */
export function createHotStatements(databaseUrl: string, db: Db, via?: (name: HotStatementName) => Via): HotStatements {
  dataModel ??= (db as unknown as { _runtimeDataModel: RuntimeDataModel })._runtimeDataModel;
  const sql = providerOf(databaseUrl) === "sqlite" ? sqliteHot(() => sqliteConnectionOf(db)) : postgresHot(databaseUrl);
  const orm = new PrismaStatements(db, databaseUrl);
  const choose = via ?? (process.env.HOT_STATEMENTS_VIA === "prisma" ? (name: HotStatementName) => (name === "claimRows" || name === "notify" ? "sql" : "prisma") : () => "sql" as const);
  const statements = { close: () => sql.close() } as HotStatements;
  for (const name of HOT_STATEMENTS) {
    const path = choose(name) === "sql" ? sql : orm;
    (statements as unknown as Record<string, unknown>)[name] = (path[name] as (...args: unknown[]) => unknown).bind(path);
  }
  return statements;
}
