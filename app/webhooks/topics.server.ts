// What each webhook topic the app subscribes to (shopify.app.toml) does with a verified delivery. One table for
// both ways a delivery arrives: the Remix routes (app/routes/webhooks.*, `shopify app dev`) and the production
// server's direct path (app/webhooks/node-transport.server.ts). A topic's address is /webhooks/{topic}.
import { recordBulkFinish } from "../shopify/bulk-operations.server";
import { logger } from "../logger.server";
import { recordCancelledOrder, recordFulfilledOrder, recordPaidOrder } from "../invoices/enqueue.server";
import { recordUpdatedOrder } from "../after-sale/order-updated.server";
import { recordOrderEdit, recordRefund, recordRefundsOf } from "../after-sale/record.server";
import type { DeliveryOutcome } from "../shopify/webhook-response";
import {
  findCustomerData,
  redactCustomer,
  requestShopRedaction,
  type CustomerRedactPayload,
  type DataRequestPayload,
} from "../privacy/compliance.server";
import { uninstallReported } from "../shops/shops.server";
import {
  bulkFinishShape,
  cancelledShape,
  customerRequestShape,
  fulfilledShape,
  orderEditShape,
  orderShape,
  paidShape,
  refundShape,
  shopRedactShape,
  shopShape,
  type PayloadShape,
} from "./payload-shape";

/** A verified delivery. */
export interface WebhookContext {
  shop: string;
  topic: string;
  webhookId: string;
  /** Shared by the retries of one event (X-Shopify-Event-Id); events deliveries (Shopify-*) have none. */
  eventId?: string;
  apiVersion: string;
  payload: unknown;
}

export interface TopicHandler {
  /** The body this topic's deliveries carry: a signed body of another topic is refused before anything is done. */
  shape: PayloadShape;
  work: (context: WebhookContext) => Promise<DeliveryOutcome>;
  /** Order topics: make sure a shop with a session has its Shop row (work for unknown shops is refused downstream). */
  installedShop?: boolean;
}

const orderTopic = (work: TopicHandler["work"], shape: PayloadShape = orderShape): TopicHandler => ({
  shape,
  work,
  installedShop: true,
});

export const WEBHOOK_TOPICS = {
  "orders/paid": orderTopic(
    ({ shop, topic, payload, webhookId }) => recordPaidOrder(shop, payload, { topic, webhookId }),
    paidShape,
  ),
  "orders/fulfilled": orderTopic(
    ({ shop, topic, payload, webhookId }) => recordFulfilledOrder(shop, payload, { topic, webhookId }),
    fulfilledShape,
  ),
  "orders/cancelled": orderTopic(async ({ shop, topic, payload, webhookId }) => {
    const outcome = await recordCancelledOrder(shop, payload, { topic, webhookId });
    // The refund Shopify made for the cancellation, in case its own refunds/create comes late or not at all.
    if (outcome.status === 200 && outcome.result !== "unknown_shop")
      await recordRefundsOf(shop, payload as { refunds?: unknown }, { topic, webhookId });
    return outcome;
  }, cancelledShape),
  // Buyer, addresses, note attributes or tax lines changed: an invoice needing attention is tried again (debounced).
  "orders/updated": orderTopic(({ shop, topic, payload, webhookId }) =>
    recordUpdatedOrder(shop, payload, { topic, webhookId }),
  ),
  "orders/edited": orderTopic(
    ({ shop, topic, payload, webhookId }) => recordOrderEdit(shop, payload, { topic, webhookId }),
    orderEditShape,
  ),
  "refunds/create": orderTopic(
    ({ shop, topic, payload, webhookId }) => recordRefund(shop, payload, { topic, webhookId }),
    refundShape,
  ),
  // A bulk query operation the app started has ended; the reading it serves goes on (app/shopify/bulk-operations.server.ts).
  "bulk_operations/finish": { shape: bulkFinishShape, work: ({ shop, payload }) => recordBulkFinish(shop, payload) },
  // Replays of these three (the same signed body, another event id) are refused by what they would act on: the app
  // still installed, or what existed when the request was first received (app/privacy, app/shops). 200 either way.
  "app/uninstalled": {
    shape: shopShape,
    work: async ({ shop, topic }) => {
      const result = await uninstallReported(shop);
      if (result === "refused_installed")
        logger.warn(
          { shop, topic },
          "app/uninstalled refused: Shopify still accepts the app's token (a replayed delivery)",
        );
      else logger.info({ shop, topic }, "app uninstalled: sessions removed, posting paused");
      return { status: 200, result };
    },
  },
  "customers/data_request": {
    shape: customerRequestShape("orders_requested"),
    work: async ({ shop, topic, payload }) => {
      const invoices = await findCustomerData(shop, payload as DataRequestPayload);
      // The merchant answers the customer; the log says which invoices the app holds for them.
      logger.info({ shop, topic, invoices: invoices.map((i) => i.orderName) }, "customer data request");
      return { status: 200, result: "logged" };
    },
  },
  "customers/redact": {
    shape: customerRequestShape("orders_to_redact"),
    work: async ({ shop, topic, payload }) => {
      const done = await redactCustomer(shop, payload as CustomerRedactPayload);
      logger.info(
        { shop, topic, invoices: done.invoices, packages: done.packages, firstReceivedAt: done.firstReceivedAt },
        "customer redacted",
      );
      return { status: 200, result: "redacted" };
    },
  },
  "shop/redact": {
    shape: shopRedactShape,
    work: async ({ shop, topic }) => {
      const result = await requestShopRedaction(shop);
      if (result === "refused_installed" || result === "unconfirmed")
        logger.warn(
          { shop, topic, result },
          "shop/redact not acted on: the app is installed, or Shopify could not say",
        );
      else logger.info({ shop, topic, result }, "shop/redact");
      return { status: 200, result };
    },
  },
} satisfies Record<string, TopicHandler>;

export type WebhookTopic = keyof typeof WEBHOOK_TOPICS;

/** The topic whose address is `pathname` (/webhooks/orders/paid), if any. */
export function topicAt(pathname: string): WebhookTopic | undefined {
  const topic = pathname.startsWith("/webhooks/") ? pathname.slice("/webhooks/".length) : "";
  return Object.hasOwn(WEBHOOK_TOPICS, topic) ? (topic as WebhookTopic) : undefined;
}
