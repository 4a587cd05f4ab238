import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { findCustomerData, type DataRequestPayload } from "../privacy/compliance.server";
import { logger } from "../logger.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(request, "customers/data_request", async ({ shop, topic, payload }) => {
    const invoices = await findCustomerData(shop, payload as DataRequestPayload);
    // The merchant answers the customer; the log says which invoices the app holds for them.
    logger.info({ shop, topic, invoices: invoices.map((i) => i.orderName) }, "customer data request");
    return { status: 200, result: "logged" };
  });
