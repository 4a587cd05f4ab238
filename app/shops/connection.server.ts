// The app's connection to a shop's Admin API, as the merchant and the work see it. Shopify refusing the offline
// token's refresh marks it lost (app/shopify/offline-tokens.server.ts); the merchant opening the app stores a new
// token, and then everything that waited for it goes on: invoices whose Shopify read waited, write-backs, and a
// reconciliation pass for the orders paid meanwhile. Past-orders runs are picked up again by the worker by themselves.
import prisma from "../db.server";
import { signalWork } from "../jobs/signal.server";
import { resumeParkedInvoices } from "./shops.server";

export type ShopifyConnection =
  | { state: "connected" }
  | { state: "lost"; lostAt: Date; reason: string | null }
  /** Lost, and restored within the last RESTORED_SHOWN_MS: the dashboard says what happened. */
  | { state: "restored"; lostAt: Date; restoredAt: Date; reason: string | null };

const RESTORED_SHOWN_MS = 7 * 86_400_000;

export async function shopifyConnectionOf(shop: string, now = new Date()): Promise<ShopifyConnection> {
  const row = await prisma.shop.findUnique({
    where: { domain: shop },
    select: {
      shopifyConnectionLostAt: true,
      shopifyConnectionLastLostAt: true,
      shopifyConnectionLostReason: true,
      shopifyConnectionRestoredAt: true,
    },
  });
  if (row?.shopifyConnectionLostAt)
    return { state: "lost", lostAt: row.shopifyConnectionLostAt, reason: row.shopifyConnectionLostReason };
  const restoredAt = row?.shopifyConnectionRestoredAt;
  if (row?.shopifyConnectionLastLostAt && restoredAt && now.getTime() - restoredAt.getTime() < RESTORED_SHOWN_MS)
    return {
      state: "restored",
      lostAt: row.shopifyConnectionLastLostAt,
      restoredAt,
      reason: row.shopifyConnectionLostReason,
    };
  return { state: "connected" };
}

/** A new offline token after a lost connection (OfflineTokenStorage's `onRestored`): the waiting work goes on. */
export async function resumeAfterReconnect(shop: string, now = new Date()): Promise<void> {
  await resumeParkedInvoices(shop, now);
  await prisma.orderWriteBack.updateMany({
    where: { shopDomain: shop, status: "pending", nextAttemptAt: null },
    data: { nextAttemptAt: now },
  });
  await prisma.reconciliation.updateMany({ where: { shopDomain: shop }, data: { requestedAt: now } });
  await signalWork();
}
