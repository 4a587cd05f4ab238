// Recovery after a crash (issue 26, point 7), with a REAL PostgreSQL restart: run by hand, never in CI (the server is
// shared). Two worker processes (one slot each, the shop's share of 2 between them) work through ORDERS queued orders
// of one shop at a service latency of LATENCY ms; once both have a post in flight, one is killed (SIGKILL) and
// PostgreSQL is restarted at once. Measured: how long after the database came back the shop's invoicing resumed (the
// first post or lookup-settle stored), and whether anything was lost or duplicated.
//   npx tsx bench/recovery.bench.ts --postgres=postgresql://postgres@127.0.0.1:5432/test [--orders=60] [--latency=500]
// The automated test of the same (test/worker/recovery.db.test.ts) cuts one worker's connection with a TCP
// proxy instead of restarting the shared server.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import pg from "pg";
import { startLocalStack } from "../scripts/lib/local-stack";
import { benchOrder as order } from "./orders";
import { SETTLED_STATES, STATE } from "../app/invoice-state/transitions";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const POSTGRES = args.get("postgres") ?? process.env.TEST_DATABASE_URL;
const ORDERS = Number(args.get("orders") ?? 60);
const LATENCY = Number(args.get("latency") ?? 500);
if (!POSTGRES) throw new Error("pass --postgres=postgresql://...");

const stack = await startLocalStack({
  name: "bench-recovery",
  postgresUrl: POSTGRES,
  env: { WORKER_MODE: "off", LOG_LEVEL: "warn" },
});
const schema = new URL(stack.databaseUrl).searchParams.get("schema")!;
const pool = new pg.Pool({ connectionString: POSTGRES, options: `-c search_path="${schema}"`, max: 2 });
pool.on("error", () => undefined);
/** A query that waits out the restart: the bench's own connection dies with it too. */
async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  for (let i = 0; ; i++) {
    try {
      return (await pool.query<T>(text, values)).rows;
    } catch (error) {
      if (i > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

for (let start = 0; start < ORDERS; start += 50) {
  await Promise.all(
    Array.from({ length: Math.min(50, ORDERS - start) }, (_, k) =>
      stack.deliver("orders/paid", order(800_000 + start + k)),
    ),
  );
}
stack.sandbox.faults.setLatency(LATENCY);
const workers: ChildProcess[] = [0, 1].map(() =>
  spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: {
      ...stack.env,
      WORKER_CONCURRENCY: "1",
      WORKER_PER_SHOP: "2",
      RECONCILE_INTERVAL_MINUTES: "0",
      LOG_LEVEL: "warn",
    },
    stdio: "inherit",
  }),
);
const holds = async (worker: ChildProcess) =>
  (
    await query<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM "Invoice" WHERE "state" = $2 AND "attempts" > 0 AND "leaseOwner" LIKE $1`,
      [`worker-${worker.pid}-%`, STATE.sending],
    )
  )[0].n > 0;
while (!((await holds(workers[0])) && (await holds(workers[1]))))
  await new Promise((resolve) => setTimeout(resolve, 20));

const killedAt = Date.now();
workers[0].kill("SIGKILL");
const version = readdirSync("/etc/postgresql")[0];
execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "restart"], { stdio: "inherit" });
const backAt = Date.now();

const open = async () =>
  (
    await query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "Invoice" WHERE "state" <> ALL ($1::text[])`, [
      SETTLED_STATES,
    ])
  )[0].n;
const deadline = Date.now() + 10 * 60_000;
while ((await open()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));

const progress = `"type" IN ('posted', 'settled', 'status')`;
const [first] = await query<{ at: Date }>(
  `SELECT "at" FROM "InvoiceEvent" WHERE ${progress} AND "at" >= $1 ORDER BY "at" LIMIT 1`,
  [new Date(backAt).toISOString()],
);
const [last] = await query<{ at: Date }>(
  `SELECT "at" FROM "InvoiceEvent" WHERE ${progress} AND "at" < $1 ORDER BY "at" DESC LIMIT 1`,
  [new Date(killedAt).toISOString()],
);
// The event times are written by the workers as UTC timestamps without a zone; pg reads them in the local zone.
const utc = (date: Date) => date.getTime() - date.getTimezoneOffset() * 60_000;
const rows = await query<{ orderId: string; remoteId: number | null; state: string }>(
  `SELECT "orderId", "remoteId", "state" FROM "Invoice"`,
);
// The sandbox holds seeded invoices of its own (order 1001 of sandbox/examples.ts): only the bench's orders count.
const ordered = new Set(rows.map((row) => row.orderId));
const atService = stack.sandbox.invoices.all().filter((invoice) => ordered.has(String(invoice.order_id)));
const perOrder = new Map<string, number>();
for (const invoice of atService)
  perOrder.set(String(invoice.order_id), (perOrder.get(String(invoice.order_id)) ?? 0) + 1);
const duplicates = [...perOrder.values()].filter((n) => n > 1).length;
const missing = rows.filter((row) => !perOrder.has(row.orderId) || row.remoteId === null).length;

const line =
  `${ORDERS} orders of one shop, 2 worker processes of 1 slot (share 2), service latency ${LATENCY} ms, WORKER_LEASE_MS default; ` +
  `worker killed and PostgreSQL restarted (the restart took ${((backAt - killedAt) / 1000).toFixed(1)} s); ` +
  `first post/settle/status read stored ${first ? ((utc(first.at) - backAt) / 1000).toFixed(1) : "never"} s after the database was back ` +
  `(${first && last ? ((utc(first.at) - utc(last.at)) / 1000).toFixed(1) : "?"} s since the last one before the kill); ` +
  `${rows.length} rows, ${rows.filter((r) => r.state === "completed").length} completed, ${atService.length} invoices at the service, ${duplicates} orders with more than one, ${missing} without one`;
console.log(line);
workers[1].kill("SIGTERM");
await new Promise((resolve) => workers[1].once("exit", resolve));
await pool.end();
await stack.stop();
process.exit(0);
