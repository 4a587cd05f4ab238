// The one way the app receives a Shopify delivery, whichever server it arrives through (the Remix routes
// app/routes/webhooks.*, or the production server's direct path, app/webhooks/node-transport.server.ts):
//   1. the body is read with a size limit (413 before reading further: app/http/body-limit.server.ts);
//   2. Shopify's webhook check (app/webhooks/signature.server.ts: what authenticate.webhook checks, without the
//      shop's session it also reads, which no topic uses) verifies the signature (401) and the headers (400); a
//      signed body that is not JSON is a malformed delivery: 400, not a crash;
//   3. the address's topic only (X-Shopify-Topic is not covered by the signature): another topic is a 400, and so is
//      a body of another topic's shape (a signed orders/paid body re-sent as orders/cancelled: app/webhooks/payload-shape.ts);
//   4. each event (X-Shopify-Event-Id, shared by the retries of one event; a delivery of Shopify's events, which
//      carries no event id, by its Shopify-Webhook-Id) is acted on once per shop and topic;
//      a repeat is answered 200 "duplicate" and changes nothing;
//   5. the topic's work runs (app/webhooks/topics.server.ts), and what it did is recorded with the delivery.
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma, { hot } from "../db.server";
import { env } from "../env.server";
import { BODY_LIMITS, readBodyLimited } from "../http/body-limit.server";
import { recordShop } from "../shops/shops.server";
import { answerOf, failure, type DeliveryOutcome, type WebhookAnswer } from "../shopify/webhook-response";
import { checkDelivery } from "./signature.server";
import { WEBHOOK_TOPICS, type TopicHandler, type WebhookContext, type WebhookTopic } from "./topics.server";

/** A delivery as it came, its body already read within BODY_LIMITS.webhook (step 1, the server's part). */
export interface RawDelivery {
  /** A request header by its lower-case name. */
  header: (name: string) => string | undefined;
  rawBody: Uint8Array;
}

/** "orders/paid" and "ORDERS_PAID" name the same topic; deliveries are recorded under the second form. */
function topicKey(topic: string): string {
  return topic.toUpperCase().replace(/[/.]/g, "_");
}

/** Steps 2 and 3: the verified delivery, or the answer that refuses it. */
function verifyDelivery(delivery: RawDelivery, topic: WebhookTopic): WebhookContext | WebhookAnswer {
  const check = checkDelivery(delivery.header, delivery.rawBody, env().SHOPIFY_API_SECRET);
  if (!check.valid) {
    if (check.reason === "invalid_hmac") return failure(401, "the signature does not match the body");
    if (check.reason === "missing_headers") return failure(400, `missing headers: ${check.missingHeaders.join(", ")}`);
    // No signature or no body: malformed, 400, as the library's check answers.
    return failure(400, `not a Shopify delivery (${check.reason})`);
  }
  let payload: unknown;
  try {
    const { buffer, byteOffset, byteLength } = delivery.rawBody;
    payload = JSON.parse(Buffer.from(buffer, byteOffset, byteLength).toString("utf8"));
  } catch {
    return failure(400, "body is not JSON");
  }
  if (topicKey(check.topic) !== topicKey(topic)) return failure(400, `this address takes ${topic} deliveries only`);
  const misfit = WEBHOOK_TOPICS[topic].shape(payload, check.domain);
  if (misfit !== null) return failure(400, `not a ${topic} body: ${misfit}`);
  return {
    shop: check.domain,
    topic: check.topic,
    webhookId: check.webhookId,
    eventId: check.eventId,
    apiVersion: check.apiVersion,
    payload,
  };
}

/**
 * A shop Shopify says is installed (it has an offline session) but whose Shop row is missing (its first
 * authentication did not finish) is recorded now; a shop without either never installed the app.
 */
async function recordInstalledShop(context: WebhookContext): Promise<void> {
  // A prepared read (no trigger means no Shop row): every order delivery passes here. The session only when needed.
  if ((await hot().shopTrigger(context.shop)) !== null) return;
  if (await prisma.session.findFirst({ where: { shop: context.shop, isOnline: false }, select: { id: true } }))
    await recordShop(context.shop, {});
}

/** Steps 2 to 5 for a delivery to `topic`'s address. Throws only what the app could not do (the database is down). */
export async function answerDelivery(delivery: RawDelivery, topic: WebhookTopic): Promise<WebhookAnswer> {
  const context = verifyDelivery(delivery, topic);
  if ("status" in context) return context;
  const { work, installedShop }: TopicHandler = WEBHOOK_TOPICS[topic];
  const eventId = context.eventId ?? context.webhookId;
  const key = { shopDomain: context.shop, topic: topicKey(context.topic), eventId };
  // One prepared statement each, not Prisma's query builder: this is every delivery's path (app/db/hot.server.ts).
  if (!(await hot().recordDelivery(key, context.webhookId ?? null)))
    return answerOf({ status: 200, result: "duplicate" });
  let outcome: DeliveryOutcome;
  try {
    if (installedShop) await recordInstalledShop(context);
    outcome = await work(context);
  } catch (error) {
    // Not done: Shopify retries the same event, which must then be acted on.
    await prisma.webhookDelivery.deleteMany({ where: key });
    throw error;
  }
  const result = outcome.status === 200 ? outcome.result : `error ${outcome.status}`;
  if (outcome.status !== 200) await prisma.webhookDelivery.deleteMany({ where: key });
  else await hot().setDeliveryResult(key, result);
  return answerOf(outcome);
}

function answerResponse(answer: WebhookAnswer): Response {
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { "Content-Type": "application/json" },
  });
}

/** The action of the Remix route at `topic`'s address (app/routes/webhooks.*). */
export function webhookAction(topic: WebhookTopic) {
  return async ({ request }: ActionFunctionArgs): Promise<Response> => {
    if (request.method !== "POST") return answerResponse(failure(405, "deliveries are POST requests"));
    const rawBody = await readBodyLimited(request, BODY_LIMITS.webhook);
    return answerResponse(
      await answerDelivery({ header: (name) => request.headers.get(name) ?? undefined, rawBody }, topic),
    );
  };
}
