import { webhookAction } from "../webhooks/receive.server";

export const action = webhookAction("orders/updated");
