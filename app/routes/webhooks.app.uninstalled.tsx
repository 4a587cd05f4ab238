import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { markUninstalled } from "../shops/shops.server";
import { logger } from "../logger.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic } = await authenticate.webhook(request);
  await markUninstalled(shop);
  logger.info({ shop, topic }, "app uninstalled: sessions removed");
  return new Response(null, { status: 200 });
};
