// Database statements per order, counted (not timed): N orders through the real webhook route, the in-process
// worker, the sandbox's callbacks and the status reads, on a fresh SQLite file. Every statement either
// connection runs (Prisma's adapter and app/db/hot.server.ts both use better-sqlite3) is counted at the driver.
// With --postgres=URL the same run is on PostgreSQL (schema bench_statements), and what is counted is round trips:
// every query of the pg driver (Prisma's adapter and the hot pool both use it) waits for its answer before the next
// one is sent on that connection (node-postgres does not pipeline), so one query is one round trip. The end of a job
// (`finishJob`) is counted apart, by the state it leaves the row in.
// npx tsx bench/statements.bench.ts [--orders=50] [--postgres=postgresql://postgres@127.0.0.1:5432/test]
// With --ab [--rounds=9] [--calls=100] [--history=5000] [--statements=a,b]: each hot statement timed through Prisma's
// client and through the hand-written SQL instead, in the same run (bench/hot-ab.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { benchOrder } from "./orders";
import { API_KEY, API_SECRET_KEY, APP_URL } from "@shopify/shopify-api/test-helpers";

const ORDERS = Number(process.argv.find((arg) => arg.startsWith("--orders="))?.split("=")[1] ?? 50);
const POSTGRES = process.argv.find((arg) => arg.startsWith("--postgres="))?.slice("--postgres=".length);
if (process.argv.includes("--ab")) {
  // Each hot statement through Prisma and through the hand-written SQL, timed in the same run (bench/hot-ab.ts).
  const { runAb } = await import("./hot-ab");
  await runAb(POSTGRES);
  process.exit(0);
}

Object.assign(process.env, {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  SHOPIFY_API_KEY: API_KEY,
  SHOPIFY_API_SECRET: API_SECRET_KEY,
  SHOPIFY_APP_URL: APP_URL,
  LOCAL_SERVICES: "1",
  ENCRYPTION_KEY: "6d1a7f0c2b9e4d3a8c5f1e0b7a2d9c4e3f6a1b8d5c2e9f0a7b4d1c8e5f2a9b6c",
});
const dir = path.resolve("tmp/bench");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, "statements.sqlite");
for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
process.env.DATABASE_URL = `file:${file}`;
if (POSTGRES) {
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "bench_statements" CASCADE`);
  await admin.query(`CREATE SCHEMA "bench_statements"`);
  await admin.end();
  process.env.DATABASE_URL = `${POSTGRES}${POSTGRES.includes("?") ? "&" : "?"}schema=bench_statements`;
}

// Count at the driver: every statement runs through one of these Statement methods.
const counts = { statements: 0, prisma: 0, control: 0 };
// Transaction control and pragmas (BEGIN, SAVEPOINT, RELEASE, COMMIT; a group commit's two lock-wait pragmas): counted
// apart from the statements that read or write data.
const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b/i;
const bySql = new Map<string, number>();
let phase = "setup";
const probe = new Database(":memory:").prepare("SELECT 1");
const proto = Object.getPrototypeOf(probe) as Record<string, (...args: unknown[]) => unknown>;
for (const method of ["run", "get", "all", "iterate"]) {
  const original = proto[method];
  proto[method] = function (this: unknown, ...args: unknown[]) {
    counts.statements++;
    if (CONTROL.test(String((this as { source: string }).source))) counts.control++;
    // Prisma's query builder writes `main`.`Table`; the prepared statements of app/db/hot.server.ts and Prisma's
    // own BEGIN/COMMIT do not.
    if (String((this as { source: string }).source).includes("`main`.")) counts.prisma++;
    if (process.env.STATEMENTS_LOG) {
      const sql = String((this as { source: string }).source)
        .replace(/\s+/g, " ")
        .slice(0, 90);
      bySql.set(`${phase} ${sql}`, (bySql.get(`${phase} ${sql}`) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
}

// PostgreSQL: every query is a round trip; those made inside finishJob are counted by the state the job leaves. A
// pool's query is counted when it is called (in its caller's context: the client it runs on may be handed over
// later, by whichever job releases one), a checked-out client's query when it is called.
const inFinish = new AsyncLocalStorage<{ trips: number }>();
const finishes = new Map<string, { calls: number; trips: number }>();
const pgCounts = { trips: 0 };
const count = () => {
  pgCounts.trips++;
  const finish = inFinish.getStore();
  if (finish) finish.trips++;
};
let inPoolQuery = false;
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (!inPoolQuery) count();
  return clientQuery.apply(this, args);
} as typeof pg.Client.prototype.query;
const poolQuery = pg.Pool.prototype.query as (...args: unknown[]) => unknown;
pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
  count();
  return poolQuery.apply(this, args);
} as typeof pg.Pool.prototype.query;
// pg-pool's query checks a client out with a callback and runs its query inside it: not counted again.
const poolConnect = pg.Pool.prototype.connect as (...args: unknown[]) => unknown;
pg.Pool.prototype.connect = function (this: pg.Pool, ...args: unknown[]) {
  const [callback] = args;
  if (typeof callback !== "function") return poolConnect.apply(this, args);
  return poolConnect.call(this, (...result: unknown[]) => {
    inPoolQuery = true;
    try {
      return (callback as (...values: unknown[]) => unknown)(...result);
    } finally {
      inPoolQuery = false;
    }
  });
} as typeof pg.Pool.prototype.connect;

const { migrate } = await import("../app/db/migrate");
await migrate(process.env.DATABASE_URL);
const { startTestPipeline, connectShop } = await import("../test/helpers/pipeline");
const { installShop, prisma } = await import("../test/helpers/db");
const { SHOP } = await import("../test/helpers/shopify");

const pipeline = await startTestPipeline({ formalizeDelayMs: 50 });
if (POSTGRES) {
  const statements = (await import("../app/db.server")).hot();
  const finishJob = statements.finishJob.bind(statements);
  statements.finishJob = async (job) => {
    const store = { trips: 0 };
    const result = await inFinish.run(store, () => finishJob(job));
    const kind = `${String(job.values.state ?? "unchanged")}${job.writeBack ? " + write-back" : ""}${job.callbacksSince ? " + callback check" : ""}${result.stored ? "" : " (lease lost)"}`;
    const entry = finishes.get(kind) ?? { calls: 0, trips: 0 };
    finishes.set(kind, { calls: entry.calls + 1, trips: entry.trips + store.trips });
    return result;
  };
}
await installShop(SHOP);
await connectShop(pipeline.sandbox, SHOP);
const body = (i: number) => benchOrder(i, 8_000_000_000_000, "S");

phase = "webhook";
const tripsBefore = pgCounts.trips;
const before = counts.statements;
const beforePrisma = counts.prisma;
const beforeControl = counts.control;
for (let i = 0; i < ORDERS; i++) {
  const response = await pipeline.deliverPaid(body(i));
  if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
}
const webhook = counts.statements - before;
const webhookTrips = pgCounts.trips - tripsBefore;
const webhookPrisma = counts.prisma - beforePrisma;
const webhookControl = counts.control - beforeControl;

const { InvoicingClient } = await import("../app/invoicing-service/client");
// The client's own timeouts (the test pipeline's are short), and the worker's production poll interval.
const worker = await pipeline.startWorker({
  concurrency: 16,
  perShopLimit: 16,
  pollMs: 1000,
  clientFor: (connection) => new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey }),
});
phase = "worker";
const started = counts.statements;
const tripsStarted = pgCounts.trips;
const startedPrisma = counts.prisma;
const startedControl = counts.control;
const deadline = Date.now() + 120_000;
while ((await prisma.invoice.count({ where: { state: { not: "completed" } } })) > 0) {
  if (Date.now() > deadline) throw new Error("orders did not complete");
  await new Promise((resolve) => setTimeout(resolve, 200));
}
await worker.stop();
// The polling above ran statements too: count them out (one count per loop), roughly, by running the same count.
const polled = counts.statements;
const tripsPolled = pgCounts.trips;
const workedPrisma = counts.prisma - startedPrisma;
const workedControl = counts.control - startedControl;
await prisma.invoice.count({ where: { state: { not: "completed" } } });
const perPoll = counts.statements - polled;
const tripsPerPoll = pgCounts.trips - tripsPolled;
const worked = polled - started;
const postgres = POSTGRES && {
  roundTripsPerOrder: {
    webhook: +(webhookTrips / ORDERS).toFixed(1),
    workerAndCallbacks: +((tripsPolled - tripsStarted) / ORDERS).toFixed(1),
  },
  note: `the worker figure includes this script's polling (${tripsPerPoll} round trip per poll, every 200 ms)`,
  finishJob: Object.fromEntries(
    [...finishes].map(([kind, { calls, trips }]) => [kind, { calls, roundTripsEach: +(trips / calls).toFixed(2) }]),
  ),
};
console.log(
  JSON.stringify({
    orders: ORDERS,
    ...(postgres ? { postgres } : {}),
    webhookStatementsPerOrder: +(webhook / ORDERS).toFixed(1),
    webhookControlStatementsPerOrder: +(webhookControl / ORDERS).toFixed(1),
    webhookPrismaBuiltPerOrder: +(webhookPrisma / ORDERS).toFixed(1),
    workerAndCallbackStatementsPerOrder: +(worked / ORDERS).toFixed(1),
    workerAndCallbackControlStatementsPerOrder: +(workedControl / ORDERS).toFixed(1),
    workerAndCallbackPrismaBuiltPerOrder: +(workedPrisma / ORDERS).toFixed(1),
    note: `the worker figure includes this script's polling (${perPoll} statement per poll, every 200 ms); the control figures (BEGIN, SAVEPOINT, RELEASE, COMMIT, PRAGMA) are part of the statement figures`,
    serviceRequests: {
      post: pipeline.requests.filter((line) => line.startsWith("POST /api/invoices ")).length,
      get: pipeline.requests.filter((line) => /^GET \/api\/invoices\/\d+ /.test(line)).length,
    },
  }),
);
if (process.env.STATEMENTS_LOG) for (const [sql, n] of [...bySql].sort((a, b) => b[1] - a[1])) console.log(n, sql);
await pipeline.stop();
process.exit(0);
