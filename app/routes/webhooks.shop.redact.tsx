import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { redactShop } from "../privacy/compliance.server";
import { logger } from "../logger.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic } = await receiveWebhook(request);
  await redactShop(shop);
  logger.info({ shop, topic }, "shop redacted: all data removed");
  return new Response(null, { status: 200 });
};
