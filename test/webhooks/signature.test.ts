// The app's own webhook check (app/webhooks/signature.server.ts) gives the same verdict as the library's
// `webhooks.validate` on every kind of delivery: valid, forged, tampered, unsigned, empty, missing headers, and
// Shopify's event deliveries. The library is the reference; the app's check exists because it is cheaper.
import "@shopify/shopify-api/adapters/web-api";
import { shopifyApi, ApiVersion } from "@shopify/shopify-api";
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkDelivery } from "../../app/webhooks/signature.server";

const SECRET = "signature-test-secret";
const library = shopifyApi({
  apiKey: "key",
  apiSecretKey: SECRET,
  apiVersion: ApiVersion.July26,
  hostName: "app.example",
  isEmbeddedApp: true,
  logger: { level: 0 },
}).webhooks;

const BODY = JSON.stringify({
  id: 820982911946154500,
  name: "#1001",
  note: "Çağrı İşık — ödeme",
  total_price: "1250.50",
});
const sign = (body: string | Uint8Array, secret = SECRET) => createHmac("sha256", secret).update(body).digest("base64");

const classic = (body: string, overrides: Record<string, string | null> = {}) => ({
  "X-Shopify-Hmac-Sha256": sign(body),
  "X-Shopify-Topic": "orders/paid",
  "X-Shopify-Shop-Domain": "demo-store.myshopify.com",
  "X-Shopify-API-Version": "2026-10",
  "X-Shopify-Webhook-Id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
  "X-Shopify-Event-Id": "98880550-7158-44d4-b7cd-2c97c8a091b5",
  "X-Shopify-Triggered-At": "2026-11-24T10:00:00.000Z",
  "User-Agent": "Shopify-Captain-Hook",
  ...overrides,
});
const events = (body: string, overrides: Record<string, string | null> = {}) => ({
  "Shopify-Hmac-Sha256": sign(body),
  "Shopify-Topic": "orders/paid",
  "Shopify-Shop-Domain": "demo-store.myshopify.com",
  "Shopify-API-Version": "2026-10",
  "Shopify-Webhook-Id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
  "Shopify-Handle": "orders-paid",
  "Shopify-Triggered-At": "2026-11-24T10:00:00.000Z",
  ...overrides,
});

const cases: Array<[string, string, Record<string, string | null>]> = [
  ["a signed delivery", BODY, classic(BODY)],
  ["a signed delivery without an event id", BODY, classic(BODY, { "X-Shopify-Event-Id": null })],
  ["signed with another secret", BODY, classic(BODY, { "X-Shopify-Hmac-Sha256": sign(BODY, "not-the-secret") })],
  ["a body changed after signing", BODY.replace("1250.50", "1.50"), classic(BODY)],
  [
    "the signature in hex",
    BODY,
    classic(BODY, { "X-Shopify-Hmac-Sha256": createHmac("sha256", SECRET).update(BODY).digest("hex") }),
  ],
  ["the signature cut short", BODY, classic(BODY, { "X-Shopify-Hmac-Sha256": sign(BODY).slice(0, -2) })],
  ["no signature", BODY, classic(BODY, { "X-Shopify-Hmac-Sha256": null })],
  ["an empty signature", BODY, classic(BODY, { "X-Shopify-Hmac-Sha256": "" })],
  ["an empty body", "", classic("")],
  ["no topic", BODY, classic(BODY, { "X-Shopify-Topic": null })],
  ["no shop", BODY, classic(BODY, { "X-Shopify-Shop-Domain": null })],
  ["no API version", BODY, classic(BODY, { "X-Shopify-API-Version": null })],
  ["no webhook id", BODY, classic(BODY, { "X-Shopify-Webhook-Id": null })],
  ["nothing but the signature", BODY, { "X-Shopify-Hmac-Sha256": sign(BODY) }],
  ["an event delivery", BODY, events(BODY)],
  // Shopify no longer sends Shopify-Event-Id (nor Shopify-Resource-Id) with events; the library ignores them since 15.
  [
    "an event delivery still carrying an event id",
    BODY,
    events(BODY, {
      "Shopify-Event-Id": "98880550-7158-44d4-b7cd-2c97c8a091b5",
      "Shopify-Resource-Id": "gid://shopify/Order/1",
    }),
  ],
  ["an event delivery without its webhook id", BODY, events(BODY, { "Shopify-Webhook-Id": null })],
  ["an event delivery without its topic", BODY, events(BODY, { "Shopify-Topic": null })],
  ["a forged event delivery", BODY, events(BODY, { "Shopify-Hmac-Sha256": sign(BODY, "not-the-secret") })],
];

function headersOf(record: Record<string, string | null>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) if (value !== null) headers.set(name, value);
  return headers;
}

describe("the app's webhook check against the library's", () => {
  for (const [name, body, record] of cases) {
    it(name, async () => {
      const headers = headersOf(record);
      const expected = await library.validate({
        rawBody: body,
        rawRequest: new Request("https://app.example/webhooks/orders/paid", {
          method: "POST",
          headers,
          body: body || undefined,
        }),
      });
      const actual = checkDelivery(
        (header) => headers.get(header) ?? undefined,
        new TextEncoder().encode(body),
        SECRET,
      );
      expect(actual.valid).toBe(expected.valid);
      if (!expected.valid && !actual.valid) {
        expect(actual.reason).toBe(expected.reason);
        if ("missingHeaders" in expected)
          expect("missingHeaders" in actual && actual.missingHeaders).toEqual(
            expected.missingHeaders.map((h) => h.toLowerCase()),
          );
      }
      if (expected.valid && actual.valid) {
        expect(actual.topic.toUpperCase().replace("/", "_")).toBe(expected.topic);
        // Only webhooks (X-Shopify-*) have an event id; an event delivery has none, whatever headers it carries.
        const expectedEventId = expected.webhookType === "webhooks" ? expected.eventId : undefined;
        expect([actual.domain, actual.apiVersion, actual.webhookId, actual.eventId]).toEqual([
          expected.domain,
          expected.apiVersion,
          expected.webhookId,
          expectedEventId,
        ]);
      }
    });
  }

  it("checks the bytes as received: a body that is not UTF-8, signed as sent, is valid", () => {
    const bytes = Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0x7d]);
    const headers = headersOf(classic("", { "X-Shopify-Hmac-Sha256": sign(bytes) }));
    expect(checkDelivery((header) => headers.get(header) ?? undefined, bytes, SECRET).valid).toBe(true);
    expect(checkDelivery((header) => headers.get(header) ?? undefined, bytes.subarray(0, 7), SECRET)).toEqual({
      valid: false,
      reason: "invalid_hmac",
    });
  });
});
