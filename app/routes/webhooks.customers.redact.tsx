import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "../webhooks/receive.server";
import { redactCustomer, type CustomerRedactPayload } from "../privacy/compliance.server";
import { logger } from "../logger.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await receiveWebhook(request);
  const count = await redactCustomer(shop, payload as CustomerRedactPayload);
  logger.info({ shop, topic, invoices: count }, "customer redacted");
  return new Response(null, { status: 200 });
};
