// Issue 38, points 2 and 4: several machines on one PostgreSQL, and a rolling deploy that loses nothing.
// A "machine" is a process set: its own web process (`npm start`'s server on the production build, WORKER_MODE=off)
// and its own compiled worker (`npm run worker`'s), started in a working directory of its own with its own TMPDIR,
// ACCOUNTANT_PACKAGE_DIR and NODE_COMPILE_CACHE (different temporary folders), so two sets share nothing but the
// database. The app's public address (SHOPIFY_APP_URL, where the invoicing sandbox sends its callbacks) is a load
// balancer in front of the web processes (test/helpers/balancer.ts). Shopify is the Admin API stand-in and signed
// webhooks; the admin is session-token requests to the pages' own routes (Remix's ?_data=, as the page's fetcher).
//   1. Two machines, requests alternately to each: every order invoiced exactly once (Shopify's retries reaching the
//      other machine included), an accountant package requested on one downloaded byte for byte from both, a throttle
//      whose one bucket both machines spend, a past-orders run started on one, paused on the other, resumed.
//   2. A rolling deploy: the old set under load (webhooks every 100 ms, the service's callbacks, a past-orders run),
//      the new set started beside it, traffic moved to it, then SIGTERM to the old set's processes with work in
//      flight: nothing lost, nothing invoiced twice, no 5xx or connection error to any delivery, the old processes
//      exit 0 within their 20 s. Both sets run the same build: what keeps an older release working on the schema a
//      newer one migrated is the expand/contract check of the migrations (test/db/migration-safety.test.ts).
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { ensureBuild, freePort } from "../../scripts/lib/local-stack";
import { signSessionToken } from "../../scripts/lib/local-admin";
import { webhookHeaders } from "../../scripts/lib/shopify-signing";
import { installShopLocally } from "../../app/shops/local-install.server";
import { startDryRun, startRun } from "../../app/past-orders/runs.server";
import { customerPdfUrl } from "../../app/pdf/customer-pdf.server";
import { PDF_LINK } from "../../app/http/throttle.server";
import type { PackageView } from "../../app/accountant/packages.server";
import { TURKEY_ZONE } from "../../app/orders/dates";
import { AppProcesses, type AppProcess } from "../helpers/app-processes";
import { startBalancer, type Balancer } from "../helpers/balancer";
import { prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";

/** The test's own client id and secret (test/setup-env.ts): the processes, the stand-in and the links share them. */
const CLIENT = { apiKey: process.env.SHOPIFY_API_KEY!, apiSecret: process.env.SHOPIFY_API_SECRET! };
/** The admin's browser (the library answers a bot's user agent 410). */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

const processes = new AppProcesses();
const cleanups: Array<() => Promise<unknown> | unknown> = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An order paid `daysAgo` days ago, as Shopify's webhook (and the stand-in) holds it. */
function order(daysAgo: number) {
  const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  return paidOrder({ created_at: at, processed_at: at, updated_at: at });
}

/** One shop's world: Shopify (the stand-in, with past orders), the invoicing sandbox, the balancer, the shop. */
interface World {
  shop: string;
  standin: Standin;
  sandbox: Sandbox;
  balancer: Balancer;
  past: ReturnType<typeof order>[];
  /** The sandbox's create requests so far. */
  creates(): number;
}

async function startWorld(shop: string, pastOrders: number, formalizeDelayMs: number): Promise<World> {
  const past = Array.from({ length: pastOrders }, (_, i) => order(3 + (i % 15)));
  const standin = await startStandin({
    shop,
    orders: past,
    clientId: CLIENT.apiKey,
    clientSecret: CLIENT.apiSecret,
    scopes: ["read_orders"],
    bucketSize: 1_000_000,
    restoreRate: 1_000_000,
  });
  cleanups.push(() => standin.stop());
  const requests: string[] = [];
  const sandbox = await startSandbox({ port: 0, formalizeDelayMs, log: (line) => requests.push(line) });
  cleanups.push(() => sandbox.stop());
  const balancer = await startBalancer([]);
  cleanups.push(() => balancer.close());
  await installShopLocally({
    shop,
    apiKey: sandbox.account.apiKey,
    baseUrl: sandbox.url,
    saleChannelId: sandbox.account.saleChannelId,
    invoiceIntegrationId: sandbox.account.invoiceIntegrationId,
    dummyIntegrationId: sandbox.account.dummyIntegrationId,
    testMode: false,
    accessToken: standin.accessToken,
    scopes: "read_orders",
  });
  return {
    shop,
    standin,
    sandbox,
    balancer,
    past,
    creates: () => requests.filter((line) => line.startsWith("POST /api/invoices ")).length,
  };
}

interface ProcessSet {
  name: string;
  url: string;
  web: AppProcess;
  worker: AppProcess;
}

/** A machine: a web process and a worker process, with nothing on disk shared with another set. */
async function startSet(name: string, world: World): Promise<ProcessSet> {
  const dir = mkdtempSync(path.join(tmpdir(), `machine-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const own = {
    TMPDIR: path.join(dir, "tmp"),
    ACCOUNTANT_PACKAGE_DIR: path.join(dir, "accountant-packages"),
    NODE_COMPILE_CACHE: path.join(dir, "compile-cache"),
  };
  mkdirSync(own.TMPDIR);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...own,
    NODE_ENV: "production",
    SHOPIFY_API_KEY: CLIENT.apiKey,
    SHOPIFY_API_SECRET: CLIENT.apiSecret,
    SHOPIFY_APP_URL: world.balancer.url,
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
    DATABASE_URL: process.env.DATABASE_URL!,
    SHOPIFY_ADMIN_API_URL: world.standin.url,
    LOCAL_SERVICES: "1",
    // Orders come by webhook and by the past-orders run only: no reconciliation pass records them as well.
    RECONCILE_INTERVAL_MINUTES: "0",
    WORKER_POLL_MS: "200",
    WORKER_CONCURRENCY: "4",
    // One shop: its share of every worker together.
    WORKER_PER_SHOP: "4",
    LOG_LEVEL: "info",
  };
  const web = processes.web({ ...env, PORT: String(port), HOST: "127.0.0.1", WORKER_MODE: "off" }, `${name}-web`, dir);
  const worker = processes.worker(env, `${name}-worker`, dir);
  await Promise.all([processes.healthy(url), processes.logged(worker.name, '"msg":"invoice worker started"')]);
  return { name, url, web, worker };
}

/** A delivery of `orders/paid` as Shopify makes it; a retry is the same delivery (same ids) sent again. */
function paidDelivery(shop: string, body: unknown) {
  const raw = JSON.stringify(body);
  return { raw, headers: webhookHeaders({ topic: "orders/paid", shop, rawBody: raw, secret: CLIENT.apiSecret }) };
}

/** Sends a delivery: null when answered 200, else what went wrong (a status or a connection error). */
async function deliver(web: string, delivery: ReturnType<typeof paidDelivery>): Promise<string | null> {
  try {
    const response = await fetch(`${web}/webhooks/orders/paid`, {
      method: "POST",
      headers: delivery.headers,
      body: delivery.raw,
    });
    await response.arrayBuffer();
    return response.status === 200 ? null : `${web}: ${response.status}`;
  } catch (error) {
    return `${web}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? "")}`;
  }
}

/** What the tests read of the admin pages' answers (app.past-orders.tsx, app.accountant.tsx). */
interface AdminAnswer {
  /** An action's: the past-orders page's { intent, result }, the accountant page's result itself. */
  result?: { ok: boolean; id?: string; reason?: string };
  ok?: boolean;
  id?: string;
  /** The loaders'. */
  run?: { id: string; state: string } | null;
  packages?: PackageView[];
}

/** An admin page's loader (GET) or action (POST body) through a web process, with a session token: its JSON. */
async function admin(web: string, page: string, shop: string, body?: unknown): Promise<AdminAnswer> {
  const response = await fetch(`${web}/app/${page}?_data=${encodeURIComponent(`routes/app.${page}`)}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${signSessionToken(CLIENT, shop)}`,
      "user-agent": BROWSER,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${page} through ${web}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** Polls `probe` until it returns something, or fails after `timeoutMs` with what `state` says. */
async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  state: () => Promise<unknown> = async () => "",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms; ${JSON.stringify(await state())}\n${processes.tail()}`);
    await sleep(200);
  }
}

/** The shop's invoices by state, and its latest run's state. */
async function shopState(shop: string) {
  const states = await prisma.invoice.groupBy({ by: ["state"], where: { shopDomain: shop }, _count: { _all: true } });
  const run = await prisma.backfillRun.findFirst({ where: { shopDomain: shop }, orderBy: { createdAt: "desc" } });
  return {
    invoices: Object.fromEntries(states.map((row) => [row.state, row._count._all])),
    run: run && { state: run.state, listed: run.listed, recorded: run.recorded },
  };
}

/** Every order invoiced once, and the run done: the invoices are all completed and the run's row says done. */
async function settled(shop: string, orders: number) {
  return until(
    `${orders} invoices completed and the run done`,
    async () => {
      const state = await shopState(shop);
      return state.invoices.completed === orders && state.run?.state === "done" && state;
    },
    90_000,
    () => shopState(shop),
  );
}

/** Each order at the service: how many invoices it has there (one each is right). */
function invoicesAtService(world: World, orderIds: number[]) {
  const counts = orderIds.map((id) => world.sandbox.invoices.byOrderId(String(id)).length);
  return { orders: orderIds.length, once: counts.filter((n) => n === 1).length, creates: world.creates() };
}

/** The service's callbacks that the app answered with a 5xx or never answered. */
function failedCallbacks(world: World) {
  return world.sandbox.callbacks
    .filter((c) => !c.pending && (c.error !== undefined || (c.status ?? 0) >= 500))
    .map((c) => `${c.url}: ${c.status ?? c.error}`);
}

/** When each worker process (by its pid) posted the shop's invoices: the "posted" events name the worker. */
async function postedBy(shop: string): Promise<Map<string, number[]>> {
  const events = await prisma.invoiceEvent.findMany({
    where: { type: "posted", invoice: { shopDomain: shop } },
    select: { at: true, data: true },
  });
  const by = new Map<string, number[]>();
  for (const event of events) {
    const pid = (event.data as { worker: string }).worker.split("-")[1];
    by.set(pid, [...(by.get(pid) ?? []), event.at.getTime()]);
  }
  return by;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

// PostgreSQL only: two machines share nothing but PostgreSQL. On SQLite, the embedded default, the database is a file
// of one machine and its one process runs the worker too; there is no second machine to test.
describe.skipIf(process.env.TEST_DB !== "postgresql")("several machines on one PostgreSQL", () => {
  beforeAll(() => {
    ensureBuild();
  }, 300_000);

  afterAll(async () => {
    processes.killAll();
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  });

  it("two machines: one invoice per order, a package from either, one throttle, a run paused on the other", async () => {
    const started = Date.now();
    const shop = "two-machines.myshopify.com";
    // Formalising takes 2 × 300 ms: the run cannot be over before the other machine pauses it.
    const world = await startWorld(shop, 24, 300);
    const [a, b] = await Promise.all([startSet("A", world), startSet("B", world)]);
    const machines = [a, b];
    world.balancer.route([a.url, b.url]);
    const ready = Date.now();

    // (d) A past-orders run, counted on A.
    const today = DateTime.now().setZone(TURKEY_ZONE);
    const dry = await admin(a.url, "past-orders", shop, {
      intent: "dry_run",
      from: today.minus({ days: 25 }).toISODate(),
      to: today.minus({ days: 1 }).toISODate(),
    });
    expect(dry.result).toMatchObject({ ok: true });
    const runId = dry.result!.id!;

    // (a) Orders paid now, each delivered to A or B in turn. Every other one is delivered again to the other machine,
    // as Shopify retries a delivery it saw no answer to: half of them at the same moment, half after the first answer.
    const orders = Array.from({ length: 16 }, () => order(0));
    world.standin.upsertOrders(orders);
    const failures: Array<string | null> = [];
    for (const [i, paid] of orders.entries()) {
      const delivery = paidDelivery(shop, paid);
      const [first, other] = [machines[i % 2].url, machines[(i + 1) % 2].url];
      if (i % 4 === 0) failures.push(...(await Promise.all([deliver(first, delivery), deliver(other, delivery)])));
      else if (i % 4 === 2) failures.push(await deliver(first, delivery), await deliver(other, delivery));
      else failures.push(await deliver(first, delivery));
    }
    expect(failures.filter(Boolean)).toEqual([]);

    // (d) Counted (the page of B says so), started on A, paused on B, resumed on A.
    await until(
      "the dry run counted",
      async () => (await admin(b.url, "past-orders", shop)).run?.state === "ready",
      30_000,
    );
    expect((await admin(a.url, "past-orders", shop, { intent: "start", id: runId })).result).toEqual({
      ok: true,
      id: runId,
    });
    expect((await admin(b.url, "past-orders", shop, { intent: "pause", id: runId })).result).toEqual({
      ok: true,
      id: runId,
    });
    const paused = await admin(a.url, "past-orders", shop);
    expect(paused.run).toMatchObject({ id: runId, state: "paused" });
    expect((await admin(a.url, "past-orders", shop, { intent: "resume", id: runId })).result).toEqual({
      ok: true,
      id: runId,
    });

    const state = await settled(shop, orders.length + world.past.length);
    expect(state.run).toEqual({ state: "done", listed: world.past.length, recorded: world.past.length });
    const service = invoicesAtService(
      world,
      [...orders, ...world.past].map((o) => o.id),
    );
    expect(service).toEqual({ orders: 40, once: 40, creates: 40 });
    const invoiced = Date.now();

    // (b) An accountant package asked for on A, built by either worker, listed on B; its link downloads the same
    // bytes from both machines (on PostgreSQL the finished ZIP is kept in the database, app/accountant/store.server.ts).
    const asked = await admin(a.url, "accountant", shop, {
      kind: "range",
      from: today.minus({ days: 30 }).toISODate(),
      to: today.toISODate(),
    });
    expect(asked).toMatchObject({ ok: true });
    // (c) Meanwhile, one customer's PDF link asked for twice its bucket's capacity, alternately on A and on B: one
    // bucket for both (PDF_LINK, a SharedThrottle), so the capacity passes and no more, not the capacity on each.
    const invoice = await prisma.invoice.findFirstOrThrow({
      where: { shopDomain: shop, orderId: String(orders[0].id) },
    });
    const link = new URL(customerPdfUrl(shop, invoice.id, invoice.pdfLinkVersion)!).pathname;
    const { capacity, refillMs } = PDF_LINK.rule;
    const burstStarted = Date.now();
    const answers: Array<{ machine: string; status: number }> = [];
    for (let i = 0; i < 2 * capacity; i++) {
      const machine = machines[i % 2];
      const response = await fetch(`${machine.url}${link}`);
      await response.arrayBuffer();
      answers.push({ machine: machine.name, status: response.status });
    }
    const burstMs = Date.now() - burstStarted;
    const allowed = answers.filter((answer) => answer.status === 200).length;
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 429)).toEqual([]);
    expect(allowed).toBeGreaterThanOrEqual(capacity);
    // The bucket refills one request per refillMs while the burst lasts.
    expect(allowed).toBeLessThanOrEqual(capacity + Math.floor(burstMs / refillMs));
    // Both machines refused once the one bucket was spent.
    expect(new Set(answers.filter((answer) => answer.status === 429).map((answer) => answer.machine))).toEqual(
      new Set(["A", "B"]),
    );

    const pack = await until(
      "the accountant package ready",
      async () => {
        const found = (await admin(b.url, "accountant", shop)).packages?.find((p) => p.id === asked.id);
        return found?.state === "ready" && found;
      },
      60_000,
      () => prisma.accountantPackage.findMany({ where: { shopDomain: shop } }),
    );
    expect(pack).toMatchObject({ total: 40, pdfFailed: 0 });
    const downloads = await Promise.all(
      machines.map(async (machine) => {
        const response = await fetch(`${machine.url}${pack.downloadPath}`);
        const bytes = Buffer.from(await response.arrayBuffer());
        return { status: response.status, type: response.headers.get("content-type"), size: bytes.length, bytes };
      }),
    );
    for (const download of downloads)
      expect(download).toMatchObject({ status: 200, type: "application/zip", size: pack.fileSize });
    expect(sha256(downloads[0].bytes)).toBe(sha256(downloads[1].bytes));
    expect(downloads[0].bytes.subarray(0, 2).toString()).toBe("PK");

    expect(failedCallbacks(world)).toEqual([]);
    // Both machines worked: each worker posted invoices, and each web process answered callbacks.
    const posted = await postedBy(shop);
    expect(new Set(posted.keys())).toEqual(new Set(machines.map((machine) => String(machine.worker.child.pid))));
    expect(new Set(world.balancer.forwarded.map((entry) => entry.target))).toEqual(new Set([a.url, b.url]));

    // Each machine stops cleanly.
    for (const machine of machines) for (const p of [machine.web, machine.worker]) p.child.kill("SIGTERM");
    const exits = await Promise.all(machines.flatMap((machine) => [machine.web.exited, machine.worker.exited]));
    expect(exits.map((exit) => exit.code)).toEqual([0, 0, 0, 0]);
    console.log(
      `two machines: ${JSON.stringify({
        startSeconds: Math.round((ready - started) / 100) / 10,
        invoicedSeconds: Math.round((invoiced - ready) / 100) / 10,
        totalSeconds: Math.round((Date.now() - started) / 100) / 10,
        service,
        throttle: { capacity, requests: answers.length, allowed, burstMs },
        package: {
          total: pack.total,
          bytes: pack.fileSize,
          builtBy: processes.logs.find((line) => line.includes('"msg":"accountant package ready"'))?.split(" ")[0],
        },
      })}`,
    );
  }, 180_000);

  it("rolling deploy: SIGTERM to the old set while the new one takes over loses nothing", async () => {
    // The processes of the test above if it failed before stopping them: they would take this shop's rows too.
    processes.killAll();
    const started = Date.now();
    const shop = "rolling-deploy.myshopify.com";
    const world = await startWorld(shop, 40, 100);
    // Every request to the service takes 150 ms: with the shop's 4 slots the live orders keep the workers busy and the
    // run's rows go slowly, so jobs are in flight and the run is going when the old set is stopped.
    world.sandbox.faults.setLatency(150);
    // The past-orders run's dry run, counted as soon as a worker runs.
    const dry = await startDryRun(shop, new Date(Date.now() - 25 * 86_400_000), new Date(Date.now() - 86_400_000), [
      "read_orders",
    ]);
    expect(dry.ok).toBe(true);
    const runId = (dry as { id: string }).id;
    // Both sets run this build. What keeps the previous release working on the schema the new release migrated first
    // is the expand/contract rule of the migrations, which test/db/migration-safety.test.ts enforces.
    const old = await startSet("old", world);
    world.balancer.route([old.url]);
    const oldUp = Date.now();
    let runStarted = false;
    const startWhenCounted = async () => {
      const run = await prisma.backfillRun.findUniqueOrThrow({ where: { id: runId } });
      runStarted ||= run.state === "ready" && (await startRun(shop, runId)).ok;
    };

    // Load: a paid order every 100 ms, to whichever web process Shopify's traffic goes to.
    let target = old.url;
    let loading = true;
    const delivered: number[] = [];
    const inFlight = new Map<string, Set<Promise<void>>>();
    const failures: string[] = [];
    const load = (async () => {
      while (loading) {
        const paid = order(0);
        world.standin.upsertOrders([paid]);
        delivered.push(paid.id);
        const web = target;
        const sending = deliver(web, paidDelivery(shop, paid)).then((failure) => {
          if (failure) failures.push(failure);
          inFlight.get(web)!.delete(sending);
        });
        if (!inFlight.has(web)) inFlight.set(web, new Set());
        inFlight.get(web)!.add(sending);
        if (!runStarted) await startWhenCounted();
        await sleep(100);
      }
    })();
    await until(
      "the run started",
      async () => runStarted,
      30_000,
      () => shopState(shop),
    );
    const runUp = Date.now();

    // The new release starts beside the old one; once it is healthy, Shopify's traffic and the balancer go to it.
    const fresh = await startSet("new", world);
    const freshUp = Date.now();
    target = fresh.url;
    world.balancer.route([fresh.url]);

    // A delivery still coming in when the old web process is signalled: its headers are in (the server answered
    // 100 Continue), its body follows the signal. It must be answered 200 and its order invoiced.
    const late = order(0);
    delivered.push(late.id);
    const lateDelivery = paidDelivery(shop, late);
    const lateRequest = http.request(`${old.url}/webhooks/orders/paid`, {
      method: "POST",
      agent: false,
      headers: {
        ...lateDelivery.headers,
        "Content-Length": String(Buffer.byteLength(lateDelivery.raw)),
        Expect: "100-continue",
        Connection: "close",
      },
    });
    const lateAnswer = new Promise<number | string>((resolve) => {
      lateRequest.on("response", (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      });
      lateRequest.on("error", (error) => resolve(error.message));
    });
    await new Promise<void>((resolve) => lateRequest.once("continue", resolve));

    // Taken out of the balancer: what was sent to the old web process is answered before it is signalled.
    await Promise.all([...(inFlight.get(old.url) ?? [])]);
    await world.balancer.drained(old.url);
    const atSignal = await shopState(shop);
    const signalled = Date.now();
    old.web.child.kill("SIGTERM");
    old.worker.child.kill("SIGTERM");
    await processes.logged(old.web.name, '"msg":"stopping');
    lateRequest.end(lateDelivery.raw);
    const [webExit, workerExit] = await Promise.all([old.web.exited, old.worker.exited]);
    // The switch is over: the service answers at once again, so the new set's backlog drains sooner.
    world.sandbox.faults.setLatency(0);
    // The new set carries on alone for a moment, then the load stops.
    await sleep(1000);
    loading = false;
    await load;
    await Promise.all([...inFlight.values()].flatMap((set) => [...set]));

    const total = delivered.length + world.past.length;
    const state = await settled(shop, total);
    const service = invoicesAtService(world, [...delivered, ...world.past.map((o) => o.id)]);
    const posted = await postedBy(shop);
    const [oldPosts, freshPosts] = [old, fresh].map((set) => posted.get(String(set.worker.child.pid)) ?? []);
    const figures = {
      // Seconds from the test's start: the old set up, the run started, the new set up, the signal, all invoiced.
      seconds: [oldUp, runUp, freshUp, signalled, Date.now()].map((at) => Math.round((at - started) / 100) / 10),
      webhooks: delivered.length,
      pastOrders: world.past.length,
      atSignal,
      exits: { web: webExit.at - signalled, worker: workerExit.at - signalled },
      posted: {
        old: oldPosts.length,
        oldAfterSignal: oldPosts.filter((at) => at >= signalled).length,
        new: freshPosts.length,
      },
      service,
    };
    console.log(`rolling deploy: ${JSON.stringify(figures)}`);

    // Work was in flight when the old set was stopped: the run going, invoices not yet final.
    expect(atSignal.run?.state).toBe("running");
    expect(total - (atSignal.invoices.completed ?? 0)).toBeGreaterThan(0);
    // No delivery failed, during the whole switch: no 5xx, no connection refused or reset.
    expect(failures).toEqual([]);
    expect(await lateAnswer).toBe(200);
    expect(failedCallbacks(world)).toEqual([]);
    expect(world.balancer.forwarded.filter((entry) => entry.error || (entry.status ?? 0) >= 500)).toEqual([]);
    // The old processes finished their work and exited 0, well within their 20 s.
    expect([webExit.code, workerExit.code]).toEqual([0, 0]);
    expect(Math.max(webExit.at, workerExit.at) - signalled).toBeLessThan(20_000);
    // 0 lost, 0 duplicated: every order delivered, and every past order, has one invoice and one create request.
    expect(state.run).toEqual({ state: "done", listed: world.past.length, recorded: world.past.length });
    expect(service).toEqual({ orders: total, once: total, creates: total });
    // The old worker posted until it stopped, the new one took over, and no invoice was posted twice.
    expect(oldPosts.length).toBeGreaterThan(0);
    expect(freshPosts.length).toBeGreaterThan(0);
    expect(oldPosts.length + freshPosts.length).toBe(total);
  }, 180_000);
});
