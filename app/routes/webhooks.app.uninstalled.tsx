import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { markUninstalled } from "../shops/shops.server";
import { logger } from "../logger.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "app/uninstalled", async ({ shop, topic }) => {
    await markUninstalled(shop);
    logger.info({ shop, topic }, "app uninstalled: sessions removed, posting paused");
    return { status: 200, result: "uninstalled" };
  });
