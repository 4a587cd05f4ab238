// What each webhook topic the app subscribes to (shopify.app.toml) does with a verified delivery. One table for
// both ways a delivery arrives: the Remix routes (app/routes/webhooks.*, `shopify app dev`) and the production
// server's direct path (app/webhooks/node-transport.server.ts). A topic's address is /webhooks/{topic}.
import { logger } from "../logger.server";
import { recordCancelledOrder, recordFulfilledOrder, recordPaidOrder } from "../pipeline/enqueue.server";
import { recordOrderEdit, recordRefund, recordRefundsOf } from "../pipeline/after-sale-record.server";
import type { DeliveryOutcome } from "../pipeline/webhook-response";
import { findCustomerData, redactCustomer, redactShop, type CustomerRedactPayload, type DataRequestPayload } from "../privacy/compliance.server";
import { markUninstalled } from "../shops/shops.server";

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

export interface TopicHandler {
  work: (context: WebhookContext) => Promise<DeliveryOutcome>;
  /** Order topics: make sure a shop with a session has its Shop row (work for unknown shops is refused downstream). */
  installedShop?: boolean;
}

const orderTopic = (work: TopicHandler["work"]): TopicHandler => ({ work, installedShop: true });

export const WEBHOOK_TOPICS = {
  "orders/paid": orderTopic(({ shop, topic, payload, webhookId }) => recordPaidOrder(shop, payload, { topic, webhookId })),
  "orders/fulfilled": orderTopic(({ shop, topic, payload, webhookId }) => recordFulfilledOrder(shop, payload, { topic, webhookId })),
  "orders/cancelled": orderTopic(async ({ shop, topic, payload, webhookId }) => {
    const outcome = await recordCancelledOrder(shop, payload, { topic, webhookId });
    // The refund Shopify made for the cancellation, in case its own refunds/create comes late or not at all.
    if (outcome.status === 200 && outcome.result !== "unknown_shop") await recordRefundsOf(shop, payload as { refunds?: unknown }, { topic, webhookId });
    return outcome;
  }),
  "orders/edited": orderTopic(({ shop, topic, payload, webhookId }) => recordOrderEdit(shop, payload, { topic, webhookId })),
  "refunds/create": orderTopic(({ shop, topic, payload, webhookId }) => recordRefund(shop, payload, { topic, webhookId })),
  "app/uninstalled": {
    work: async ({ shop, topic }) => {
      await markUninstalled(shop);
      logger.info({ shop, topic }, "app uninstalled: sessions removed, posting paused");
      return { status: 200, result: "uninstalled" };
    },
  },
  "customers/data_request": {
    work: async ({ shop, topic, payload }) => {
      const invoices = await findCustomerData(shop, payload as DataRequestPayload);
      // The merchant answers the customer; the log says which invoices the app holds for them.
      logger.info({ shop, topic, invoices: invoices.map((i) => i.orderName) }, "customer data request");
      return { status: 200, result: "logged" };
    },
  },
  "customers/redact": {
    work: async ({ shop, topic, payload }) => {
      const count = await redactCustomer(shop, payload as CustomerRedactPayload);
      logger.info({ shop, topic, invoices: count }, "customer redacted");
      return { status: 200, result: "redacted" };
    },
  },
  "shop/redact": {
    work: async ({ shop, topic }) => {
      await redactShop(shop);
      logger.info({ shop, topic }, "shop redacted: all data removed");
      return { status: 200, result: "redacted" };
    },
  },
} satisfies Record<string, TopicHandler>;

export type WebhookTopic = keyof typeof WEBHOOK_TOPICS;

/** The topic whose address is `pathname` (/webhooks/orders/paid), if any. */
export function topicAt(pathname: string): WebhookTopic | undefined {
  const topic = pathname.startsWith("/webhooks/") ? pathname.slice("/webhooks/".length) : "";
  return Object.hasOwn(WEBHOOK_TOPICS, topic) ? (topic as WebhookTopic) : undefined;
}
