import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { recordFulfilledOrder } from "../pipeline/enqueue.server";
import { webhookResponse } from "../pipeline/webhook-response";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload, webhookId } = await receiveWebhook(request);
  return webhookResponse(await recordFulfilledOrder(shop, payload, { topic, webhookId }));
};
