// Invoicing orders the merchant picked in Shopify's order list (the admin extension's bulk action) or on an order
// page: each order is read as it stands now through the Admin API and recorded like any other order
// (recordReadOrder: one row per shop and order). An order the app has already is left alone, except one waiting
// for its trigger, which is queued now with the order as read. Nothing here trusts the ids beyond their digits.
import type { Prisma } from "#prisma/sqlite";
import prisma from "../db.server";
import { logger } from "../logger.server";
import { orderSnapshot } from "../orders/order";
import { recordReadOrder } from "./enqueue.server";
import type { OrderReader } from "../shopify/order-reader";
import { signalWork } from "../jobs/signal.server";
import { STATE, fromStates, targetOf, type InvoiceState } from "../invoice-state/transitions";

/** The most orders one request may name (Shopify's order list selects 50 per page). */
export const BULK_MAX = 50;

export const REFUSAL_REASONS = ["not_found", "not_paid", "cancelled", "unreadable", "admin_api"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export type BulkResult =
  | { orderId: string; name: string | null; result: "queued" }
  | { orderId: string; name: string | null; result: "already"; state: string; invoiceId: string }
  | { orderId: string; name: string | null; result: "refused"; reason: RefusalReason; detail?: string };

export interface BulkSummary {
  queued: number;
  already: number;
  refused: number;
  results: BulkResult[];
}

/** "gid://shopify/Order/123" or "123" → "123"; anything else → null. */
export function numericOrderId(value: unknown): string | null {
  const match = /^(?:gid:\/\/shopify\/Order\/)?(\d{1,20})$/.exec(String(value ?? ""));
  return match ? match[1] : null;
}

async function existingRow(shop: string, orderId: string) {
  return prisma.invoice.findUnique({
    where: { shopDomain_orderId: { shopDomain: shop, orderId } },
    select: { id: true, state: true, orderName: true },
  });
}

async function invoiceOne(shop: string, orderId: string, reader: OrderReader, now: Date): Promise<BulkResult> {
  const existing = await existingRow(shop, orderId);
  if (existing && !fromStates("trigger").includes(existing.state as InvoiceState))
    return { orderId, name: existing.orderName, result: "already", state: existing.state, invoiceId: existing.id };
  let order: unknown;
  try {
    order = await reader.readOrder(shop, orderId);
  } catch (error) {
    logger.warn({ shop, orderId, err: error }, "bulk invoice: the order could not be read through the Admin API");
    return {
      orderId,
      name: existing?.orderName ?? null,
      result: "refused",
      reason: "admin_api",
      detail: (error as Error).message.slice(0, 200),
    };
  }
  if (!order) return { orderId, name: existing?.orderName ?? null, result: "refused", reason: "not_found" };
  const name = (order as { name?: string }).name ?? null;
  if ((order as { cancelled_at?: string | null }).cancelled_at)
    return { orderId, name, result: "refused", reason: "cancelled" };
  if (existing) {
    // Waiting for its trigger: queue it now, with the order as it stands.
    const queued = await prisma.invoice.updateMany({
      where: { id: existing.id, shopDomain: shop, state: { in: fromStates("trigger") } },
      data: {
        state: targetOf("trigger"),
        nextAttemptAt: now,
        orderSnapshot: orderSnapshot(order) as Prisma.InputJsonValue,
      },
    });
    if (queued.count !== 1) {
      const row = await existingRow(shop, orderId);
      return { orderId, name, result: "already", state: row?.state ?? STATE.queued, invoiceId: existing.id };
    }
    await prisma.invoiceEvent.create({
      data: {
        invoiceId: existing.id,
        type: "queued",
        at: now,
        message: "invoiced from Shopify's order list (bulk action), with the order as it stands now",
        data: { note: "bulk_action" },
      },
    });
    await signalWork();
    return { orderId, name, result: "queued" };
  }
  const outcome = await recordReadOrder(shop, order, { source: "bulk_action" }, now);
  if (outcome.status !== 200) return { orderId, name, result: "refused", reason: "unreadable", detail: outcome.error };
  if (outcome.result === "not_paid") return { orderId, name, result: "refused", reason: "not_paid" };
  if (outcome.result === "duplicate") {
    const row = await existingRow(shop, orderId);
    return { orderId, name, result: "already", state: row?.state ?? STATE.queued, invoiceId: row?.id ?? "" };
  }
  if (outcome.result === "unknown_shop") return { orderId, name, result: "refused", reason: "not_found" };
  return { orderId, name, result: "queued" };
}

/** Invoices the selected orders of the authenticated shop, one after the other (the Admin API's cost bucket). */
export async function invoiceSelectedOrders(
  shop: string,
  orderIds: string[],
  reader: OrderReader,
  now = new Date(),
): Promise<BulkSummary> {
  const results: BulkResult[] = [];
  for (const orderId of [...new Set(orderIds)].slice(0, BULK_MAX))
    results.push(await invoiceOne(shop, orderId, reader, now));
  return {
    queued: results.filter((r) => r.result === "queued").length,
    already: results.filter((r) => r.result === "already").length,
    refused: results.filter((r) => r.result === "refused").length,
    results,
  };
}
