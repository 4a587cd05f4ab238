// The pipeline's hot statements as prepared SQL through the database driver itself (better-sqlite3 or pg),
// not Prisma's query builder: the webhook's delivery record and row insert, the SQLite lease, the worker's
// writes around a post and at the end of a job, and a callback's mark. Prisma costs about 1 ms of CPU per
// statement here; a prepared statement costs a few microseconds (docs/decisions/0021-pipeline-performance.md).
// Everything else stays on Prisma. Values are written exactly as Prisma writes them (dates, JSON, booleans), so
// both read the same rows.
//
// SQLite: the statements run on Prisma's own connection (one per process), prepared once. Each call is synchronous,
// so nothing interleaves with it; it waits (asynchronously) while a Prisma transaction is open on the connection,
// so it never runs inside one.
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { postgresConnectionString, postgresSchema, providerOf } from "./provider";
import { sqliteConnectionOf, type Db } from "./client";

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

export type CallbackMark = "marked" | "early" | "not_found" | "duplicate";

export interface HotStatements {
  /** Records a webhook event; false when the same event was recorded already. */
  recordDelivery(key: DeliveryKey, webhookId: string | null): Promise<boolean>;
  setDeliveryResult(key: DeliveryKey, result: string): Promise<void>;
  /** The shop's invoicing trigger ("paid" without settings), or null when the shop is not installed. */
  shopTrigger(shop: string): Promise<string | null>;
  /** Inserts an invoice row and its events unless the shop already has a row for the order. */
  insertInvoice(values: InvoiceValues, events: NewEvent[]): Promise<"created" | "duplicate" | "unknown_shop">;
  /** SQLite's claim of one row: leases it while it is still due (a post shows "sending"). */
  leaseRow(id: string, owner: string, leaseUntil: Date, now: Date): Promise<boolean>;
  /** Updates a row only while `owner` holds its lease; false when the lease was lost. */
  updateLeased(id: string, owner: string, values: InvoiceValues, options?: { incrementAttempts?: boolean }): Promise<boolean>;
  /** What a callback for an invoice row is checked with: the row's shop, its team and its encrypted API key. */
  callbackTarget(invoiceId: string): Promise<CallbackTarget | null>;
  /** A verified callback: the row due for a read at `readAt` (unless sooner), or recorded while it is being posted. */
  markCallback(invoiceId: string, remoteId: number, event: NewEvent, readAt: Date, now: Date): Promise<CallbackMark>;
  close(): Promise<void>;
}

// Columns the dynamic statements may name: never anything from outside the code.
const INVOICE_COLUMNS = new Set([
  "id", "shopDomain", "orderId", "orderName", "orderCreatedAt", "customerId", "customerName", "orderTotal", "currency",
  "orderSnapshot", "state", "attempts", "nextAttemptAt", "leaseOwner", "leaseUntil", "remoteId", "workflowStatus",
  "formalStatus", "documentKind", "ettn", "serialNumber", "pdfUrl", "requestBody", "remoteTotals", "problems",
  "lastError", "syncAttempts", "cancelledInShop", "isTest", "saleChannelId", "invoiceIntegrationId", "postedInTestMode",
  "waybillId", "priority", "backfillId", "panelCancelConfirmedAt", "createdAt", "updatedAt",
]);
const JSON_COLUMNS = new Set(["orderSnapshot", "requestBody", "remoteTotals", "problems"]);

/** A collision-resistant id that sorts by creation time, like the cuid Prisma makes for `@default(cuid())`. */
let counter = 0;
export function newId(): string {
  counter = (counter + 1) % 1_679_616;
  return `c${Date.now().toString(36).padStart(9, "0")}${counter.toString(36).padStart(4, "0")}${randomBytes(6).toString("hex")}`;
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

// ---------------------------------------------------------------- SQLite

/** Prisma's SQLite adapter writes dates as ISO 8601 text with "+00:00". */
const sqliteDate = (date: Date) => date.toISOString().replace("Z", "+00:00");

function sqliteValue(column: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (JSON_COLUMNS.has(column)) return JSON.stringify(value);
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

  /**
   * Runs `work` (one statement, or several as one transaction) on the connection once no Prisma transaction is
   * open on it, retrying while another process writes (the connection itself waits 5 s for a lock first).
   */
  async function write<T>(work: () => T, several = true): Promise<T> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const current = await connection();
      if (current !== db) {
        // Prisma reconnected (after a disconnect): statements belong to the connection they were prepared on.
        db = current;
        statements = new Map();
        // WAL with synchronous=NORMAL: a commit is durable once the WAL is synced at a checkpoint, not at every
        // commit; a crash of the process loses nothing, a power loss can lose the last commits (0021).
        db.pragma("synchronous = NORMAL");
      }
      try {
        if (db.inTransaction) throw Object.assign(new Error("a Prisma transaction is open"), { code: "SQLITE_BUSY" });
        return several ? db.transaction(work)() : work();
      } catch (error) {
        if (!isBusy(error) || Date.now() - started > 10_000) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(25, 1 + attempt)));
      }
    }
  }
  const read = async <T>(work: () => T) => write(work, false);

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
      return row ? (row.trigger ?? "paid") : null;
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
    async leaseRow(id, owner, leaseUntil, now) {
      const at = sqliteDate(now);
      return write(
        () =>
          prepared(
            `UPDATE "Invoice" SET "leaseOwner" = ?, "leaseUntil" = ?, "state" = CASE WHEN "remoteId" IS NULL THEN 'sending' ELSE "state" END, "updatedAt" = ?
             WHERE "id" = ? AND "nextAttemptAt" <= ? AND ("leaseUntil" IS NULL OR "leaseUntil" < ?)`,
          ).run(owner, sqliteDate(leaseUntil), sqliteDate(new Date()), id, at, at).changes === 1,
        false,
      );
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
  if (JSON_COLUMNS.has(column)) return JSON.stringify(value);
  if (value instanceof Date) return pgDate(value);
  return value;
}

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

  const insertEvents = async (client: pg.ClientBase, invoiceId: string, events: NewEvent[]) => {
    if (events.length === 0) return;
    const rows = events.map((event) => ({ id: newId(), at: pgDate(event.at), type: event.type, message: event.message ?? null, data: event.data ?? null, dedupeKey: event.dedupeKey ?? null }));
    await client.query({
      name: "hot-insert-events",
      text: `INSERT INTO "InvoiceEvent" ("id", "invoiceId", "at", "type", "message", "data", "dedupeKey")
             SELECT e."id", $1, e."at", e."type", e."message", e."data", e."dedupeKey"
             FROM jsonb_to_recordset($2::jsonb) AS e("id" text, "at" timestamp(3), "type" text, "message" text, "data" jsonb, "dedupeKey" text)`,
      values: [invoiceId, JSON.stringify(rows)],
    });
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
      return rows.length ? (rows[0].trigger ?? "paid") : null;
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
    async leaseRow(id, owner, leaseUntil, now) {
      const result = await pool.query({
        name: "hot-lease-row",
        text: `UPDATE "Invoice" SET "leaseOwner" = $1, "leaseUntil" = $2::timestamp(3), "state" = CASE WHEN "remoteId" IS NULL THEN 'sending' ELSE "state" END, "updatedAt" = $5::timestamp(3)
               WHERE "id" = $4 AND "nextAttemptAt" <= $3::timestamp(3) AND ("leaseUntil" IS NULL OR "leaseUntil" < $3::timestamp(3))`,
        values: [owner, pgDate(leaseUntil), pgDate(now), id, pgDate(new Date())],
      });
      return result.rowCount === 1;
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
    async close() {
      await pool.end();
    },
  };
}

/** The hot statements for `db`'s database: on SQLite they share its connection, on PostgreSQL they have a small pool. */
export function createHotStatements(databaseUrl: string, db: Db): HotStatements {
  return providerOf(databaseUrl) === "sqlite" ? sqliteHot(() => sqliteConnectionOf(db)) : postgresHot(databaseUrl);
}
