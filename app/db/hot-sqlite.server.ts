// The hot statements kept as hand-written SQL on SQLite, through better-sqlite3 on Prisma's own connection (one per
// process), prepared once: on SQLite every one of them measured more than 1.25x slower through Prisma 7's client
// (docs/decisions/0041-hand-written-sql-after-prisma-7.md). Each call is synchronous, so nothing interleaves with it;
// it waits (asynchronously) while a Prisma transaction is open on the connection, so it never runs inside one. Values
// are written exactly as Prisma writes them (dates, JSON, booleans), so both read the same rows.
import type Database from "better-sqlite3";
import { SQLITE_LOCK_WAIT_MS } from "./client";
import { STATE } from "../invoice-state/transitions";
import type { DialectStatements, HotStatements, InvoiceValues, NewEvent } from "./hot-statements";
import {
  CALLBACK_TARGET,
  decodeCallbackTarget,
  claimOrder,
  claimRowsSql,
  decodeJobRow,
  decodeRefund,
  invoiceColumns,
  jobRowSql,
  JSON_COLUMNS,
  jsonText,
  newId,
  quote,
  refundsSql,
  toDate,
} from "./hot-sql";

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

interface PendingWrite {
  work: () => unknown;
  several: boolean;
  settle: (outcome: { value: unknown } | { error: unknown }) => void;
}

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
const isBusy = (error: unknown) =>
  sqliteCode(error).startsWith("SQLITE_BUSY") || sqliteCode(error).startsWith("SQLITE_LOCKED");

export class SqliteStatements implements DialectStatements {
  /** The connection the statements are prepared on (Prisma's); a new one after Prisma reconnects. */
  private connectionNow: Database.Database | null = null;
  private statements = new Map<string, Database.Statement>();
  private pending: PendingWrite[] = [];
  private flushing: Promise<void> | null = null;

  constructor(private readonly connection: () => Promise<Database.Database>) {}

  private prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.connectionNow!.prepare(sql)));
    return statement;
  }

  /** The connection, with the statements prepared on it; throws SQLITE_BUSY while a Prisma transaction is open on it. */
  private async ready(): Promise<Database.Database> {
    const current = await this.connection();
    if (current !== this.connectionNow) {
      // Prisma reconnected (after a disconnect): statements belong to the connection they were prepared on.
      this.connectionNow = current;
      this.statements = new Map();
      // WAL with synchronous=NORMAL: a commit is durable once the WAL is synced at a checkpoint, not at every
      // commit; a crash of the process loses nothing, a power loss can lose the last commits (0021).
      current.pragma("synchronous = NORMAL");
    }
    if (current.inTransaction) throw Object.assign(new Error("a Prisma transaction is open"), { code: "SQLITE_BUSY" });
    return current;
  }

  /** Retries `attempt` while another process writes (the connection itself waits 5 s for a lock first), 10 s at most. */
  private async retryingBusy<T>(attempt: () => Promise<T> | T): Promise<T> {
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

  private read<T>(work: () => T): Promise<T> {
    return this.retryingBusy(async () => (await this.ready(), work()));
  }

  // Group commit: the writes asked for while the event loop turns (the deliveries and jobs in flight) run as one
  // transaction, each in its own savepoint, and are answered once it is committed. A commit writes every page a
  // write touched to the WAL; consecutive inserts touch the same pages (the tables' and indexes' last leaves), so
  // one commit for many writes is most of the database's cost of a delivery saved (bench/results/pipeline.md Run 6).

  /** The batch as one IMMEDIATE transaction, each write in its own savepoint (or as its one statement). */
  private commitTogether(connection: Database.Database, batch: PendingWrite[]) {
    return connection
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
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const outcomes = await this.retryingBusy(async () => {
        const connection = await this.ready();
        // IMMEDIATE takes the write lock at BEGIN: a busy database fails there, before any write ran. It fails at
        // once: SQLite's own lock wait sleeps, which would stop this process's event loop (every request and job in
        // flight) while the other process commits; retryingBusy waits without blocking.
        connection.pragma("busy_timeout = 0");
        try {
          return this.commitTogether(connection, batch);
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
  private write<T>(work: () => T, several = true): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        work,
        several,
        settle: (outcome) => ("error" in outcome ? reject(outcome.error) : resolve(outcome.value as T)),
      });
      // One batch at a time; the writes asked for meanwhile form the next one.
      const drain = async (): Promise<void> => {
        await this.flush();
        if (this.pending.length) return drain();
        this.flushing = null;
      };
      this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
    });
  }

  private insertEvents(invoiceId: string, events: NewEvent[]) {
    const insert = this.prepared(
      `INSERT INTO "InvoiceEvent" ("id", "invoiceId", "at", "type", "message", "data", "dedupeKey") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const event of events) {
      insert.run(
        newId(),
        invoiceId,
        sqliteDate(event.at),
        event.type,
        event.message ?? null,
        event.data === undefined || event.data === null ? null : JSON.stringify(event.data),
        event.dedupeKey ?? null,
      );
    }
  }

  private update(id: string, owner: string | null, values: InvoiceValues, increment = false) {
    const columns = invoiceColumns(values);
    const sets = [
      ...columns.map((column) => `${quote(column)} = ?`),
      `"updatedAt" = ?`,
      ...(increment ? [`"attempts" = "attempts" + 1`] : []),
    ];
    const sql = `UPDATE "Invoice" SET ${sets.join(", ")} WHERE "id" = ?${owner === null ? "" : ` AND "leaseOwner" = ?`}`;
    const args = [
      ...columns.map((column) => sqliteValue(column, values[column])),
      sqliteDate(new Date()),
      id,
      ...(owner === null ? [] : [owner]),
    ];
    return this.prepared(sql).run(...args).changes === 1;
  }

  readonly recordDelivery: HotStatements["recordDelivery"] = async (key, webhookId) => {
    const now = new Date();
    return this.write(
      () =>
        this.prepared(
          `INSERT INTO "WebhookDelivery" ("id", "shopDomain", "topic", "eventId", "webhookId", "result", "receivedAt") VALUES (?, ?, ?, ?, ?, 'processing', ?)
           ON CONFLICT ("shopDomain", "topic", "eventId") DO NOTHING`,
        ).run(newId(), key.shopDomain, key.topic, key.eventId, webhookId, sqliteDate(now)).changes === 1,
      false,
    );
  };
  readonly setDeliveryResult: HotStatements["setDeliveryResult"] = async (key, result) => {
    await this.write(
      () =>
        this.prepared(
          `UPDATE "WebhookDelivery" SET "result" = ? WHERE "shopDomain" = ? AND "topic" = ? AND "eventId" = ?`,
        ).run(result, key.shopDomain, key.topic, key.eventId),
      false,
    );
  };
  readonly shopTrigger: HotStatements["shopTrigger"] = async (shop) => {
    const row = await this.read(
      () =>
        this.prepared(
          `SELECT s."trigger" AS "trigger" FROM "Shop" AS h LEFT JOIN "ShopSettings" AS s ON s."shopDomain" = h."domain" WHERE h."domain" = ?`,
        ).get(shop) as { trigger: string | null } | undefined,
    );
    return row ? { trigger: row.trigger } : null;
  };
  readonly insertInvoice: HotStatements["insertInvoice"] = async (values, events) => {
    const at = new Date();
    const row: InvoiceValues = { id: newId(), createdAt: at, updatedAt: at, ...values };
    const columns = invoiceColumns(row);
    const sql = `INSERT INTO "Invoice" (${columns.map(quote).join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ON CONFLICT ("shopDomain", "orderId") DO NOTHING`;
    try {
      return await this.write(() => {
        if (this.prepared(sql).run(...columns.map((column) => sqliteValue(column, row[column]))).changes !== 1)
          return "duplicate" as const;
        this.insertEvents(row.id as string, events);
        return "created" as const;
      });
    } catch (error) {
      if (sqliteCode(error) === "SQLITE_CONSTRAINT_FOREIGNKEY") return "unknown_shop";
      throw error;
    }
  };
  readonly claimRows: HotStatements["claimRows"] = async ({
    owner,
    now,
    leaseUntil,
    limit,
    perShopLimit,
    priorities,
  }) => {
    if (limit <= 0) return [];
    const rows = await this.write(
      () =>
        this.prepared(claimRowsSql.sqlite).all({
          now: sqliteDate(now),
          perShop: perShopLimit,
          limit,
          priorities: JSON.stringify(priorities),
          owner,
          until: sqliteDate(leaseUntil),
          updated: sqliteDate(new Date()),
        }) as Parameters<typeof claimOrder>[0],
      false,
    );
    return claimOrder(rows);
  };
  readonly claimWriteBacks: HotStatements["claimWriteBacks"] = async (owner, now, leaseUntil, limit) => {
    if (limit <= 0) return [];
    return this.write(
      () =>
        this.prepared(
          `UPDATE "OrderWriteBack" SET "leaseOwner" = @owner, "leaseUntil" = @until, "updatedAt" = @updated
           WHERE "invoiceId" IN (${writeBackChoice((name) => `@${name}`)})
           RETURNING "invoiceId", "shopDomain"`,
        ).all({
          owner,
          until: sqliteDate(leaseUntil),
          updated: sqliteDate(new Date()),
          now: sqliteDate(now),
          limit,
        }) as Array<{ invoiceId: string; shopDomain: string }>,
      false,
    );
  };
  readonly renewLeases: HotStatements["renewLeases"] = async (owner, ids, until) => {
    if (ids.length === 0) return [];
    const rows = await this.write(
      () =>
        this.prepared(
          `UPDATE "Invoice" SET "leaseUntil" = ? WHERE "id" IN (SELECT "value" FROM json_each(?)) AND "leaseOwner" = ? RETURNING "id"`,
        ).all(sqliteDate(until), JSON.stringify(ids), owner) as Array<{ id: string }>,
      false,
    );
    return rows.map((row) => row.id);
  };
  readonly releaseLeases: HotStatements["releaseLeases"] = async (owner, ids) => {
    if (ids.length === 0) return 0;
    return this.write(
      () =>
        this.prepared(
          `UPDATE "Invoice" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "updatedAt" = ? WHERE "id" IN (SELECT "value" FROM json_each(?)) AND "leaseOwner" = ?`,
        ).run(sqliteDate(new Date()), JSON.stringify(ids), owner).changes,
      false,
    );
  };
  readonly nextDue: HotStatements["nextDue"] = async () => {
    return earliest(
      await this.read(() => this.prepared(NEXT_DUE).get() as { invoice: unknown; writeBack: unknown } | undefined),
    );
  };
  readonly jobRow: HotStatements["jobRow"] = async (id) => {
    return decodeJobRow(
      await this.read(() => this.prepared(jobRowSql("?")).get(id) as Record<string, unknown> | undefined),
      true,
    );
  };
  readonly refundsOf: HotStatements["refundsOf"] = async (shop, orderId) => {
    const rows = await this.read(
      () => this.prepared(refundsSql("?", "?")).all(shop, orderId) as Record<string, unknown>[],
    );
    return rows.map((row) => decodeRefund(row, true));
  };
  readonly finishJob: HotStatements["finishJob"] = async (job) => {
    return this.write(() => {
      if (!this.update(job.id, job.owner, { ...job.values, leaseOwner: null, leaseUntil: null }))
        return { stored: false, rereadNow: false };
      const now = sqliteDate(new Date());
      for (const refunds of job.refunds) {
        if (refunds.ids.length === 0) continue;
        this.prepared(
          `UPDATE "Refund" SET "handling" = ?, "handledAt" = ? WHERE "shopDomain" = ? AND "refundId" IN (SELECT "value" FROM json_each(?)) AND "handling" IS NULL`,
        ).run(refunds.handling, now, job.shopDomain, JSON.stringify(refunds.ids));
      }
      this.insertEvents(job.id, job.events);
      if (job.writeBack) {
        const session = this.prepared(`SELECT "scope" FROM "Session" WHERE "shop" = ? AND "isOnline" = 0 LIMIT 1`).get(
          job.shopDomain,
        ) as { scope: string | null } | undefined;
        const start = job.writeBack(session?.scope ?? null);
        this.prepared(
          `INSERT INTO "OrderWriteBack" ("invoiceId", "shopDomain", "status", "attempts", "nextAttemptAt", "lastError", "updatedAt") VALUES (?, ?, ?, 0, ?, ?, ?)
           ON CONFLICT ("invoiceId") DO UPDATE SET "status" = excluded."status", "attempts" = 0, "nextAttemptAt" = excluded."nextAttemptAt", "lastError" = excluded."lastError", "updatedAt" = excluded."updatedAt", "version" = "OrderWriteBack"."version" + 1`,
        ).run(
          job.id,
          job.shopDomain,
          start.status,
          start.nextAttemptAt && sqliteDate(start.nextAttemptAt),
          start.lastError,
          now,
        );
      }
      if (job.teamId !== null) {
        this.prepared(
          `UPDATE "ShopSettings" SET "teamId" = ?, "updatedAt" = ? WHERE "shopDomain" = ? AND "teamId" IS NULL`,
        ).run(job.teamId, now, job.shopDomain);
      }
      let rereadNow = false;
      if (job.callbacksSince) {
        rereadNow =
          this.prepared(
            `UPDATE "Invoice" SET "nextAttemptAt" = ?, "updatedAt" = ? WHERE "id" = ?
             AND EXISTS (SELECT 1 FROM "InvoiceEvent" WHERE "invoiceId" = ? AND "type" = 'callback' AND "at" >= ?)`,
          ).run(now, now, job.id, job.id, sqliteDate(job.callbacksSince)).changes === 1;
      }
      return { stored: true, rereadNow };
    });
  };
  readonly updateLeased: HotStatements["updateLeased"] = async (id, owner, values, options) => {
    return this.write(() => this.update(id, owner, values, options?.incrementAttempts), false);
  };
  readonly callbackTarget: HotStatements["callbackTarget"] = async (invoiceId) => {
    return decodeCallbackTarget(
      await this.read(
        () => this.prepared(`${CALLBACK_TARGET}?`).get(invoiceId) as Parameters<typeof decodeCallbackTarget>[0],
      ),
    );
  };
  readonly markCallback: HotStatements["markCallback"] = async (invoiceId, remoteId, event, readAt, now) => {
    try {
      return await this.write(() => {
        const at = sqliteDate(now);
        const due = this.prepared(
          `UPDATE "Invoice" SET "updatedAt" = ?, "nextAttemptAt" = CASE WHEN "nextAttemptAt" IS NULL OR "nextAttemptAt" > ? THEN ? ELSE "nextAttemptAt" END
           WHERE "id" = ? AND "remoteId" = ?`,
        ).run(at, sqliteDate(readAt), sqliteDate(readAt), invoiceId, remoteId);
        const early =
          due.changes === 1
            ? null
            : this.prepared(
                `UPDATE "Invoice" SET "updatedAt" = ? WHERE "id" = ? AND "remoteId" IS NULL AND "leaseUntil" > ?`,
              ).run(at, invoiceId, at);
        if (due.changes !== 1 && early!.changes !== 1) return "not_found" as const;
        this.insertEvents(invoiceId, [event]);
        return due.changes === 1 ? ("marked" as const) : ("early" as const);
      });
    } catch (error) {
      if (sqliteCode(error) === "SQLITE_CONSTRAINT_UNIQUE") return "duplicate";
      throw error;
    }
  };
  readonly scheduleRead: HotStatements["scheduleRead"] = async (invoiceId, remoteId, readAt) => {
    const at = sqliteDate(readAt);
    return this.write(
      () =>
        this.prepared(
          `UPDATE "Invoice" SET "nextAttemptAt" = ?, "updatedAt" = ? WHERE "id" = ? AND "remoteId" = ? AND "state" = ? AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" > ?)`,
        ).run(at, sqliteDate(new Date()), invoiceId, remoteId, STATE.processing, at).changes === 1,
      false,
    );
  };
  readonly notify: HotStatements["notify"] = async () => {
    // Across processes on SQLite the workers poll.
  };
  readonly close: HotStatements["close"] = async () => {
    // The connection is Prisma's: it closes it.
  };
}
