// Orders no webhook brought, end to end against the stand-in of Shopify's Admin API and the invoicing sandbox:
// reconciliation finds a missed order and invoices it once, whatever runs twice or arrives late; a past-orders
// run of 1,000 orders completes with progress while live orders go ahead of it.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { reconcileShop } from "../../app/reconciliation/reconcile.server";
import { latestRun, startDryRun, startRun, type RunView } from "../../app/past-orders/runs.server";
import { prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";
import { noWaybillCalls, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import type { InvoiceRecord } from "../../app/invoicing-service/schemas";
import { SHOP } from "../helpers/shopify";
import { spawnStandin, standinReader } from "../helpers/standin";

const pipeline = pipelineForEachTest();
let standin: Standin;

beforeAll(async () => {
  // A generous bucket: these tests are about the app's bookkeeping; the client's throttling has its own tests.
  standin = await startStandin({ shop: SHOP, bucketSize: 1_000_000, restoreRate: 1_000_000 });
});
afterAll(async () => {
  await standin?.stop();
});

const fresh = (overrides: Record<string, unknown> = {}) => {
  const at = new Date().toISOString();
  return paidOrder({ created_at: at, processed_at: at, updated_at: at, ...overrides });
};

describe("reconciliation against the Admin API stand-in", () => {
  it("finds the order whose webhook never came, invoices it once, and a second pass or a late webhook adds nothing", async () => {
    const delivered = [fresh(), fresh()];
    const missed = fresh();
    standin.upsertOrders([...delivered, missed]);
    for (const order of delivered) await pipeline.deliverPaid(order);
    const worker = await pipeline.startWorker();
    const reader = standinReader(standin);

    const pass = await reconcileShop(SHOP, { reader, owner: "test" });
    expect(pass).toMatchObject({ status: "done", recorded: 1, duplicate: 2 });
    const rows = await waitForInvoices((all) => all.length === 3 && all.every((row) => row.state === "completed"));
    const found = rows.find((row) => row.orderId === String(missed.id))!;
    expect(found.orderName).toBe(missed.name);
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: found.id, type: "received" } });
    expect(events[0].message).toMatch(/found by reconciliation/);
    // Read through GraphQL, the missed order maps to the same invoice a webhook would have given it.
    expect(found.orderTotal).toBe(missed.total_price);
    expect(pipeline.posts()).toBe(3);

    expect(await reconcileShop(SHOP, { reader, owner: "test", since: new Date(Date.now() - 3_600_000) })).toMatchObject(
      { status: "done", recorded: 0, duplicate: 3 },
    );
    const late = await pipeline.deliverPaid(missed);
    expect(await late.json()).toMatchObject({ result: "duplicate" });
    await worker.idle();
    expect(await prisma.invoice.count({ where: { shopDomain: SHOP } })).toBe(3);
    expect(pipeline.posts()).toBe(3);
  }, 120_000);

  it("a pass racing the late webhooks of the same orders leaves one row and one invoice per order", async () => {
    const orders = Array.from({ length: 8 }, () => fresh());
    standin.upsertOrders(orders);
    const worker = await pipeline.startWorker();
    const reader = standinReader(standin);
    await Promise.all([
      reconcileShop(SHOP, { reader, owner: "a" }),
      reconcileShop(SHOP, { reader, owner: "b" }),
      ...orders.map((order) => pipeline.deliverPaid(order)),
    ]);
    await reconcileShop(SHOP, { reader, owner: "c" });
    const ids = new Set(orders.map((order) => String(order.id)));
    await waitForInvoices(
      (all) => all.filter((row) => ids.has(row.orderId)).length === 8 && all.every((row) => row.state === "completed"),
      20_000,
    );
    await worker.idle();
    expect(await prisma.invoice.count({ where: { shopDomain: SHOP, orderId: { in: [...ids] } } })).toBe(8);
    // The stand-in still holds the earlier test's orders, which this shop (emptied between tests) gets again:
    // one post per row, and one row per order.
    const all = await prisma.invoice.findMany({ where: { shopDomain: SHOP }, select: { orderId: true } });
    expect(new Set(all.map((row) => row.orderId)).size).toBe(all.length);
    expect(pipeline.posts()).toBe(all.length);
  }, 120_000);
});

describe("a past-orders run against the Admin API stand-in", () => {
  it("invoices 1,000 past orders with progress, takes live orders ahead of them, and survives THROTTLED answers", async () => {
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const past = Array.from({ length: 1000 }, (_, i) =>
      paidOrder({ created_at: day(20 + (i % 10)), processed_at: day(20 + (i % 10)), updated_at: day(19) }),
    );
    const from = new Date(Date.now() - 31 * 86_400_000);
    const to = new Date(Date.now() - 10 * 86_400_000);
    const shopify = await spawnStandin(past, ["--shop", SHOP, "--bucket-size", "1000000", "--restore-rate", "1000000"]);
    onTestFinished(() => shopify.stop());
    // The invoicing service answers at once with a finished invoice (the sandbox's formalisation is the pipeline
    // tests' subject): what is measured here is the order in which orders are posted.
    const posted: string[] = [];
    // Posting waits until the live orders have arrived, so that a backlog of past orders is waiting for them.
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const service = {
      createInvoice: async (body: { order_id?: string | null }): Promise<InvoiceRecord> => {
        await gate;
        posted.push(String(body.order_id));
        return {
          id: posted.length,
          workflow_status: "completed",
          formal_status: "completed",
          serial_number: `ARS2026${String(posted.length).padStart(9, "0")}`,
          errors: [],
        } as InvoiceRecord;
      },
      getInvoice: async (): Promise<InvoiceRecord> => {
        throw new Error("not called");
      },
      findInvoicesByOrderId: async (): Promise<InvoiceRecord[]> => [],
      ...noWaybillCalls,
    };
    const worker = await pipeline.startWorker({
      orders: shopify.reader,
      reconcileIntervalMs: 0,
      clientFor: () => service,
      concurrency: 4,
      perShopLimit: 2,
    });

    // The dry run's counting is the subject of test/past-orders/runs.db.test.ts; here it is taken as done.
    const dry = await startDryRun(SHOP, from, to, ["read_orders"], new Date());
    if (!dry.ok) throw new Error(dry.reason);
    await prisma.backfillRun.update({ where: { id: dry.id }, data: { state: "ready", plan: { orders: 1000 } } });
    let view: RunView | null = null;
    expect(await startRun(SHOP, dry.id)).toEqual({ ok: true, id: dry.id });
    // Once the run has a backlog, live orders arrive; each is posted before the past orders waiting then.
    await waitUntil(
      async () => (await prisma.invoice.count({ where: { backfillId: dry.id, state: "queued" } })) >= 40,
      240_000,
    );
    const live = [fresh(), fresh(), fresh()];
    const waiting: string[][] = [];
    for (const order of live) {
      waiting.push(
        (
          await prisma.invoice.findMany({ where: { backfillId: dry.id, state: "queued" }, select: { orderId: true } })
        ).map((row) => row.orderId),
      );
      await pipeline.deliverPaid(order);
    }
    openGate();
    // Shopify throttles a few reads mid-run (the reader has pages left: it stops at a backlog of 200 of the
    // 1,000): the client waits and reads the same page again, while the worker posts the backlog.
    await shopify.control("faults", { throttled: 3 });
    const progress: number[] = [];
    await waitUntil(async () => {
      view = await latestRun(SHOP);
      progress.push(view!.progress.done);
      return view!.state === "done";
    }, 1_200_000);
    expect(view!.progress).toEqual({
      total: 1000,
      done: 1000,
      noInvoice: 0,
      needsAttention: 0,
      failed: 0,
      inQueue: 0,
      alreadyInvoiced: 0,
    });
    expect(progress.length).toBeGreaterThan(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[0]).toBeLessThan(1000);

    live.forEach((order, i) => {
      const at = posted.indexOf(String(order.id));
      expect(at).toBeGreaterThanOrEqual(0);
      // Of the past orders waiting when it arrived, only the two the worker held already (per-shop share) went first.
      const before = waiting[i].filter((orderId) => posted.indexOf(orderId) < at).length;
      expect(before).toBeLessThanOrEqual(2);
      expect(waiting[i].length - before).toBeGreaterThan(20);
    });

    expect(await prisma.invoice.count({ where: { shopDomain: SHOP } })).toBe(1003);
    expect(new Set(posted).size).toBe(1003);
    expect(posted).toHaveLength(1003);
    expect(await shopify.control("stats")).toMatchObject({ throttled: 3 });
    await worker.stop();
    // Minutes on a loaded machine: 112 pages of 9 orders (what fits under the 1,000 points one query may ask for) and 1,003 posts.
  }, 1_500_000);
});

async function waitUntil(predicate: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify((await latestRun(SHOP))?.progress)}`);
    if (process.env.DEBUG_TEST)
      console.log(
        new Date().toISOString(),
        JSON.stringify((await latestRun(SHOP))?.progress),
        await prisma.invoice.count({ where: { shopDomain: SHOP } }),
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
