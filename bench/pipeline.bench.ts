// Pipeline benchmarks, all in one run on this machine (npx tsx bench/pipeline.bench.ts):
// 1. Webhook ingestion: signed orders/paid deliveries per second and p50/p99 answer time of the app's
//    production build on SQLite, against a minimal baseline server that only verifies the HMAC and
//    inserts one row (same machine, same load). Reported as a ratio.
// 2. Idle latency: from sending a webhook to the app being idle, until the sandbox receives the POST
//    (--idle=N samples, 200 by default, after 10 of warm-up).
// 3. Drain: 2,000 queued orders posted through the sandbox at a fixed latency, against the ideal
//    (orders × latency ÷ concurrency) and against a bare worker's drain of the same orders in the same run
//    (bench/bare-worker.ts: what the machine and the stand-in allow at that moment).
// 4. Fairness: 10,000 queued orders of 100 shops on PostgreSQL, each shop's wait against its fair share.
// --only=ingest|idle|drain|fairness runs one part. --via=prisma takes every hot statement that has a Prisma form
// through Prisma's client instead of the hand-written SQL (HOT_STATEMENTS_VIA, app/db/hot.server.ts), for an A/B run. --profile-web=DIR writes a V8 CPU profile of the web process
// during ingestion and the drain (summarise with bench/profile-summary.ts).
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { startLocalStack, freePort } from "../scripts/lib/local-stack";
import { webhookHeaders } from "../scripts/lib/shopify-signing";
import { createDb } from "../app/db/client";
import { cleanDocumentText } from "../app/invoicing-service/text";
import { invoiceBodyJson } from "../app/invoicing-service/invoices";
import { mapOrderToInvoice } from "../app/orders/map-order";
import { parseShopifyOrder } from "../app/orders/order";
import { MappingSettingsSchema } from "../app/settings/schema";
import { startSandbox } from "../sandbox/server";
import { SETTLED_STATES } from "../app/invoice-state/transitions";
import { benchOrder as order } from "./orders";
import { cloneShops } from "./shops";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const REQUESTS = Number(args.get("requests") ?? 3000);
const CONCURRENCY = Number(args.get("concurrency") ?? 32);
const DRAIN_ORDERS = Number(args.get("drain") ?? 2000);
/** Idle latency samples: with 60 the p99 was the single worst one. */
const IDLE_ORDERS = Number(args.get("idle") ?? 200);
const IDLE_WARMUP = 10;
const DRAIN_LATENCY_MS = Number(args.get("latency") ?? 50);
const WORKER_CONCURRENCY = Number(args.get("worker-concurrency") ?? 16);
/** --profile-workers=DIR: each worker process writes a V8 CPU profile there (summarise with bench/profile-summary.ts). */
const PROFILE_DIR = args.get("profile-workers");
/** --via=prisma: the app's processes take the hot statements through Prisma (the A/B switch of app/db/hot.server.ts). */
const VIA_ENV: Record<string, string> = args.get("via") ? { HOT_STATEMENTS_VIA: args.get("via")! } : {};
/**
 * --worker=source starts the workers from TypeScript through tsx (as the tests do) instead of `npm run worker`'s
 * compiled build (build/worker, scripts/build-node.ts), for a before/after of the start-up.
 */
const WORKER_ARGV =
  args.get("worker") === "source"
    ? ["--import", "tsx", "scripts/worker.ts"]
    : ["--conditions=compiled", "build/worker/worker-entry.js"];
const webProfile = () => (args.get("profile-web") ? ["--cpu-prof", `--cpu-prof-dir=${args.get("profile-web")}`] : []);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function load(url: string, shop: string, secret: string, offset: number) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        const rawBody = JSON.stringify(order(offset + i));
        const headers = webhookHeaders({ topic: "orders/paid", shop, rawBody, secret });
        const t0 = performance.now();
        const response = await fetch(url, { method: "POST", headers, body: rawBody });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (response.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: REQUESTS / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
}

/** The least a webhook endpoint can do: verify the HMAC and insert one row into SQLite. */
async function startBaseline(secret: string) {
  const dir = path.resolve("tmp/bench");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "baseline.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE rows (shop TEXT, order_id TEXT, body TEXT, UNIQUE (shop, order_id))");
  const insert = db.prepare("INSERT OR IGNORE INTO rows VALUES (?, ?, ?)");
  const port = await freePort();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const expected = createHmac("sha256", secret).update(body).digest("base64");
    if (expected !== req.headers["x-shopify-hmac-sha256"]) return res.writeHead(401).end();
    const parsed = JSON.parse(body.toString());
    insert.run(req.headers["x-shopify-shop-domain"], String(parsed.id), body.toString());
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/webhooks/orders/paid`,
    stop: () => new Promise((resolve) => server.close(() => resolve(db.close()))),
  };
}

/** Resident set size of a process, in bytes (Linux). */
function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux: /proc/PID/stat, in clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

const report: string[] = [];
const say = (line: string) => {
  console.log(line);
  report.push(line);
};

// 1. Ingestion, worker off so only the webhook route is measured.
if (!args.get("only") || args.get("only") === "ingest") {
  const stack = await startLocalStack({
    name: "bench-ingest",
    env: { WORKER_MODE: "off", LOG_LEVEL: "warn", ...VIA_ENV },
    nodeArgs: webProfile(),
  });
  const baseline = await startBaseline(stack.secret);
  await load(baseline.url, stack.shop, stack.secret, 900_000); // warm-up
  await load(`${stack.appUrl}/webhooks/orders/paid`, stack.shop, stack.secret, 800_000);
  const base = await load(baseline.url, stack.shop, stack.secret, 0);
  // The web process's resident memory, sampled while it takes the deliveries.
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssOf(stack.process.pid!))), 100);
  // The web process's CPU per delivery: unlike the rates, hardly moved by other load on the machine.
  const webCpuStart = cpuMsOf(stack.process.pid!);
  const app = await load(`${stack.appUrl}/webhooks/orders/paid`, stack.shop, stack.secret, 0);
  const webCpu = cpuMsOf(stack.process.pid!) - webCpuStart;
  clearInterval(sampler);
  say(`## 1. Webhook ingestion (${REQUESTS} signed orders/paid, ${CONCURRENCY} concurrent, SQLite)`);
  say(`| server | deliveries/s | p50 ms | p99 ms | non-200 |`);
  say(`|---|---|---|---|---|`);
  say(
    `| baseline (HMAC + one insert) | ${base.perSecond.toFixed(0)} | ${base.p50.toFixed(1)} | ${base.p99.toFixed(1)} | ${base.failures} |`,
  );
  say(
    `| app (production build) | ${app.perSecond.toFixed(0)} | ${app.p50.toFixed(1)} | ${app.p99.toFixed(1)} | ${app.failures} |`,
  );
  say(
    `Ratio app/baseline: throughput ${(app.perSecond / base.perSecond).toFixed(2)}, p50 ${(app.p50 / base.p50).toFixed(2)}×, p99 ${(app.p99 / base.p99).toFixed(2)}×`,
  );
  say(`Web process RSS during the app's run: at most ${(rssMax / 2 ** 20).toFixed(0)} MB`);
  say(`Web process CPU per delivery: ${(webCpu / REQUESTS).toFixed(2)} ms`);
  await baseline.stop();
  await stack.stop();
}

// 2. Idle latency: webhook sent → the create request arrives at the sandbox, the app idle in between.
if (!args.get("only") || args.get("only") === "idle") {
  // The sandbox logs each request when it answers, with its duration: arrival = log time − duration.
  const arrivals: number[] = [];
  const stack = await startLocalStack({
    name: "bench-idle",
    env: { LOG_LEVEL: "warn", RECONCILE_INTERVAL_MINUTES: "0", ...VIA_ENV },
    sandboxLog: (line) => {
      const match = /^POST \/api\/invoices → \d+ \((\d+) ms\)/.exec(line);
      if (match) arrivals.push(Date.now() - Number(match[1]));
    },
  });
  const samples: number[] = [];
  for (let i = 0; i < IDLE_WARMUP + IDLE_ORDERS; i++) {
    const before = arrivals.length;
    const sent = Date.now();
    await stack.deliver("orders/paid", order(500_000 + i));
    const deadline = Date.now() + 10_000;
    while (arrivals.length === before) {
      if (Date.now() > deadline) throw new Error(`order ${i} never reached the sandbox`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    if (i >= IDLE_WARMUP) samples.push(arrivals[before] - sent);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  samples.sort((a, b) => a - b);
  say(
    `\n## 2. Idle latency, webhook sent → create request at the sandbox (${IDLE_ORDERS} orders after ${IDLE_WARMUP} of warm-up, one at a time, app idle between)`,
  );
  say(
    `p50 ${percentile(samples, 50)} ms, p99 ${percentile(samples, 99)} ms (includes the webhook round trip; the worker is woken by the enqueue, not by polling)`,
  );
  await stack.stop();
}

// 3. Drain 2,000 queued orders at a fixed service latency, until every invoice is final. The design needs two
//    service round trips per order: the POST, and one GET after the final callback (callbacks arriving together
//    are coalesced into that one read). The ideal is orders × 2 × latency ÷ concurrency; the time until every
//    order is posted is reported too, against orders × latency ÷ concurrency.
/**
 * The drain's baseline, measured in the same run: bench/bare-worker.ts, a child process with no database that posts
 * the same orders (mapped before its clock starts) and reads each once after its callbacks, through `slots` slots,
 * against a sandbox of its own in this process with the same latency and formalisation delay. Its time is what this
 * machine and the stand-in allow at this moment; the app's drain is also given as a ratio against it.
 */
async function bareDrain(slots: number, stack: { shop: string; env: NodeJS.ProcessEnv }) {
  const sandbox = await startSandbox({
    port: 0,
    formalizeDelayMs: 300, // startLocalStack's default, which the drain's stack has
    latencyMs: DRAIN_LATENCY_MS,
    log: () => undefined,
  });
  const child = spawn(process.execPath, ["--import", "tsx", path.join("bench", "bare-worker.ts")], {
    env: stack.env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const message = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`bare worker exited (${code}) before "${key}"`)));
      child.on("message", (m) => key in (m as object) && resolve((m as Record<string, T>)[key]));
    });
  const callbackUrl = await message<string>("callbackUrl");
  const settings = MappingSettingsSchema.parse({});
  const { account } = sandbox;
  const bodies = Array.from({ length: DRAIN_ORDERS }, (_, i) => {
    const parsed = parseShopifyOrder(order(600_000 + i));
    if (!parsed.ok) throw new Error("bench order does not parse");
    const mapped = mapOrderToInvoice(parsed.order, {
      settings,
      shop: { domain: stack.shop, timezone: "Europe/Istanbul", currency: "TRY" },
      now: new Date(),
      saleChannelId: account.saleChannelId,
      invoiceIntegrationId: account.invoiceIntegrationId,
      callbackUrl,
    });
    if (!mapped.ok) throw new Error("bench order does not map");
    return invoiceBodyJson(cleanDocumentText(mapped.body)).text;
  });
  const done = message<{ ms: number; posts: number; gets: number }>("done");
  child.send({
    bodies,
    baseUrl: sandbox.url,
    apiKey: account.apiKey,
    concurrency: slots,
  });
  const result = await done;
  await sandbox.stop();
  return result;
}

/**
 * `slotsEach`: each process's concurrency; by default the total concurrency split between the processes (does a
 * second process cost anything?). With WORKER_CONCURRENCY each, a second process adds its slots, as adding a worker
 * process does in production (does it scale?); the ideal is then counted with all the slots.
 */
async function drain(label: string, options: { postgresUrl?: string; processes: number; slotsEach?: number }) {
  const trips = { post: 0, get: 0, lookup: 0 };
  // How long the sandbox took to answer each create, its latency included: the rest of a slot's time per order is
  // the worker's (claiming, reading the row, storing the end).
  const postMs: number[] = [];
  // The workers' CPU when the first POST arrives: their start-up (loading the app), not the drain.
  let startupCpuMs: number | null = null;
  // When the first POST arrives: the drain itself, without the workers' start-up, runs from here.
  let firstPostAt: number | null = null;
  let workers: ReturnType<typeof spawn>[] = [];
  const stack = await startLocalStack({
    name: `bench-drain-${options.processes}`,
    postgresUrl: options.postgresUrl,
    env: { WORKER_MODE: "off", LOG_LEVEL: "warn", ...VIA_ENV },
    nodeArgs: webProfile(),
    sandboxLog: (line) => {
      if (line.startsWith("POST /api/invoices ")) {
        postMs.push(Number(/\((\d+) ms\)$/.exec(line)?.[1] ?? NaN));
        if (trips.post++ === 0) {
          startupCpuMs = workers.reduce((sum, worker) => sum + cpuMsOf(worker.pid!), 0);
          firstPostAt = Date.now();
        }
      } else if (/^GET \/api\/invoices\/\d+ /.test(line)) trips.get++;
      else if (line.startsWith("GET /api/invoices?")) trips.lookup++;
    },
  });
  const db = createDb(stack.databaseUrl);
  for (let start = 0; start < DRAIN_ORDERS; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, DRAIN_ORDERS - start) }, (_, k) =>
        stack.deliver("orders/paid", order(600_000 + start + k)),
      ),
    );
  }
  stack.sandbox.faults.setLatency(DRAIN_LATENCY_MS);
  const slotsEach = options.slotsEach ?? Math.ceil(WORKER_CONCURRENCY / options.processes);
  const slots = slotsEach * options.processes;
  // The per-shop share counts every worker's leases (app/invoices/claim.server.ts): with the one shop of this run
  // it is the whole concurrency, not a process's part of it (a share of 8 held two processes to 8 in flight).
  // No reconciliation: the shop has no Admin API here, and a pass would only fail and log.
  const started = Date.now();
  // The web process's CPU from here on: the service's callbacks (the orders were queued before).
  const webCpuAtStart = cpuMsOf(stack.process.pid!);
  // This process's CPU: the sandbox (its creates, reads and callbacks) and this loop's counting. On 2 cores it competes
  // with the worker and the web process, so a busy sandbox shows up as latency above the ideal.
  const benchCpuAtStart = cpuMsOf(process.pid);
  workers = Array.from({ length: options.processes }, () =>
    spawn(process.execPath, [...(PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : []), ...WORKER_ARGV], {
      env: {
        ...stack.env,
        WORKER_CONCURRENCY: String(slotsEach),
        WORKER_PER_SHOP: String(slots),
        RECONCILE_INTERVAL_MINUTES: "0",
        LOG_LEVEL: "warn",
      },
      stdio: "inherit",
    }),
  );
  let posted = 0;
  const deadline = Date.now() + 600_000;
  // Every 100 ms, in this process, beside the sandbox: so only counts an index answers. Counting the rows without a
  // service id scanned the table (4.5 ms a poll on SQLite, the sandbox's answers waiting meanwhile); every row has
  // one when the rows with one (the partial index) are all the rows.
  const rows = await db.invoice.count();
  while (Date.now() < deadline) {
    const open = await db.invoice.count({
      where: { state: { notIn: SETTLED_STATES } },
    });
    if (!posted && (await db.invoice.count({ where: { remoteId: { not: null } } })) === rows)
      posted = (Date.now() - started) / 1000;
    if (open === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ended = Date.now();
  const seconds = (ended - started) / 1000;
  const drained = (ended - (firstPostAt ?? started)) / 1000;
  const idealPost = (DRAIN_ORDERS * DRAIN_LATENCY_MS) / slots / 1000;
  const idealFinal = (2 * DRAIN_ORDERS * DRAIN_LATENCY_MS) / slots / 1000;
  const notCompleted = await db.invoice.count({ where: { state: { not: "completed" } } });
  // CPU the worker processes used (start-up included), per order: unlike the times, hardly moved by other load.
  const workerCpuMs = workers.reduce((sum, worker) => sum + cpuMsOf(worker.pid!), 0);
  const webCpuMs = cpuMsOf(stack.process.pid!) - webCpuAtStart;
  const benchCpuMs = cpuMsOf(process.pid) - benchCpuAtStart;
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once("exit", resolve).kill("SIGTERM"))));
  await db.$disconnect();
  // The baseline after the app's drain (its workers gone, the stack idle), so the app's run meets the machine as in
  // the runs before the baseline existed.
  const bare = await bareDrain(slots, stack);
  say(
    `${label}: all posted in ${posted.toFixed(1)} s (ideal ${idealPost.toFixed(1)} s, ${(posted / idealPost).toFixed(2)}×); ` +
      `all final in ${seconds.toFixed(1)} s (ideal ${idealFinal.toFixed(1)} s for one POST and one GET each, ${(seconds / idealFinal).toFixed(2)}×), ` +
      `${drained.toFixed(1)} s from the first POST (${(drained / idealFinal).toFixed(2)}×); ` +
      `baseline in this run (bench/bare-worker.ts: the same orders, no database, a sandbox alike) ${(bare.ms / 1000).toFixed(1)} s ` +
      `(${(bare.ms / 1000 / idealFinal).toFixed(2)}× the ideal, ${bare.posts} POST, ${bare.gets} GET): the app ${((seconds * 1000) / bare.ms).toFixed(2)}× it counting start-up, ` +
      `${((drained * 1000) / bare.ms).toFixed(2)}× from the first POST; ` +
      `${stack.sandbox.invoices.all().length} invoices at the sandbox, ${notCompleted} rows not completed; service calls: ${trips.post} POST, ${trips.get} GET of an invoice, ${trips.lookup} lookups; ` +
      `worker CPU ${(workerCpuMs / 1000).toFixed(1)} s, of which start-up ${((startupCpuMs ?? 0) / 1000).toFixed(1)} s: ` +
      `${((workerCpuMs - (startupCpuMs ?? 0)) / DRAIN_ORDERS).toFixed(2)} ms per order; ` +
      `web process (callbacks) ${(webCpuMs / DRAIN_ORDERS).toFixed(2)} ms per order; ` +
      `this process (the sandbox and the counting) ${(benchCpuMs / DRAIN_ORDERS).toFixed(2)} ms per order; ` +
      `a create answered in ${(postMs.reduce((a, b) => a + b, 0) / postMs.length).toFixed(1)} ms on average, ` +
      `a slot spent ${(((posted * 1000 - ((firstPostAt ?? started) - started)) * slots) / DRAIN_ORDERS).toFixed(1)} ms per order from the first POST until all were posted`,
  );
  await stack.stop();
}

// 4. Fairness (PostgreSQL): FAIR_ORDERS queued orders of FAIR_SHOPS shops, sized by Zipf's law (the first shop has
//    the most) and queued biggest shop first, so that a first-come-first-served worker would make the small shops
//    wait for the big ones. Each shop's wait (until its last order is posted, from the first post) is compared
//    with its fair share: the time it would take if every shop with orders left got an equal part of the
//    throughput measured in the same run (max-min fair sharing: shop s is done after Σ_t min(n_t, n_s) orders).
const FAIR_ORDERS = Number(args.get("fairness-orders") ?? 10_000);
const FAIR_SHOPS = Number(args.get("fairness-shops") ?? 100);
const FAIR_PROCESSES = Number(args.get("fairness-processes") ?? 2);

async function fairness(postgresUrl: string) {
  const stack = await startLocalStack({
    name: "bench-fairness",
    postgresUrl,
    env: { WORKER_MODE: "off", LOG_LEVEL: "warn", ...VIA_ENV },
  });
  const db = createDb(stack.databaseUrl);
  const { orderSnapshot } = await import("../app/orders/order");
  const shops = await cloneShops(stack, db, FAIR_SHOPS);
  // Zipf sizes, at least one order each, summing to FAIR_ORDERS.
  const weights = shops.map((_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(1, Math.floor((FAIR_ORDERS * w) / total)));
  sizes[0] += FAIR_ORDERS - sizes.reduce((a, b) => a + b, 0);
  // Queued as the webhook route queues them, biggest shop first, one millisecond apart.
  const base = Date.now() - 60_000;
  let seq = 0;
  for (let k = 0; k < shops.length; k++) {
    const rows = Array.from({ length: sizes[k] }, () => {
      const i = seq++;
      const body = order(1_000_000 + i);
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
    for (let start = 0; start < rows.length; start += 1000)
      await db.invoice.createMany({ data: rows.slice(start, start + 1000) });
  }
  stack.sandbox.faults.setLatency(DRAIN_LATENCY_MS);
  const perProcess = String(Math.ceil(WORKER_CONCURRENCY / FAIR_PROCESSES));
  const workers = Array.from({ length: FAIR_PROCESSES }, () =>
    spawn(process.execPath, WORKER_ARGV, {
      // The default share per shop (2): with 100 shops the concurrency is spread over many of them.
      env: { ...stack.env, WORKER_CONCURRENCY: perProcess, RECONCILE_INTERVAL_MINUTES: "0", LOG_LEVEL: "warn" },
      stdio: "inherit",
    }),
  );
  const deadline = Date.now() + 30 * 60_000;
  while ((await db.invoice.count({ where: { remoteId: null, state: { in: ["queued", "sending"] } } })) > 0) {
    if (Date.now() > deadline) throw new Error("fairness run: orders not posted after 30 minutes");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once("exit", resolve).kill("SIGTERM"))));
  // When each shop's orders were posted (the "posted" event the worker stores with the row).
  const posted = await db.$queryRawUnsafe<Array<{ shopDomain: string; first: Date; last: Date; n: number }>>(
    `SELECT i."shopDomain", MIN(e."at") AS "first", MAX(e."at") AS "last", COUNT(*)::int AS "n"
     FROM "InvoiceEvent" AS e JOIN "Invoice" AS i ON i."id" = e."invoiceId" WHERE e."type" = 'posted' GROUP BY i."shopDomain"`,
  );
  const at = (date: Date) => new Date(date).getTime();
  const start = Math.min(...posted.map((row) => at(row.first)));
  const end = Math.max(...posted.map((row) => at(row.last)));
  const perSecond = (FAIR_ORDERS - 1) / ((end - start) / 1000);
  const results = shops.map((shop, k) => {
    const row = posted.find((p) => p.shopDomain === shop) ?? {
      n: 0,
      last: new Date(NaN),
      first: new Date(NaN),
      shopDomain: shop,
    };
    const fairOrders = sizes.reduce((sum, n) => sum + Math.min(n, sizes[k]), 0);
    const fairSeconds = fairOrders / perSecond;
    const waited = (at(row.last) - start) / 1000;
    return { shop, orders: sizes[k], posted: row.n, waited, fairSeconds, ratio: waited / fairSeconds };
  });
  const worst = [...results].sort((a, b) => b.ratio - a.ratio);
  say(
    `\n## 4. Fairness: ${FAIR_ORDERS} queued orders of ${FAIR_SHOPS} shops (Zipf sizes ${sizes[0]} … ${sizes[sizes.length - 1]}, biggest shop queued first), PostgreSQL, ${FAIR_PROCESSES} worker processes, concurrency ${WORKER_CONCURRENCY}, 2 per shop, service latency ${DRAIN_LATENCY_MS} ms`,
  );
  say(
    `All posted in ${((end - start) / 1000).toFixed(1)} s from the first post (${perSecond.toFixed(0)} posts/s). Wait = until a shop's last order was posted; fair share = Σ min(n_t, n_s) ÷ that throughput.`,
  );
  say(
    `Worst ratio wait/fair share: **${worst[0].ratio.toFixed(2)}×** (${worst[0].shop}, ${worst[0].orders} orders); shops over 2×: ${results.filter((r) => r.ratio > 2).length} of ${results.length}; median ${[...results].sort((a, b) => a.ratio - b.ratio)[Math.floor(results.length / 2)].ratio.toFixed(2)}×`,
  );
  say(`| shop | orders | waited s | fair share s | ratio |`);
  say(`|---|---|---|---|---|`);
  for (const r of results.filter((_, k) => k < 3 || k % 10 === 9 || k === results.length - 1)) {
    say(
      `| ${r.shop.replace(".myshopify.com", "")} | ${r.orders} | ${r.waited.toFixed(1)} | ${r.fairSeconds.toFixed(1)} | ${r.ratio.toFixed(2)} |`,
    );
  }
  const unposted = await db.invoice.groupBy({ by: ["state"], where: { remoteId: null }, _count: { _all: true } });
  if (unposted.length) say(`Not posted: ${JSON.stringify(unposted.map((row) => [row.state, row._count._all]))}`);
  if (results.some((r) => r.posted !== r.orders))
    say(
      `Posted counts differ from orders for some shops: ${JSON.stringify(results.filter((r) => r.posted !== r.orders))}`,
    );
  await db.$disconnect();
  await stack.stop();
}

const only = args.get("only");
if (!only || only === "drain") {
  say(
    `\n## 3. Drain ${DRAIN_ORDERS} queued orders, service latency ${DRAIN_LATENCY_MS} ms, total worker concurrency ${WORKER_CONCURRENCY} unless said (the first times include the workers' start-up)`,
  );
  // --drain-runs=sqlite,pg1,pg2,pg2wide (default: all four) picks the runs.
  const runs = new Set((args.get("drain-runs") ?? "sqlite,pg1,pg2,pg2wide").split(","));
  if (runs.has("sqlite")) await drain("SQLite, 1 worker process", { processes: 1 });
  const postgresUrl = args.get("postgres") ?? process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    if (runs.has("pg1"))
      await drain("PostgreSQL (on the same 2 cores), 1 worker process", { postgresUrl, processes: 1 });
    if (runs.has("pg2"))
      await drain("PostgreSQL (on the same 2 cores), 2 worker processes", { postgresUrl, processes: 2 });
    if (runs.has("pg2wide"))
      await drain(`PostgreSQL (on the same 2 cores), 2 worker processes of ${WORKER_CONCURRENCY} slots each`, {
        postgresUrl,
        processes: 2,
        slotsEach: WORKER_CONCURRENCY,
      });
  } else say("PostgreSQL: skipped (pass --postgres=postgresql://... or set TEST_DATABASE_URL)");
}

if (!only || only === "fairness") {
  const postgresUrl = args.get("postgres") ?? process.env.TEST_DATABASE_URL;
  if (postgresUrl) await fairness(postgresUrl);
  else say("\n## 4. Fairness: skipped (PostgreSQL only: pass --postgres=postgresql://... or set TEST_DATABASE_URL)");
}

console.log("\n" + report.join("\n"));
process.exit(0);
