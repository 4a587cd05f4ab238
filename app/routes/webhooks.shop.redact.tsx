import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { redactShop } from "../privacy/compliance.server";
import { logger } from "../logger.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "shop/redact", async ({ shop, topic }) => {
    await redactShop(shop);
    logger.info({ shop, topic }, "shop redacted: all data removed");
    return { status: 200, result: "redacted" };
  });
