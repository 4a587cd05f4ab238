// The one way a webhook route receives a Shopify delivery:
//   1. the body is read with a size limit (413 before reading further: app/http/body-limit.server.ts);
//   2. the library's webhook check (what authenticate.webhook does, without reading the shop's session, which the
//      routes do not use) verifies the signature (401) and the headers (400); a signed body that is not JSON is a
//      malformed delivery: 400, not a crash;
//   3. the route acts only on its own topic (X-Shopify-Topic is not covered by the signature): another topic is a 400;
//   4. each event (X-Shopify-Event-Id, shared by the retries of one event) is acted on once per shop and topic;
//      a repeat is answered 200 "duplicate" and changes nothing;
//   5. the work runs, and what it did is recorded with the delivery.
// Every failure is thrown as the Response to send.
import { WebhookValidationErrorReason } from "@shopify/shopify-api";
import prisma, { hot } from "../db.server";
import { webhookValidator } from "../shopify.server";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";
import { recordShop } from "../shops/shops.server";
import { webhookResponse, type DeliveryOutcome } from "../pipeline/webhook-response";

/** A verified delivery. */
export interface WebhookContext {
  shop: string;
  topic: string;
  webhookId: string;
  /** Shared by the retries of one event (X-Shopify-Event-Id). */
  eventId?: string;
  apiVersion: string;
  payload: unknown;
}

export function jsonError(status: number, error: string): Response {
  return new Response(JSON.stringify({ ok: false, error }), { status, headers: { "Content-Type": "application/json" } });
}

/** "orders/paid" and "ORDERS_PAID" name the same topic (the library stores topics in the second form). */
function topicKey(topic: string): string {
  return topic.toUpperCase().replace(/[/.]/g, "_");
}

/** Steps 1 to 3: a verified delivery of `topic`, or the thrown answer. */
export async function receiveWebhook(request: Request, topic: string): Promise<WebhookContext> {
  if (request.method !== "POST") throw new Response(undefined, { status: 405, statusText: "Method not allowed" });
  const rawBody = await readTextLimited(request, BODY_LIMITS.webhook);
  const check = await webhookValidator.validate({ rawBody, rawRequest: request });
  if (!check.valid) {
    if (check.reason === WebhookValidationErrorReason.InvalidHmac) throw new Response(undefined, { status: 401, statusText: "Unauthorized" });
    throw new Response(undefined, { status: 400, statusText: "Bad Request" });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw jsonError(400, "body is not JSON");
  }
  const context: WebhookContext = { shop: check.domain, topic: check.topic, webhookId: check.webhookId, eventId: check.eventId, apiVersion: check.apiVersion, payload };
  if (topicKey(context.topic) !== topicKey(topic)) throw jsonError(400, `this address takes ${topic} deliveries only`);
  return context;
}

/**
 * A shop Shopify says is installed (it has an offline session) but whose Shop row is missing (its first
 * authentication did not finish) is recorded now; a shop without either never installed the app.
 */
async function recordInstalledShop(context: WebhookContext): Promise<void> {
  // A prepared read (no trigger means no Shop row): every order delivery passes here. The session only when needed.
  if ((await hot().shopTrigger(context.shop)) !== null) return;
  if (await prisma.session.findFirst({ where: { shop: context.shop, isOnline: false }, select: { id: true } })) await recordShop(context.shop, {});
}

export interface HandleOptions {
  /** Order topics: make sure a shop with a session has its Shop row (work for unknown shops is refused downstream). */
  installedShop?: boolean;
}

/** Receives a delivery of `topic` (steps 1-3), acts on its event once (4) and records what was done (5). */
export async function handleWebhook(
  request: Request,
  topic: string,
  work: (context: WebhookContext) => Promise<DeliveryOutcome>,
  options: HandleOptions = {},
): Promise<Response> {
  const context = await receiveWebhook(request, topic);
  const eventId = context.eventId ?? context.webhookId;
  const key = { shopDomain: context.shop, topic: topicKey(context.topic), eventId };
  // One prepared statement each, not Prisma's query builder: this is every delivery's path (app/db/hot.server.ts).
  if (!(await hot().recordDelivery(key, context.webhookId ?? null))) return webhookResponse({ status: 200, result: "duplicate" });
  let outcome: DeliveryOutcome;
  try {
    if (options.installedShop) await recordInstalledShop(context);
    outcome = await work(context);
  } catch (error) {
    // Not done: Shopify retries the same event, which must then be acted on.
    await prisma.webhookDelivery.deleteMany({ where: key });
    throw error;
  }
  const result = outcome.status === 200 ? outcome.result : `error ${outcome.status}`;
  if (outcome.status !== 200) await prisma.webhookDelivery.deleteMany({ where: key });
  else await hot().setDeliveryResult(key, result);
  return webhookResponse(outcome);
}
