// "Invoice past orders" runs: the dry run says what would happen, the run records each order once with the
// past-orders priority, and pause, resume and a restart lose nothing.
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  ABANDONED_RUN_MS,
  advanceRun,
  advanceRuns,
  CANCELLED_RUN_KEEP_MS,
  discardRun,
  latestRun,
  pauseRun,
  pruneAbandonedRuns,
  rangeProblem,
  resumeRun,
  startDryRun,
  startRun,
  type RunActionResult,
} from "../../app/past-orders/runs.server";
import { pastOrdersAction } from "../../app/past-orders/page.server";
import { DRY_RUNS, RECONCILE_NOW, RUN_STARTS } from "../../app/http/throttle.server";
import { logger } from "../../app/logger.server";
import { encryptSecret } from "../../app/secrets/crypto.server";
import { LOCAL_DEFAULT_MAPPING } from "../../app/shops/local-install.server";
import { MappingSettingsSchema } from "../../app/settings/schema";
import { createInvoiceRow, freshShopsForEachTest, prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";
import { fakeReader } from "../helpers/order-reader";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";

const now = new Date("2026-11-23T12:00:00Z");
const from = new Date("2026-11-01T00:00:00Z");
const to = new Date("2026-11-23T00:00:00Z");
const DAY = 24 * 3_600_000;

async function connect(shop: string, testMode = false) {
  await prisma.shopSettings.upsert({
    where: { shopDomain: shop },
    create: {
      shopDomain: shop,
      apiKeyEncrypted: encryptSecret("key", shop),
      saleChannelId: 7,
      invoiceIntegrationId: 8,
      dummyIntegrationId: 9,
      testMode,
      mapping: MappingSettingsSchema.parse(LOCAL_DEFAULT_MAPPING),
    },
    update: {},
  });
}

async function runToEnd(id: string, reader: ReturnType<typeof fakeReader>) {
  for (let i = 0; i < 100 && (await advanceRun(id, { reader, owner: "t", now: () => now })); i++);
}

describe("past-orders runs", () => {
  freshShopsForEachTest();
  beforeEach(async () => {
    await connect(SHOP);
  });

  it("needs read_all_orders past 60 days, and a range that is one", () => {
    const scopes = ["read_orders"];
    expect(rangeProblem(new Date(now.getTime() - 59 * DAY), now, now, scopes)).toBeNull();
    expect(rangeProblem(new Date(now.getTime() - 61 * DAY), now, now, scopes)).toBe("needs_read_all_orders");
    expect(rangeProblem(new Date(now.getTime() - 61 * DAY), now, now, [...scopes, "read_all_orders"])).toBeNull();
    expect(rangeProblem(to, from, now, scopes)).toBe("order");
    expect(rangeProblem(new Date(now.getTime() + DAY), new Date(now.getTime() + 2 * DAY), now, scopes)).toBe("future");
  });

  it("the dry run counts the orders, those recorded already, those needing attention and why, the quota and the late ones, and records nothing", async () => {
    const recent = { created_at: "2026-11-21T10:00:00+03:00", processed_at: "2026-11-21T10:00:00+03:00" };
    const old = { created_at: "2026-11-02T10:00:00+03:00", processed_at: "2026-11-02T10:00:00+03:00", name: "#OLD1" };
    const known = paidOrder(recent);
    await createInvoiceRow(SHOP, { orderId: String(known.id) });
    const badRate = paidOrder({
      ...recent,
      line_items: [{ ...paidOrder().line_items[0], tax_lines: [{ rate: 0.13, price: "80.50", title: "KDV" }] }],
    });
    const orders = [
      known,
      paidOrder(recent),
      paidOrder(old),
      badRate,
      paidOrder({ ...recent, financial_status: "pending" }),
    ];
    const reader = fakeReader(orders, 2);
    const started = await startDryRun(SHOP, from, to, ["read_orders"], now);
    if (!started.ok) throw new Error(started.reason);
    await runToEnd(started.id, reader);
    const view = await latestRun(SHOP);
    expect(view).toMatchObject({ state: "ready" });
    expect(view!.plan).toMatchObject({
      orders: 4,
      alreadyRecorded: 1,
      toInvoice: 3,
      needsAttention: 1,
      quota: 3,
      testMode: false,
      late: 1,
      lateOrders: ["#OLD1"],
    });
    // The row the app has is queued, not issued: it is "in progress", never "already invoiced".
    expect(view!.plan!.already).toEqual({ issued: 0, inProgress: 1, needsAttention: 0, cancelled: 0 });
    expect(Object.keys(view!.plan!.reasons)).toEqual(["line.unsupported_tax_rate"]);
    expect(reader.queries[0]).toContain(`created_at:>='${from.toISOString()}'`);
    expect(await prisma.invoice.count({ where: { shopDomain: SHOP } })).toBe(1);
  });

  it("the dry run says 'already invoiced' only of issued invoices; the other rows the app has are in progress, need attention or are cancelled", async () => {
    const recent = { created_at: "2026-11-21T10:00:00+03:00", processed_at: "2026-11-21T10:00:00+03:00" };
    const states = [
      "completed",
      "completed",
      "waiting",
      "queued",
      "sending",
      "processing",
      "needs_attention",
      "failed",
      "cancelled",
    ];
    const orders = states.map(() => paidOrder(recent));
    for (const [i, state] of states.entries()) {
      const row = await createInvoiceRow(SHOP, { orderId: String(orders[i].id) });
      await prisma.invoice.update({ where: { id: row.id }, data: { state } });
    }
    const reader = fakeReader([...orders, paidOrder(recent)], 3);
    const started = await startDryRun(SHOP, from, to, ["read_orders"], now);
    if (!started.ok) throw new Error(started.reason);
    await runToEnd(started.id, reader);
    const plan = (await latestRun(SHOP))!.plan!;
    expect(plan).toMatchObject({ orders: 10, alreadyRecorded: 9, toInvoice: 1 });
    expect(plan.already).toEqual({ issued: 2, inProgress: 4, needsAttention: 2, cancelled: 1 });
  });

  it("uses no quota in test mode, and every order needs the settings the shop lacks", async () => {
    await prisma.shopSettings.update({ where: { shopDomain: SHOP }, data: { testMode: true } });
    const started = await startDryRun(SHOP, from, to, [], now);
    await runToEnd(started.ok ? started.id : "", fakeReader([paidOrder(), paidOrder()]));
    expect((await latestRun(SHOP))!.plan).toMatchObject({ toInvoice: 2, quota: 0, testMode: true });
    const other = await startDryRun(OTHER_SHOP, from, to, [], now);
    await runToEnd(other.ok ? other.id : "", fakeReader([paidOrder()]));
    expect((await latestRun(OTHER_SHOP))!.plan).toMatchObject({
      needsAttention: 1,
      reasons: { "settings.missing_api_key": 1 },
    });
  });

  it("records every order once with the past-orders priority, pauses and resumes, and shows progress", async () => {
    const known = paidOrder();
    await createInvoiceRow(SHOP, { orderId: String(known.id) });
    const orders = [known, ...Array.from({ length: 6 }, () => paidOrder())];
    const reader = fakeReader(orders, 2);
    const started = await startDryRun(SHOP, from, to, [], now);
    const id = started.ok ? started.id : "";
    await runToEnd(id, reader);
    expect(await startRun(SHOP, id, now)).toEqual({ ok: true, id });
    // Another shop cannot act on this run.
    expect(await pauseRun(OTHER_SHOP, id, now)).toEqual({ ok: false, reason: "not_found" });
    expect(await advanceRun(id, { reader, owner: "t", now: () => now })).toBe(true);
    expect(await pauseRun(SHOP, id, now)).toEqual({ ok: true, id });
    // Paused: nothing is read, and the rows recorded are held.
    expect(await advanceRun(id, { reader, owner: "t", now: () => now })).toBe(false);
    const held = await prisma.invoice.findMany({ where: { backfillId: id } });
    expect(held).toHaveLength(1);
    expect(held.every((row) => row.state === "queued" && row.nextAttemptAt === null && row.priority === 1)).toBe(true);
    expect(await resumeRun(SHOP, id, now)).toEqual({ ok: true, id });
    expect(
      (await prisma.invoice.findMany({ where: { backfillId: id } })).every((row) => row.nextAttemptAt !== null),
    ).toBe(true);
    await runToEnd(id, reader);
    const rows = await prisma.invoice.findMany({ where: { shopDomain: SHOP } });
    expect(rows).toHaveLength(7);
    expect(rows.filter((row) => row.backfillId === id)).toHaveLength(6);
    const events = await prisma.invoiceEvent.findMany({ where: { invoice: { backfillId: id }, type: "received" } });
    expect(events.every((event) => /past orders/.test(event.message ?? ""))).toBe(true);
    let view = await latestRun(SHOP);
    expect(view).toMatchObject({
      state: "running",
      listedAll: true,
      progress: { total: 6, done: 0, needsAttention: 0, failed: 0, inQueue: 6, alreadyInvoiced: 1 },
    });
    // The worker finishes them: the run is done when none is left in the queue.
    const ids = rows.filter((row) => row.backfillId === id).map((row) => row.id);
    await prisma.invoice.updateMany({
      where: { id: { in: ids.slice(0, 4) } },
      data: { state: "completed", nextAttemptAt: null },
    });
    await prisma.invoice.updateMany({
      where: { id: { in: ids.slice(4, 5) } },
      data: { state: "needs_attention", nextAttemptAt: null },
    });
    await advanceRuns({ reader, owner: "t", now: () => now });
    expect((await latestRun(SHOP))!.state).toBe("running");
    await prisma.invoice.updateMany({
      where: { id: { in: ids.slice(5) } },
      data: { state: "failed", nextAttemptAt: null },
    });
    await advanceRuns({ reader, owner: "t", now: () => now });
    view = await latestRun(SHOP);
    expect(view).toMatchObject({
      state: "done",
      progress: { total: 6, done: 4, needsAttention: 1, failed: 1, inQueue: 0, alreadyInvoiced: 1 },
    });
  });

  it("asks for the next page while it records this one, and reads no page twice", async () => {
    const orders = Array.from({ length: 7 }, () => paidOrder());
    const reader = fakeReader(orders, 2);
    const started = await startDryRun(SHOP, from, to, [], now);
    const id = started.ok ? started.id : "";
    await runToEnd(id, reader);
    // Counting: 4 pages of 2, each asked for once (the last one has no next page to read ahead).
    expect(reader.queries).toHaveLength(4);
    await startRun(SHOP, id, now);
    expect(await advanceRun(id, { reader, owner: "t", now: () => now })).toBe(true);
    // The first page recorded, the second already asked for.
    expect(reader.queries).toHaveLength(6);
    expect(await prisma.invoice.count({ where: { backfillId: id } })).toBe(2);
    await runToEnd(id, reader);
    expect(reader.queries).toHaveLength(8);
    expect(await prisma.invoice.count({ where: { backfillId: id } })).toBe(7);
  });

  it("a step that fails keeps its page for the next step; a step that crashed holds the lease only until it expires", async () => {
    const orders = [paidOrder(), paidOrder(), paidOrder()];
    const reader = fakeReader(orders, 2);
    const started = await startDryRun(SHOP, from, to, [], now);
    const id = started.ok ? started.id : "";
    await runToEnd(id, reader);
    await startRun(SHOP, id, now);
    reader.beforePage = () => Promise.reject(new Error("THROTTLED"));
    expect(await advanceRun(id, { reader, owner: "t", now: () => now })).toBe(false);
    expect(await prisma.backfillRun.findUniqueOrThrow({ where: { id } })).toMatchObject({
      lastError: "THROTTLED",
      listed: 0,
      cursor: null,
    });
    reader.beforePage = undefined;
    // A crashed step's lease (another process) blocks until it expires.
    await prisma.backfillRun.update({
      where: { id },
      data: { leaseOwner: "dead", leaseUntil: new Date(now.getTime() + 60_000) },
    });
    expect(await advanceRun(id, { reader, owner: "t", now: () => now })).toBe(false);
    const later = () => new Date(now.getTime() + 120_001);
    while (await advanceRun(id, { reader, owner: "t", now: later }));
    expect(await prisma.invoice.count({ where: { backfillId: id } })).toBe(3);
  });

  it("a dry run discarded while its last page is counted stays discarded, and its lease is given back at once", async () => {
    const reader = fakeReader([paidOrder(), paidOrder()], 5);
    const started = await startDryRun(SHOP, from, to, [], now);
    const id = started.ok ? started.id : "";
    let release!: () => void;
    let asked!: () => void;
    const pageAsked = new Promise<void>((resolve) => (asked = resolve));
    reader.beforePage = () => {
      asked();
      return new Promise<void>((resolve) => (release = resolve));
    };
    const step = advanceRun(id, { reader, owner: "t", now: () => now });
    await pageAsked;
    expect(await discardRun(SHOP, id, now)).toEqual({ ok: true, id });
    release();
    // Its only page read, the step would have made the run "ready" again (and written its plan).
    expect(await step).toBe(false);
    expect(await prisma.backfillRun.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "cancelled",
      plan: null,
      leaseOwner: null,
      leaseUntil: null,
    });
  });

  it("a running run paused while a page is recorded still moves past that page, and holds what it queued", async () => {
    const orders = [paidOrder(), paidOrder(), paidOrder()];
    const reader = fakeReader(orders, 2);
    const started = await startDryRun(SHOP, from, to, [], now);
    const id = started.ok ? started.id : "";
    await runToEnd(id, reader);
    await startRun(SHOP, id, now);
    reader.beforePage = () => pauseRun(SHOP, id, now).then(() => undefined);
    expect(await advanceRun(id, { reader, owner: "t", now: () => now })).toBe(true);
    expect(await prisma.backfillRun.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "paused",
      cursor: "2",
      listed: 2,
      leaseOwner: null,
    });
    expect(await prisma.invoice.count({ where: { backfillId: id, nextAttemptAt: null } })).toBe(2);
    reader.beforePage = undefined;
    await resumeRun(SHOP, id, now);
    await runToEnd(id, reader);
    expect(await prisma.invoice.count({ where: { backfillId: id } })).toBe(3);
  });

  it("one unfinished run per shop: a new dry run replaces a dry run, not a running run", async () => {
    const first = await startDryRun(SHOP, from, to, [], now);
    const second = await startDryRun(SHOP, from, to, [], now);
    expect(second.ok).toBe(true);
    expect((await prisma.backfillRun.findUniqueOrThrow({ where: { id: first.ok ? first.id : "" } })).state).toBe(
      "cancelled",
    );
    const id = second.ok ? second.id : "";
    await runToEnd(id, fakeReader([]));
    await startRun(SHOP, id, now);
    expect(await startDryRun(SHOP, from, to, [], now)).toEqual({ ok: false, reason: "busy" });
  });
});

describe("a burst of dry runs and starts, and the runs nobody started", () => {
  freshShopsForEachTest();
  beforeEach(async () => {
    await connect(SHOP);
    await connect(OTHER_SHOP);
    await DRY_RUNS.clear();
    await RUN_STARTS.clear();
  });

  const dryRun = async (shop: string, at: Date) => ({
    result: (
      await pastOrdersAction(shop, { intent: "dry_run", from: "2026-11-01", to: "2026-11-22" }, fakeReader([]), "t", at)
    ).result as RunActionResult,
  });

  it("100 dry runs in 5 s: a few run, the rest are refused and logged once; another shop is not held back", async () => {
    const warn = vi.spyOn(logger, "warn");
    const results = [];
    for (let i = 0; i < 100; i++) results.push((await dryRun(SHOP, new Date(now.getTime() + i * 50))).result);
    const refused = results.filter((r) => !r.ok);
    expect(refused.length).toBeGreaterThanOrEqual(90);
    expect(new Set(refused.map((r) => (r.ok ? "" : r.reason)))).toEqual(new Set(["throttled"]));
    expect(await prisma.backfillRun.count({ where: { shopDomain: SHOP } })).toBe(100 - refused.length);
    expect(warn.mock.calls.filter((call) => String(call[1]).startsWith("past orders: too many requests"))).toHaveLength(
      1,
    );
    expect((await dryRun(OTHER_SHOP, new Date(now.getTime() + 5_000))).result.ok).toBe(true);
    // A minute later the shop may ask again.
    expect((await dryRun(SHOP, new Date(now.getTime() + 65_000))).result.ok).toBe(true);
    warn.mockRestore();
  });

  it("starts and resumes are throttled the same way", async () => {
    const started = await startDryRun(SHOP, from, to, ["read_orders"], now);
    if (!started.ok) throw new Error(started.reason);
    const answers = [];
    for (let i = 0; i < 20; i++)
      answers.push(
        (await pastOrdersAction(SHOP, { intent: "start", id: started.id }, fakeReader([]), "t", now))
          .result as RunActionResult,
      );
    expect(answers.filter((r) => !r.ok && r.reason === "throttled")).toHaveLength(15);
  });

  it('a burst of "check now" is refused after three, for this shop only (issue 35, point 11)', async () => {
    await RECONCILE_NOW.clear();
    const check = async (shop: string) =>
      (await pastOrdersAction(shop, { intent: "reconcile" }, fakeReader([]), "t", now)).result as { status: string };
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await check(SHOP)).status);
    expect(statuses.slice(0, 3).every((status) => status !== "throttled")).toBe(true);
    expect(statuses.slice(3)).toEqual(["throttled", "throttled", "throttled"]);
    expect((await check(OTHER_SHOP)).status).not.toBe("throttled");
  });

  it("dry runs replaced, discarded or left alone are removed; a started run stays", async () => {
    const at = (ms: number) => new Date(Date.now() + ms);
    const replaced = await startDryRun(SHOP, from, to, ["read_orders"], now);
    const current = await startDryRun(SHOP, from, to, ["read_orders"], now);
    const started = await startDryRun(OTHER_SHOP, from, to, ["read_orders"], now);
    if (!replaced.ok || !current.ok || !started.ok) throw new Error("dry runs");
    await prisma.backfillRun.update({ where: { id: started.id }, data: { state: "running", startedAt: now } });
    expect(await pruneAbandonedRuns(at(0))).toBe(0);
    expect(await pruneAbandonedRuns(at(CANCELLED_RUN_KEEP_MS + 60_000))).toBe(1);
    expect(await prisma.backfillRun.findUnique({ where: { id: replaced.id } })).toBeNull();
    expect(await pruneAbandonedRuns(at(ABANDONED_RUN_MS + 60_000))).toBe(1);
    expect((await prisma.backfillRun.findMany()).map((run) => run.id)).toEqual([started.id]);
  });
});
