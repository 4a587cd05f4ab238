// The after-sale fixtures (test/fixtures/after-sale/, written by its build.ts) and signed deliveries of them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { action as refundsAction } from "../../app/routes/webhooks.refunds.create";
import { action as editedAction } from "../../app/routes/webhooks.orders.edited";
import { action as cancelledAction } from "../../app/routes/webhooks.orders.cancelled";
import { action as paidAction } from "../../app/routes/webhooks.orders.paid";
import { callRoute } from "./routes";
import { SHOP, signedWebhookRequest } from "./shopify";

const here = path.dirname(fileURLToPath(import.meta.url));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function afterSaleFixture(name: string): Json {
  return JSON.parse(readFileSync(path.join(here, "..", "fixtures", "after-sale", `${name}.json`), "utf8")) as Json;
}

export function orderFixture(name: string): Json {
  return JSON.parse(readFileSync(path.join(here, "..", "fixtures", "orders", `${name}.json`), "utf8")) as Json;
}

const routes = {
  "refunds/create": refundsAction,
  "orders/edited": editedAction,
  "orders/cancelled": cancelledAction,
  "orders/paid": paidAction,
} as const;

export type AfterSaleTopic = keyof typeof routes;

/** A signed delivery of `body` on `topic` through the app's real route; `eventId` repeats an event (a retry). */
export async function deliver(
  topic: AfterSaleTopic,
  body: unknown,
  options: { shop?: string; eventId?: string; webhookId?: string; secret?: string } = {},
) {
  const response = await callRoute(
    routes[topic],
    signedWebhookRequest({
      topic,
      body,
      shop: options.shop ?? SHOP,
      eventId: options.eventId,
      webhookId: options.webhookId,
      secret: options.secret,
    }),
  );
  const text = await response.text();
  let json: Json | undefined;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = undefined;
  }
  return { status: response.status, json };
}

let scenarioSeq = 0;

/**
 * An order fixture and its after-sale fixtures under a fresh order id, so that tests sharing one sandbox never
 * meet the service's duplicate protection. Ids are replaced as whole numbers only (line ids, which start with
 * the order id's digits, stay as they are).
 */
export function scenario(orderFixtureName: string) {
  const original = String(orderFixture(orderFixtureName).id);
  const id = String(7_000_000_000 + process.pid * 1000 + ++scenarioSeq);
  const rekey = (value: unknown): Json =>
    JSON.parse(JSON.stringify(value).replace(new RegExp(`\\b${original}\\b`, "g"), id)) as Json;
  return { id, order: rekey(orderFixture(orderFixtureName)), fixture: (name: string) => rekey(afterSaleFixture(name)) };
}
