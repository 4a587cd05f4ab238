// An in-process pipeline for tests: the sandbox, a callback receiver that hands requests to the app's
// real callback route, an installed shop, and a worker. Webhooks go through the real route actions.
import http from "node:http";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { AddressInfo } from "node:net";
import { startSandbox, type Sandbox, type SandboxAccount, type SandboxOptions } from "../../sandbox/server";
import { action as callbackAction } from "../../app/routes/callbacks.invoices.$id";
import { action as paidAction } from "../../app/routes/webhooks.orders.paid";
import { installShopLocally } from "../../app/shops/local-install.server";
import { startWorker, type Worker, type WorkerOptions } from "../../app/worker/worker.server";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { callRoute } from "./routes";
import { SHOP, signedWebhookRequest } from "./shopify";
import { prisma } from "./db";
import { withSandbox, type TestSandbox } from "./sandbox";
import { startedLater } from "./started-later";

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
  const sandbox = await startSandbox({
    port: 0,
    formalizeDelayMs: options.formalizeDelayMs ?? 30,
    log: (line) => requests.push(line),
  });
  const receiver = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const id = decodeURIComponent((req.url ?? "").split("/").pop() ?? "");
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks),
    });
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
        clientFor: (connection) =>
          new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, timeoutMs: 1500 }),
        ...overrides,
      });
      workers.push(worker);
      return worker;
    },
    async stopWorkers() {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    },
    deliverPaid: (order, shop = SHOP) =>
      callRoute(paidAction, signedWebhookRequest({ topic: "orders/paid", body: order, shop })),
    async stop() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await sandbox.stop();
      await new Promise((resolve) => receiver.close(resolve));
    },
  };
}

/** Installs a shop connected to one of the sandbox's accounts, by default its default one (live integration unless testMode). */
export async function connectShop(
  sandbox: Sandbox,
  shop = SHOP,
  extra: { testMode?: boolean; apiKey?: string; account?: SandboxAccount } = {},
) {
  const account = extra.account ?? sandbox.account;
  await installShopLocally({
    shop,
    apiKey: extra.apiKey ?? account.apiKey,
    baseUrl: sandbox.url,
    saleChannelId: account.saleChannelId,
    invoiceIntegrationId: account.invoiceIntegrationId,
    dummyIntegrationId: account.dummyIntegrationId,
    testMode: extra.testMode ?? false,
  });
}

/**
 * Polls the database until `predicate` holds for the shop's invoices, or fails after `timeoutMs`: 20 s, because with
 * three test files at once on two cores (CI) an order's post, formalisation and callback took more than 10.
 */
export async function waitForInvoices(
  predicate: (rows: Awaited<ReturnType<typeof prisma.invoice.findMany>>) => boolean,
  timeoutMs = 20_000,
  shop = SHOP,
) {
  const deadline = Date.now() + timeoutMs;
  let rows = await prisma.invoice.findMany({ where: { shopDomain: shop } });
  while (!predicate(rows)) {
    if (Date.now() > deadline)
      throw new Error(
        `timed out; invoices: ${JSON.stringify(rows.map((r) => ({ state: r.state, attempts: r.attempts, lastError: r.lastError, problems: r.problems })))}`,
      );
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
 * The hooks of a test file that starts a pipeline once: started before its tests, workers stopped after each test
 * (so none outlives a failure), stopped after its tests. Returns the pipeline (usable once the file's tests run).
 */
export function withTestPipeline(options: { formalizeDelayMs?: number } = {}): TestPipeline {
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
  return startedLater("the test pipeline", () => current);
}

/**
 * The hooks every pipeline test file needs: `withTestPipeline`, and before each test no shops, no faults, then
 * `setUp` (by default: the shop connected live to the sandbox), then an empty request log.
 */
export function pipelineForEachTest(
  options: { formalizeDelayMs?: number; setUp?: (pipeline: TestPipeline) => Promise<void> } = {},
): TestPipeline {
  const pipeline = withTestPipeline(options);
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.privacyRequest.deleteMany();
    pipeline.sandbox.faults.reset();
    await (options.setUp ?? ((started) => connectShop(started.sandbox, SHOP)))(pipeline);
    // Last: what the set-up made the sandbox log (a new account's invoiced waybill, say) is not this test's.
    pipeline.requests.length = 0;
  });
  return pipeline;
}

/**
 * The hooks of a test file that reads the sandbox without a worker: `withSandbox`, and before each test no shops and
 * no sessions, no faults, then `shops` connected live to the sandbox's default account, then an empty request log.
 */
export function sandboxForEachTest(options: SandboxOptions & { shops?: string[] } = {}): TestSandbox {
  const { shops = [SHOP], ...sandboxOptions } = options;
  const sandbox = withSandbox(sandboxOptions);
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.privacyRequest.deleteMany();
    await prisma.session.deleteMany();
    for (const shop of shops) await connectShop(sandbox, shop);
    sandbox.faults.reset();
    sandbox.requests.length = 0;
  });
  return sandbox;
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
