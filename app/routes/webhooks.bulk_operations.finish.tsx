import { webhookAction } from "../webhooks/receive.server";

export const action = webhookAction("bulk_operations/finish");
