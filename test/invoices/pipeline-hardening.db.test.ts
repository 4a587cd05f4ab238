// No duplicate, no orphan, every loop bounded: the pipeline against the sandbox (and stub clients where the
// sandbox cannot misbehave in the needed way).
import { describe, expect, it } from "vitest";
import { action as cancelledAction } from "../../app/routes/webhooks.orders.cancelled";
import { action as uninstalledAction } from "../../app/routes/webhooks.app.uninstalled";
import { recordShop } from "../../app/shops/shops.server";
import { RETRY, RETRY_AFTER_CAP_MS } from "../../app/jobs/backoff";
import { DuplicateOrderError, RateLimitedError, ServerError, TimeoutError } from "../../app/invoicing-service/errors";
import type { InvoiceRecord } from "../../app/invoicing-service/schemas";
import { makeScheduledRowsDue, noWaybillCalls, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";
import { problemsFrom, problemText } from "../../app/problems";
import { callRoute } from "../helpers/routes";
import { SHOP, signedWebhookRequest } from "../helpers/shopify";

const pipeline = pipelineForEachTest();

const account = () => pipeline.sandbox.account;
const atService = (orderId: string) => pipeline.sandbox.invoices.byOrderId(orderId);
const cancel = (order: object) =>
  callRoute(cancelledAction, signedWebhookRequest({ topic: "orders/cancelled", body: order }));

/** A second sales channel of the sandbox's default account. */
async function addSaleChannel(): Promise<number> {
  const response = await fetch(`${pipeline.sandbox.url}/integrations/sale-channel`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${pipeline.sandbox.account.apiKey}`,
      Accept: "application/json",
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ sale_channel: "shopify", settings: { domain: "second.myshopify.com" } }),
  });
  return ((await response.json()) as { data: { id: number } }).data.id;
}

/** Makes the shop's scheduled rows due and wakes the worker until `predicate` holds (at most `rounds` times). */
async function driveUntil(
  worker: { wake(): void },
  predicate: (row: { attempts: number; state: string; syncAttempts: number }) => boolean,
  rounds = 60,
) {
  for (let round = 0; round < rounds; round++) {
    const [row] = await prisma.invoice.findMany({ where: { shopDomain: SHOP } });
    if (row && predicate(row)) return row;
    if (row && !row.leaseOwner) await makeScheduledRowsDue();
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  throw new Error(
    `not reached: ${JSON.stringify(await prisma.invoice.findMany({ where: { shopDomain: SHOP }, select: { state: true, attempts: true, syncAttempts: true, lastError: true } }))}`,
  );
}

describe("no duplicate, no orphan", () => {
  it("an invoice whose create answer was lost is settled on the channel it was posted with, even after the shop changed its channel", async () => {
    const secondChannel = await addSaleChannel();
    pipeline.sandbox.faults.loseCreateAnswers(1);
    const worker = await pipeline.startWorker();
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    const [lost] = await waitForInvoices((rows) => rows[0]?.state === "queued" && rows[0].attempts === 1);
    expect(lost.saleChannelId).toBe(pipeline.sandbox.account.saleChannelId);
    expect(lost.invoiceIntegrationId).toBe(pipeline.sandbox.account.invoiceIntegrationId);
    await prisma.shopSettings.update({ where: { shopDomain: SHOP }, data: { saleChannelId: secondChannel } });
    await makeScheduledRowsDue();
    worker.wake();
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed");
    expect(atService(String(order.id))).toHaveLength(1);
    expect(row.remoteId).toBe(atService(String(order.id))[0].id);
    expect(pipeline.posts()).toBe(1);
  });

  it("orders/cancelled after an unknown outcome looks the order up first, links the invoice it finds and tells the merchant", async () => {
    pipeline.sandbox.faults.loseCreateAnswers(1);
    const worker = await pipeline.startWorker();
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    await waitForInvoices((rows) => rows[0]?.state === "queued" && rows[0].attempts === 1);
    expect((await cancel({ ...order, cancelled_at: "2026-11-21T16:00:00+03:00" })).status).toBe(200);
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
    expect(row.remoteId).toBe(atService(String(order.id))[0].id);
    expect(row.cancelledInShop).toBe(true);
    expect(row.problems).toEqual([expect.objectContaining({ code: "invoice.cancelled_after_invoicing" })]);
    expect(pipeline.posts()).toBe(1);
    await worker.stop();
  });

  it("orders/cancelled after a failed attempt that created nothing cancels the row, after asking", async () => {
    pipeline.sandbox.faults.failNext(1, { method: "POST", path: "/api/invoices", status: 503 });
    await pipeline.startWorker();
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    await waitForInvoices((rows) => rows[0]?.state === "queued" && rows[0].attempts === 1);
    expect((await cancel({ ...order, cancelled_at: "2026-11-21T16:00:00+03:00" })).status).toBe(200);
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "cancelled");
    expect(row.remoteId).toBeNull();
    expect(atService(String(order.id))).toHaveLength(0);
    expect(pipeline.requests.some((line) => line.startsWith("GET /api/invoices?"))).toBe(true);
    expect(pipeline.posts()).toBe(1);
  });
});

describe("uninstalled shops", () => {
  it("nothing is posted after app/uninstalled: rows wait, and resume when the shop installs again", async () => {
    const worker = await pipeline.startWorker();
    // A row that failed once and is due again later, then the merchant uninstalls.
    pipeline.sandbox.faults.failNext(1, { method: "POST", path: "/api/invoices", status: 503 });
    const early = paidOrder();
    await pipeline.deliverPaid(early);
    await waitForInvoices((rows) => rows[0]?.state === "queued" && rows[0].attempts === 1);
    expect(
      (
        await callRoute(
          uninstalledAction,
          signedWebhookRequest({ topic: "app/uninstalled", body: { id: 1, domain: SHOP, myshopify_domain: SHOP } }),
        )
      ).status,
    ).toBe(200);
    // A late orders/paid delivery after the uninstall.
    const late = paidOrder();
    expect((await pipeline.deliverPaid(late)).status).toBe(200);
    await makeScheduledRowsDue();
    worker.wake();
    const parked = await waitForInvoices(
      (rows) =>
        rows.length === 2 && rows.every((r) => r.state === "queued" && r.nextAttemptAt === null && !r.leaseOwner),
    );
    expect(parked.every((r) => r.remoteId === null)).toBe(true);
    await worker.idle();
    expect(pipeline.posts()).toBe(1); // only the failed attempt before the uninstall
    expect(atService(String(late.id))).toHaveLength(0);

    await recordShop(SHOP, { name: "back" }); // the merchant installs again (afterAuth)
    const done = await waitForInvoices((rows) => rows.length === 2 && rows.every((r) => r.state === "completed"));
    expect(done.map((r) => r.remoteId).every(Boolean)).toBe(true);
    expect(atService(String(early.id))).toHaveLength(1);
    expect(atService(String(late.id))).toHaveLength(1);
  });
});

describe("every loop backs off and ends", () => {
  const lostCreate = () => new TimeoutError({ method: "POST", path: "/invoices", create: true }, 1000);
  const serverDown = () => new ServerError({ method: "GET", path: "/invoices", create: false }, { status: 503 });

  it("a lookup that keeps failing counts as attempts and ends in failed with a readable reason", async () => {
    const stub = {
      createInvoice: async (): Promise<InvoiceRecord> => {
        throw lostCreate();
      },
      getInvoice: async (): Promise<InvoiceRecord> => {
        throw new Error("not called");
      },
      findInvoicesByOrderId: async (): Promise<InvoiceRecord[]> => {
        throw serverDown();
      },
      ...noWaybillCalls,
    };
    const worker = await pipeline.startWorker({ clientFor: () => stub });
    await pipeline.deliverPaid(paidOrder());
    const row = await driveUntil(worker, (r) => r.state === "failed");
    expect(row.attempts).toBe(RETRY.maxAttempts);
    const stored = await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    expect(stored.problems).toEqual([
      expect.objectContaining({
        code: "service.unavailable",
        params: expect.objectContaining({ attempts: RETRY.maxAttempts }),
      }),
    ]);
    expect(stored.nextAttemptAt).toBeNull();
    // The page says why in the merchant's language; the error's own English line stays in lastError for support.
    const [gaveUp] = problemsFrom(stored.problems);
    expect(problemText(gaveUp, "tr")).toBe(
      `Fatura servisine ${RETRY.maxAttempts} denemede ulaşılamadı. Son neden: Fatura servisi hata verdi (HTTP 503). Servis düzelince yeniden deneyin.`,
    );
    expect(problemText(gaveUp, "en")).toBe(
      `The invoicing service could not be reached after ${RETRY.maxAttempts} attempts. Last reason: The invoicing service had an error (HTTP 503). Retry when it is back.`,
    );
    expect(stored.lastError).toContain("503");
  });

  it("a duplicate answer whose lookup fails is retried by lookup, not given up", async () => {
    let lookups = 0;
    const existing = {
      id: 321,
      sale_channel_id: account().saleChannelId,
      invoice_integration_id: account().invoiceIntegrationId,
      workflow_status: "completed",
      formal_status: "completed",
      serial_number: "ARS2026000000321",
      errors: [],
    };
    const stub = {
      createInvoice: async (): Promise<InvoiceRecord> => {
        throw new DuplicateOrderError(
          { method: "POST", path: "/invoices", create: true },
          { order_id: ["already exists"] },
          { status: 422 },
        );
      },
      getInvoice: async (): Promise<InvoiceRecord> => existing,
      // The record says which order it is for (a record that does not is taken only by its callback address).
      findInvoicesByOrderId: async (orderId: string): Promise<InvoiceRecord[]> => {
        lookups += 1;
        if (lookups === 1) throw serverDown();
        return [{ ...existing, order_id: orderId }];
      },
      ...noWaybillCalls,
    };
    const worker = await pipeline.startWorker({ clientFor: () => stub });
    await pipeline.deliverPaid(paidOrder());
    const [retrying] = await waitForInvoices(
      (rows) => rows[0]?.state === "queued" && rows[0].attempts === 1 && !rows[0].leaseOwner,
    );
    expect(retrying.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    const row = await driveUntil(worker, (r) => r.state === "completed");
    expect(row.remoteId).toBe(321);
  });

  it("an API key that no longer decrypts needs the merchant at once, with a readable reason", async () => {
    await prisma.shopSettings.update({
      where: { shopDomain: SHOP },
      data: { apiKeyEncrypted: "v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA" },
    });
    const worker = await pipeline.startWorker();
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "needs_attention");
    expect(row.problems).toEqual([expect.objectContaining({ code: "settings.missing_api_key_unreadable" })]);
    expect(row.nextAttemptAt).toBeNull();
    expect(pipeline.requests).toEqual([]);
    await worker.stop();
  });

  it("an exception before the attempt is counted still counts, backs off, and ends", async () => {
    const worker = await pipeline.startWorker({
      clientFor: () => {
        throw new Error("client could not be built");
      },
    });
    const before = Date.now();
    await pipeline.deliverPaid(paidOrder());
    const [first] = await waitForInvoices((rows) => rows[0]?.attempts === 1 && rows[0].state === "queued");
    expect(first.nextAttemptAt!.getTime()).toBeGreaterThan(before + 1000);
    const row = await driveUntil(worker, (r) => r.state === "failed");
    expect(row.attempts).toBe(RETRY.maxAttempts);
    const stored = await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    expect(stored.problems).toEqual([expect.objectContaining({ code: "invoice.unexpected_error" })]);
    const [gaveUp] = problemsFrom(stored.problems);
    expect(problemText(gaveUp, "en")).toBe(
      `Sending this invoice failed ${RETRY.maxAttempts} times. Last reason: Something unexpected went wrong in the app. Retry; if it fails again, contact the app's support.`,
    );
    expect(problemText(gaveUp, "tr")).not.toContain("client could not be built");
  });

  it("a status read honours Retry-After, capped", async () => {
    const processing = { id: 77, workflow_status: "processing", formal_status: "pending", errors: [] };
    let retryAfterMs = 120_000;
    const stub = {
      createInvoice: async (): Promise<InvoiceRecord> => processing,
      getInvoice: async (): Promise<InvoiceRecord> => {
        throw new RateLimitedError({ method: "GET", path: "/invoices/77", create: false }, retryAfterMs);
      },
      findInvoicesByOrderId: async (): Promise<InvoiceRecord[]> => [],
      ...noWaybillCalls,
    };
    const worker = await pipeline.startWorker({ clientFor: () => stub });
    await pipeline.deliverPaid(paidOrder());
    await waitForInvoices((rows) => rows[0]?.state === "processing");
    let started = Date.now();
    await makeScheduledRowsDue();
    worker.wake();
    const [limited] = await waitForInvoices((rows) => rows[0]?.syncAttempts === 1 && !rows[0].leaseOwner);
    expect(limited.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(started + 120_000);
    retryAfterMs = 1e12;
    started = Date.now();
    await makeScheduledRowsDue();
    worker.wake();
    const [capped] = await waitForInvoices((rows) => rows[0]?.syncAttempts === 2 && !rows[0].leaseOwner);
    expect(capped.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now() + RETRY_AFTER_CAP_MS);
    expect(capped.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(started + RETRY_AFTER_CAP_MS - 1000);
  });

  it("a post's Retry-After is capped too", async () => {
    pipeline.sandbox.faults.rateLimitNext(1, 10 ** 9, { method: "POST", path: "/api/invoices" });
    const worker = await pipeline.startWorker();
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.attempts === 1 && rows[0].state === "queued");
    expect(row.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now() + RETRY_AFTER_CAP_MS);
    await worker.stop();
  });
});
