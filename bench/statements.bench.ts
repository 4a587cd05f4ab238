// Database statements per order, counted (not timed): N orders through the real webhook route, the in-process
// worker, the sandbox's callbacks and the status reads, on a fresh SQLite file. Every statement either
// connection runs (Prisma's adapter and app/db/hot.server.ts both use better-sqlite3) is counted at the driver.
// npx tsx bench/statements.bench.ts [--orders=50]
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { benchOrder } from "./orders";
import { API_KEY, API_SECRET_KEY, APP_URL } from "@shopify/shopify-api/test-helpers";

const ORDERS = Number(process.argv.find((arg) => arg.startsWith("--orders="))?.split("=")[1] ?? 50);

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

// Count at the driver: every statement runs through one of these Statement methods.
const counts = { statements: 0, prisma: 0 };
const bySql = new Map<string, number>();
let phase = "setup";
const probe = new Database(":memory:").prepare("SELECT 1");
const proto = Object.getPrototypeOf(probe) as Record<string, (...args: unknown[]) => unknown>;
for (const method of ["run", "get", "all", "iterate"]) {
  const original = proto[method];
  proto[method] = function (this: unknown, ...args: unknown[]) {
    counts.statements++;
    // Prisma's query builder writes `main`.`Table`; the prepared statements of app/db/hot.server.ts and Prisma's
    // own BEGIN/COMMIT do not.
    if (String((this as { source: string }).source).includes("`main`.")) counts.prisma++;
    if (process.env.STATEMENTS_LOG) {
      const sql = String((this as { source: string }).source).replace(/\s+/g, " ").slice(0, 90);
      bySql.set(`${phase} ${sql}`, (bySql.get(`${phase} ${sql}`) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
}

const { migrate } = await import("../app/db/migrate");
await migrate(process.env.DATABASE_URL);
const { startTestPipeline, connectShop } = await import("../test/helpers/pipeline");
const { installShop, prisma } = await import("../test/helpers/db");
const { SHOP } = await import("../test/helpers/shopify");

const pipeline = await startTestPipeline({ formalizeDelayMs: 50 });
await installShop(SHOP);
await connectShop(pipeline.sandbox, SHOP);
const body = (i: number) => benchOrder(i, 8_000_000_000_000, "S");

phase = "webhook";
const before = counts.statements;
const beforePrisma = counts.prisma;
for (let i = 0; i < ORDERS; i++) {
  const response = await pipeline.deliverPaid(body(i));
  if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
}
const webhook = counts.statements - before;
const webhookPrisma = counts.prisma - beforePrisma;

const { InvoicingClient } = await import("../app/invoicing/client");
// The client's own timeouts (the test pipeline's are short), and the worker's production poll interval.
const worker = await pipeline.startWorker({
  concurrency: 16,
  perShopLimit: 16,
  pollMs: 1000,
  clientFor: (connection) => new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey }),
});
phase = "worker";
const started = counts.statements;
const startedPrisma = counts.prisma;
const deadline = Date.now() + 120_000;
while ((await prisma.invoice.count({ where: { state: { not: "completed" } } })) > 0) {
  if (Date.now() > deadline) throw new Error("orders did not complete");
  await new Promise((resolve) => setTimeout(resolve, 200));
}
await worker.stop();
// The polling above ran statements too: count them out (one count per loop), roughly, by running the same count.
const polled = counts.statements;
const workedPrisma = counts.prisma - startedPrisma;
await prisma.invoice.count({ where: { state: { not: "completed" } } });
const perPoll = counts.statements - polled;
const worked = polled - started;
console.log(
  JSON.stringify({
    orders: ORDERS,
    webhookStatementsPerOrder: +(webhook / ORDERS).toFixed(1),
    webhookPrismaBuiltPerOrder: +(webhookPrisma / ORDERS).toFixed(1),
    workerAndCallbackStatementsPerOrder: +(worked / ORDERS).toFixed(1),
    workerAndCallbackPrismaBuiltPerOrder: +(workedPrisma / ORDERS).toFixed(1),
    note: `the worker figure includes this script's polling (${perPoll} statement per poll, every 200 ms)`,
    serviceRequests: {
      post: pipeline.requests.filter((line) => line.startsWith("POST /api/invoices ")).length,
      get: pipeline.requests.filter((line) => /^GET \/api\/invoices\/\d+ /.test(line)).length,
    },
  }),
);
if (process.env.STATEMENTS_LOG) for (const [sql, n] of [...bySql].sort((a, b) => b[1] - a[1])) console.log(n, sql);
await pipeline.stop();
process.exit(0);
