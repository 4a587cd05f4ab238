// Backfill of past orders (issues 10 and 26): N paid orders read through the Admin GraphQL stand-in and invoiced
// through the invoicing sandbox, by the real machinery: the past-orders page's action (dry run, then Start) on the
// production build, and the real worker process (`scripts/worker.ts`: its scheduler reads, its slots post the
// invoices). The stand-in runs at Shopify's standard plan (100 points/s, bucket 2,000) and builds a bulk operation
// in `--bulk-ms-per-object` (1 ms) per order; a range of 250 orders or more is read in bulk (docs/decisions/0028).
// Timed from Start until every order is read and recorded, and until the run is "done" (every invoice final),
// against
//   read ideal    = the bulk operation's build time (orders × ms per order),
//   service ideal = orders × 2 service round trips (POST, one GET after the final callback) × latency ÷ per-shop slots.
// Same run, for comparison: a bare bulk read (the app's Admin API client alone: start, poll, download, convert)
// and the paged read's points per order over a sample of pages (with what it means at 100 points/s).
// Run: npm run build && npx tsx bench/backfill.bench.ts [--orders=10000] [--restore-rate=100] [--bucket-size=2000]
//        [--bulk-ms-per-object=1] [--graphql-latency=100] [--service-latency=50] [--worker-concurrency=16]
//        [--paged-sample=200] [--no-baseline]
import { spawn } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startLocalStack } from "../scripts/lib/local-stack";
import { paidOrder } from "../test/helpers/orders";
import { stopProcess } from "../test/helpers/processes";
import { USER_AGENT } from "../test/helpers/browser";

// The app's modules read their configuration when loaded; this process only uses their Admin API client and
// database access (the app itself runs as the production build, with its own environment).
Object.assign(process.env, {
  SHOPIFY_API_KEY: "bench",
  SHOPIFY_API_SECRET: "bench",
  SHOPIFY_APP_URL: "http://127.0.0.1",
  ENCRYPTION_KEY: "0".repeat(64),
  LOCAL_SERVICES: "1",
  LOG_LEVEL: "warn",
  DATABASE_URL: `file:${path.resolve("tmp/bench/backfill-unused.sqlite")}`,
});
mkdirSync(path.resolve("tmp/bench"), { recursive: true });
// The stand-in helper loads the app's Shopify module, whose session storage wants its table.
await (await import("../app/db/migrate")).migrate(process.env.DATABASE_URL!, process.cwd());
const { createDb } = await import("../app/db/client");
const { BucketState, createAdminClient } = await import("../app/shopify/client.server");
const { listOrdersWith } = await import("../app/shopify/order-reads");
const { bulkReaderOf } = await import("../test/helpers/standin");
const { createdBetweenQuery } = await import("../app/shopify/order-reader");
const { spawnStandin } = await import("../test/helpers/standin");

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const ORDERS = Number(args.get("orders") ?? 10_000);
const RESTORE_RATE = Number(args.get("restore-rate") ?? 100);
const BULK_MS = Number(args.get("bulk-ms-per-object") ?? 1);
const PAGED_SAMPLE = Number(args.get("paged-sample") ?? 200);
const BUCKET_SIZE = Number(args.get("bucket-size") ?? 2000);
const GRAPHQL_LATENCY_MS = Number(args.get("graphql-latency") ?? 100);
const SERVICE_LATENCY_MS = Number(args.get("service-latency") ?? 50);
const CONCURRENCY = Number(args.get("worker-concurrency") ?? 16);
const BASELINE = !args.has("no-baseline");
const SHOPIFY_RESTORE_RATE = 100;
const SHOPIFY_BUCKET = 2000;
const SHOP = "gecmis-bench.myshopify.com";

const report: string[] = [];
const say = (line: string) => {
  console.log(line);
  report.push(line);
};
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(", ");
const seconds = (ms: number) => (ms / 1000).toFixed(1);

say(`# Backfill benchmark, ${new Date().toISOString()}`);
say(`Command: \`npx tsx bench/backfill.bench.ts ${process.argv.slice(2).join(" ")}\``);
say(
  `Node ${process.version}, ${os.cpus().length} cores; load average (uptime) at the start: ${load()}. ${ORDERS} orders, GraphQL latency ${GRAPHQL_LATENCY_MS} ms, ` +
    `bucket ${BUCKET_SIZE} points restoring **${RESTORE_RATE} points/s** (Shopify's standard plan: ${SHOPIFY_BUCKET} and ${SHOPIFY_RESTORE_RATE}/s), ` +
    `a bulk operation builds in ${BULK_MS} ms per order, sandbox latency ${SERVICE_LATENCY_MS} ms, worker concurrency ${CONCURRENCY} (per shop ${CONCURRENCY}), SQLite, production build.`,
);

// Paid orders over the last 40 days (inside the 60 days Shopify serves without read_all_orders), one line each.
const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const orders = Array.from({ length: ORDERS }, (_, i) => {
  const at = day(2 + (i % 38) + (i % 997) / 1000);
  return paidOrder({ created_at: at, processed_at: at, updated_at: at });
});
const from = new Date(Date.now() - 41 * 86_400_000);

const standin = await spawnStandin(orders, [
  "--shop",
  SHOP,
  "--scopes",
  "read_orders",
  "--latency-ms",
  String(GRAPHQL_LATENCY_MS),
  "--bucket-size",
  String(BUCKET_SIZE),
  "--restore-rate",
  String(RESTORE_RATE),
  "--bulk-ms-per-object",
  String(BULK_MS),
]);
type Stats = {
  queries: number;
  pointsSpent: number;
  throttled: number;
  requests: number;
  bulkOperations: number;
  bulkDownloads: number;
  webhooks: number;
};
const standinStats = async () => (await standin.control("stats")) as Stats;

// ---------------------------------------------------------------------------------------------------------------
// Baseline: the app's Admin API client alone reads the range in bulk (start, poll node(id:) every 250 ms, download,
// convert), measured in the same run; then the paged read's cost over a sample of pages.
const client = createAdminClient({
  shop: SHOP,
  endpoint: `${standin.url}/admin/api/2026-10/graphql.json`,
  accessToken: standin.accessToken,
  bucket: new BucketState(),
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let baseline: { ms: number } | null = null;
if (BASELINE) {
  const bulk = bulkReaderOf(client);
  const started = performance.now();
  const run = await bulk.start(SHOP, createdBetweenQuery(from, new Date()));
  if (!run.ok) throw new Error(run.message);
  let url: string | null = null;
  while (!url) {
    await sleep(250);
    const state = await bulk.status(SHOP, run.id);
    if (state && !["CREATED", "RUNNING"].includes(state.status)) {
      if (!state.url) throw new Error(`the baseline's operation ended ${state.status}`);
      url = state.url;
    }
  }
  const read = await bulk.download(SHOP, url);
  baseline = { ms: performance.now() - started };
  if (read.length !== ORDERS) throw new Error(`the baseline read ${read.length} orders, not ${ORDERS}`);
}
const sampleStats = await standinStats();
let sampled = 0;
let sampleQueries = 0;
{
  let after: string | null = null;
  do {
    const page = await listOrdersWith(client, {
      query: createdBetweenQuery(from, new Date()),
      after,
      sortKey: "CREATED_AT",
    });
    sampled += page.orders.length;
    sampleQueries++;
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after && sampled < PAGED_SAMPLE);
}
const pagedPoints = (await standinStats()).pointsSpent - sampleStats.pointsSpent;
// Let the bucket fill again, so the app's dry run starts with a full bucket.
await sleep(Math.ceil((BUCKET_SIZE / RESTORE_RATE) * 1000) + 200);

// ---------------------------------------------------------------------------------------------------------------
// The app: production build, worker off in the web process; the real worker as its own process.
const cleanup: Array<() => Promise<unknown>> = [() => standin.stop()];
// A failure stops what the benchmark started (the worker and the app would otherwise keep running).
const fail = async (error: unknown) => {
  console.error(error);
  for (const stop of cleanup.reverse()) await stop().catch(() => undefined);
  process.exit(1);
};
process.on("unhandledRejection", fail);
process.on("uncaughtException", fail);
const stack = await startLocalStack({
  name: "bench-backfill",
  shop: SHOP,
  adminApi: { url: standin.url, accessToken: standin.accessToken, scopes: "read_orders" },
  env: { WORKER_MODE: "off", RECONCILE_INTERVAL_MINUTES: "0", LOG_LEVEL: "warn" },
});
// bulk_operations/finish goes to the app's production server, signed with its secret.
await standin.control("webhooks", { url: stack.appUrl, secret: stack.secret });
stack.sandbox.faults.setLatency(SERVICE_LATENCY_MS);
// The sandbox starts with one formalised invoice of its own.
const seeded = stack.sandbox.invoices.all().length;
const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
  env: {
    ...stack.env,
    WORKER_CONCURRENCY: String(CONCURRENCY),
    WORKER_PER_SHOP: String(CONCURRENCY),
    RECONCILE_INTERVAL_MINUTES: "0",
    LOG_LEVEL: "warn",
  },
  stdio: "inherit",
});
cleanup.push(
  () => stack.stop(),
  () => stopProcess(worker),
);

/** A session token as App Bridge gives the embedded page (HS256 with the app's secret). */
function sessionToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const payload = {
    iss: `https://${SHOP}/admin`,
    dest: `https://${SHOP}`,
    aud: stack.apiKey,
    sub: "1",
    exp: now + 300,
    nbf: now - 5,
    iat: now,
    jti: randomUUID(),
    sid: `bench-${SHOP}`,
  };
  const unsigned = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(payload)}`;
  return `${unsigned}.${createHmac("sha256", stack.secret).update(unsigned).digest("base64url")}`;
}

/** What the bench reads of the page's loader and action answers. */
interface PageData {
  today: string;
  run?: {
    state: string;
    listedAll: boolean;
    lastError: string | null;
    mode: string | null;
    plan: { orders: number };
    progress: Record<string, number>;
  } | null;
  result?: { ok: boolean; id: string };
}

/** The page's own requests: its loader and its action, as Remix's fetcher sends them. */
async function page(body?: unknown): Promise<PageData> {
  const response = await fetch(`${stack.appUrl}/app/past-orders?_data=routes%2Fapp.past-orders`, {
    method: body === undefined ? "GET" : "POST",
    // A person's browser: Shopify's library answers bots (such as Node's fetch) with 410.
    headers: {
      Authorization: `Bearer ${sessionToken()}`,
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`the past-orders page answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return (await response.json()) as PageData;
}

async function waitFor(
  predicate: (data: PageData) => boolean,
  label: string,
  onPoll?: (data: PageData) => void,
): Promise<PageData> {
  const deadline = Date.now() + 3 * 3_600_000;
  for (;;) {
    const data = await page();
    onPoll?.(data);
    if (predicate(data)) return data;
    if (data.run?.state === "failed") throw new Error(`the run failed: ${data.run.lastError}`);
    if (Date.now() > deadline) throw new Error(`${label}: timed out (${JSON.stringify(data.run?.progress)})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const initial = await page();
// Dry run: the page's whole-day range from 41 days ago to today.
const dryStats = await standinStats();
const dryStarted = performance.now();
const dry = await page({ intent: "dry_run", from: from.toISOString().slice(0, 10), to: initial.today });
if (!dry.result?.ok) throw new Error(`dry run refused: ${JSON.stringify(dry)}`);
const ready = await waitFor((data) => data.run?.state === "ready", "dry run");
const dryMs = performance.now() - dryStarted;
const dryPoints = (await standinStats()).pointsSpent - dryStats.pointsSpent;
const dryMode = ready.run!.mode;
if (ready.run!.plan.orders !== ORDERS)
  throw new Error(`the dry run counted ${ready.run!.plan.orders} orders, not ${ORDERS}`);
await new Promise((resolve) => setTimeout(resolve, Math.ceil((BUCKET_SIZE / RESTORE_RATE) * 1000) + 200));

// Start, as the page's button does; then the page's progress until the run is done.
const runStats = await standinStats();
const started = performance.now();
const start = await page({ intent: "start", id: dry.result.id });
if (!start.result?.ok) throw new Error(`start refused: ${JSON.stringify(start)}`);
let listedAllMs = 0;
let runMode: string | null = null;
const done = await waitFor(
  (data) => data.run?.state === "done",
  "run",
  (data) => {
    if (!listedAllMs && data.run?.listedAll) listedAllMs = performance.now() - started;
    runMode = data.run?.mode ?? runMode;
  },
);
const runMs = performance.now() - started;
const after = await standinStats();
const runPoints = after.pointsSpent - runStats.pointsSpent;
const runQueries = after.queries - runStats.queries;
const loadAtEnd = load();

const db = createDb(stack.databaseUrl);
const completed = await db.invoice.count({ where: { state: "completed" } });
const notCompleted = await db.invoice.count({ where: { state: { not: "completed" } } });
const atService = stack.sandbox.invoices.all().length - seeded;
const operations = await db.bulkOperation.findMany({
  select: { status: true, polls: true, downloads: true, createdAt: true, finishedAt: true },
});
const finishDeliveries = await db.webhookDelivery.findMany({
  where: { topic: "BULK_OPERATIONS_FINISH" },
  select: { result: true },
});
await db.$disconnect();

// ---------------------------------------------------------------------------------------------------------------
const readIdeal = (ORDERS * BULK_MS) / 1000;
const serviceIdeal = (ORDERS * 2 * SERVICE_LATENCY_MS) / CONCURRENCY / 1000;
const pagedPerOrder = pagedPoints / sampled;
const pagedAtRate = Math.max(0, ORDERS * pagedPerOrder - BUCKET_SIZE) / RESTORE_RATE;

say(`\n## Result (load average at the end: ${loadAtEnd})`);
say(`| | time | |`);
say(`|---|---|---|`);
if (baseline)
  say(
    `| baseline: the app's client alone reads the ${ORDERS} orders in bulk (start, poll every 250 ms, download, convert) | ${seconds(baseline.ms)} s | |`,
  );
say(`| dry run (page's action → "ready"), read ${dryMode} | ${seconds(dryMs)} s | ${dryPoints} points |`);
say(
  `| **run: Start → every order read and recorded** (read ${runMode}) | **${seconds(listedAllMs)} s** | target < 300 s |`,
);
say(
  `| **run: Start → "done" (every invoice final)** | **${seconds(runMs)} s** | ${runQueries} queries, ${runPoints} points |`,
);
say(`| read ideal: ${ORDERS} × ${BULK_MS} ms to build the operation | ${readIdeal.toFixed(1)} s | |`);
say(
  `| service ideal: ${ORDERS} × 2 round trips × ${SERVICE_LATENCY_MS} ms ÷ ${CONCURRENCY} slots | ${serviceIdeal.toFixed(1)} s | |`,
);
if (baseline) say(`| ratio read and recorded ÷ baseline | ${(listedAllMs / baseline.ms).toFixed(2)}× | |`);
say(
  `| **ratio done ÷ (read ideal + service ideal)** | **${(runMs / 1000 / (readIdeal + serviceIdeal)).toFixed(2)}×** | target ≤ 1.5× |`,
);
say(`| ratio done ÷ service ideal | ${(runMs / 1000 / serviceIdeal).toFixed(2)}× | |`);
say(``);
say(
  `Paged read, same run: ${sampled} orders in ${sampleQueries} pages cost ${pagedPoints} points, **${pagedPerOrder.toFixed(1)} points per order** (actual cost); ` +
    `at ${RESTORE_RATE} points/s (bucket ${BUCKET_SIZE}) reading ${ORDERS} orders page by page would take at least ${(pagedAtRate / 60).toFixed(1)} min (computed, not measured).`,
);
say(
  `Rows: ${completed} completed, ${notCompleted} not completed; ${atService} invoices created at the sandbox; progress at the end: ${JSON.stringify(done.run!.progress)}; ` +
    `THROTTLED answers during the run: ${after.throttled - runStats.throttled}; bulk operations: ${after.bulkOperations}, downloads: ${after.bulkDownloads}, finish webhooks sent: ${after.webhooks}, ` +
    `received by the app: ${JSON.stringify(finishDeliveries.map((d) => d.result))}; the app's operations: ${JSON.stringify(operations.map((o) => ({ status: o.status, polls: o.polls, downloads: o.downloads, ms: o.finishedAt ? o.finishedAt.getTime() - o.createdAt.getTime() : null })))}.`,
);

await stopProcess(worker);
await stack.stop();
await standin.stop();
const out = path.resolve("tmp/bench");
mkdirSync(out, { recursive: true });
const file = path.join(out, `backfill-${ORDERS}.md`);
rmSync(file, { force: true });
writeFileSync(file, report.join("\n") + "\n");
console.log(`\n(written to ${path.relative(process.cwd(), file)}; copy what you keep into bench/results/backfill.md)`);
process.exit(0);
