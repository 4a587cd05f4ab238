import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { recordOrderEdit } from "../pipeline/after-sale-record.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "orders/edited", ({ shop, topic, payload, webhookId }) => recordOrderEdit(shop, payload, { topic, webhookId }), { installedShop: true });
