import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { recordFulfilledOrder } from "../pipeline/enqueue.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "orders/fulfilled", ({ shop, topic, payload, webhookId }) => recordFulfilledOrder(shop, payload, { topic, webhookId }), { installedShop: true });
