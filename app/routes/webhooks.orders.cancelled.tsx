import type { ActionFunctionArgs } from "@remix-run/node";
import { handleWebhook } from "../webhooks/receive.server";
import { recordCancelledOrder } from "../pipeline/enqueue.server";
import { recordRefundsOf } from "../pipeline/after-sale-record.server";

export const action = ({ request }: ActionFunctionArgs) =>
  handleWebhook(
    request,
    "orders/cancelled",
    async ({ shop, topic, payload, webhookId }) => {
      const outcome = await recordCancelledOrder(shop, payload, { topic, webhookId });
      // The refund Shopify made for the cancellation, in case its own refunds/create comes late or not at all.
      if (outcome.status === 200 && outcome.result !== "unknown_shop") await recordRefundsOf(shop, payload as { refunds?: unknown }, { topic, webhookId });
      return outcome;
    },
    { installedShop: true },
  );
