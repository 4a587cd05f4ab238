// The record of webhook deliveries acted on (model WebhookDelivery), kept a week for de-duplication.
import prisma from "../db.server";

/** Deliveries are kept a week: Shopify's retries of an event end within hours. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 60 * 60_000;

export async function pruneWebhookDeliveries(now = new Date()): Promise<number> {
  const { count } = await prisma.webhookDelivery.deleteMany({
    where: { receivedAt: { lt: new Date(now.getTime() - DELIVERY_RETENTION_MS) } },
  });
  return count;
}
