// An in-process pipeline for tests: the sandbox, a callback receiver that hands requests to the app's
// real callback route, an installed shop, and a worker. Webhooks go through the real route actions.
import http from "node:http";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { AddressInfo } from "node:net";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { action as callbackAction } from "../../app/routes/callbacks.invoices.$id";
import { action as paidAction } from "../../app/routes/webhooks.orders.paid";
import { installShopLocally } from "../../app/shops/local-install.server";
import { startWorker, type Worker, type WorkerOptions } from "../../app/worker/worker.server";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { callRoute } from "./routes";
import { SHOP, signedWebhookRequest } from "./shopify";
import { prisma } from "./db";

export interface TestPipeline {
  sandbox: Sandbox;
  appUrl: string;
  /** Every request line the sandbox saw, e.g. "POST /api/invoices → 201 (3 ms)". */
  requests: string[];
  posts(): number;
  startWorker(options?: Partial<WorkerOptions>): Promise<Worker>;
  /** Stops every worker started by this pipeline (call after each test, so none outlives a failure). */
  stopWorkers(): Promise<void>;
  deliverPaid(order: unknown, shop?: string): Promise<Response>;
  stop(): Promise<void>;
}

export async function startTestPipeline(options: { formalizeDelayMs?: number } = {}): Promise<TestPipeline> {
  const requests: string[] = [];
  const sandbox = await startSandbox({ port: 0, formalizeDelayMs: options.formalizeDelayMs ?? 30, log: (line) => requests.push(line) });
  const receiver = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const id = decodeURIComponent((req.url ?? "").split("/").pop() ?? "");
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
    try {
      const response = await callRoute(callbackAction, request, { id });
      res.writeHead(response.status, { "Content-Type": "application/json" }).end(await response.text());
    } catch (error) {
      // What Remix does with a thrown error: a 500 (the service may call again; status sync covers it).
      res.writeHead(500).end(String((error as Error).message));
    }
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const appUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const workers: Worker[] = [];
  return {
    sandbox,
    appUrl,
    requests,
    posts: () => requests.filter((line) => line.startsWith("POST /api/invoices ")).length,
    async startWorker(overrides = {}) {
      const worker = await startWorker({
        appUrl,
        pollMs: 50,
        // The start-up check of stored accounts reads the service in the background: tests that want it call it.
        checkAccounts: false,
        // Whether a fixture order's 7-day deadline is near depends on the day: the reminders' own test calls them.
        deadlineReminders: false,
        clientFor: (connection) => new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, timeoutMs: 1500 }),
        ...overrides,
      });
      workers.push(worker);
      return worker;
    },
    async stopWorkers() {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    },
    deliverPaid: (order, shop = SHOP) => callRoute(paidAction, signedWebhookRequest({ topic: "orders/paid", body: order, shop })),
    async stop() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await sandbox.stop();
      await new Promise((resolve) => receiver.close(resolve));
    },
  };
}

/** Installs a shop connected to the sandbox's default account (live integration unless testMode). */
export async function connectShop(sandbox: Sandbox, shop = SHOP, extra: { testMode?: boolean; apiKey?: string } = {}) {
  await installShopLocally({
    shop,
    apiKey: extra.apiKey ?? sandbox.account.apiKey,
    baseUrl: sandbox.url,
    saleChannelId: sandbox.account.saleChannelId,
    invoiceIntegrationId: sandbox.account.invoiceIntegrationId,
    dummyIntegrationId: sandbox.account.dummyIntegrationId,
    testMode: extra.testMode ?? false,
  });
}

/** Polls the database until `predicate` holds for the shop's invoices, or fails after `timeoutMs`. */
export async function waitForInvoices(
  predicate: (rows: Awaited<ReturnType<typeof prisma.invoice.findMany>>) => boolean,
  timeoutMs = 10_000,
  shop = SHOP,
) {
  const deadline = Date.now() + timeoutMs;
  let rows = await prisma.invoice.findMany({ where: { shopDomain: shop } });
  while (!predicate(rows)) {
    if (Date.now() > deadline) throw new Error(`timed out; invoices: ${JSON.stringify(rows.map((r) => ({ state: r.state, attempts: r.attempts, lastError: r.lastError, problems: r.problems })))}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    rows = await prisma.invoice.findMany({ where: { shopDomain: shop } });
  }
  return rows;
}

/** Time travel for retries: makes every scheduled row of the shop due now (after checking it was later). */
export async function makeScheduledRowsDue(shop = SHOP) {
  const now = new Date();
  const scheduled = await prisma.invoice.findMany({ where: { shopDomain: shop, nextAttemptAt: { gt: now } } });
  await prisma.invoice.updateMany({ where: { id: { in: scheduled.map((r) => r.id) } }, data: { nextAttemptAt: now } });
  return scheduled;
}

/**
 * The hooks every pipeline test file needs: one pipeline for the file, workers stopped after each test, and before
 * each test no shops, no faults, no request log, then `setUp` (by default: the shop connected live to the sandbox).
 * Returns the pipeline (usable once the file's tests run).
 */
export function pipelineForEachTest(options: { formalizeDelayMs?: number; setUp?: (pipeline: TestPipeline) => Promise<void> } = {}): TestPipeline {
  let current: TestPipeline | undefined;
  beforeAll(async () => {
    current = await startTestPipeline({ formalizeDelayMs: options.formalizeDelayMs ?? 20 });
  });
  afterAll(async () => {
    await current?.stop();
  });
  afterEach(async () => {
    await current?.stopWorkers();
  });
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    current!.sandbox.faults.reset();
    current!.requests.length = 0;
    await (options.setUp ?? ((pipeline) => connectShop(pipeline.sandbox, SHOP)))(current!);
  });
  return new Proxy({} as TestPipeline, { get: (_target, key) => current![key as keyof TestPipeline] });
}

/** For stub clients of tests about orders: the waybill calls, which such a test never reaches. */
export const noWaybillCalls = {
  createInvoiceFromWaybill: async (): Promise<never> => {
    throw new Error("not called");
  },
  getWaybill: async (): Promise<never> => {
    throw new Error("not called");
  },
};
