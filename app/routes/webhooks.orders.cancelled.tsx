import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { recordCancelledOrder } from "../pipeline/enqueue.server";
import { webhookResponse } from "../pipeline/webhook-response";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload, webhookId } = await receiveWebhook(request);
  return webhookResponse(await recordCancelledOrder(shop, payload, { topic, webhookId }));
};
