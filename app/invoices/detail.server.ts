// One invoice as the detail page shows it: the order, the body that was sent, the service's totals against
// the order total, the problems and the audit trail. Looked up by id AND the session's shop: an id of
// another shop's invoice finds nothing.
import { daysLate, deadlineStatus, runningDeadline, type DeadlineStatus } from "./deadline";
import prisma from "../db.server";
import { Decimal } from "../invoicing-service/money";
import { safeLink } from "../invoicing-service/links";
import { linkOptions } from "../http/outbound-guard.server";
import { getSettings } from "../settings/settings.server";
import { problemsFrom, type Problem } from "../problems";
import { isInFlight } from "../invoice-state/transitions";
import { RETRY, SYNC } from "../jobs/backoff";
import { TURKEY_ZONE } from "../orders/dates";
import { mayRetry } from "./actions.server";
import { afterSaleOf } from "../after-sale/invoice-view.server";
import { closureFrom, type Closure } from "./closure";
import { mayClose, mayOverrideBuyer } from "./fixes.server";
import { buyerOverrideFrom, type BuyerOverride } from "../orders/buyer-override";
import { buyerDraft, type BuyerDraft } from "../orders/customer";
import { parseShopifyOrder } from "../orders/order";
import type { MappingSettings } from "../settings/schema";
import type { AfterSaleView, Reconciliation } from "../after-sale/rules";
import { STATE } from "../invoice-state/transitions";
import { isGiftCardSale } from "./history";
import { DEFAULT_TRIGGER } from "../settings/schema";

export interface TotalsView {
  orderTotal: string;
  currency: string;
  /** The service's amounts as it reported them (decimal strings), when known. */
  remote: {
    linesTotal: string | null;
    discountTotal: string | null;
    taxTotal: string | null;
    extraTaxTotal: string | null;
    grandTotal: string | null;
  } | null;
  /** grandTotal - orderTotal, exact, as a decimal string; null while the service has not reported a total. */
  difference: string | null;
  /** The service's total is the amount paid (difference 0); null while the service has not reported a total. */
  matches: boolean | null;
}

export interface InvoiceDetail {
  id: string;
  /** Not issued yet: its 7-day legal deadline while the clock runs, and whether it is near or past (app/deadline). */
  deadline: { at: string; status: DeadlineStatus } | null;
  orderId: string;
  orderName: string;
  orderCreatedAt: string;
  customerName: string | null;
  state: string;
  documentKind: string | null;
  serialNumber: string | null;
  ettn: string | null;
  pdfUrl: string | null;
  remoteId: number | null;
  workflowStatus: string | null;
  formalStatus: string | null;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  /** The onboarding's sample invoice (no Shopify order behind it). */
  isTest: boolean;
  /** Invoiced through the test (dummy) integration while test mode was on: not a legal invoice. */
  postedInTestMode: boolean;
  /** Made from this waybill of the service (no Shopify order). */
  waybillId: number | null;
  createdAt: string;
  requestBody: unknown;
  totals: TotalsView;
  /** What stops the invoice, and what it had to assume. */
  errors: Problem[];
  warnings: Problem[];
  /** The merchant may retry it (after fixing settings or data), or invoice a waiting order now. */
  canRetry: boolean;
  canInvoiceNow: boolean;
  /** The merchant may close it by hand (issued in the panel, no invoice needed) or set the buyer (app/invoices/fixes.server.ts). */
  canClose: boolean;
  canOverrideBuyer: boolean;
  /** How it was closed by hand, while it is. */
  closure: Closure | null;
  /** The buyer as the merchant set it, over the order's. */
  buyerOverride: BuyerOverride | null;
  /** The buyer as the order gives it: where the buyer form starts (while the buyer can be set). */
  buyerDraft: BuyerDraft | null;
  /** The service is still working on it: the page refreshes until it is done. */
  inFlight: boolean;
  /** Cancelled because the order sold gift cards only: no invoice was due. */
  giftCardSale: boolean;
  /** Oldest first; an event that recorded problems carries them, to be shown in words rather than codes. */
  events: Array<{
    id: string;
    at: string;
    type: string;
    message: string | null;
    data: Record<string, unknown> | null;
    problems: Problem[];
  }>;
  /** The invoice's own date (Y-m-d, the issue date sent to the service), once it was posted. */
  invoiceDate: string | null;
  /** Issued this many days after its 7-day deadline (0: in time): kept once it is issued. */
  daysLate: number;
  /** A failed try the app repeats by itself: why, when next, which try of how many (null when none is due). */
  retrying: { reason: unknown; nextAttemptAt: string; attempt: number; max: number } | null;
  /** The invoice's page in the invoicing service's panel, once the service has it. */
  panelUrl: string | null;
  /** Refunds and cancellation after the sale, and what applies to the invoice (app/after-sale/rules.ts). */
  afterSale: AfterSaleView;
  /** The invoice total against the amount paid, with the known reasons for a difference. */
  reconciliation: Reconciliation | null;
}

/** The panel's origin is the API base without its /api suffix: https://app.faturaentegrator.com/api → https://app.faturaentegrator.com. */
export function panelInvoiceUrl(baseUrl: string, remoteId: number): string {
  const origin = baseUrl.replace(/\/+$/, "").replace(/\/api$/, "");
  return `${origin}/invoice/${remoteId}`;
}

function decimalOrNull(value: unknown): string | null {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string" || value.trim() === "") return null;
  try {
    return new Decimal(value).toFixed();
  } catch {
    return null;
  }
}

export function totalsView(orderTotal: string, currency: string, remoteTotals: unknown): TotalsView {
  const r = remoteTotals && typeof remoteTotals === "object" ? (remoteTotals as Record<string, unknown>) : null;
  const remote = r
    ? {
        linesTotal: decimalOrNull(r.lines_total),
        discountTotal: decimalOrNull(r.discount_total),
        taxTotal: decimalOrNull(r.tax_total),
        extraTaxTotal: decimalOrNull(r.extra_tax_total),
        grandTotal: decimalOrNull(r.grand_total),
      }
    : null;
  let difference: string | null = null;
  if (remote?.grandTotal) {
    try {
      difference = new Decimal(remote.grandTotal).minus(new Decimal(orderTotal)).toFixed(2);
    } catch {
      difference = null;
    }
  }
  return {
    orderTotal,
    currency,
    remote,
    difference,
    matches: difference === null ? null : new Decimal(difference).isZero(),
  };
}

function issueDateOf(body: unknown): string | null {
  const date = body && typeof body === "object" ? (body as { issue_date?: unknown }).issue_date : null;
  return typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
}

/** A queued post or a status read the app will repeat after a failure, with the last retry event's reason. */
function retryingOf(row: {
  state: string;
  nextAttemptAt: Date | null;
  lastError: string | null;
  remoteId: number | null;
  attempts: number;
  syncAttempts: number;
  events: Array<{ type: string; data: unknown }>;
}) {
  if (!row.nextAttemptAt || !row.lastError || !([STATE.queued, STATE.processing] as string[]).includes(row.state))
    return null;
  const last = [...row.events].reverse().find((event) => event.type === "retry");
  const reason =
    last?.data && typeof last.data === "object" ? ((last.data as { reason?: unknown }).reason ?? null) : null;
  const posting = row.remoteId === null;
  return {
    reason,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
    attempt: (posting ? row.attempts : row.syncAttempts) + 1,
    max: posting ? RETRY.maxAttempts : SYNC.maxAttempts,
  };
}

export async function getInvoiceDetail(
  shop: string,
  id: string,
  timezone = TURKEY_ZONE,
  now = new Date(),
): Promise<InvoiceDetail | null> {
  const row = await prisma.invoice.findFirst({
    where: { id, shopDomain: shop },
    include: {
      events: { orderBy: { at: "asc" }, select: { id: true, at: true, type: true, message: true, data: true } },
    },
  });
  if (!row) return null;
  const canOverrideBuyer = mayOverrideBuyer(row);
  // The connection (the panel's link) for a posted invoice; the mapping (where the buyer's number is read) for the
  // buyer form's starting values.
  const settings = row.remoteId !== null || canOverrideBuyer ? await getSettings(shop) : null;
  const trigger =
    (await prisma.shopSettings.findUnique({ where: { shopDomain: shop }, select: { trigger: true } }))?.trigger ??
    DEFAULT_TRIGGER;
  const deadline = runningDeadline(row, trigger);
  const problems = problemsFrom(row.problems);
  const { afterSale, reconciliation } = await afterSaleOf(row, timezone, now);
  // The invoice's own date: its fiscal record first (no redaction touches it), else the body it was posted with.
  const invoiceDate = issueDateOf(row.fiscalRecord ?? row.requestBody);
  return {
    id: row.id,
    deadline: deadline ? { at: deadline.toISOString(), status: deadlineStatus(deadline, now) } : null,
    orderId: row.orderId,
    orderName: row.orderName,
    orderCreatedAt: row.orderCreatedAt.toISOString(),
    customerName: row.customerName,
    state: row.state,
    documentKind: row.documentKind,
    serialNumber: row.serialNumber,
    ettn: row.ettn,
    pdfUrl: safeLink(row.pdfUrl, linkOptions()),
    remoteId: row.remoteId,
    workflowStatus: row.workflowStatus,
    formalStatus: row.formalStatus,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    lastError: row.lastError,
    isTest: row.isTest,
    postedInTestMode: row.postedInTestMode,
    waybillId: row.waybillId,
    createdAt: row.createdAt.toISOString(),
    requestBody: row.requestBody ?? null,
    totals: totalsView(row.orderTotal, row.currency, row.remoteTotals),
    errors: problems.filter((p) => p.severity === "error"),
    warnings: problems.filter((p) => p.severity === "warning"),
    canRetry: mayRetry(row),
    canInvoiceNow: row.state === STATE.waiting,
    canClose: mayClose(row),
    canOverrideBuyer,
    closure: row.state === STATE.closed ? closureFrom(row.closure) : null,
    buyerOverride: buyerOverrideFrom(row.buyerOverride),
    buyerDraft: canOverrideBuyer && settings ? draftOf(row.orderSnapshot, settings.mapping) : null,
    inFlight: isInFlight(row.state),
    giftCardSale: isGiftCardSale(row.state, row.events),
    retrying: retryingOf(row),
    invoiceDate,
    daysLate:
      invoiceDate && !row.isTest && row.waybillId === null ? daysLate(row.orderCreatedAt, invoiceDate, timezone) : 0,
    events: row.events.map(({ data, ...event }) => ({
      ...event,
      at: event.at.toISOString(),
      data: data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null,
      problems: problemsFrom(data && typeof data === "object" ? (data as { problems?: unknown }).problems : null),
    })),
    panelUrl:
      settings && row.remoteId !== null
        ? safeLink(panelInvoiceUrl(settings.baseUrl, row.remoteId), linkOptions())
        : null,
    afterSale,
    reconciliation,
  };
}

/** The stored order's buyer for the form; none when the snapshot is not an order (it then starts empty). */
function draftOf(snapshot: unknown, mapping: MappingSettings): BuyerDraft | null {
  const parsed = parseShopifyOrder(snapshot);
  return parsed.ok ? buyerDraft(parsed.order, mapping) : null;
}
