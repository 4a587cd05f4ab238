import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { markUninstalled } from "../shops/shops.server";
import { logger } from "../logger.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic } = await receiveWebhook(request);
  await markUninstalled(shop);
  logger.info({ shop, topic }, "app uninstalled: sessions removed");
  return new Response(null, { status: 200 });
};
