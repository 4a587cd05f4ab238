import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { recordRefund } from "../pipeline/after-sale-record.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "refunds/create", ({ shop, topic, payload, webhookId }) => recordRefund(shop, payload, { topic, webhookId }), { installedShop: true });
