// The dry run of an "invoice past orders" run, order by order, with no I/O: how many paid orders the range
// holds, how many the app has already, how many would need the merchant's attention and why (the same
// mapping the worker runs), the quota they would use, and which are past the 7-day invoice deadline.
import { mapOrderToInvoice } from "../orders/map-order";
import { parseShopifyOrder } from "../orders/order";
import type { MappingSettings } from "../settings/schema";
import { STATE } from "../invoice-state/transitions";
import { giftCardsOnly } from "../orders/refunds";

/** VUK art. 231/5: an invoice is due within 7 days of the delivery (docs/spec/after-sale-facts.md). */
export const INVOICE_DEADLINE_MS = 7 * 24 * 3_600_000;
/** Late orders named on the page; the count covers all. */
const LATE_NAMES = 20;

export interface Plan {
  /** Paid orders in the range. */
  orders: number;
  /** Of those, orders the app has a row for already (invoiced, in progress or waiting). */
  alreadyRecorded: number;
  /**
   * Those rows by what they mean to the merchant: issued (completed), still in progress (waiting, queued,
   * sending, processing), needing attention (needs_attention, failed), cancelled. Absent in plans saved before.
   */
  already?: AlreadyInApp;
  /** Orders the run would invoice. */
  toInvoice: number;
  /** Orders of gift cards only: recorded, but nothing of them is invoiced when sold (absent in plans saved before). */
  giftCardSales?: number;
  /** Of those, orders whose invoice could not be made as things stand, and the reasons (problem code → count). */
  needsAttention: number;
  reasons: Record<string, number>;
  /** One order per reason, with the problem's details, so the page can say it in words. */
  reasonExamples: Record<string, { order: string; params?: Record<string, string | number> }>;
  /** Invoices of the service's quota the run would use (none in test mode). */
  quota: number;
  testMode: boolean;
  /** Orders to invoice that are past the 7-day deadline, and the first few names. */
  late: number;
  lateOrders: string[];
}

export interface AlreadyInApp {
  issued: number;
  inProgress: number;
  needsAttention: number;
  cancelled: number;
  /** Closed by hand (issued in the panel, or no invoice needed): finished, neither in progress nor late. */
  closed?: number;
}

/** Which count of `already` a row in this state belongs to. */
export function alreadyKind(state: string): keyof AlreadyInApp {
  if (state === STATE.completed) return "issued";
  if (state === STATE.needs_attention || state === STATE.failed) return "needsAttention";
  if (state === STATE.cancelled) return STATE.cancelled;
  if (state === STATE.closed) return STATE.closed;
  return "inProgress";
}

export const emptyPlan = (testMode: boolean): Plan => ({
  orders: 0,
  alreadyRecorded: 0,
  already: { issued: 0, inProgress: 0, needsAttention: 0, cancelled: 0 },
  toInvoice: 0,
  needsAttention: 0,
  reasons: {},
  reasonExamples: {},
  quota: 0,
  testMode,
  late: 0,
  lateOrders: [],
});

export interface PlanContext {
  settings: MappingSettings;
  shop: { domain: string; timezone: string; currency: string; storefrontUrl?: string | null };
  /** Settings the shop still lacks to post at all (every order would need attention for them). */
  missingSettings: string[];
  now: Date;
}

/** When the 7 days start: the first fulfilment (delivery to the carrier), else when the order was placed. */
export function deadlineStart(order: {
  created_at?: string | null;
  processed_at?: string | null;
  fulfillments?: Array<{ created_at?: string | null }> | null;
}): Date | null {
  const shipped = (order.fulfillments ?? [])
    .map((fulfillment) => Date.parse(fulfillment.created_at ?? ""))
    .filter((time) => !Number.isNaN(time))
    .sort((a, b) => a - b)[0];
  const placed = Date.parse(order.processed_at ?? order.created_at ?? "");
  const start = shipped ?? placed;
  return Number.isNaN(start) ? null : new Date(start);
}

export function isPastDeadline(order: Parameters<typeof deadlineStart>[0], now: Date): boolean {
  const start = deadlineStart(order);
  return start !== null && now.getTime() - start.getTime() > INVOICE_DEADLINE_MS;
}

type Blocking = { code: string; params?: Record<string, string | number> };

/** The problems that would stop this order's invoice, one per code (none: it would go through). */
export function blockingProblems(order: unknown, context: PlanContext): Blocking[] {
  if (context.missingSettings.length)
    return context.missingSettings.map((missing) => ({ code: `settings.missing_${missing}` }));
  const parsed = parseShopifyOrder(order);
  if (!parsed.ok) return parsed.problems;
  const mapped = mapOrderToInvoice(parsed.order, {
    settings: context.settings,
    shop: context.shop,
    now: context.now,
    // Placeholders: the ids change nothing the mapping checks.
    saleChannelId: 1,
    invoiceIntegrationId: 1,
  });
  if (mapped.ok) return [];
  const byCode = new Map(
    mapped.problems.map((problem) => [problem.code, { code: problem.code, params: problem.params }]),
  );
  return [...byCode.values()];
}

/** Adds one paid order of the range to the plan. `recordedState`: the state of the app's row for it, if it has one. */
export function addToPlan(
  plan: Plan,
  order: { name?: string } & Parameters<typeof deadlineStart>[0],
  recordedState: string | null,
  context: PlanContext,
): Plan {
  const next: Plan = {
    ...plan,
    reasons: { ...plan.reasons },
    reasonExamples: { ...plan.reasonExamples },
    lateOrders: [...plan.lateOrders],
    orders: plan.orders + 1,
  };
  if (recordedState !== null) {
    next.alreadyRecorded += 1;
    const already = { ...(plan.already ?? { issued: 0, inProgress: 0, needsAttention: 0, cancelled: 0 }) };
    const kind = alreadyKind(recordedState);
    already[kind] = (already[kind] ?? 0) + 1;
    next.already = already;
    return next;
  }
  const parsed = parseShopifyOrder(order);
  if (parsed.ok && giftCardsOnly(parsed.order)) {
    next.giftCardSales = (plan.giftCardSales ?? 0) + 1;
    return next;
  }
  next.toInvoice += 1;
  if (!plan.testMode) next.quota += 1;
  const problems = blockingProblems(order, context);
  if (problems.length) {
    next.needsAttention += 1;
    for (const { code, params } of problems) {
      next.reasons[code] = (next.reasons[code] ?? 0) + 1;
      next.reasonExamples[code] ??= { order: order.name ?? "", ...(params ? { params } : {}) };
    }
  }
  if (isPastDeadline(order, context.now)) {
    next.late += 1;
    if (next.lateOrders.length < LATE_NAMES && order.name) next.lateOrders.push(order.name);
  }
  return next;
}
