// What a merchant can do to an invoice from the admin. Every function takes the shop from the
// authenticated session and scopes its query by it: an id from another shop finds nothing.
import type { Prisma } from "#prisma/sqlite";
import prisma, { dbNull } from "../db.server";
import { signalWork } from "../jobs/signal.server";
import { RETRYABLE_STATES } from "../invoice-state/transitions";
import { sampleTestOrder } from "./test-order";
import { orderSnapshot } from "../orders/order";
import type { OrderReader } from "../shopify/order-reader";
import { interactiveOrders } from "../shopify/order-readers.server";
import { foldForSearch } from "../i18n/search-fold";
import { fromStates, nextState, targetOf, transition, type InvoiceState } from "../invoice-state/transitions";
import { TEST_INVOICES } from "../http/throttle.server";

export type ActionResult =
  { ok: true } | { ok: false; reason: "not_found" | "not_allowed" | "not_configured" | "throttled" };

/** An invoice the merchant may retry: stopped by a problem or failed, and not an order cancelled before the service had it. */
export function mayRetry(row: { state: string; cancelledInShop: boolean; remoteId: number | null }): boolean {
  return (RETRYABLE_STATES as string[]).includes(row.state) && !(row.cancelledInShop && row.remoteId === null);
}

/**
 * The order as it stands in Shopify now, read through the Admin API, or why it could not be (the caller then keeps
 * the stored copy and says so). Not for waybills and test invoices, which have no Shopify order.
 */
async function readOrderNow(
  shop: string,
  row: { orderId: string; waybillId: number | null; isTest: boolean },
  reader: OrderReader,
): Promise<{ order: unknown; unavailable: null } | { order: null; unavailable: string | null }> {
  if (row.waybillId !== null || row.isTest) return { order: null, unavailable: null };
  try {
    const order = await reader.readOrder(shop, row.orderId);
    return order ? { order, unavailable: null } : { order: null, unavailable: "Shopify has no such order now" };
  } catch (error) {
    return { order: null, unavailable: (error as Error).message.slice(0, 200) };
  }
}

/**
 * After the merchant fixed settings or data: post again (or, if the service has it, read it again). A post uses the
 * order as it stands in Shopify now (read through the Admin API, as Invoice now does): the merchant corrected it
 * there. When it cannot be read now, the worker tries once more and otherwise posts the stored copy; the history
 * says which.
 */
export async function retryInvoice(
  shop: string,
  invoiceId: string,
  now = new Date(),
  reader: OrderReader = interactiveOrders,
): Promise<ActionResult & { from?: "shopify" | "later" }> {
  const row = await prisma.invoice.findFirst({ where: { id: invoiceId, shopDomain: shop } });
  if (!row) return { ok: false, reason: "not_found" };
  if (!mayRetry(row)) return { ok: false, reason: "not_allowed" };
  const atService = row.remoteId !== null;
  const read = atService ? null : await readOrderNow(shop, row, reader);
  const updated = await prisma.invoice.updateMany({
    where: { id: row.id, shopDomain: shop, state: row.state },
    data: atService
      ? { nextAttemptAt: now, syncAttempts: 0 }
      : {
          state: nextState(row.state as InvoiceState, "merchant_retry"),
          nextAttemptAt: now,
          problems: [],
          lastError: null,
          attempts: Math.min(row.attempts, 1),
          ...(read?.order
            ? { orderSnapshot: orderSnapshot(read.order) as Prisma.InputJsonValue, refreshOrder: false }
            : { refreshOrder: read?.unavailable != null }),
        },
  });
  if (updated.count !== 1) return { ok: false, reason: "not_allowed" };
  const from = read?.order ? ("shopify" as const) : read?.unavailable ? ("later" as const) : undefined;
  await prisma.invoiceEvent.create({
    data: {
      invoiceId: row.id,
      type: "merchant_retry",
      at: now,
      message: read?.unavailable ?? null,
      ...(from ? { data: { from } } : {}),
    },
  });
  await signalWork();
  return { ok: true, ...(from ? { from } : {}) };
}

/**
 * A waiting order (trigger on fulfilment or manual): invoice it now, from the order as it stands in Shopify now
 * (read through the Admin API: later edits, refunds and fulfilments count), not as it was when paid. When the
 * Admin API cannot be read, the order as recorded at payment is invoiced, and its history says so.
 */
export async function invoiceNow(
  shop: string,
  invoiceId: string,
  now = new Date(),
  reader: OrderReader = interactiveOrders,
): Promise<ActionResult & { from?: "shopify" | "snapshot" }> {
  const row = await prisma.invoice.findFirst({
    where: { id: invoiceId, shopDomain: shop },
    select: { state: true, orderId: true, waybillId: true, isTest: true },
  });
  if (!row) return { ok: false, reason: "not_found" };
  const queued = transition(row.state as InvoiceState, "trigger");
  if (!queued.ok) return { ok: false, reason: "not_allowed" };
  const { order, unavailable } = await readOrderNow(shop, row, reader);
  const updated = await prisma.invoice.updateMany({
    where: { id: invoiceId, shopDomain: shop, state: row.state },
    data: {
      state: queued.to,
      nextAttemptAt: now,
      ...(order ? { orderSnapshot: orderSnapshot(order) as Prisma.InputJsonValue, refreshOrder: false } : {}),
    },
  });
  if (updated.count !== 1) return { ok: false, reason: "not_allowed" };
  const message = order
    ? "invoiced now by the merchant, with the order as it stands in Shopify now"
    : unavailable
      ? `invoiced now by the merchant, from the order as it was when paid: it could not be read from Shopify (${unavailable})`
      : "invoiced now by the merchant";
  await prisma.invoiceEvent.create({ data: { invoiceId, type: "queued", at: now, message } });
  await signalWork();
  return { ok: true, from: order ? "shopify" : "snapshot" };
}

/**
 * A test invoice through the dummy integration (no quota, no tax authority): proves the key, the sales
 * channel and the callback work end to end, before the shop goes live.
 */
export async function sendTestInvoice(shop: string, now = new Date()): Promise<ActionResult & { invoiceId?: string }> {
  const settings = await prisma.shopSettings.findUnique({ where: { shopDomain: shop } });
  if (!settings?.apiKeyEncrypted || !settings.saleChannelId || !settings.dummyIntegrationId) {
    return { ok: false, reason: "not_configured" };
  }
  // Each one is a row and a call to the service: a burst is refused (issue 35, point 11).
  if (!(await TEST_INVOICES.take(shop, now.getTime())).allowed) return { ok: false, reason: "throttled" };
  const order = sampleTestOrder(now);
  const row = await prisma.invoice.create({
    data: {
      shop: { connectOrCreate: { where: { domain: shop }, create: { domain: shop } } },
      orderId: String(order.id),
      orderName: order.name,
      orderCreatedAt: now,
      customerName: "Test",
      customerSearch: foldForSearch("Test"),
      orderTotal: order.total_price,
      currency: order.currency,
      orderSnapshot: order,
      isTest: true,
      state: nextState("new", "record"),
      nextAttemptAt: now,
      events: {
        create: [
          { type: "queued", at: now, message: "test invoice from the settings page", data: { note: "test_invoice" } },
        ],
      },
    },
  });
  await signalWork();
  return { ok: true, invoiceId: row.id };
}

/** Test-mode invoices of real orders that may be issued for real: finished at the service, order not cancelled. */
export const ISSUABLE_TEST_INVOICES = {
  postedInTestMode: true,
  isTest: false,
  // A waybill is invoiced once: its test invoice holds it at the service (docs/decisions/0013-invoices-from-waybills.md).
  waybillId: null,
  cancelledInShop: false,
  state: { in: fromStates("issue_for_real") },
} satisfies Prisma.InvoiceWhereInput;

/**
 * After going live: the shop's orders that were invoiced while test mode was on (through the dummy integration,
 * not legal invoices) are issued for real, one live invoice each (one unit of quota each).
 * Each row goes back to the queue as a new post with the live settings. Safe against duplicates:
 * - here, each row is moved only while it is still a test invoice (a second click finds none);
 * - at the service, the test invoice was recorded under its own order id ("test-<id>", see
 *   app/invoices/process.server.ts serviceOrderId), so the live post never collides with it, while the service's
 *   duplicate protection on sale channel + live order id still stops a second live invoice.
 */
export async function issueTestInvoicesForReal(
  shop: string,
  now = new Date(),
): Promise<ActionResult & { count?: number }> {
  const settings = await prisma.shopSettings.findUnique({ where: { shopDomain: shop } });
  if (!settings?.apiKeyEncrypted || !settings.saleChannelId || !settings.invoiceIntegrationId)
    return { ok: false, reason: "not_configured" };
  if (settings.testMode) return { ok: false, reason: "not_allowed" };
  const rows = await prisma.invoice.findMany({
    where: { shopDomain: shop, ...ISSUABLE_TEST_INVOICES },
    select: { id: true, remoteId: true, serialNumber: true },
  });
  let count = 0;
  await prisma.$transaction(async (tx) => {
    for (const row of rows) {
      const moved = await tx.invoice.updateMany({
        where: {
          id: row.id,
          shopDomain: shop,
          ...ISSUABLE_TEST_INVOICES,
          OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
        },
        data: {
          state: targetOf("issue_for_real"),
          nextAttemptAt: now,
          attempts: 0,
          syncAttempts: 0,
          postedInTestMode: false,
          saleChannelId: null,
          invoiceIntegrationId: null,
          remoteId: null,
          workflowStatus: null,
          formalStatus: null,
          documentKind: null,
          ettn: null,
          serialNumber: null,
          pdfUrl: null,
          requestBody: dbNull(),
          fiscalRecord: dbNull(),
          remoteTotals: dbNull(),
          problems: [],
          lastError: null,
        },
      });
      if (moved.count !== 1) continue;
      count += 1;
      await tx.invoiceEvent.create({
        data: {
          invoiceId: row.id,
          type: "queued",
          at: now,
          message: `issued for real by the merchant (the test invoice ${row.remoteId ?? "-"}${row.serialNumber ? ` · ${row.serialNumber}` : ""} stays at the service)`,
          data: { testInvoice: row.remoteId, testSerial: row.serialNumber ?? null, note: "issued_for_real" },
        },
      });
    }
  });
  if (count > 0) await signalWork();
  return { ok: true, count };
}
