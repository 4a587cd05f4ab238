// Scale-out of the worker pool on PostgreSQL where the invoicing service is the limit (issue 26, point 5):
// ORDERS queued orders of SHOPS shops (equal sizes unless --zipf), service latency LATENCY ms, 1 worker process of
// SLOTS slots against 2 and 4 processes of SLOTS slots each, all in one run on a fresh schema each. Throughput is
// orders made final per second from the first POST to the last final state (each order is one POST and one status
// read, so the ideal is slots ÷ (2 × latency)); each ratio is against the 1-process run of the same invocation.
// Also: invoices per order at the service (duplicates), and each shop's wait against its max-min fair share.
//   npx tsx bench/scale-out.bench.ts --postgres=postgresql://postgres@127.0.0.1:5432/test [--orders=2000] [--shops=50]
//     [--latency=500] [--slots=8] [--processes=1,2,4] [--per-shop=2] [--zipf]
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { startLocalStack } from "../scripts/lib/local-stack";
import { createDb } from "../app/db/client";
import { SETTLED_STATES } from "../app/invoice-state/transitions";
import { benchOrder as order } from "./orders";
import { cloneShops } from "./shops";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const POSTGRES = args.get("postgres") ?? process.env.TEST_DATABASE_URL;
const ORDERS = Number(args.get("orders") ?? 2000);
const SHOPS = Number(args.get("shops") ?? 50);
const LATENCY = Number(args.get("latency") ?? 500);
const SLOTS = Number(args.get("slots") ?? 8);
const PER_SHOP = Number(args.get("per-shop") ?? 2);
const PROCESSES = (args.get("processes") ?? "1,2,4").split(",").map(Number);
const ZIPF = args.has("zipf");
if (!POSTGRES) throw new Error("pass --postgres=postgresql://...");

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ");

async function run(processes: number) {
  const stack = await startLocalStack({
    name: `bench-scale-${processes}`,
    postgresUrl: POSTGRES,
    env: { WORKER_MODE: "off", LOG_LEVEL: "warn" },
  });
  const db = createDb(stack.databaseUrl);
  const { orderSnapshot } = await import("../app/orders/order");
  const shops = await cloneShops(stack, db, SHOPS);
  const weights = shops.map((_, k) => (ZIPF ? 1 / (k + 1) : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(1, Math.floor((ORDERS * w) / total)));
  sizes[0] += ORDERS - sizes.reduce((a, b) => a + b, 0);
  // Queued as the webhook route queues them, shop after shop, one millisecond apart.
  const base = Date.now() - 60_000;
  let seq = 0;
  for (let k = 0; k < shops.length; k++) {
    const rows = Array.from({ length: sizes[k] }, () => {
      const i = seq++;
      const body = order(2_000_000 + i);
      return {
        shopDomain: shops[k],
        orderId: String(body.id),
        orderName: body.name,
        orderCreatedAt: new Date(body.created_at),
        customerId: String(body.customer.id),
        customerName: "Ayşe Yılmaz",
        orderTotal: body.total_price,
        currency: body.currency,
        orderSnapshot: orderSnapshot(body) as object,
        state: "queued",
        nextAttemptAt: new Date(base + i),
      };
    });
    await db.invoice.createMany({ data: rows });
  }
  stack.sandbox.faults.setLatency(LATENCY);
  const loadBefore = load();
  const workers = Array.from({ length: processes }, () =>
    spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      env: {
        ...stack.env,
        WORKER_CONCURRENCY: String(SLOTS),
        WORKER_PER_SHOP: String(PER_SHOP),
        RECONCILE_INTERVAL_MINUTES: "0",
        LOG_LEVEL: "warn",
      },
      stdio: "inherit",
    }),
  );
  const deadline = Date.now() + 30 * 60_000;
  while ((await db.invoice.count({ where: { state: { notIn: SETTLED_STATES } } })) > 0) {
    if (Date.now() > deadline) throw new Error("not final after 30 minutes");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once("exit", resolve).kill("SIGTERM"))));
  const events = await db.$queryRawUnsafe<
    Array<{ shopDomain: string; first: Date; last: Date; final: Date; n: number }>
  >(
    `SELECT i."shopDomain", MIN(e."at") AS "first", MAX(e."at") FILTER (WHERE e."type" = 'posted') AS "last", MAX(e."at") AS "final",
            COUNT(*) FILTER (WHERE e."type" = 'posted')::int AS "n"
     FROM "InvoiceEvent" AS e JOIN "Invoice" AS i ON i."id" = e."invoiceId" WHERE e."type" IN ('posted', 'status') GROUP BY i."shopDomain"`,
  );
  const at = (date: Date) => new Date(date).getTime();
  const start = Math.min(...events.map((row) => at(row.first)));
  const end = Math.max(...events.map((row) => at(row.final)));
  const seconds = (end - start) / 1000;
  const perSecond = ORDERS / seconds;
  const postedPerSecond = ORDERS / ((Math.max(...events.map((row) => at(row.last))) - start) / 1000);
  // Fair share: an equal part of the posts per second measured in this run to every shop with orders left.
  const fair = shops.map((shop, k) => {
    const row = events.find((e) => e.shopDomain === shop);
    const fairSeconds = sizes.reduce((sum, n) => sum + Math.min(n, sizes[k]), 0) / postedPerSecond;
    return row ? (at(row.last) - start) / 1000 / fairSeconds : Infinity;
  });
  const ids = new Set((await db.invoice.findMany({ select: { orderId: true } })).map((row) => row.orderId));
  const perOrder = new Map<string, number>();
  for (const invoice of stack.sandbox.invoices.all())
    if (ids.has(String(invoice.order_id)))
      perOrder.set(String(invoice.order_id), (perOrder.get(String(invoice.order_id)) ?? 0) + 1);
  const completed = await db.invoice.count({ where: { state: "completed" } });
  await db.$disconnect();
  await stack.stop();
  return {
    processes,
    seconds,
    perSecond,
    ideal: (processes * SLOTS) / ((2 * LATENCY) / 1000),
    completed,
    duplicates: [...perOrder.values()].filter((n) => n > 1).length,
    missing: ORDERS - perOrder.size,
    worstFair: Math.max(...fair),
    medianFair: [...fair].sort((a, b) => a - b)[Math.floor(fair.length / 2)],
    loadBefore,
    loadAfter: load(),
  };
}

const results = [];
for (const processes of PROCESSES) {
  const result = await run(processes);
  results.push(result);
  console.log(JSON.stringify(result));
}
const one = results.find((r) => r.processes === 1) ?? results[0];
const lines = [
  `${ORDERS} orders of ${SHOPS} shops (${ZIPF ? "Zipf sizes" : "equal sizes"}), service latency ${LATENCY} ms, ${SLOTS} slots per process, ${PER_SHOP} per shop`,
  `| processes | final in s | orders/s | ideal orders/s | × one process | duplicates | without invoice | completed | worst wait/fair share | median | load before → after |`,
  `|---|---|---|---|---|---|---|---|---|---|---|`,
  ...results.map(
    (r) =>
      `| ${r.processes} | ${r.seconds.toFixed(1)} | ${r.perSecond.toFixed(2)} | ${r.ideal.toFixed(1)} | ${(r.perSecond / one.perSecond).toFixed(2)} | ${r.duplicates} | ${r.missing} | ${r.completed} | ${r.worstFair.toFixed(2)} | ${r.medianFair.toFixed(2)} | ${r.loadBefore} → ${r.loadAfter} |`,
  ),
];
console.log("\n" + lines.join("\n"));
process.exit(0);
