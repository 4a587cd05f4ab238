// The Returns page and its export: the shop's refunds, newest first, each with its order's invoice and the path
// that applies (app/after-sale/rules.ts). The session's shop only.
import prisma from "../db.server";
import { afterSalePath, type AfterSalePath } from "./rules";
import { todayIn } from "./invoice-view.server";
import { refundedLinesOf, type RefundedLine } from "../orders/refunds";
import { STATE } from "../invoice-state/transitions";

export interface ReturnRow {
  refundId: string;
  refundedAt: string;
  orderId: string;
  orderName: string;
  invoiceId: string | null;
  serialNumber: string | null;
  issueDate: string | null;
  ettn: string | null;
  documentKind: string | null;
  buyerName: string | null;
  buyerTaxNumber: string | null;
  lines: RefundedLine[];
  hasLineItems: boolean;
  shipping: string;
  amount: string;
  currency: string;
  restock: boolean;
  handling: string | null;
  /** What applies to the invoice after this refund; null when it was dealt with before formalisation. */
  path: AfterSalePath | null;
}

export const RETURNS_LIMIT = 500;

function bodyField(body: unknown, ...path: string[]): string | null {
  let value: unknown = body;
  for (const key of path)
    value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}

/**
 * The shop's refunds, newest first: the latest RETURNS_LIMIT, or (the accountant package) every refund made in
 * [refundedFrom, refundedTo).
 */
export async function listReturns(
  shop: string,
  timezone: string,
  now = new Date(),
  period?: { refundedFrom: Date; refundedTo: Date },
): Promise<ReturnRow[]> {
  const refunds = await prisma.refund.findMany({
    where: { shopDomain: shop, ...(period ? { refundedAt: { gte: period.refundedFrom, lt: period.refundedTo } } : {}) },
    orderBy: [{ refundedAt: "desc" }, { id: "desc" }],
    ...(period ? {} : { take: RETURNS_LIMIT }),
  });
  const orderIds = [...new Set(refunds.map((r) => r.orderId))];
  const invoices = await prisma.invoice.findMany({ where: { shopDomain: shop, orderId: { in: orderIds } } });
  const byOrder = new Map(invoices.map((i) => [i.orderId, i]));
  const allByOrder = new Map<string, typeof refunds>();
  for (const r of refunds) allByOrder.set(r.orderId, [...(allByOrder.get(r.orderId) ?? []), r]);
  const today = todayIn(timezone, now);
  return refunds.map((refund) => {
    const invoice = byOrder.get(refund.orderId) ?? null;
    const grand =
      invoice?.remoteTotals && typeof invoice.remoteTotals === "object"
        ? (invoice.remoteTotals as { grand_total?: unknown }).grand_total
        : null;
    const view = invoice
      ? afterSalePath(
          {
            state: invoice.state,
            documentKind: invoice.documentKind,
            issueDate: bodyField(invoice.requestBody, "issue_date"),
            formalised:
              invoice.remoteId !== null && (invoice.formalStatus === "completed" || invoice.state === STATE.completed),
            cancelledInShop: invoice.cancelledInShop,
            panelCancelConfirmedAt: invoice.panelCancelConfirmedAt,
            refunds: allByOrder.get(refund.orderId) ?? [refund],
            invoicedTotal: typeof grand === "string" ? grand : null,
          },
          today,
        )
      : null;
    const customer = (invoice?.requestBody as { customer?: unknown } | null)?.customer;
    const name =
      bodyField(customer, "title") ??
      ([bodyField(customer, "name"), bodyField(customer, "surname")].filter(Boolean).join(" ") || null);
    return {
      refundId: refund.refundId,
      refundedAt: refund.refundedAt.toISOString(),
      orderId: refund.orderId,
      orderName: invoice?.orderName ?? `#${refund.orderId}`,
      invoiceId: invoice?.id ?? null,
      serialNumber: invoice?.serialNumber ?? null,
      issueDate: bodyField(invoice?.requestBody, "issue_date"),
      ettn: invoice?.ettn ?? null,
      documentKind: invoice?.documentKind ?? null,
      buyerName: name ?? invoice?.customerName ?? null,
      buyerTaxNumber: bodyField(customer, "tax_number"),
      lines: refundedLinesOf(refund),
      hasLineItems: refund.hasLineItems,
      shipping: refund.shipping,
      amount: refund.amount,
      currency: refund.currency,
      restock: refund.restock,
      handling: refund.handling,
      // The path belongs to refunds after formalisation (and to a cancellation); earlier ones were dealt with.
      path: refund.handling === "after_formalisation" || refund.handling === null ? (view?.path ?? null) : null,
    };
  });
}
