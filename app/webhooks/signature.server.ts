// Shopify's webhook check: X-Shopify-Hmac-Sha256 is the base64 HMAC-SHA256 of the raw body, keyed with the app's
// secret, and a delivery carries its topic, shop, API version and id in headers. The same rules and answers as the
// library's `webhooks.validate` (which test/webhooks/signature.test.ts holds this to), without its cost:
// it canonicalised every header name on each lookup and imported the WebCrypto key on each call, 16 % of a
// delivery's CPU (docs/decisions/0021, bench/results/pipeline.md Run 6). The HMAC is over the bytes as received.
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The headers of the two kinds of delivery: webhooks (X-Shopify-*) and Shopify's events (Shopify-*). Only webhooks
 * carry an event id: Shopify no longer sends Shopify-Event-Id with events, and the library stopped reading it in
 * @shopify/shopify-api 15 (docs/decisions/0034); an event delivery is known by its Shopify-Webhook-Id alone.
 */
const NAMES = {
  webhooks: {
    hmac: "x-shopify-hmac-sha256",
    topic: "x-shopify-topic",
    domain: "x-shopify-shop-domain",
    apiVersion: "x-shopify-api-version",
    webhookId: "x-shopify-webhook-id",
    eventId: "x-shopify-event-id",
  },
  events: {
    hmac: "shopify-hmac-sha256",
    topic: "shopify-topic",
    domain: "shopify-shop-domain",
    apiVersion: "shopify-api-version",
    webhookId: "shopify-webhook-id",
  },
} as const;

const REQUIRED = ["topic", "domain", "apiVersion", "webhookId"] as const;

export type SignatureCheck =
  | { valid: true; topic: string; domain: string; apiVersion: string; webhookId: string; eventId?: string }
  | { valid: false; reason: "missing_body" | "missing_hmac" | "invalid_hmac" }
  | { valid: false; reason: "missing_headers"; missingHeaders: string[] };

/** `header(name)` gives a request header by its lower-case name. */
export function checkDelivery(
  header: (name: string) => string | undefined,
  rawBody: Uint8Array,
  secret: string,
): SignatureCheck {
  const kind = header(NAMES.events.hmac) ? "events" : "webhooks";
  const names = NAMES[kind];
  if (rawBody.byteLength === 0) return { valid: false, reason: "missing_body" };
  const hmac = header(names.hmac);
  if (!hmac) return { valid: false, reason: "missing_hmac" };
  const expected = Buffer.from(createHmac("sha256", secret).update(rawBody).digest("base64"));
  const received = Buffer.from(hmac);
  // timingSafeEqual throws on different lengths; the length of a signature is no secret.
  if (received.length !== expected.length || !timingSafeEqual(received, expected))
    return { valid: false, reason: "invalid_hmac" };

  const missingHeaders = REQUIRED.filter((field) => !header(names[field])).map((field) => names[field]);
  if (missingHeaders.length) return { valid: false, reason: "missing_headers", missingHeaders };
  const eventId = kind === "webhooks" ? header(NAMES.webhooks.eventId) : undefined;
  return {
    valid: true,
    topic: header(names.topic)!,
    domain: header(names.domain)!,
    apiVersion: header(names.apiVersion)!,
    webhookId: header(names.webhookId)!,
    ...(eventId ? { eventId } : {}),
  };
}
