// What the dialect classes of the hot statements share (hot-sqlite.server.ts, hot-postgres.server.ts): the SQL text
// that differs between them only in its placeholders, the columns a dynamic statement may name and how a raw row is
// read back as Prisma reads it, all built from the schema's metadata (./schema.ts), and the ids the rows get.
import { randomBytes } from "node:crypto";
import type { CallbackTarget, ClaimedRowRef, InvoiceValues, JobInvoice, JobRow, RefundRow } from "./hot-statements";
import { columnsOf, scalarFields, type ScalarField } from "./schema";
import { targetOf } from "../invoice-state/transitions";

export const CALLBACK_TARGET = `SELECT i."id" AS "id", i."shopDomain" AS "shopDomain", s."teamId" AS "teamId", s."apiKeyEncrypted" AS "apiKeyEncrypted"
  FROM "Invoice" AS i LEFT JOIN "ShopSettings" AS s ON s."shopDomain" = i."shopDomain" WHERE i."id" = `;

export const decodeCallbackTarget = (
  row: { id: string; shopDomain: string; teamId: unknown; apiKeyEncrypted: string | null } | undefined,
): CallbackTarget | null => (row ? { ...row, teamId: row.teamId === null ? null : Number(row.teamId) } : null);

type ClaimParam = "now" | "perShop" | "limit" | "priorities";

/** A due row whose lease is free (`i` names the row). */
const dueAndFree = (i: string, now: string) =>
  `${i}."nextAttemptAt" <= ${now} AND (${i}."leaseUntil" IS NULL OR ${i}."leaseUntil" < ${now})`;

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
export const PG_CLAIM_SPARE = 4;

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
const PG_CLAIM_PARAMS: Record<ClaimParam, string> = {
  now: "$1::timestamp(3)",
  perShop: "$2::int",
  limit: "$3::int",
  priorities: "$7::int[]",
};
// The claim event's target, from the state machine (a constant of the code, never a value from outside).
const CLAIMED = `'${targetOf("claim")}'`;
export const claimRowsSql = {
  sqlite: `WITH ${claimChoice((name) => `@${name}`, "sqlite")}
    UPDATE "Invoice" SET "leaseOwner" = @owner, "leaseUntil" = @until, "state" = CASE WHEN "remoteId" IS NULL THEN ${CLAIMED} ELSE "state" END, "updatedAt" = @updated
    WHERE "id" IN (SELECT "id" FROM picked)
    RETURNING "id", "shopDomain", "priority", "nextAttemptAt"`,
  postgresql: `WITH ${claimChoice((name) => PG_CLAIM_PARAMS[name], "postgresql")}, locked AS (
      SELECT i."id" FROM "Invoice" AS i
      WHERE i."id" = ANY (ARRAY (SELECT "id" FROM picked)) AND ${dueAndFree("i", "$1::timestamp(3)")}
      ORDER BY (SELECT k."ord" FROM picked AS k WHERE k."id" = i."id")
      LIMIT $3::int
      FOR UPDATE SKIP LOCKED
    )
    UPDATE "Invoice" AS u SET "leaseOwner" = $4, "leaseUntil" = $5::timestamp(3), "state" = CASE WHEN u."remoteId" IS NULL THEN ${CLAIMED} ELSE u."state" END, "updatedAt" = $6::timestamp(3)
    FROM locked WHERE u."id" = locked."id"
    RETURNING u."id", u."shopDomain", u."priority", u."nextAttemptAt"`,
};

/** Claimed rows in the order the worker starts them: live first, then oldest first. */
export const claimOrder = (
  rows: Array<{ id: string; shopDomain: string; priority: unknown; nextAttemptAt: unknown }>,
): ClaimedRowRef[] =>
  rows
    .map((row) => ({
      ...row,
      priority: Number(row.priority),
      at: new Date(row.nextAttemptAt as string | Date).getTime(),
    }))
    .sort((a, b) => a.priority - b.priority || a.at - b.at || (a.id < b.id ? -1 : 1))
    .map(({ id, shopDomain }) => ({ id, shopDomain }));

// Columns the dynamic statements may name (the schema's, never anything from outside the code), and the JSON ones.
const { all: INVOICE_COLUMNS, json: JSON_COLUMNS } = columnsOf("Invoice");
export { JSON_COLUMNS };

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

export function invoiceColumns(values: InvoiceValues): string[] {
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

export const quote = (column: string) => `"${column}"`;

/** Prisma.DbNull clears a JSON column (SQL NULL); Prisma.JsonNull stores JSON's null. */
export function jsonText(value: unknown): string | null {
  const name = (value as { _getName?: () => string } | null)?._getName?.();
  if (name === "DbNull") return null;
  if (name === "JsonNull") return "null";
  return JSON.stringify(value);
}

// ---------------------------------------------------------------- rows as Prisma reads them

/**
 * The job row's read: the invoice, its shop and its settings (columns named "shop.x" and "settings.x"), and two facts:
 * whether the order has unread edits, and the scopes recorded on the shop's offline session (what a B2B order's
 * company read goes by; read here rather than by a statement of its own per posted order).
 */
const JOB_MODELS = [
  { alias: "i", model: "Invoice", prefix: "" },
  { alias: "h", model: "Shop", prefix: "shop." },
  { alias: "s", model: "ShopSettings", prefix: "settings." },
] as const;
const jobFields: Array<{ prefix: string; fields: ScalarField[] }> = JOB_MODELS.map(({ model, prefix }) => ({
  prefix,
  fields: scalarFields(model),
}));
/** The text per placeholder style, built once: it names about 80 columns, and every job reads its row. */
const jobRowSqls = new Map<string, string>();
export function jobRowSql(param: string): string {
  const cached = jobRowSqls.get(param);
  if (cached) return cached;
  const columns = JOB_MODELS.flatMap(({ alias }, k) =>
    jobFields[k].fields.map((f) => `${alias}."${f.name}" AS "${jobFields[k].prefix}${f.name}"`),
  );
  const sql = `SELECT ${columns.join(", ")},
      EXISTS (SELECT 1 FROM "OrderEdit" AS e WHERE e."shopDomain" = i."shopDomain" AND e."orderId" = i."orderId" AND e."readAt" IS NULL) AS "unreadEdits",
      (SELECT o."scope" FROM "Session" AS o WHERE o."shop" = i."shopDomain" AND o."isOnline" = false LIMIT 1) AS "offlineScope"
    FROM "Invoice" AS i JOIN "Shop" AS h ON h."domain" = i."shopDomain" LEFT JOIN "ShopSettings" AS s ON s."shopDomain" = i."shopDomain"
    WHERE i."id" = ${param}`;
  jobRowSqls.set(param, sql);
  return sql;
}

/** A stored date as a Date: Prisma's ISO text on SQLite (or SQLite's own "YYYY-MM-DD HH:MM:SS", UTC), a Date on PostgreSQL. */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "number") return new Date(value);
  const text = String(value);
  return new Date(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(text) ? `${text.replace(" ", "T")}Z` : text);
}

export function decodeField(field: ScalarField, value: unknown, jsonIsText: boolean): unknown {
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

export function decodeJobRow(raw: Record<string, unknown> | undefined, jsonIsText: boolean): JobRow | null {
  if (!raw) return null;
  const [invoice, shop, settings] = jobFields.map(({ prefix, fields }) =>
    Object.fromEntries(fields.map((field) => [field.name, decodeField(field, raw[prefix + field.name], jsonIsText)])),
  );
  const row = {
    ...invoice,
    shop: { ...shop, settings: settings.shopDomain === null ? null : settings },
  } as unknown as JobInvoice;
  return {
    row,
    unreadEdits: decodeField({ name: "", type: "Boolean" }, raw.unreadEdits, false) as boolean,
    offlineScope: typeof raw.offlineScope === "string" ? raw.offlineScope : null,
  };
}

const refundFields: ScalarField[] = scalarFields("Refund");
export function refundsSql(shop: string, order: string): string {
  return `SELECT ${refundFields.map((f) => `"${f.name}"`).join(", ")} FROM "Refund" WHERE "shopDomain" = ${shop} AND "orderId" = ${order} ORDER BY "refundedAt", "id"`;
}
export const decodeRefund = (raw: Record<string, unknown>, jsonIsText: boolean) =>
  Object.fromEntries(
    refundFields.map((field) => [field.name, decodeField(field, raw[field.name], jsonIsText)]),
  ) as unknown as RefundRow;
