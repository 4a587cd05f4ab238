// How Shopify signs and addresses a webhook delivery. The one implementation used by the tests, the
// demo and the benchmarks, so every local "Shopify" behaves the same.
import { createHmac, randomUUID } from "node:crypto";

/** base64 HMAC-SHA256 of the raw body, keyed with the app's API secret (X-Shopify-Hmac-Sha256). */
export function shopifyHmac(rawBody: string, secret: string): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");
}

export interface DeliveryHeaders {
  topic: string;
  shop: string;
  rawBody: string;
  secret: string;
  hmac?: string;
  webhookId?: string;
  eventId?: string;
  apiVersion?: string;
}

export function webhookHeaders(options: DeliveryHeaders): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Topic": options.topic,
    "X-Shopify-Hmac-Sha256": options.hmac ?? shopifyHmac(options.rawBody, options.secret),
    "X-Shopify-Shop-Domain": options.shop,
    "X-Shopify-API-Version": options.apiVersion ?? "2026-10",
    "X-Shopify-Webhook-Id": options.webhookId ?? randomUUID(),
    "X-Shopify-Event-Id": options.eventId ?? randomUUID(),
    "X-Shopify-Triggered-At": new Date().toISOString(),
  };
}
