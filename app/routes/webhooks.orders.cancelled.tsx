import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { recordCancelledOrder } from "../pipeline/enqueue.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "orders/cancelled", ({ shop, topic, payload, webhookId }) => recordCancelledOrder(shop, payload, { topic, webhookId }), { installedShop: true });
