// The account-level webhook, end to end against the sandbox: registered on saving the settings (same URL
// each time), and its public route: a per-shop path secret, a small body limit, a rate limit across
// processes, content never trusted, and only the shape of what arrived in the log.
import { afterEach, describe, expect, it, vi } from "vitest";
import { action, loader } from "../../app/routes/callbacks.account.$shop.$secret";
import { HINT_INTERVAL_MS, receiveAccountWebhook, shapeOf } from "../../app/invoices/account-hint.server";
import { BODY_LIMITS } from "../../app/http/body-limit.server";
import { saveSettingsForm } from "../../app/settings/page.server";
import { formFromSettings } from "../../app/settings/schema";
import { getSettings } from "../../app/settings/settings.server";
import { logger } from "../../app/logger.server";
import { ACCOUNT_WEBHOOK_FAILURES } from "../../app/http/throttle.server";
import { connectShop, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { createInvoiceRow, prisma } from "../helpers/db";
import { waitFor } from "../contract/helpers";
import { callRoute } from "../helpers/routes";
import { APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";

// Registered before the pipeline's hooks, so it runs after its workers have stopped (afterEach hooks run last first).
afterEach(() => {
  vi.restoreAllMocks();
});
const pipeline = pipelineForEachTest({
  setUp: async ({ sandbox }) => {
    await connectShop(sandbox, SHOP);
    await connectShop(sandbox, OTHER_SHOP);
    await ACCOUNT_WEBHOOK_FAILURES.clear();
  },
});

/** Saves the shop's settings as the page does, which registers the webhook; returns the registered URL. */
async function register(shop = SHOP): Promise<URL> {
  const saved = await saveSettingsForm(shop, formFromSettings(await getSettings(shop)));
  expect(saved).toMatchObject({ ok: true, webhook: { state: "registered" } });
  // The sandbox keeps the addresses of earlier tests (whose shops had other secrets): the newest is this one.
  const url = pipeline.sandbox
    .webhooks(pipeline.sandbox.account.apiKey)
    .filter((u) => u.includes(`/${shop}/`))
    .at(-1);
  if (!url) throw new Error("not registered");
  return new URL(url);
}

const paramsOf = (url: URL) => {
  const [, , , shop, secret] = url.pathname.split("/");
  return { shop: decodeURIComponent(shop), secret };
};

function post(
  url: URL,
  body: BodyInit | null = JSON.stringify({ invoice_id: 1 }),
  headers: Record<string, string> = { "Content-Type": "application/json" },
) {
  return callRoute(
    action,
    new Request(new URL(url.pathname, APP_ORIGIN), { method: "POST", headers, body, duplex: "half" } as RequestInit),
    paramsOf(url),
  );
}

/** Rows at the service, waiting for a status read far in the future (their callback was lost). */
async function processingRows(shop: string, count: number) {
  const later = new Date(Date.now() + 60 * 60_000);
  const rows = [];
  for (let i = 0; i < count; i++) {
    const row = await createInvoiceRow(shop);
    rows.push(
      await prisma.invoice.update({
        where: { id: row.id },
        data: { state: "processing", remoteId: 90_000 + i, nextAttemptAt: later },
      }),
    );
  }
  return rows;
}

describe("registering the account webhook", () => {
  it("saving the settings registers the shop's address with the service; saving again updates the same address", async () => {
    const first = await register();
    const second = await register();
    expect(second.href).toBe(first.href);
    expect(pipeline.sandbox.webhooks(pipeline.sandbox.account.apiKey).filter((u) => u === first.href)).toHaveLength(1);
    expect(first.pathname).toMatch(/^\/callbacks\/account\/demo-store\.myshopify\.com\/[A-Za-z0-9_-]{43}$/);
    const other = await register(OTHER_SHOP);
    expect(paramsOf(other).secret).not.toBe(paramsOf(first).secret);
  });
});

describe("the account webhook route", () => {
  it("with the right address: the shop's in-flight invoices are due for a status read now, nothing else changes", async () => {
    const url = await register();
    const mine = await processingRows(SHOP, 2);
    const theirs = await processingRows(OTHER_SHOP, 1);
    const queued = await createInvoiceRow(SHOP);
    const queuedBefore = await prisma.invoice.findUniqueOrThrow({ where: { id: queued.id } });
    const started = Date.now();
    const response = await post(url);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, reread: 2 });
    for (const row of mine)
      expect(
        (await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).nextAttemptAt!.getTime(),
      ).toBeLessThanOrEqual(Date.now());
    for (const row of mine)
      expect(
        (await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } })).nextAttemptAt!.getTime(),
      ).toBeGreaterThanOrEqual(started - 1000);
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: theirs[0].id } })).nextAttemptAt).toEqual(
      theirs[0].nextAttemptAt,
    );
    expect(await prisma.invoice.findUniqueOrThrow({ where: { id: queued.id } })).toEqual(queuedBefore);
  });

  it("refuses a wrong secret, another shop's secret, a malformed address and GET with nothing changed", async () => {
    const url = await register();
    const other = await register(OTHER_SHOP);
    const rows = await processingRows(SHOP, 1);
    const { shop, secret } = paramsOf(url);
    const flipped = secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
    const attempts: Array<{ shop: string; secret: string }> = [
      { shop, secret: flipped },
      { shop, secret: paramsOf(other).secret },
      { shop: OTHER_SHOP, secret },
      { shop, secret: "short" },
      { shop: "evil.example.com", secret },
      { shop, secret: "" },
    ];
    for (const params of attempts) {
      const response = await callRoute(
        action,
        new Request(`${APP_ORIGIN}/callbacks/account/x/y`, { method: "POST", body: "{}" }),
        params,
      );
      expect(response.status, JSON.stringify(params)).toBe(401);
    }
    expect((await callRoute(loader, new Request(`${APP_ORIGIN}${url.pathname}`), paramsOf(url))).status).toBe(405);
    const after = await prisma.invoice.findUniqueOrThrow({ where: { id: rows[0].id } });
    expect(after.nextAttemptAt).toEqual(rows[0].nextAttemptAt);
    expect(
      (await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } })).accountWebhookHintAt,
    ).toBeNull();
  });

  it("200 calls with a wrong secret from one caller: the first ones 401, then 429; two warnings; the right secret, from anyone, still goes through (issue 35, point 4)", async () => {
    const url = await register();
    const other = await register(OTHER_SHOP);
    const { shop, secret } = paramsOf(url);
    const flipped = secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
    const warn = vi.spyOn(logger, "warn");
    const t0 = Date.now();
    const call = (params: { shop: string; secret: string }, at: number, caller: string) =>
      receiveAccountWebhook(
        params.shop,
        params.secret,
        new Request(`${APP_ORIGIN}/callbacks/account/x/y`, { method: "POST", body: "{}" }),
        new Date(at),
        caller,
      );
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++)
      statuses.push((await call({ shop, secret: flipped }, t0 + i * 10, "203.0.113.9")).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(warn.mock.calls.map((c) => c[1])).toEqual([
      "account webhook with an unknown address rejected",
      "account webhook: too many calls with an unknown address from one caller; refused (429) and not logged until they stop",
    ]);
    // During the burst: the service's own calls for this shop (right secret) go through, and so does a right one sent
    // by the flooding caller itself; another caller's wrong call is answered 401, not 429.
    expect((await call({ shop, secret }, t0 + 2_000, "198.51.100.7")).status).toBe(200);
    expect((await call(paramsOf(other), t0 + 2_001, "203.0.113.9")).status).toBe(200);
    expect((await call({ shop, secret: flipped }, t0 + 2_002, "198.51.100.7")).status).toBe(401);
    // Once its calls stop, the caller's next wrong call is read again, and the burst's end is logged with its size.
    expect((await call({ shop, secret: flipped }, t0 + 60_000, "203.0.113.9")).status).toBe(401);
    expect(warn.mock.calls.at(-1)).toEqual([
      { caller: "203.0.113.9", refused: expect.any(Number) },
      "account webhook: a burst of calls with an unknown address is over",
    ]);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(secret.slice(0, 20));
  });

  it("refuses a body over the limit, declared or not, with nothing changed", async () => {
    const url = await register();
    const rows = await processingRows(SHOP, 1);
    const big = "x".repeat(BODY_LIMITS.accountWebhook + 1);
    expect((await post(url, big)).status).toBe(413);
    // No Content-Length: a stream that keeps coming is cut at the limit.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(4096).fill(65));
      },
    });
    expect((await post(url, stream, {})).status).toBe(413);
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: rows[0].id } })).nextAttemptAt).toEqual(
      rows[0].nextAttemptAt,
    );
  });

  it("takes any content (JSON of any shape, text, nothing) as the same hint, at most once per interval per shop", async () => {
    const url = await register();
    const rows = await processingRows(SHOP, 1);
    const t0 = new Date();
    const call = (body: string, at: Date) =>
      receiveAccountWebhook(
        paramsOf(url).shop,
        paramsOf(url).secret,
        new Request(`${APP_ORIGIN}${url.pathname}`, { method: "POST", body }),
        at,
      );
    expect(await call("not json at all", t0)).toEqual({ status: 200, body: { ok: true, reread: 1 } });
    // Within the interval: answered, nothing re-read.
    await prisma.invoice.update({
      where: { id: rows[0].id },
      data: { nextAttemptAt: new Date(Date.now() + 3_600_000) },
    });
    expect(await call('{"invoice_id": 999999, "shop": "other"}', new Date(t0.getTime() + 1000))).toEqual({
      status: 200,
      body: { ok: true, throttled: true },
    });
    expect(
      (await prisma.invoice.findUniqueOrThrow({ where: { id: rows[0].id } })).nextAttemptAt!.getTime(),
    ).toBeGreaterThan(Date.now());
    // After it: a hint again.
    expect(await call("", new Date(t0.getTime() + HINT_INTERVAL_MS + 1))).toEqual({
      status: 200,
      body: { ok: true, reread: 1 },
    });
  });

  it("logs the shape of what arrived, never a value or the secret", async () => {
    const url = await register();
    const info = vi.spyOn(logger, "info");
    const warn = vi.spyOn(logger, "warn");
    const payload = {
      invoice_id: 4711,
      team_id: 1,
      time: "2026-11-22 10:00:00",
      hash: "f".repeat(128),
      data: { api_key: "leaked-key", items: [{ serial: "ARS2026000000001" }] },
    };
    expect((await post(url, JSON.stringify(payload))).status).toBe(200);
    const logged = JSON.stringify(info.mock.calls);
    expect(info.mock.calls.find((c) => c[1] === "account webhook received")?.[0]).toMatchObject({
      shop: SHOP,
      shape: {
        invoice_id: "number",
        team_id: "number",
        time: "string(19)",
        hash: "string(128)",
        data: { api_key: "string(10)", items: ["array(1)", { serial: "string(16)" }] },
      },
    });
    for (const secretOrValue of [paramsOf(url).secret, "4711", "leaked-key", "ARS2026000000001", "f".repeat(16)])
      expect(logged).not.toContain(secretOrValue);
    await post(new URL(url.href.replace(/.$/, "Z")));
    expect(JSON.stringify(warn.mock.calls)).not.toContain(paramsOf(url).secret.slice(0, 20));
  });

  it("bounds the logged shape: depth, keys and key names", () => {
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const shape = shapeOf({ a: { b: { c: { d: { e: 1 } } } }, wide, ["x".repeat(80) + "<script>"]: true }) as Record<
      string,
      unknown
    >;
    expect(shape.a).toEqual({ b: { c: { d: "object" } } });
    expect(Object.keys(shape.wide as object)).toHaveLength(31);
    expect(Object.keys(shape).some((key) => key.length > 40 || key.includes("<"))).toBe(false);
  });

  it("a lost callback is caught up at once by a hint: the invoice completes without waiting for the status poll", async () => {
    const url = await register();
    pipeline.sandbox.faults.dropCallbacks();
    const worker = await pipeline.startWorker();
    await pipeline.deliverPaid(paidOrder());
    const [processing] = await waitForInvoices((rows) => rows[0]?.state === "processing" && rows[0].remoteId !== null);
    // The next status read is scheduled 15 s or more away; the service finishes formalising meanwhile.
    await waitFor(
      () => pipeline.sandbox.invoices.get(processing.remoteId!)?.formal_status === "completed",
      5_000,
      "formalisation",
    );
    expect(processing.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 5_000);
    expect((await post(url)).status).toBe(200);
    const [row] = await waitForInvoices((rows) => rows[0]?.state === "completed", 5_000);
    expect(row.serialNumber).toMatch(/^[A-Z]{3}\d{13}$/);
    await worker.stop();
  });
});
