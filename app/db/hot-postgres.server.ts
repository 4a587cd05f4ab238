// The hot statements kept as hand-written SQL on PostgreSQL, through a small pg pool of their own (prepared by name):
// only those that measured more than 1.25x slower through Prisma 7's client; the rest go through Prisma
// (docs/decisions/0041-hand-written-sql-after-prisma-7.md). Values are written exactly as Prisma writes them (dates,
// JSON), so both read the same rows.
import { createRequire } from "node:module";
import type pg from "pg";
import type { DialectStatements, HotStatements, InvoiceValues, NewEvent } from "./hot-statements";
import {
  CALLBACK_TARGET,
  decodeCallbackTarget,
  claimOrder,
  claimRowsSql,
  decodeJobRow,
  invoiceColumns,
  jobRowSql,
  JSON_COLUMNS,
  jsonText,
  newId,
  quote,
} from "./hot-sql";
import { postgresConnectionString, postgresSchema } from "./provider";

// pg is required when the first PostgreSQL statements are made: every process imports this module, and a process on
// SQLite spent ~45 ms of its start loading a driver it never used.
const load = createRequire(import.meta.url);
let driver: typeof pg | undefined;
const pgDriver = () => (driver ??= load("pg") as typeof pg);

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
    oid === 1114
      ? (text: string) => new Date(`${text.replace(" ", "T")}Z`)
      : pgDriver().types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

const pgCode = (error: unknown) => (error as { code?: string } | null)?.code ?? "";

export class PostgresStatements implements DialectStatements {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    const schema = postgresSchema(databaseUrl);
    this.pool = new (pgDriver().Pool)({
      connectionString: postgresConnectionString(databaseUrl),
      max: 5,
      options: `-c search_path="${schema}" -c TimeZone=UTC`,
      application_name: `e-fatura:${schema}`.slice(0, 63),
    });
    this.pool.on("error", () => undefined); // an idle connection that dies is replaced on the next query
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
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

  private eventRows(events: NewEvent[]): string {
    return JSON.stringify(
      events.map((event) => ({
        id: newId(),
        at: pgDate(event.at),
        type: event.type,
        message: event.message ?? null,
        data: event.data ?? null,
        dedupeKey: event.dedupeKey ?? null,
      })),
    );
  }

  private insertEventsSql(invoiceId: string, rows: string): string {
    return `INSERT INTO "InvoiceEvent" ("id", "invoiceId", "at", "type", "message", "data", "dedupeKey")
    SELECT e."id", ${invoiceId}, e."at", e."type", e."message", e."data", e."dedupeKey"
    FROM jsonb_to_recordset(${rows}::jsonb) AS e("id" text, "at" timestamp(3), "type" text, "message" text, "data" jsonb, "dedupeKey" text)`;
  }

  private async insertEvents(client: pg.ClientBase, invoiceId: string, events: NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    await client.query({
      name: "hot-insert-events",
      text: this.insertEventsSql("$1", "$2"),
      values: [invoiceId, this.eventRows(events)],
    });
  }

  private cast(column: string): string {
    return JSON_COLUMNS.has(column) ? "::jsonb" : "";
  }

  private async update(
    client: pg.ClientBase,
    id: string,
    owner: string | null,
    values: InvoiceValues,
    increment = false,
  ): Promise<boolean> {
    const columns = invoiceColumns(values);
    const args: unknown[] = columns.map((column) => pgValue(column, values[column]));
    const sets = [
      ...columns.map((column, i) => `${quote(column)} = $${i + 1}${this.cast(column)}`),
      `"updatedAt" = $${args.push(pgDate(new Date()))}`,
    ];
    if (increment) sets.push(`"attempts" = "attempts" + 1`);
    let sql = `UPDATE "Invoice" SET ${sets.join(", ")} WHERE "id" = $${args.push(id)}`;
    if (owner !== null) sql += ` AND "leaseOwner" = $${args.push(owner)}`;
    return (await client.query(sql, args)).rowCount === 1;
  }

  readonly recordDelivery: HotStatements["recordDelivery"] = async (key, webhookId) => {
    const now = new Date();
    const result = await this.pool.query({
      name: "hot-record-delivery",
      text: `INSERT INTO "WebhookDelivery" ("id", "shopDomain", "topic", "eventId", "webhookId", "result", "receivedAt") VALUES ($1, $2, $3, $4, $5, 'processing', $6)
             ON CONFLICT ("shopDomain", "topic", "eventId") DO NOTHING`,
      values: [newId(), key.shopDomain, key.topic, key.eventId, webhookId, pgDate(now)],
    });
    return result.rowCount === 1;
  };
  readonly setDeliveryResult: HotStatements["setDeliveryResult"] = async (key, result) => {
    await this.pool.query({
      name: "hot-delivery-result",
      text: `UPDATE "WebhookDelivery" SET "result" = $1 WHERE "shopDomain" = $2 AND "topic" = $3 AND "eventId" = $4`,
      values: [result, key.shopDomain, key.topic, key.eventId],
    });
  };
  readonly shopTrigger: HotStatements["shopTrigger"] = async (shop) => {
    const { rows } = await this.pool.query<{ trigger: string | null }>({
      name: "hot-shop-trigger",
      text: `SELECT s."trigger" AS "trigger" FROM "Shop" AS h LEFT JOIN "ShopSettings" AS s ON s."shopDomain" = h."domain" WHERE h."domain" = $1`,
      values: [shop],
    });
    return rows.length ? { trigger: rows[0].trigger } : null;
  };
  readonly insertInvoice: HotStatements["insertInvoice"] = async (values, events) => {
    const at = new Date();
    const row: InvoiceValues = { id: newId(), createdAt: at, updatedAt: at, ...values };
    const columns = invoiceColumns(row);
    const sql = `INSERT INTO "Invoice" (${columns.map(quote).join(", ")}) VALUES (${columns.map((column, i) => `$${i + 1}${this.cast(column)}`).join(", ")})
                 ON CONFLICT ("shopDomain", "orderId") DO NOTHING`;
    try {
      return await this.transaction(async (client) => {
        if (
          (
            await client.query(
              sql,
              columns.map((column) => pgValue(column, row[column])),
            )
          ).rowCount !== 1
        )
          return "duplicate" as const;
        await this.insertEvents(client, row.id as string, events);
        return "created" as const;
      });
    } catch (error) {
      if (pgCode(error) === "23503") return "unknown_shop";
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
    const { rows } = await this.pool.query({
      name: "hot-claim-rows",
      text: claimRowsSql.postgresql,
      values: [pgDate(now), perShopLimit, limit, owner, pgDate(leaseUntil), pgDate(new Date()), priorities],
    });
    return claimOrder(rows);
  };
  readonly releaseLeases: HotStatements["releaseLeases"] = async (owner, ids) => {
    if (ids.length === 0) return 0;
    const result = await this.pool.query({
      name: "hot-release-leases",
      text: `UPDATE "Invoice" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "updatedAt" = $1::timestamp(3) WHERE "id" = ANY ($2::text[]) AND "leaseOwner" = $3`,
      values: [pgDate(new Date()), ids, owner],
    });
    return result.rowCount ?? 0;
  };
  readonly jobRow: HotStatements["jobRow"] = async (id) => {
    const { rows } = await this.pool.query({
      name: "hot-job-row",
      text: jobRowSql("$1"),
      values: [id],
      types: UTC_TIMESTAMPS,
    });
    return decodeJobRow(rows[0], false);
  };
  readonly finishJob: HotStatements["finishJob"] = async (job) => {
    // One statement, one round trip (was BEGIN, the row, the events, the scope read and the write-back, COMMIT): the
    // row's update while the lease holds, and everything else only when it updated the row (`stored`). A single
    // statement is atomic on its own. The update takes the row's lock: a callback marking the row waits for it,
    // then finds the remote id stored.
    const now = pgDate(new Date());
    const values: InvoiceValues = { ...job.values, leaseOwner: null, leaseUntil: null, updatedAt: new Date() };
    const columns = invoiceColumns(values);
    const args: unknown[] = columns.map((column) => pgValue(column, values[column]));
    const arg = (value: unknown) => `$${args.push(value)}`;
    const sets = columns.map((column, i) => `${quote(column)} = $${i + 1}${this.cast(column)}`);
    // Parameters are numbered on first use: PostgreSQL refuses one the text never names.
    const lazy = (value: unknown, suffix = "") => {
      let name: string | undefined;
      return () => (name ??= `${arg(value)}${suffix}`);
    };
    const id = arg(job.id);
    const [shop, at] = [lazy(job.shopDomain), lazy(now, "::timestamp(3)")];
    const steps = [
      `stored AS (UPDATE "Invoice" SET ${sets.join(", ")} WHERE "id" = ${id} AND "leaseOwner" = ${arg(job.owner)} RETURNING "nextAttemptAt")`,
    ];
    if (job.events.length)
      steps.push(
        `events AS (${this.insertEventsSql(id, arg(this.eventRows(job.events)))} WHERE EXISTS (SELECT 1 FROM stored))`,
      );
    // Each refund once, with the first handling named for it (as one update per handling did).
    const refunds = [
      ...new Map(
        job.refunds.flatMap(({ ids, handling }) => ids.map((refundId) => [refundId, handling] as const)).reverse(),
      ).entries(),
    ];
    if (refunds.length) {
      steps.push(`refunds AS (UPDATE "Refund" AS r SET "handling" = x."handling", "handledAt" = ${at()}
        FROM jsonb_to_recordset(${arg(JSON.stringify(refunds.map(([refundId, handling]) => ({ refundId, handling }))))}::jsonb) AS x("refundId" text, "handling" text)
        WHERE r."shopDomain" = ${shop()} AND r."refundId" = x."refundId" AND r."handling" IS NULL AND EXISTS (SELECT 1 FROM stored))`);
    }
    if (job.writeBack) {
      // The caller's rule decides the write-back's start from the offline session's scopes, read just before.
      const { rows: sessions } = await this.pool.query<{ scope: string | null }>({
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
      steps.push(
        `team AS (UPDATE "ShopSettings" SET "teamId" = ${arg(job.teamId)}, "updatedAt" = ${at()} WHERE "shopDomain" = ${shop()} AND "teamId" IS NULL AND EXISTS (SELECT 1 FROM stored))`,
      );
    }
    const { rows } = await this.pool.query<{ nextAttemptAt: string | null }>({
      text: `WITH ${steps.join(", ")} SELECT to_char("nextAttemptAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS "nextAttemptAt" FROM stored`,
      values: args,
    });
    if (rows.length === 0) return { stored: false, rereadNow: false };
    if (!job.callbacksSince) return { stored: true, rereadNow: false };
    // A callback recorded during the job asks for a read now. A second statement, after the first committed: one
    // statement reads in its own snapshot, which misses a callback that committed while the update waited for its
    // lock. It only brings forward the read the job scheduled (the row unchanged since, and not leased again).
    const { rowCount } = await this.pool.query({
      name: "hot-read-now-after-callback",
      text: `UPDATE "Invoice" SET "nextAttemptAt" = $1::timestamp(3), "updatedAt" = $1::timestamp(3)
             WHERE "id" = $2 AND "leaseOwner" IS NULL AND "nextAttemptAt" = $3::timestamp(3)
             AND EXISTS (SELECT 1 FROM "InvoiceEvent" WHERE "invoiceId" = $2 AND "type" = 'callback' AND "at" >= $4::timestamp(3))`,
      values: [pgDate(new Date()), job.id, rows[0].nextAttemptAt, pgDate(job.callbacksSince)],
    });
    return { stored: true, rereadNow: rowCount === 1 };
  };
  readonly callbackTarget: HotStatements["callbackTarget"] = async (invoiceId) => {
    const { rows } = await this.pool.query({
      name: "hot-callback-target",
      text: `${CALLBACK_TARGET}$1`,
      values: [invoiceId],
    });
    return decodeCallbackTarget(rows[0]);
  };
  readonly markCallback: HotStatements["markCallback"] = async (invoiceId, remoteId, event, readAt, now) => {
    const markDue = (client: pg.ClientBase) =>
      client.query({
        name: "hot-callback-due",
        text: `UPDATE "Invoice" SET "updatedAt" = $1, "nextAttemptAt" = CASE WHEN "nextAttemptAt" IS NULL OR "nextAttemptAt" > $2::timestamp(3) THEN $2::timestamp(3) ELSE "nextAttemptAt" END
               WHERE "id" = $3 AND "remoteId" = $4`,
        values: [pgDate(now), pgDate(readAt), invoiceId, remoteId],
      });
    try {
      return await this.transaction(async (client) => {
        if ((await markDue(client)).rowCount === 1) {
          await this.insertEvents(client, invoiceId, [event]);
          return "marked" as const;
        }
        const early = await client.query({
          name: "hot-callback-early",
          text: `UPDATE "Invoice" SET "updatedAt" = $1::timestamp(3) WHERE "id" = $2 AND "remoteId" IS NULL AND "leaseUntil" > $1::timestamp(3)`,
          values: [pgDate(now), invoiceId],
        });
        if (early.rowCount === 1) {
          await this.insertEvents(client, invoiceId, [event]);
          return "early" as const;
        }
        // The worker may have stored the remote id between the two updates.
        if ((await markDue(client)).rowCount === 1) {
          await this.insertEvents(client, invoiceId, [event]);
          return "marked" as const;
        }
        return "not_found" as const;
      });
    } catch (error) {
      if (pgCode(error) === "23505") return "duplicate";
      throw error;
    }
  };
  readonly notify: HotStatements["notify"] = async (channel) => {
    await this.pool.query({ name: "hot-notify", text: `SELECT pg_notify($1, '')`, values: [channel] });
  };
  readonly close: HotStatements["close"] = async () => {
    await this.pool.end();
  };
}
