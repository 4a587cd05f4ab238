// The after-sale data of one invoice (its refunds, the path that applies, the money reconciliation) and the
// merchant's "cancelled in the panel" confirmation. Scoped by the session's shop like every admin read.
import prisma from "../db.server";
import { afterSalePath, reconcile, type AfterSaleView, type Reconciliation } from "./rules";
import { STATE, targetOf } from "../invoice-state/transitions";

/** Today in the shop's time zone, Y-m-d. */
export function todayIn(timezone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat("en-CA", {
      timeZone: timezone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

function issueDateOf(requestBody: unknown): string | null {
  const date =
    requestBody && typeof requestBody === "object" ? (requestBody as { issue_date?: unknown }).issue_date : null;
  return typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
}

interface RowFacts {
  shopDomain: string;
  orderId: string;
  state: string;
  documentKind: string | null;
  formalStatus: string | null;
  remoteId: number | null;
  cancelledInShop: boolean;
  panelCancelConfirmedAt: Date | null;
  requestBody: unknown;
  remoteTotals: unknown;
  orderTotal: string;
  orderSnapshot: unknown;
  waybillId: number | null;
}

export async function afterSaleOf(
  row: RowFacts,
  timezone: string,
  now = new Date(),
): Promise<{ afterSale: AfterSaleView; reconciliation: Reconciliation | null }> {
  const refunds =
    row.waybillId === null
      ? await prisma.refund.findMany({
          where: { shopDomain: row.shopDomain, orderId: row.orderId },
          orderBy: { refundedAt: "asc" },
        })
      : [];
  const grandTotal =
    row.remoteTotals && typeof row.remoteTotals === "object"
      ? (row.remoteTotals as { grand_total?: unknown }).grand_total
      : null;
  const invoicedTotal = typeof grandTotal === "string" || typeof grandTotal === "number" ? String(grandTotal) : null;
  const afterSale = afterSalePath(
    {
      state: row.state,
      documentKind: row.documentKind,
      issueDate: issueDateOf(row.requestBody),
      formalised: row.remoteId !== null && (row.formalStatus === STATE.completed || row.state === STATE.completed),
      cancelledInShop: row.cancelledInShop,
      panelCancelConfirmedAt: row.panelCancelConfirmedAt,
      refunds,
      invoicedTotal,
    },
    todayIn(timezone, now),
  );
  const reconciliation =
    invoicedTotal !== null && row.waybillId === null
      ? reconcile(row.orderTotal, invoicedTotal, row.orderSnapshot, refunds)
      : null;
  return { afterSale, reconciliation };
}

/**
 * The merchant says the formalised invoice was cancelled in the vendor's panel (the path "cancel" only): the row
 * ends cancelled, and the trail records who said so. Anything else is refused.
 */
export async function confirmPanelCancel(
  shop: string,
  id: string,
  timezone: string,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; reason: "not_found" | "not_allowed" }> {
  const row = await prisma.invoice.findFirst({ where: { id, shopDomain: shop } });
  if (!row) return { ok: false, reason: "not_found" };
  const { afterSale } = await afterSaleOf(row, timezone, now);
  if (afterSale.path?.kind !== "cancel") return { ok: false, reason: "not_allowed" };
  const updated = await prisma.invoice.updateMany({
    where: { id, shopDomain: shop, panelCancelConfirmedAt: null },
    data: { panelCancelConfirmedAt: now, state: targetOf("panel_cancelled"), nextAttemptAt: null, problems: [] },
  });
  if (updated.count !== 1) return { ok: false, reason: "not_allowed" };
  await prisma.invoiceEvent.create({
    data: {
      invoiceId: id,
      type: "after_sale",
      at: now,
      message: "the merchant confirmed the invoice was cancelled in the invoicing panel",
      data: { note: "panel_cancel_confirmed" },
    },
  });
  return { ok: true };
}
