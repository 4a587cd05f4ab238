import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { redactCustomer, type CustomerRedactPayload } from "../privacy/compliance.server";
import { logger } from "../logger.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "customers/redact", async ({ shop, topic, payload }) => {
    const count = await redactCustomer(shop, payload as CustomerRedactPayload);
    logger.info({ shop, topic, invoices: count }, "customer redacted");
    return { status: 200, result: "redacted" };
  });
