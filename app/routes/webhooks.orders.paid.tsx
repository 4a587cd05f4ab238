import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { recordPaidOrder } from "../pipeline/enqueue.server";
import { webhookResponse } from "../pipeline/webhook-response";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload, webhookId } = await authenticate.webhook(request);
  return webhookResponse(await recordPaidOrder(shop, payload, { topic, webhookId }));
};
