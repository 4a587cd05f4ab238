// Issue 34, point 5: expiring offline tokens under load. The stand-in's tokens live 2 seconds; on PostgreSQL two web
// processes (`npm start`, WORKER_MODE=off) and three worker processes (`npm run worker`'s script) work at once:
// webhooks arrive at both web processes, the order list's "Create invoices" action calls the Admin API from both,
// the workers reconcile (a pass asked for every 2 s), run a past-orders run in bulk and write every invoice back to
// its order. Every Admin API call must succeed (or be retried to success), no refresh may be refused, no shop locked
// out, and the renewals must stay about one per token's life, not one per process. On SQLite the same with the one
// process of the embedded default (the web server with its in-process worker).
// TOKEN_LOAD_SECONDS sets how long the load lasts (default 10 s in the suite; the figures come from 30 s).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { ensureBuild, freePort } from "../../scripts/lib/local-stack";
import { signSessionToken } from "../../scripts/lib/local-admin";
import { webhookHeaders } from "../../scripts/lib/shopify-signing";
import { installShopLocally } from "../../app/shops/local-install.server";
import { startDryRun, startRun } from "../../app/past-orders/runs.server";
import { BULK_THRESHOLD } from "../../app/shopify/bulk-operations.server";
import { AppProcesses } from "../helpers/app-processes";
import { prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";

const SECONDS = Number(process.env.TOKEN_LOAD_SECONDS ?? 10);
const SHOP = "token-load.myshopify.com";
const CLIENT = { apiKey: "token-load-app", apiSecret: "token-load-secret-0123456789" };
const LIFETIME_S = 2;
/** Renewed when less than this is left: a token serves 1.5 s of its 2. */
const MARGIN_S = 0.5;
const postgres = process.env.TEST_DB === "postgresql";

let standin: Standin;
let sandbox: Sandbox;
const processes = new AppProcesses();
const logs = processes.logs;
let webUrls: string[] = [];

afterAll(async () => {
  processes.killAll();
  await standin?.stop();
  await sandbox?.stop();
});

/** An order the shop was paid for `daysAgo` days ago, as Shopify's webhook (and the stand-in) holds it. */
function order(daysAgo: number) {
  const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  return paidOrder({ created_at: at, processed_at: at, updated_at: at });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The merchant starts the past-orders run once its dry run has counted the orders. */
async function startWhenCounted(runId: string): Promise<boolean> {
  const run = await prisma.backfillRun.findUniqueOrThrow({ where: { id: runId } });
  return run.state === "ready" && (await startRun(SHOP, runId)).ok;
}

describe("expiring offline tokens under load", () => {
  beforeAll(async () => {
    ensureBuild();
    // Past orders, enough for the past-orders run to read them in bulk (BULK_THRESHOLD), and today's (webhooks,
    // reconciliation).
    const past = Array.from({ length: BULK_THRESHOLD + 10 }, (_, i) => order(3 + (i % 20)));
    standin = await startStandin({
      shop: SHOP,
      orders: past,
      clientId: CLIENT.apiKey,
      clientSecret: CLIENT.apiSecret,
      tokenLifetimeSeconds: LIFETIME_S,
      scopes: ["read_orders", "write_orders", "read_all_orders"],
      bulkMsPerObject: 5,
      // Shopify's query-cost bucket is not what this test is about: wide enough never to make a call wait.
      bucketSize: 1_000_000,
      restoreRate: 1_000_000,
    });
    sandbox = await startSandbox({ port: 0, formalizeDelayMs: 20 });
    await installShopLocally({
      shop: SHOP,
      apiKey: sandbox.account.apiKey,
      baseUrl: sandbox.url,
      saleChannelId: sandbox.account.saleChannelId,
      invoiceIntegrationId: sandbox.account.invoiceIntegrationId,
      dummyIntegrationId: sandbox.account.dummyIntegrationId,
      testMode: false,
      accessToken: standin.accessToken,
      scopes: "read_orders,write_orders,read_all_orders",
    });
    const ports = await Promise.all([freePort(), freePort()]);
    webUrls = ports.map((port) => `http://127.0.0.1:${port}`).slice(0, postgres ? 2 : 1);
    const common = {
      NODE_ENV: "production",
      SHOPIFY_API_KEY: CLIENT.apiKey,
      SHOPIFY_API_SECRET: CLIENT.apiSecret,
      SHOPIFY_APP_URL: webUrls[0],
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
      DATABASE_URL: process.env.DATABASE_URL!,
      SHOPIFY_ADMIN_API_URL: standin.url,
      LOCAL_SERVICES: "1",
      SHOPIFY_TOKEN_REFRESH_MARGIN_SECONDS: String(MARGIN_S),
      RECONCILE_INTERVAL_MINUTES: "1",
      WORKER_POLL_MS: "200",
      LOG_LEVEL: "info",
    };
    for (const [i, url] of webUrls.entries())
      processes.web(
        { ...common, PORT: new URL(url).port, HOST: "127.0.0.1", WORKER_MODE: postgres ? "off" : "inprocess" },
        `web${i + 1}`,
      );
    if (postgres)
      for (let i = 0; i < 3; i++) processes.worker({ ...common, WORKER_CONCURRENCY: "4" }, `worker${i + 1}`);
    await Promise.all(webUrls.map((url) => processes.healthy(url, 30_000)));
  }, 300_000);

  it(`keeps every Admin API call working for ${SECONDS} s of 2-second tokens`, async () => {
    // The past-orders run over the older orders: counted, then started (both by the workers).
    const from = new Date(Date.now() - 30 * 86_400_000);
    const dry = await startDryRun(SHOP, from, new Date(Date.now() - 86_400_000), ["read_orders", "read_all_orders"]);
    expect(dry.ok).toBe(true);
    const runId = (dry as { id: string }).id;

    const started = Date.now();
    let delivered = 0;
    let adminRequests = 0;
    let runStarted = false;
    const failures: string[] = [];
    while (Date.now() - started < SECONDS * 1000) {
      const tick = Math.floor((Date.now() - started) / 250);
      const web = webUrls[tick % webUrls.length];
      // A paid order: in Shopify first, then its webhook to one of the web processes.
      const paid = order(0);
      standin.upsertOrders([paid]);
      const raw = JSON.stringify(paid);
      const hook = await fetch(`${web}/webhooks/orders/paid`, {
        method: "POST",
        headers: webhookHeaders({ topic: "orders/paid", shop: SHOP, rawBody: raw, secret: CLIENT.apiSecret }),
        body: raw,
      });
      if (hook.status !== 200) failures.push(`webhook ${hook.status}`);
      delivered++;
      if (tick % 8 === 0)
        await prisma.reconciliation.updateMany({ where: { shopDomain: SHOP }, data: { requestedAt: new Date() } });
      if (tick % 12 === 0) {
        // The order list's action, with a session token: the web process reads the orders through the Admin API.
        const selected = order(1);
        standin.upsertOrders([selected]);
        const response = await fetch(`${web}/api/orders/invoice`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${signSessionToken(CLIENT, SHOP)}`,
            "content-type": "application/json",
            // The admin's browser (the library answers a bot's user agent 410).
            "user-agent":
              "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36",
          },
          body: JSON.stringify({ orderIds: [String(selected.id)] }),
        });
        adminRequests++;
        if (response.status !== 200) failures.push(`order list action ${response.status}: ${await response.text()}`);
      }
      runStarted ||= await startWhenCounted(runId);
      await sleep(250);
    }
    const loadEnded = Date.now();

    // Everything the load started ends: invoices issued, written back to their orders, the run done.
    const deadline = Date.now() + 90_000;
    const settled = async () => {
      const open = await prisma.invoice.count({ where: { shopDomain: SHOP, state: { not: "completed" } } });
      const unwritten = await prisma.orderWriteBack.count({ where: { shopDomain: SHOP, status: { not: "written" } } });
      const run = await prisma.backfillRun.findUniqueOrThrow({ where: { id: runId } });
      return { open, unwritten, run: run.state };
    };
    let state = await settled();
    while ((state.open > 0 || state.unwritten > 0 || state.run !== "done") && Date.now() < deadline) {
      runStarted ||= await startWhenCounted(runId);
      await sleep(500);
      state = await settled();
    }
    const run = await prisma.backfillRun.findUniqueOrThrow({ where: { id: runId } });
    const tokens = standin.tokens.stats();
    const invoices = await prisma.invoice.count({ where: { shopDomain: SHOP } });
    const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    const reconciliation = await prisma.reconciliation.findUnique({ where: { shopDomain: SHOP } });
    const renewedLines = logs.filter((line) => line.includes('"offline token renewed"'));
    const processes = webUrls.length + (postgres ? 3 : 0);
    const figures = {
      database: postgres ? "postgresql" : "sqlite",
      processes,
      seconds: Math.round((loadEnded - started) / 1000),
      secondsUntilSettled: Math.round((Date.now() - started) / 1000),
      webhooks: delivered,
      orderListActions: adminRequests,
      invoices,
      refreshes: tokens.refreshes,
      migrations: tokens.migrations,
      exchanges: tokens.exchanges,
      renewalsLogged: renewedLines.length,
      unauthorizedAnswers: tokens.unauthorized,
      refused: tokens.refused,
      graphqlRequests: standin.stats().requests,
      bulkOperations: standin.stats().bulkOperations,
      pastOrdersRun: { mode: run.mode, listed: run.listed, recorded: run.recorded },
      state,
    };
    console.log(`token load: ${JSON.stringify(figures)}`);
    if (process.env.TOKEN_LOAD_LOGS) {
      console.log(logs.join("\n"));
      const stuck = await prisma.invoice.findMany({
        where: { shopDomain: SHOP, state: { not: "completed" } },
        take: 3,
      });
      console.log(JSON.stringify(stuck.map((r) => [r.state, r.problems, r.lastError])));
      const waiting = await prisma.orderWriteBack.groupBy({
        by: ["status", "lastError"],
        where: { shopDomain: SHOP, status: { not: "written" } },
        _count: true,
      });
      console.log(JSON.stringify(waiting));
    }

    expect(failures).toEqual([]);
    expect(state).toEqual({ open: 0, unwritten: 0, run: "done" });
    expect(run).toMatchObject({ mode: "bulk", listed: BULK_THRESHOLD + 10 });
    expect(tokens.refused).toEqual({});
    expect(shop.shopifyConnectionLostAt).toBeNull();
    expect(reconciliation?.lastError ?? null).toBeNull();
    expect(logs.filter((line) => /refused the shop's offline token|offline token renewal failed/.test(line))).toEqual(
      [],
    );
    // Every renewal is logged by the process that made it, and Shopify saw exactly those.
    expect(renewedLines.length).toBe(tokens.refreshes + tokens.migrations);
    // About one renewal per token's life (each serves LIFETIME_S - MARGIN_S), admin requests included (the library gets
    // the app's valid token and renews nothing itself); with several processes, far fewer than one per token's life
    // per process. No token exchange: the library never found a session it would replace.
    const seconds = (Date.now() - started) / 1000;
    expect(tokens.refreshes).toBeLessThanOrEqual(Math.ceil((seconds / (LIFETIME_S - MARGIN_S)) * 1.25) + 2);
    expect(tokens.exchanges).toBe(0);
    if (processes > 1) expect(tokens.refreshes).toBeLessThan((seconds / LIFETIME_S) * processes * 0.5);
  }, 240_000);
});
