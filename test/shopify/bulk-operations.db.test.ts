// Past orders read with a bulk query operation, against the Admin API stand-in: a range of BULK_THRESHOLD orders
// or more is read with one bulkOperationRunQuery, followed through the signed bulk_operations/finish delivery (the
// app's real webhook path) or, when it never comes, by polling; its file's orders are recorded exactly as pages
// are (same rows, same "found by" history). A failed or expired operation, a file that cannot be read twice, or
// one operation more than the API version allows at once fall back to paging, and nothing is lost or doubled.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BULK_THRESHOLD, followBulkRead, recordBulkFinish } from "../../app/shopify/bulk-operations.server";
import { dbProvider, hot } from "../../app/db.server";
import { advanceRun, BACKLOG_MAX, latestRun, startDryRun, startRun } from "../../app/past-orders/runs.server";
import { createdBetweenQuery } from "../../app/shopify/order-reader";
import { reconcileShop, type ReconcileResult } from "../../app/reconciliation/reconcile.server";
import { encryptSecret } from "../../app/secrets/crypto.server";
import { MappingSettingsSchema } from "../../app/settings/schema";
import { LOCAL_DEFAULT_MAPPING } from "../../app/shops/local-install.server";
import { webhookMiddleware } from "../../app/webhooks/node-transport.server";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { installShop, prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";
import { SHOP } from "../helpers/shopify";
import { standinReader } from "../helpers/standin";

const COUNT = BULK_THRESHOLD + 20;
const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const from = new Date(Date.now() - 30 * 86_400_000);
const to = new Date(Date.now() + 86_400_000);
let server: http.Server;
let standin: Standin;
let orders: Array<ReturnType<typeof paidOrder>>;

beforeAll(async () => {
  // The app's production webhook path (the direct one; the Remix routes share answerDelivery) receives the
  // stand-in's signed deliveries.
  server = http.createServer((req, res) => webhookMiddleware(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  orders = Array.from({ length: COUNT }, (_, i) =>
    paidOrder({ created_at: day(2 + (i % 20)), processed_at: day(2 + (i % 20)), updated_at: day(1) }),
  );
  // One partly refunded order: its refund lines cannot be in a bulk file, so it is read again in full.
  const refunded = orders[7];
  Object.assign(refunded, {
    financial_status: "partially_refunded",
    refunds: [
      {
        id: 91_000_001,
        created_at: day(1),
        refund_line_items: [{ line_item_id: refunded.line_items[0].id, quantity: 1 }],
        order_adjustments: [],
      },
    ],
  });
  standin = await startStandin({
    shop: SHOP,
    orders,
    bucketSize: 1_000_000,
    restoreRate: 1_000_000,
    bulkMsPerObject: 0.5,
    webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    webhookSecret: API_SECRET_KEY,
  });
});

afterAll(async () => {
  await standin?.stop();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  await prisma.shop.deleteMany();
  await installShop(SHOP);
  await prisma.shopSettings.create({
    data: {
      shopDomain: SHOP,
      apiKeyEncrypted: encryptSecret("key", SHOP),
      saleChannelId: 7,
      invoiceIntegrationId: 8,
      dummyIntegrationId: 9,
      testMode: false,
      mapping: MappingSettingsSchema.parse(LOCAL_DEFAULT_MAPPING),
    },
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Steps the run as the worker's scheduler does (the queue drained as the worker would) until `done` holds. */
async function drive(
  id: string,
  reader: ReturnType<typeof standinReader>,
  done: (run: { state: string; listedAllAt: Date | null }) => boolean,
) {
  for (let i = 0; i < 3000; i++) {
    const more = await advanceRun(id, { reader, owner: "test" });
    await prisma.invoice.updateMany({ where: { backfillId: id, state: "queued" }, data: { state: "completed" } });
    const run = await prisma.backfillRun.findUniqueOrThrow({ where: { id } });
    if (done(run)) return run;
    if (!more) await sleep(20);
  }
  throw new Error("the run did not get there");
}

async function dryRunAndStart(reader: ReturnType<typeof standinReader>) {
  const started = await startDryRun(SHOP, from, to, ["read_orders"]);
  if (!started.ok) throw new Error(started.reason);
  await drive(started.id, reader, (run) => run.state === "ready");
  const dry = (await latestRun(SHOP))!;
  expect((await startRun(SHOP, started.id)).ok).toBe(true);
  const run = await drive(started.id, reader, (row) => row.listedAllAt !== null);
  return { id: started.id, dry, run };
}

async function expectAllRecordedOnce(id: string) {
  const rows = await prisma.invoice.findMany({
    where: { shopDomain: SHOP },
    select: { orderId: true, backfillId: true, priority: true },
  });
  expect(rows.map((row) => row.orderId).sort()).toEqual(orders.map((order) => String(order.id)).sort());
  expect(rows.every((row) => row.backfillId === id && row.priority === 1)).toBe(true);
  const run = await prisma.backfillRun.findUniqueOrThrow({ where: { id } });
  expect({ recorded: run.recorded, existing: run.existing, skipped: run.skipped }).toEqual({
    recorded: COUNT,
    existing: 0,
    skipped: 0,
  });
}

describe("past orders read in bulk", () => {
  it("a bulk file's orders are the paged read's orders, field for field (refunds included)", async () => {
    const reader = standinReader(standin);
    const query = createdBetweenQuery(from, to);
    const paged: unknown[] = [];
    let after: string | null = null;
    do {
      const page = await reader.listOrders(SHOP, { query, after, sortKey: "CREATED_AT" });
      paged.push(...page.orders);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    const started = await reader.bulk!.start(SHOP, query);
    if (!started.ok) throw new Error(started.message);
    let url: string | null = null;
    for (let i = 0; i < 500 && !url; i++) {
      url = (await reader.bulk!.status(SHOP, started.id))?.url ?? null;
      if (!url) await sleep(10);
    }
    const bulk = await reader.bulk!.download(SHOP, url!);
    const byId = (list: unknown[]) =>
      [...list].sort((a, b) => Number((a as { id: number }).id) - Number((b as { id: number }).id));
    expect(paged).toHaveLength(COUNT);
    expect(byId(bulk)).toEqual(byId(paged));
  }, 60_000);

  it("reads a large range with one bulk operation per phase, followed by the finish webhook, and records every order as paging does", async () => {
    const reader = standinReader(standin);
    const before = standin.stats();
    const since = new Date();
    const { id, dry, run } = await dryRunAndStart(reader);
    expect(dry.mode).toBe("bulk");
    expect(dry.plan).toMatchObject({ orders: COUNT, toInvoice: COUNT });
    expect(run.mode).toBe("bulk");
    await expectAllRecordedOnce(id);
    const after = standin.stats();
    expect(after.bulkOperations - before.bulkOperations).toBe(2);
    expect(after.bulkDownloads - before.bulkDownloads).toBe(2);
    // The finish webhook arrived, signed, through the app's webhook path, and each operation was asked about once
    // (for its file's address) rather than polled. The stand-in sends it as Shopify does, on its own: on a loaded
    // machine it can come after the app's first look at the operation (POLL_FIRST_MS) found it done, and is then
    // answered 200 as an operation no longer running; either way the operation is asked about once.
    const finishes = () =>
      prisma.webhookDelivery.findMany({
        where: { shopDomain: SHOP, topic: "BULK_OPERATIONS_FINISH", receivedAt: { gte: since } },
      });
    const answered = ["recorded", "unknown_operation"];
    await expect.poll(async () => (await finishes()).filter((d) => answered.includes(d.result ?? "")).length).toBe(2);
    expect(await finishes()).toHaveLength(2);
    const operations = await prisma.bulkOperation.findMany({ where: { shopDomain: SHOP } });
    expect(operations.map((o) => [o.status, o.polls])).toEqual([
      ["COMPLETED", 1],
      ["COMPLETED", 1],
    ]);
    // The order with a refund was read again in full: its snapshot carries the refund.
    const refunded = await prisma.invoice.findFirstOrThrow({ where: { orderId: String(orders[7].id) } });
    expect((refunded.orderSnapshot as { refunds: Array<{ id: number }> }).refunds.map((r) => r.id)).toEqual([
      91_000_001,
    ]);
    // "found by" history as for pages.
    const event = await prisma.invoiceEvent.findFirstOrThrow({
      where: { invoice: { orderId: String(orders[0].id) }, type: "received" },
    });
    expect(event.data).toMatchObject({ source: "past_orders", backfillId: id });
  }, 60_000);

  for (const bulk of [true, false]) {
    it(
      bulk
        ? "a run read in bulk records its whole file without waiting for its queue to drain"
        : "a run read page by page stops reading once BACKLOG_MAX of its invoices wait",
      async () => {
        const reader = standinReader(standin, { bulk });
        const started = await startDryRun(SHOP, from, to, ["read_orders"]);
        if (!started.ok) throw new Error(started.reason);
        await drive(started.id, reader, (run) => run.state === "ready");
        expect((await startRun(SHOP, started.id)).ok).toBe(true);
        // On PostgreSQL every wake-up of the workers is a NOTIFY: one at the step's first queued order and one at its end.
        const notify = dbProvider() === "postgresql" ? vi.spyOn(hot(), "notify") : null;
        // Nothing is posted meanwhile: every recorded row stays queued.
        const waiting = () => prisma.invoice.count({ where: { backfillId: started.id, state: "queued" } });
        for (let i = 0; i < 500; i++) {
          if ((await prisma.backfillRun.findUniqueOrThrow({ where: { id: started.id } })).listedAllAt) break;
          if (!bulk && (await waiting()) >= BACKLOG_MAX) break;
          if (!(await advanceRun(started.id, { reader, owner: "test" }))) await sleep(20);
        }
        // The paged run reads no further page while they wait.
        if (!bulk)
          for (let i = 0; i < 3; i++) expect(await advanceRun(started.id, { reader, owner: "test" })).toBe(false);
        expect(COUNT).toBeGreaterThan(BACKLOG_MAX);
        const queued = await waiting();
        const listedAll =
          (await prisma.backfillRun.findUniqueOrThrow({ where: { id: started.id } })).listedAllAt !== null;
        if (bulk) {
          expect({ queued, listedAll }).toEqual({ queued: COUNT, listedAll: true });
          // COUNT orders are one recording step.
          if (notify) expect(notify.mock.calls.length).toBeLessThanOrEqual(2);
        } else {
          // Pages are read whole: the last one read may take the queue a little past the bound.
          expect(queued).toBeGreaterThanOrEqual(BACKLOG_MAX);
          expect(queued).toBeLessThan(COUNT);
          expect(listedAll).toBe(false);
        }
        notify?.mockRestore();
      },
      60_000,
    );
  }

  it("a range under the threshold is read page by page, with no bulk operation", async () => {
    const reader = standinReader(standin);
    const before = standin.stats().bulkOperations;
    const started = await startDryRun(SHOP, new Date(Date.now() - 3.5 * 86_400_000), to, ["read_orders"]);
    if (!started.ok) throw new Error(started.reason);
    await drive(started.id, reader, (run) => run.state === "ready");
    expect((await latestRun(SHOP))!.mode).toBe("paged");
    expect(standin.stats().bulkOperations).toBe(before);
  }, 60_000);

  it("a failed bulk operation falls back to paging, and every order is still recorded once", async () => {
    const reader = standinReader(standin);
    standin.setFaults({ bulkFailures: 1, bulkErrorCode: "INTERNAL_SERVER_ERROR" });
    const { id, dry, run } = await dryRunAndStart(reader);
    expect(dry.mode).toBe("paged");
    expect(dry.plan).toMatchObject({ orders: COUNT });
    expect(run.mode).toBe("bulk");
    await expectAllRecordedOnce(id);
    expect(await prisma.bulkOperation.findFirst({ where: { shopDomain: SHOP, status: "FAILED" } })).toMatchObject({
      errorCode: "INTERNAL_SERVER_ERROR",
    });
  }, 60_000);

  it("an expired operation falls back to paging", async () => {
    const reader = standinReader(standin);
    standin.setFaults({ bulkExpired: 1 });
    const started = await startDryRun(SHOP, from, to, ["read_orders"]);
    if (!started.ok) throw new Error(started.reason);
    await drive(started.id, reader, (run) => run.state === "ready");
    const view = (await latestRun(SHOP))!;
    expect(view.mode).toBe("paged");
    expect(view.plan).toMatchObject({ orders: COUNT });
    expect(await prisma.bulkOperation.findFirst({ where: { shopDomain: SHOP } })).toMatchObject({ status: "EXPIRED" });
  }, 60_000);

  it("a download cut half-way is read again; cut twice, the range is read page by page; nothing is recorded twice", async () => {
    const reader = standinReader(standin);
    standin.setFaults({ bulkCutDownloads: 1 });
    const before = standin.stats().bulkDownloads;
    const started = await startDryRun(SHOP, from, to, ["read_orders"]);
    if (!started.ok) throw new Error(started.reason);
    await drive(started.id, reader, (run) => run.state === "ready");
    expect((await latestRun(SHOP))!).toMatchObject({ mode: "bulk", plan: { orders: COUNT } });
    expect(standin.stats().bulkDownloads - before).toBe(2);

    standin.setFaults({ bulkCutDownloads: 2 });
    expect((await startRun(SHOP, started.id)).ok).toBe(true);
    const run = await drive(started.id, reader, (row) => row.listedAllAt !== null);
    expect(run.mode).toBe("paged");
    await expectAllRecordedOnce(started.id);
  }, 60_000);

  it("when the finish webhook never comes, polling node(id:) with backoff finishes the job", async () => {
    const reader = standinReader(standin);
    standin.setFaults({ bulkDroppedWebhooks: 1 });
    const deliveredBefore = await prisma.webhookDelivery.count({
      where: { shopDomain: SHOP, topic: "BULK_OPERATIONS_FINISH" },
    });
    const started = await startDryRun(SHOP, from, to, ["read_orders"]);
    if (!started.ok) throw new Error(started.reason);
    await drive(started.id, reader, (run) => run.state === "ready");
    expect((await latestRun(SHOP))!).toMatchObject({ mode: "bulk", plan: { orders: COUNT } });
    expect(await prisma.webhookDelivery.count({ where: { shopDomain: SHOP, topic: "BULK_OPERATIONS_FINISH" } })).toBe(
      deliveredBefore,
    );
    const operation = await prisma.bulkOperation.findFirstOrThrow({ where: { shopDomain: SHOP } });
    expect(operation.status).toBe("COMPLETED");
    expect(operation.polls).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("a finish delivery saying FAILED, for an operation Shopify says is running, fails nothing (issue 35, point 7)", async () => {
    const reader = standinReader(standin);
    standin.setFaults({ bulkMsPerObject: 1000 });
    try {
      const started = await reader.bulk!.start(SHOP, "financial_status:paid");
      if (!started.ok) throw new Error(started.message);
      const row = await prisma.bulkOperation.create({
        data: { shopDomain: SHOP, operationId: started.id, purpose: "past_orders", status: "RUNNING" },
      });
      // A signed body of this shop's (an earlier delivery sent again, or one made to look so): FAILED.
      expect(
        await recordBulkFinish(SHOP, { admin_graphql_api_id: started.id, status: "failed", error_code: "timeout" }),
      ).toEqual({ status: 200, result: "recorded" });
      expect(await prisma.bulkOperation.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        status: "RUNNING",
        errorCode: null,
      });
      // The step it wakes asks Shopify, which says running: the read goes on.
      expect(await followBulkRead(reader.bulk!, row.id, new Date())).toMatchObject({ state: "waiting" });
      expect((await prisma.bulkOperation.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("RUNNING");
    } finally {
      standin.setFaults({ bulkMsPerObject: 0.5 });
      await standin.finishBulkOperations();
      await prisma.bulkOperation.deleteMany({ where: { shopDomain: SHOP } });
    }
  });

  it("never runs more bulk operations at once than the API version allows: one more falls back to paging", async () => {
    // Five of the shop's bulk operations already run at Shopify (from 2026-01 five are allowed), known to the app.
    const reader = standinReader(standin);
    standin.setFaults({ bulkMsPerObject: 1000 });
    const running: string[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const started = await reader.bulk!.start(SHOP, "financial_status:paid");
        if (!started.ok) throw new Error(started.message);
        running.push(started.id);
        await prisma.bulkOperation.create({
          data: { shopDomain: SHOP, operationId: started.id, purpose: "past_orders", status: "RUNNING" },
        });
      }
      const before = standin.stats().bulkOperations;
      const started = await startDryRun(SHOP, from, to, ["read_orders"]);
      if (!started.ok) throw new Error(started.reason);
      await drive(started.id, reader, (run) => run.state === "ready");
      expect((await latestRun(SHOP))!).toMatchObject({ mode: "paged", plan: { orders: COUNT } });
      // The app did not even ask: it counts its own running operations.
      expect(standin.stats().bulkOperations).toBe(before);

      // Not known to the app (another process started them, or its rows are gone): Shopify refuses the sixth,
      // and the run reads page by page all the same.
      await prisma.bulkOperation.deleteMany({ where: { shopDomain: SHOP } });
      const again = await startDryRun(SHOP, from, to, ["read_orders"]);
      if (!again.ok) throw new Error(again.reason);
      await drive(again.id, reader, (run) => run.state === "ready");
      expect((await latestRun(SHOP))!).toMatchObject({ mode: "paged", plan: { orders: COUNT } });
      expect(
        standin
          .mutations()
          .filter((m) => m.field === "bulkOperationRunQuery")
          .at(-1)!.userErrors,
      ).toEqual([expect.objectContaining({ code: "LIMIT_REACHED" })]);
    } finally {
      standin.setFaults({ bulkMsPerObject: 0.5 });
      // End the five, so later tests start with none running.
      await standin.finishBulkOperations();
    }
  }, 60_000);
});

describe("reconciliation of a long gap read in bulk", () => {
  // Installed weeks ago: the first pass reads the last 7 days, where every order of the stand-in was updated.
  beforeEach(() =>
    prisma.shop.update({ where: { domain: SHOP }, data: { installedAt: new Date(Date.now() - 30 * 86_400_000) } }),
  );

  async function pass(reader: ReturnType<typeof standinReader>): Promise<{ result: ReconcileResult; waited: number }> {
    let waited = 0;
    for (let i = 0; i < 1000; i++) {
      const result = await reconcileShop(SHOP, { reader, owner: "test", bulk: true });
      if (result.status !== "waiting") return { result, waited };
      waited++;
      await sleep(20);
    }
    throw new Error("the pass never ended");
  }

  it("a gap of BULK_THRESHOLD orders or more is read with one bulk operation, followed across passes, and sets the watermark to the pass that began it", async () => {
    const reader = standinReader(standin);
    const before = standin.stats().bulkOperations;
    const began = new Date();
    const { result, waited } = await pass(reader);
    expect(result).toMatchObject({ status: "done", read: COUNT, recorded: COUNT, duplicate: 0 });
    expect(waited).toBeGreaterThan(0);
    expect(standin.stats().bulkOperations - before).toBe(1);
    const row = await prisma.reconciliation.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(row).toMatchObject({ bulkOperationId: null, lastError: null });
    // The watermark is when the first pass began (orders updated while the operation built are read next time).
    expect(row.watermark!.getTime()).toBeGreaterThanOrEqual(began.getTime());
    expect(row.watermark!.getTime()).toBeLessThan(row.lastRunAt!.getTime() + 1);
    const event = await prisma.invoiceEvent.findFirstOrThrow({
      where: { invoice: { orderId: String(orders[3].id) }, type: "received" },
    });
    expect(event.data).toMatchObject({ source: "reconciliation" });
    // Without `bulk` (the admin's "Check now", a merchant waiting) the same gap is read page by page.
    expect(
      await reconcileShop(SHOP, { reader, owner: "test", since: new Date(Date.now() - 3 * 86_400_000) }),
    ).toMatchObject({ status: "done", duplicate: COUNT });
    expect(standin.stats().bulkOperations - before).toBe(1);
  }, 60_000);

  it("a failed bulk operation falls back to pages in the same pass", async () => {
    const reader = standinReader(standin);
    standin.setFaults({ bulkFailures: 1 });
    const { result } = await pass(reader);
    expect(result).toMatchObject({ status: "done", read: COUNT, recorded: COUNT });
    expect(
      await prisma.bulkOperation.findFirst({ where: { shopDomain: SHOP, purpose: "reconciliation" } }),
    ).toMatchObject({ status: "FAILED" });
  }, 60_000);
});
