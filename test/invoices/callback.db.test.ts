// Callbacks cannot be turned into load: freshness, once per (invoice, time, hash), the shop's team, and a burst
// of callbacks for one invoice costs one status read.
import { createHmac } from "node:crypto";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { action as callbackAction } from "../../app/routes/callbacks.invoices.$id";
import { CALLBACK_COALESCE_MS, callbackInstant } from "../../app/invoices/callback.server";
import { saveConnection } from "../../app/settings/settings.server";
import { connectShop, makeScheduledRowsDue, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";
import { callRoute } from "../helpers/routes";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { SHOP } from "../helpers/shopify";

const pipeline = pipelineForEachTest({
  formalizeDelayMs: 10,
  setUp: async (p) => {
    await connectShop(p.sandbox, SHOP);
    // The sandbox's own callbacks would blur the counts: these tests send their own.
    p.sandbox.faults.dropCallbacks(Infinity);
  },
});

/** The service's clock format: Istanbul time, "Y-m-d H:i:s". */
const istanbul = (at: Date) => DateTime.fromJSDate(at).setZone("Europe/Istanbul").toFormat("yyyy-MM-dd HH:mm:ss");

function callback(rowId: string, remoteId: number, options: { time?: string; teamId?: number; key?: string } = {}) {
  const time = options.time ?? istanbul(new Date());
  const teamId = options.teamId ?? pipeline.sandbox.account.teamId;
  const hash = createHmac("sha512", options.key ?? pipeline.sandbox.account.apiKey)
    .update(`${remoteId}${teamId}${time}`)
    .digest("hex");
  const body = JSON.stringify({ invoice_id: remoteId, team_id: teamId, time, hash });
  return callRoute(
    callbackAction,
    new Request(`${pipeline.appUrl}/callbacks/invoices/${rowId}`, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
    }),
    { id: rowId },
  );
}

/** A completed invoice, and the status reads made of it from now on. */
async function completedInvoice() {
  const worker = await pipeline.startWorker();
  await pipeline.deliverPaid(paidOrder());
  await waitForInvoices((rows) => rows[0]?.state === "processing" && !rows[0].leaseOwner);
  await settle(50); // the sandbox formalises meanwhile
  await makeScheduledRowsDue();
  worker.wake();
  const [row] = await waitForInvoices(
    (rows) => rows[0]?.state === "completed" && rows[0].nextAttemptAt === null && !rows[0].leaseOwner,
  );
  pipeline.requests.length = 0;
  const reads = () => pipeline.requests.filter((line) => line.startsWith(`GET /api/invoices/${row.remoteId} `)).length;
  return { row, worker, reads };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("callbacks", () => {
  it("reads the service's time as Istanbul time", () => {
    expect(callbackInstant("2026-11-22 13:00:00")!.toISOString()).toBe("2026-11-22T10:00:00.000Z");
    expect(callbackInstant("22.11.2026 13:00")).toBeNull();
  });

  it("reads a time again as the first time (the recent ones are kept), each answer a Date of its own", () => {
    const first = callbackInstant("2026-11-22 13:00:00")!;
    first.setTime(0);
    expect(callbackInstant("2026-11-22 13:00:00")!.toISOString()).toBe("2026-11-22T10:00:00.000Z");
    expect(callbackInstant("2026-02-30 13:00:00")).toBeNull();
    expect(callbackInstant("2026-02-30 13:00:00")).toBeNull();
    // More times than are kept, twice over: every one read right.
    const times = Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(2026, 10, 22, 10, 0, i)));
    for (const round of [1, 2]) {
      for (const at of times) expect(callbackInstant(istanbul(at))?.getTime(), `round ${round}`).toBe(at.getTime());
    }
  });

  it("20 replays of one old callback cause no read and change nothing", async () => {
    const { row, worker, reads } = await completedInvoice();
    const before = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    const eventsBefore = await prisma.invoiceEvent.count({ where: { invoiceId: row.id } });
    const old = istanbul(new Date(Date.now() - 60 * 60_000));
    for (let i = 0; i < 20; i++) {
      const response = await callback(row.id, row.remoteId!, { time: old });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true, ignored: "stale" });
    }
    worker.wake();
    await settle(CALLBACK_COALESCE_MS + 300);
    expect(reads()).toBe(0);
    expect(await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).toEqual(before);
    expect(await prisma.invoiceEvent.count({ where: { invoiceId: row.id } })).toBe(eventsBefore);
  });

  it("a callback from too far ahead, or in UTC instead of Istanbul time, is not fresh", async () => {
    const { row } = await completedInvoice();
    const ahead = await callback(row.id, row.remoteId!, { time: istanbul(new Date(Date.now() + 30 * 60_000)) });
    expect(await ahead.json()).toEqual({ ok: true, ignored: "stale" });
    const utc = DateTime.utc().minus({ hours: 0 }).toFormat("yyyy-MM-dd HH:mm:ss");
    expect(await (await callback(row.id, row.remoteId!, { time: utc })).json()).toEqual({ ok: true, ignored: "stale" });
    const recent = await callback(row.id, row.remoteId!, { time: istanbul(new Date(Date.now() - 10 * 60_000)) });
    expect(await recent.json()).toEqual({ ok: true });
  });

  it("the same callback 50 times is acted on once: one event, one read, and the invoice stays as it is", async () => {
    const { row, reads } = await completedInvoice();
    const time = istanbul(new Date());
    const answers = [];
    for (let i = 0; i < 50; i++) answers.push(await (await callback(row.id, row.remoteId!, { time })).json());
    expect(answers[0]).toEqual({ ok: true });
    expect(answers.slice(1).every((a) => a.ignored === "duplicate")).toBe(true);
    await waitForInvoices(() => reads() >= 1);
    await settle(CALLBACK_COALESCE_MS + 300);
    expect(reads()).toBe(1);
    expect(await prisma.invoiceEvent.count({ where: { invoiceId: row.id, type: "callback" } })).toBe(1);
    expect(await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      state: "completed",
      syncAttempts: 0,
    });
  });

  it("the same callback again while the invoice is processing reads it again: two status changes within one second look alike", async () => {
    const { row, worker, reads } = await completedInvoice();
    const time = istanbul(new Date());
    expect(await (await callback(row.id, row.remoteId!, { time })).json()).toEqual({ ok: true });
    await waitForInvoices(() => reads() >= 1);
    await waitForInvoices((rows) => rows[0]?.nextAttemptAt === null && !rows[0].leaseOwner);
    // As if that read had found the invoice still running, and the service then finished it within the same second:
    // its next notification carries the same time, so the same hash.
    await prisma.invoice.update({
      where: { id: row.id },
      data: { state: "processing", formalStatus: "running", workflowStatus: "processing", serialNumber: null },
    });
    expect(await (await callback(row.id, row.remoteId!, { time })).json()).toEqual({ ok: true, ignored: "duplicate" });
    worker.wake();
    const [after] = await waitForInvoices((rows) => rows[0]?.state === "completed" && rows[0].nextAttemptAt === null);
    expect(after.serialNumber).toBe(row.serialNumber);
    expect(reads()).toBe(2);
    expect(await prisma.invoiceEvent.count({ where: { invoiceId: row.id, type: "callback" } })).toBe(1);
  });

  it("a callback that comes while the post is still being answered makes the read happen at once, not on the schedule", async () => {
    // The service's callback arrives before the create's answer reaches the worker ("early": the row has no remote
    // id yet, so it is only recorded). The worker's end of job must see it and make the row due now; the schedule
    // alone would read it 15 s later (random() = 1: the longest first delay).
    const worker = await pipeline.startWorker({
      random: () => 1,
      clientFor: (connection) => {
        const client = new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, timeoutMs: 5000 });
        const create = client.createInvoice.bind(client);
        client.createInvoice = async (body) => {
          const record = await create(body);
          const [row] = await prisma.invoice.findMany({ where: { shopDomain: SHOP } });
          expect(await (await callback(row.id, record.id)).json()).toEqual({ ok: true });
          await settle(50); // the sandbox formalises meanwhile
          return record;
        };
        return client;
      },
    });
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed", 12_000);
    const types = (await prisma.invoiceEvent.findMany({ where: { invoiceId: row.id }, orderBy: { at: "asc" } })).map(
      (e) => e.type,
    );
    expect(types.indexOf("callback")).toBeLessThan(types.indexOf("posted"));
    expect(pipeline.requests.filter((line) => line.startsWith(`GET /api/invoices/${row.remoteId} `))).toHaveLength(1);
    await worker.stop();
  });

  it("ten different callbacks for one invoice within a few seconds cost one status read", async () => {
    const { row, reads } = await completedInvoice();
    const base = Date.now();
    // Spread over well over a second, as a chatty service would send them.
    for (let i = 0; i < 10; i++) {
      const response = await callback(row.id, row.remoteId!, { time: istanbul(new Date(base - i * 1000)) });
      expect(await response.json()).toEqual({ ok: true });
      await settle(130);
    }
    const spread = Date.now() - base;
    await waitForInvoices(() => reads() >= 1);
    await settle(CALLBACK_COALESCE_MS + 300);
    // A read window opens at a callback and lasts CALLBACK_COALESCE_MS, so windows start more than that apart:
    // one read on a quiet machine (the sending takes about 1.5 s), one more per window only when a loaded machine
    // stretched the sending. Without coalescing it would be ten.
    expect(reads()).toBeGreaterThanOrEqual(1);
    expect(reads()).toBeLessThanOrEqual(1 + Math.floor(spread / CALLBACK_COALESCE_MS));
    expect(await prisma.invoiceEvent.count({ where: { invoiceId: row.id, type: "callback" } })).toBe(10);
  });

  it("once the shop's team is known, a callback for another team is refused", async () => {
    const { row } = await completedInvoice();
    expect((await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } })).teamId).toBe(
      pipeline.sandbox.account.teamId,
    );
    const other = await callback(row.id, row.remoteId!, { teamId: pipeline.sandbox.account.teamId + 41 });
    expect(other.status).toBe(401);
    expect(await prisma.invoiceEvent.count({ where: { invoiceId: row.id, type: "callback" } })).toBe(0);
    // A new API key may belong to another account: the team is learned again.
    await saveConnection(SHOP, {
      baseUrl: pipeline.sandbox.url,
      apiKey: "another-key-12345678",
      saleChannelId: 1,
      invoiceIntegrationId: 1,
      testMode: false,
    });
    expect((await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } })).teamId).toBeNull();
  });
});
