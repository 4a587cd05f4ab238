// Public routes read bodies with a size limit: 413 before reading further, and a signed body that is not
// JSON is a 400, not a crash.
import { beforeEach, describe, expect, it } from "vitest";
import { action as paid } from "../../app/routes/webhooks.orders.paid";
import { action as callback } from "../../app/routes/callbacks.invoices.$id";
import { BODY_LIMITS, readBodyLimited } from "../../app/http/body-limit.server";
import { callRoute } from "../helpers/routes";
import { APP_ORIGIN, SHOP, signedWebhookRequest } from "../helpers/shopify";
import { installShop, prisma } from "../helpers/db";
import { webhookHeaders } from "../../scripts/lib/shopify-signing";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";

const CHUNK = 64 * 1024;

/** A body of `total` bytes made on demand, counting how many bytes the reader pulled. */
function countingStream(total: number) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      const size = Math.min(CHUNK, total - counter.pulled);
      counter.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return { stream, counter };
}

function streamingRequest(path: string, headers: Record<string, string>, stream: ReadableStream<Uint8Array>) {
  return new Request(new URL(path, APP_ORIGIN), {
    method: "POST",
    headers,
    body: stream,
    duplex: "half",
  } as RequestInit);
}

describe("body limits", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await installShop(SHOP);
  });

  it("a webhook that declares a body over the limit gets 413 and not one byte is read", async () => {
    const { stream, counter } = countingStream(300 * 1024 * 1024);
    const headers = {
      ...webhookHeaders({ topic: "orders/paid", shop: SHOP, rawBody: "{}", secret: API_SECRET_KEY }),
      "Content-Length": String(300 * 1024 * 1024),
    };
    const response = await callRoute(paid, streamingRequest("/webhooks/orders/paid", headers, stream));
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    // The stream may have been primed with one chunk, never more.
    expect(counter.pulled).toBeLessThanOrEqual(CHUNK);
    expect(await prisma.invoice.count()).toBe(0);
  });

  it("a chunked 300 MB webhook is cut off just past the limit: 413", async () => {
    const { stream, counter } = countingStream(300 * 1024 * 1024);
    const headers = webhookHeaders({ topic: "orders/paid", shop: SHOP, rawBody: "{}", secret: API_SECRET_KEY });
    const response = await callRoute(paid, streamingRequest("/webhooks/orders/paid", headers, stream));
    expect(response.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(BODY_LIMITS.webhook + 2 * CHUNK);
    expect(await prisma.invoice.count()).toBe(0);
  });

  it("a callback over a few KB gets 413 without reading further", async () => {
    const { stream, counter } = countingStream(10 * 1024 * 1024);
    const response = await callRoute(
      callback,
      streamingRequest("/callbacks/invoices/x", { "Content-Type": "application/json" }, stream),
      { id: "x" },
    );
    expect(response.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(BODY_LIMITS.callback + 2 * CHUNK);
  });

  it("a signed webhook whose body is not JSON gets 400 and records nothing", async () => {
    const response = await callRoute(paid, signedWebhookRequest({ topic: "orders/paid", body: "{not json" }));
    expect(response.status).toBe(400);
    expect(await prisma.invoice.count()).toBe(0);
  });

  it("a body within the limit is read whole", async () => {
    const { stream } = countingStream(100_000);
    const bytes = await readBodyLimited(streamingRequest("/x", {}, stream), 100_000);
    expect(bytes.byteLength).toBe(100_000);
  });
});
