import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { recordPaidOrder } from "../pipeline/enqueue.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "orders/paid", ({ shop, topic, payload, webhookId }) => recordPaidOrder(shop, payload, { topic, webhookId }), { installedShop: true });
