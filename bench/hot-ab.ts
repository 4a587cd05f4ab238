// Each hot statement through Prisma 7's client (app/db/hot-prisma.server.ts) and through the hand-written SQL of the
// database's dialect, in the same run, on SQLite and (with --postgres=URL) PostgreSQL: the A/B switch is
// createHotStatements' `via` (app/db/hot.server.ts). Run by `npx tsx bench/statements.bench.ts --ab`.
//
// Per statement and database: --rounds rounds (default 9); in each, both paths (alternating which goes first) make
// --calls calls (default 100) on rows prepared for them outside the timing, one call at a time ("sequential") and
// then, for the writes, 16 in flight ("16 at once": SQLite's hand-written writes share commits, Prisma's do not). The
// figure is the median over the rounds of µs per call; the ratio is Prisma ÷ hand-written. The tables are filled with
// --history finished invoices (default 5000) first, so that the indexes are those of a shop in use.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { createDb, type Db } from "../app/db/client";
import {
  createHotStatements,
  dialectStatements,
  HOT_STATEMENTS,
  type HotStatementName,
  type HotStatements,
  type NewEvent,
  type Via,
} from "../app/db/hot.server";
import { migrate } from "../app/db/migrate";
import { benchOrder } from "./orders";

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const ROUNDS = arg("rounds", 9);
const CALLS = arg("calls", 100);
const HISTORY = arg("history", 5000);
const ONLY = process.argv
  .find((a) => a.startsWith("--statements="))
  ?.split("=")[1]
  ?.split(",");
const SHOP = "ab-bench.myshopify.com";
const OWNER = "bench-worker";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

/** The row a webhook inserts (as app/invoices/enqueue.server.ts rowData writes it), and its two events. */
function webhookRow(orderId: string) {
  const order = benchOrder(Number(orderId.slice(-9)));
  const now = new Date();
  const values = {
    shopDomain: SHOP,
    orderId,
    orderName: order.name,
    orderCreatedAt: new Date(order.created_at),
    customerId: String(order.customer.id),
    customerName: "Ayşe Yılmaz",
    customerSearch: "ayse yilmaz",
    orderTotal: order.total_price,
    currency: order.currency,
    orderSnapshot: order,
    state: "queued",
    nextAttemptAt: now,
  };
  const events: NewEvent[] = [
    { type: "received", at: now, data: { topic: "orders/paid", webhookId: unique() } },
    { type: "queued", at: now },
  ];
  return { values, events };
}

/** `n` invoice rows, created outside the timing; returns their ids. */
async function invoices(
  db: Db,
  n: number,
  data: (i: number) => Record<string, unknown> = () => ({}),
): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `ab${unique()}x${i}`,
    shopDomain: SHOP,
    orderId: `9${unique()}${i}`,
    orderName: `#AB${i}`,
    orderCreatedAt: new Date("2026-11-20T10:00:00Z"),
    customerName: "Ayşe Yılmaz",
    orderTotal: "120.00",
    currency: "TRY",
    orderSnapshot: { id: i },
    ...data(i),
  }));
  for (let start = 0; start < rows.length; start += 500)
    await db.invoice.createMany({ data: rows.slice(start, start + 500) as never });
  return rows.map((row) => row.id);
}

interface Scenario {
  name: string;
  statement: HotStatementName;
  /** Prepares `n` calls (outside the timing); returns the calls. */
  prepare(db: Db, n: number): Promise<Array<(hot: HotStatements) => Promise<unknown>>>;
  /** Also timed with 16 calls in flight (the writes: SQLite shares commits between them). */
  concurrent?: boolean;
}

const leased = (i: number) => ({
  state: "sending",
  leaseOwner: OWNER,
  leaseUntil: new Date(Date.now() + 600_000),
  nextAttemptAt: new Date(Date.now() - 1000),
  attempts: i % 2,
});

const SCENARIOS: Scenario[] = [
  {
    name: "recordDelivery",
    statement: "recordDelivery",
    concurrent: true,
    prepare: async (_db, n) =>
      Array.from({ length: n }, () => {
        const key = { shopDomain: SHOP, topic: "orders/paid", eventId: unique() };
        return (hot) => hot.recordDelivery(key, unique());
      }),
  },
  {
    name: "setDeliveryResult",
    statement: "setDeliveryResult",
    concurrent: true,
    prepare: async (db, n) => {
      const keys = Array.from({ length: n }, () => ({ shopDomain: SHOP, topic: "orders/paid", eventId: unique() }));
      await db.webhookDelivery.createMany({ data: keys.map((key) => ({ ...key, result: "processing" })) });
      return keys.map((key) => (hot) => hot.setDeliveryResult(key, "queued"));
    },
  },
  {
    name: "shopTrigger",
    statement: "shopTrigger",
    prepare: async (_db, n) => Array.from({ length: n }, () => (hot) => hot.shopTrigger(SHOP)),
  },
  {
    name: "insertInvoice",
    statement: "insertInvoice",
    concurrent: true,
    prepare: async (_db, n) =>
      Array.from({ length: n }, (_, i) => {
        const { values, events } = webhookRow(`8${String(seq++).padStart(12, "0")}${i}`);
        return async (hot) => {
          if ((await hot.insertInvoice(values, events)) !== "created") throw new Error("insert: not created");
        };
      }),
  },
  {
    name: "claimWriteBacks (4 each)",
    statement: "claimWriteBacks",
    prepare: async (db, n) => {
      const ids = await invoices(db, n * 4, () => ({ state: "completed" }));
      // Every earlier write-back is leased far ahead: each call claims 4 of the ones made now.
      await db.orderWriteBack.updateMany({
        data: { leaseOwner: "elsewhere", leaseUntil: new Date(Date.now() + 3_600_000) },
      });
      await db.orderWriteBack.createMany({
        data: ids.map((invoiceId) => ({
          invoiceId,
          shopDomain: SHOP,
          status: "pending",
          nextAttemptAt: new Date(Date.now() - 1000),
        })),
      });
      return Array.from({ length: n }, () => async (hot) => {
        const now = new Date();
        if ((await hot.claimWriteBacks(OWNER, now, new Date(now.getTime() + 60_000), 4)).length === 0)
          throw new Error("claimWriteBacks: none");
      });
    },
  },
  {
    name: "nextDue",
    statement: "nextDue",
    prepare: async (_db, n) => Array.from({ length: n }, () => (hot) => hot.nextDue()),
  },
  {
    name: "jobRow",
    statement: "jobRow",
    prepare: async (db, n) => {
      const ids = await invoices(db, n, leased);
      return ids.map((id) => async (hot) => {
        if (!(await hot.jobRow(id))) throw new Error("jobRow: none");
      });
    },
  },
  {
    name: "refundsOf (2 refunds)",
    statement: "refundsOf",
    prepare: async (db, n) => {
      const orders = Array.from({ length: n }, () => `7${unique()}`);
      await db.refund.createMany({
        data: orders.flatMap((orderId) =>
          [1, 2].map((k) => ({
            shopDomain: SHOP,
            orderId,
            refundId: `${orderId}-${k}`,
            refundedAt: new Date(),
            currency: "TRY",
            lineItems: [{ id: k, quantity: 1 }],
            hasLineItems: true,
            shipping: "0.00",
            amount: "10.00",
            giftCardAmount: "0.00",
            restock: false,
          })),
        ),
      });
      return orders.map((orderId) => (hot) => hot.refundsOf(SHOP, orderId));
    },
  },
  {
    name: "finishJob: posted, left processing (+ callback check)",
    statement: "finishJob",
    concurrent: true,
    prepare: async (db, n) => {
      const ids = await invoices(db, n, leased);
      return ids.map((id, i) => async (hot) => {
        const at = new Date();
        const done = await hot.finishJob({
          id,
          owner: OWNER,
          shopDomain: SHOP,
          values: {
            state: "processing",
            remoteId: 1_000_000 + seq++ + i,
            attempts: 1,
            nextAttemptAt: new Date(at.getTime() + 30_000),
            requestBody: { invoice: { lines: [{ name: "Tişört", quantity: 1 }] } },
            lastError: null,
          },
          events: [{ type: "posted", at, data: { remoteId: i, worker: OWNER } }],
          refunds: [],
          writeBack: null,
          teamId: null,
          callbacksSince: new Date(at.getTime() - 500),
        });
        if (!done.stored) throw new Error("finishJob: not stored");
      });
    },
  },
  {
    name: "finishJob: completed (+ write-back)",
    statement: "finishJob",
    concurrent: true,
    prepare: async (db, n) => {
      const ids = await invoices(db, n, leased);
      return ids.map((id) => async (hot) => {
        const at = new Date();
        const done = await hot.finishJob({
          id,
          owner: OWNER,
          shopDomain: SHOP,
          values: {
            state: "completed",
            serialNumber: `ARS${unique()}`,
            ettn: unique(),
            pdfUrl: "https://example.com/x.pdf",
            documentKind: "e_archive",
            nextAttemptAt: null,
            problems: [],
          },
          events: [{ type: "settled", at, data: { worker: OWNER } }],
          refunds: [],
          writeBack: (scopes) =>
            scopes?.includes("write_orders")
              ? { status: "pending", nextAttemptAt: at, lastError: null }
              : { status: "no_scope", nextAttemptAt: null, lastError: "missing scope write_orders" },
          teamId: null,
          callbacksSince: null,
        });
        if (!done.stored) throw new Error("finishJob: not stored");
      });
    },
  },
  {
    name: "renewLeases (16 rows)",
    statement: "renewLeases",
    prepare: async (db, n) => {
      const ids = await invoices(db, 16, leased);
      return Array.from({ length: n }, () => (hot) => hot.renewLeases(OWNER, ids, new Date(Date.now() + 600_000)));
    },
  },
  {
    name: "releaseLeases (4 rows)",
    statement: "releaseLeases",
    prepare: async (db, n) => {
      const ids = await invoices(db, n * 4, leased);
      return Array.from({ length: n }, (_, i) => (hot) => hot.releaseLeases(OWNER, ids.slice(i * 4, i * 4 + 4)));
    },
  },
  {
    name: "updateLeased",
    statement: "updateLeased",
    concurrent: true,
    prepare: async (db, n) => {
      const ids = await invoices(db, n, leased);
      return ids.map((id) => async (hot) => {
        if (
          !(await hot.updateLeased(
            id,
            OWNER,
            { refreshOrder: false, customerName: "Ayşe Yılmaz" },
            { incrementAttempts: true },
          ))
        )
          throw new Error("updateLeased: lost");
      });
    },
  },
  {
    name: "callbackTarget",
    statement: "callbackTarget",
    prepare: async (db, n) => {
      const ids = await invoices(db, n);
      return ids.map((id) => (hot) => hot.callbackTarget(id));
    },
  },
  {
    name: "markCallback",
    statement: "markCallback",
    concurrent: true,
    prepare: async (db, n) => {
      const ids = await invoices(db, n, (i) => ({
        state: "processing",
        remoteId: 2_000_000 + seq + i,
        nextAttemptAt: new Date(Date.now() + 30_000),
      }));
      const remote = await db.invoice.findMany({ where: { id: { in: ids } }, select: { id: true, remoteId: true } });
      return remote.map(({ id, remoteId }) => async (hot) => {
        const now = new Date();
        const mark = await hot.markCallback(
          id,
          remoteId!,
          { type: "callback", at: now, dedupeKey: `cb:${id}:${unique()}` },
          new Date(now.getTime() + 1000),
          now,
        );
        if (mark !== "marked") throw new Error(`markCallback: ${mark}`);
      });
    },
  },
  {
    name: "scheduleRead",
    statement: "scheduleRead",
    concurrent: true,
    prepare: async (db, n) => {
      const ids = await invoices(db, n, (i) => ({
        state: "processing",
        remoteId: 3_000_000 + seq + i,
        nextAttemptAt: new Date(Date.now() + 30_000),
      }));
      const remote = await db.invoice.findMany({ where: { id: { in: ids } }, select: { id: true, remoteId: true } });
      return remote.map(({ id, remoteId }) => async (hot) => {
        if (!(await hot.scheduleRead(id, remoteId!, new Date(Date.now() + 2000))))
          throw new Error("scheduleRead: none");
      });
    },
  },
  {
    name: "notify",
    statement: "notify",
    prepare: async (_db, n) => Array.from({ length: n }, () => (hot) => hot.notify("ab_bench")),
  },
];

async function time(
  calls: Array<(hot: HotStatements) => Promise<unknown>>,
  hot: HotStatements,
  inFlight: number,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls.length; i += inFlight)
    await Promise.all(calls.slice(i, i + inFlight).map((call) => call(hot)));
  return ((performance.now() - started) * 1000) / calls.length;
}

export interface AbLine {
  database: string;
  scenario: string;
  statement: HotStatementName;
  mode: "sequential" | "16 at once";
  sqlUs: number;
  prismaUs: number;
  ratio: number;
}

async function benchDatabase(label: string, databaseUrl: string): Promise<AbLine[]> {
  await migrate(databaseUrl);
  const db = createDb(databaseUrl);
  await db.shop.create({
    data: {
      domain: SHOP,
      name: "ab",
      currency: "TRY",
      timezone: "Europe/Istanbul",
      settings: { create: { baseUrl: "http://127.0.0.1:1", apiKeyEncrypted: "x", teamId: 7 } },
    },
  });
  await db.session.create({
    data: {
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      isOnline: false,
      scope: "read_orders,write_orders",
      accessToken: "x",
    },
  });
  await invoices(db, HISTORY, (i) => ({
    state: "completed",
    remoteId: 10_000_000 + i,
    serialNumber: `ARS2026${String(i).padStart(9, "0")}`,
    ettn: `e${i}`,
  }));
  const paths: Record<Via, HotStatements> = {
    sql: createHotStatements(databaseUrl, db, () => "sql"),
    prisma: createHotStatements(databaseUrl, db, (name) => (name === "claimRows" ? "sql" : "prisma")),
  };
  // Only the statements the dialect still has as hand-written SQL can be timed both ways; the others were deleted
  // after this benchmark measured them (docs/decisions/0041-hand-written-sql-after-prisma-7.md has those figures).
  const dialect = dialectStatements(databaseUrl, db);
  const handWritten = new Set(HOT_STATEMENTS.filter((name) => dialect[name]));
  await dialect.close();
  const lines: AbLine[] = [];
  for (const scenario of SCENARIOS) {
    if (ONLY && !ONLY.includes(scenario.statement)) continue;
    if (!handWritten.has(scenario.statement)) {
      console.log(`${label}\t${scenario.name}\tno hand-written SQL any more: Prisma only`);
      continue;
    }
    if (scenario.statement === "notify" && label === "SQLite") continue; // nothing to send: the workers poll
    for (const inFlight of scenario.concurrent ? [1, 16] : [1]) {
      const samples: Record<Via, number[]> = { sql: [], prisma: [] };
      // One round of warm-up each (prepared statements, Prisma's query plan cache), not counted.
      for (let round = -1; round < ROUNDS; round++) {
        const order: Via[] = round % 2 === 0 ? ["sql", "prisma"] : ["prisma", "sql"];
        for (const via of order) {
          const calls = await scenario.prepare(db, CALLS);
          const us = await time(calls, paths[via], inFlight);
          if (round >= 0) samples[via].push(us);
        }
      }
      const line: AbLine = {
        database: label,
        scenario: scenario.name,
        statement: scenario.statement,
        mode: inFlight === 1 ? "sequential" : "16 at once",
        sqlUs: median(samples.sql),
        prismaUs: median(samples.prisma),
        ratio: median(samples.prisma) / median(samples.sql),
      };
      console.log(
        `${label}\t${line.scenario}\t${line.mode}\tsql ${line.sqlUs.toFixed(0)} µs\tprisma ${line.prismaUs.toFixed(0)} µs\t${line.ratio.toFixed(2)}×`,
      );
      lines.push(line);
    }
  }
  await paths.sql.close();
  await paths.prisma.close();
  await db.$disconnect();
  return lines;
}

export async function runAb(postgres: string | undefined): Promise<void> {
  const dir = path.resolve("tmp/bench");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "hot-ab.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const lines = await benchDatabase("SQLite", `file:${file}`);
  if (postgres) {
    const admin = new pg.Client({ connectionString: postgres });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "bench_hot_ab" CASCADE`);
    await admin.query(`CREATE SCHEMA "bench_hot_ab"`);
    await admin.end();
    lines.push(
      ...(await benchDatabase("PostgreSQL", `${postgres}${postgres.includes("?") ? "&" : "?"}schema=bench_hot_ab`)),
    );
  }
  console.log(
    `\n| statement (scenario) | mode | SQLite: SQL µs | SQLite: Prisma µs | SQLite ratio | PostgreSQL: SQL µs | PostgreSQL: Prisma µs | PostgreSQL ratio |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|`);
  const keys = [...new Set(lines.map((line) => `${line.scenario}\t${line.mode}`))];
  for (const key of keys) {
    const [scenario, mode] = key.split("\t");
    const of = (database: string) =>
      lines.find((line) => line.database === database && line.scenario === scenario && line.mode === mode);
    const cells = (line: AbLine | undefined) =>
      line
        ? [line.sqlUs.toFixed(0), line.prismaUs.toFixed(0), `**${line.ratio.toFixed(2)}×**`]
        : ["—", "—", "Prisma only"];
    console.log(
      `| ${scenario} | ${mode} | ${cells(of("SQLite")).join(" | ")} | ${cells(of("PostgreSQL")).join(" | ")} |`,
    );
  }
  console.log(
    `\nStatements: ${HOT_STATEMENTS.join(", ")}; claimRows has no Prisma form and is not timed here (bench/claim.bench.ts).`,
  );
}
