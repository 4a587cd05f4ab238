// After-sale while the invoice is at the service: a cancellation or refunds since the post withdraw it (while the
// service still lets it be deleted) and close the row or post it again; once formalised, the refunds are recorded.
import type { Prisma } from "#prisma/sqlite";
import { dbNull } from "../db.server";
import { InvoicingError, NotFoundError } from "../invoicing-service/errors";
import type { InvoiceRecord } from "../invoicing-service/schemas";
import { syncDelayMs } from "../jobs/backoff";
import { STATE, nextState, stateOf, type InvoiceState } from "../invoice-state/transitions";
import { changesInvoice, handlingWithoutChange, refundsOf, standing } from "../after-sale/before-posting.server";
import { reasonOf } from "./event-data";
import { applyRecord, describe, json } from "./outcome";
import type { Client, Facts, Outcome, ProcessDeps, Row } from "./process-types";

/** Formal statuses in which the service still lets the invoice be deleted (sandbox/README.md, decision 0016). */
const WITHDRAWABLE = new Set(["pending", "failed"]);

/**
 * Posted, and Shopify says the sale changed since (a cancellation, or refunds not in the invoice): while the
 * service allows it, the invoice is deleted, then either the row ends cancelled (nothing left to invoice) or it
 * is posted again for the kept lines. Formalised already: the refunds go to the invoice page's after-sale view.
 * Null when there is nothing to do here (the ordinary status read goes on).
 */
export async function afterSaleAtService(
  row: Row,
  facts: Facts,
  record: InvoiceRecord,
  client: Client,
  deps: ProcessDeps,
): Promise<Outcome | null> {
  if (row.waybillId !== null || row.state === STATE.cancelled) return null;
  const refunds = await refundsOf(row.shopDomain, row.orderId);
  const pending = refunds.filter((r) => r.handling === null);
  const changing = pending.filter(changesInvoice);
  const minor = pending.filter((r) => !changesInvoice(r));
  const withMinor = (outcome: Outcome): Outcome => ({
    ...outcome,
    refunds: [
      ...(outcome.refunds ?? []),
      ...minor.map((r) => ({ ids: [r.refundId], handling: handlingWithoutChange(r) })),
    ],
  });
  const formal = record.formal_status ?? "";
  if (stateOf(record) === STATE.completed) {
    // Formalised: the invoice stays as the tax authority has it; the invoice page shows each refund's path.
    if (pending.length === 0) return null;
    const outcome = applyRecord(row, record, deps);
    return { ...outcome, refunds: [{ ids: pending.map((r) => r.refundId), handling: "after_formalisation" }] };
  }
  if (!row.cancelledInShop && changing.length === 0)
    return minor.length ? withMinor(applyRecord(row, record, deps)) : null;
  if (!WITHDRAWABLE.has(formal)) return null; // being formalised right now: read again soon, decide then
  if (!client.deleteInvoice) return null;
  const nothingLeft = row.cancelledInShop || (standing(row.orderSnapshot, refunds)?.nothingLeft ?? false);
  try {
    await client.deleteInvoice(record.id);
  } catch (error) {
    if (!(error instanceof NotFoundError)) {
      if (error instanceof InvoicingError && error.retry === "never") {
        // Refused: most likely formalised meanwhile. The next read shows it; the merchant sees why.
        return {
          data: {
            nextAttemptAt: new Date(deps.now().getTime() + syncDelayMs(0, deps.random)),
            lastError: describe(error),
          },
          events: [
            {
              type: "after_sale",
              message: `deleting invoice ${record.id} was refused: ${describe(error)}`,
              data: { note: "delete_refused", remoteId: record.id, reason: json(reasonOf(error)) },
            },
          ],
        };
      }
      throw error; // transient: the status read's backoff applies (processClaimedRow counts it)
    }
  }
  const cleared: Prisma.InvoiceUpdateManyMutationInput = {
    remoteId: null,
    workflowStatus: null,
    formalStatus: null,
    ettn: null,
    serialNumber: null,
    pdfUrl: null,
    remoteTotals: dbNull(),
    syncAttempts: 0,
    problems: json([]),
  };
  const withdrawn = {
    type: "withdrawn" as const,
    message: `invoice ${record.id} deleted at the service before formalisation`,
    data: json({ remoteId: record.id, formalStatus: formal }),
  };
  if (nothingLeft) {
    // The row closes: no worker looks at it again. A refund stored while the invoice was being deleted (orders/cancelled
    // stores the cancellation first, then the refunds it carries) is read again here and settled with it; the refund's
    // own path settles one that lands on the row once it is closed (app/after-sale/record.server.ts).
    const known = new Set(pending.map((r) => r.refundId));
    const late = (await refundsOf(row.shopDomain, row.orderId))
      .filter((r) => r.handling === null && !known.has(r.refundId))
      .map((r) => r.refundId);
    return withMinor({
      data: { ...cleared, state: nextState(row.state as InvoiceState, "withdraw"), nextAttemptAt: null },
      events: [
        withdrawn,
        {
          type: "cancelled",
          message: row.cancelledInShop
            ? "order cancelled in Shopify; its invoice was deleted before formalisation"
            : "order fully refunded; its invoice was deleted before formalisation",
          data: { note: row.cancelledInShop ? "cancelled_withdrawn" : "refunded_withdrawn" },
        },
      ],
      refunds: [{ ids: [...changing.map((r) => r.refundId), ...late], handling: "withdrawn" }],
    });
  }
  // Partially refunded: the same row is posted again, for the order as it stands (a fresh first attempt).
  return withMinor({
    data: {
      ...cleared,
      state: nextState(row.state as InvoiceState, "reissue"),
      attempts: 0,
      nextAttemptAt: deps.now(),
    },
    events: [
      withdrawn,
      {
        type: "reissue",
        message: `re-issued for the kept lines after refund(s) ${changing.map((r) => r.refundId).join(", ")}`,
        data: { refunds: changing.length },
      },
    ],
    refunds: [{ ids: changing.map((r) => r.refundId), handling: "reissued" }],
  });
}
