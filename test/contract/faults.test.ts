// Contract: the app's client on a bad day. The sandbox injects 5xx, 429 with Retry-After, slow answers,
// lost create answers and lost callbacks; the client must classify each (retry safe / never / unknown)
// and an unknown create must be settled by settleUnknownCreate with exactly one invoice stored.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { settleUnknownCreate, type InvoicingClient } from "../../app/invoicing-service/client";
import {
  DuplicateOrderError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from "../../app/invoicing-service/errors";
import { startSandbox } from "../../sandbox/server";
import { withSandbox } from "../helpers/sandbox";
import { clientFor, invoiceBody, startCallbackReceiver, waitFor } from "./helpers";

const sandbox = withSandbox({ formalizeDelayMs: 20 });
let client: InvoicingClient;
let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;

beforeAll(async () => {
  client = clientFor(sandbox);
  receiver = await startCallbackReceiver();
});
afterEach(() => sandbox.faults.reset());
afterAll(async () => {
  await receiver?.close();
});

const account = () => sandbox.account;
const stored = (orderId: string) => sandbox.invoices.byOrderId(orderId, account().teamId);

describe("5xx", () => {
  it("a create answered 503 is ServerError with an unknown outcome; nothing was stored, so settling finds nothing", async () => {
    sandbox.faults.failNext(1, { status: 503, method: "POST", path: "/api/invoices" });
    const body = invoiceBody(account());
    const error = await client.createInvoice(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, retry: "unknown" });
    expect(stored(body.order_id!)).toHaveLength(0);
    expect(
      await settleUnknownCreate(client, { saleChannelId: account().saleChannelId, orderId: body.order_id! }),
    ).toBeNull();
    // The fault was for one request only.
    expect((await client.createInvoice(body)).order_id).toBe(body.order_id);
    expect(stored(body.order_id!)).toHaveLength(1);
  });

  it("a read answered 500 is ServerError that is safe to repeat; only matching requests fail", async () => {
    const record = await client.createInvoice(invoiceBody(account()));
    sandbox.faults.failNext(1, { method: "GET", path: "/api/invoices/*" });
    await expect(client.checkAuth()).resolves.toBeUndefined();
    const error = await client.getInvoice(record.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, retry: "safe" });
    expect((await client.getInvoice(record.id)).id).toBe(record.id);
  });
});

describe("429", () => {
  it("is RateLimitedError with Retry-After in milliseconds, safe to repeat, and nothing stored", async () => {
    sandbox.faults.rateLimitNext(1, 2);
    const body = invoiceBody(account());
    const error = await client.createInvoice(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, retry: "safe", retryAfterMs: 2000 });
    expect(stored(body.order_id!)).toHaveLength(0);
    await expect(client.createInvoice(body)).resolves.toMatchObject({ order_id: body.order_id });
  });
});

describe("slow answers", () => {
  it("a create slower than the client's timeout is TimeoutError (unknown); the invoice exists and settling finds it", async () => {
    const impatient = clientFor(sandbox, account(), 150);
    sandbox.faults.delayNext(1, 1_000, { method: "POST", path: "/api/invoices" });
    const body = invoiceBody(account());
    const started = Date.now();
    const error = await impatient.createInvoice(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ retry: "unknown", timeoutMs: 150 });
    expect(Date.now() - started).toBeLessThan(900);
    const settled = await settleUnknownCreate(impatient, {
      saleChannelId: account().saleChannelId,
      orderId: body.order_id!,
    });
    expect(settled?.order_id).toBe(body.order_id);
    expect(stored(body.order_id!)).toHaveLength(1);
  });

  it("a slow read is TimeoutError that is safe to repeat", async () => {
    const impatient = clientFor(sandbox, account(), 100);
    sandbox.faults.delayNext(1, 500, { method: "POST", path: "/api/check/auth" });
    await expect(impatient.checkAuth()).rejects.toMatchObject({ kind: "timeout", retry: "safe" });
    await expect(impatient.checkAuth()).resolves.toBeUndefined();
  });

  it("a fixed latency applies to every request", async () => {
    sandbox.faults.setLatency(60);
    const started = Date.now();
    await client.checkAuth();
    await client.listSaleChannels();
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });
});

describe("created but the answer was lost", () => {
  it("is NetworkError with an unknown outcome; settleUnknownCreate finds the one invoice, and posting again is refused as a duplicate", async () => {
    sandbox.faults.loseCreateAnswers(1);
    const quota = sandbox.quotaUsed(account().apiKey);
    const body = invoiceBody(account());
    const error = await client.createInvoice(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ sent: true, retry: "unknown" });

    const settled = await settleUnknownCreate(client, {
      saleChannelId: account().saleChannelId,
      orderId: body.order_id!,
    });
    expect(settled).not.toBeNull();
    expect(settled!.order_id).toBe(body.order_id);
    expect(stored(body.order_id!).map((i) => i.id)).toEqual([settled!.id]);
    expect(sandbox.quotaUsed(account().apiKey)).toBe(quota + 1);

    await expect(client.createInvoice(body)).rejects.toBeInstanceOf(DuplicateOrderError);
    expect(stored(body.order_id!)).toHaveLength(1);
  });

  it("applies to waybill invoicing too", async () => {
    const id = account().waybillIds.completed;
    sandbox.faults.loseCreateAnswers(1);
    const body = { ...invoiceBody(account()), waybill_number: "2026000000001" };
    await expect(client.createInvoiceFromWaybill(id, body)).rejects.toMatchObject({
      kind: "network",
      retry: "unknown",
    });
    expect((await client.getWaybill(id)).invoice_id).toBe(stored(body.order_id!)[0].id);
  });
});

describe("lost callbacks", () => {
  it("dropped callbacks are never sent; polling still shows the completed invoice", async () => {
    sandbox.faults.dropCallbacks();
    const record = await client.createInvoice(invoiceBody(account(), { callback_url: receiver.url }));
    const done = await waitFor(async () => {
      const r = await client.getInvoice(record.id);
      return r.workflow_status === "completed" ? r : undefined;
    });
    expect(done.serial_number).not.toBeNull();
    const deliveries = sandbox.callbacks.filter((c) => c.invoiceId === record.id);
    expect(deliveries.map((d) => d.dropped)).toEqual([true, true]);
    expect(receiver.received.some((r) => (r.body as { invoice_id?: number }).invoice_id === record.id)).toBe(false);
  });

  it("records a callback whose receiver is unreachable with its error", async () => {
    const record = await client.createInvoice(
      invoiceBody(account(), { callback_url: "http://127.0.0.1:9/unreachable" }),
    );
    const failed = await waitFor(() => sandbox.callbacks.find((c) => c.invoiceId === record.id && !c.pending));
    expect(failed.status).toBeUndefined();
    expect(failed.error).toMatch(/fetch failed|ECONNREFUSED/);
  });
});

describe("callback timeout", () => {
  it("abandons a receiver that does not answer in time and records the timeout", async () => {
    const hanging = http.createServer(() => undefined); // never answers
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const quick = await startSandbox({ port: 0, formalizeDelayMs: 5, callbackTimeoutMs: 100 });
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/cb`;
      const record = await clientFor(quick).createInvoice(invoiceBody(quick.account, { callback_url: url }));
      const delivery = await waitFor(
        () => quick.callbacks.find((c) => c.invoiceId === record.id && !c.pending),
        3_000,
        "the timeout",
      );
      expect(delivery.status).toBeUndefined();
      expect(delivery.error).toMatch(/timed out after 100 ms/);
    } finally {
      await quick.stop();
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe("over HTTP (out-of-process use)", () => {
  const post = (body: unknown) =>
    fetch(`${sandbox.origin}/__sandbox/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  it("POST /__sandbox/faults injects faults without the API key; DELETE resets", async () => {
    expect((await post({ fail: { count: 1, status: 502, path: "/api/integrations/invoice" } })).status).toBe(200);
    await expect(client.listInvoiceIntegrations()).rejects.toMatchObject({ kind: "server", status: 502 });
    expect((await post({ rateLimit: { count: 5, retryAfterSeconds: 7 } })).status).toBe(200);
    await expect(client.checkAuth()).rejects.toMatchObject({ kind: "rate_limited", retryAfterMs: 7000 });
    const state = await (await fetch(`${sandbox.origin}/__sandbox/faults`)).json();
    expect(state.data.rateLimits).toEqual([{ remaining: 4, retryAfterSeconds: 7 }]);
    expect((await fetch(`${sandbox.origin}/__sandbox/faults`, { method: "DELETE" })).status).toBe(200);
    await expect(client.checkAuth()).resolves.toBeUndefined();
    expect((await post({ fail: { status: 200 } })).status).toBe(422);
    // Without a JSON Content-Type (curl -d) the body is still read as JSON; malformed JSON is a 422.
    const form = await fetch(`${sandbox.origin}/__sandbox/faults`, { method: "POST", body: '{"latencyMs": 5}' });
    expect((await form.json()).data.latencyMs).toBe(5);
    expect((await fetch(`${sandbox.origin}/__sandbox/faults`, { method: "POST", body: "{oops" })).status).toBe(422);
  });

  it("is off when the sandbox is started without it", async () => {
    const closed = await startSandbox({ port: 0, faultsOverHttp: false });
    try {
      const response = await fetch(`${closed.origin}/__sandbox/faults`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: '{"fail":{}}',
      });
      expect(response.status).toBe(404);
      await expect(clientFor(closed).checkAuth()).resolves.toBeUndefined();
    } finally {
      await closed.stop();
    }
  });
});
