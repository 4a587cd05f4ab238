// When an invoice's change is written back to its Shopify order (app/write-back does the writing): the states
// whose reaching makes the order's write-back due, and the row that makes it due. The invoice's side of the
// write-back, so that posting and the merchant's fixes schedule it without depending on the write-back step.
import type { Db } from "../db.server";
import type { WriteBackStart } from "../db/hot-statements";
import { includesWriteScope, WRITE_SCOPE } from "../shopify/optional-scopes";
import type { InvoiceState } from "../invoice-state/transitions";
import { STATE } from "../invoice-state/transitions";

/** States after which the order is written: the invoice reached an end, or changed again after one. */
const WRITTEN_STATES: InvoiceState[] = [
  STATE.completed,
  STATE.failed,
  STATE.needs_attention,
  STATE.cancelled,
  STATE.closed,
];

type InvoiceForWrite = {
  id: string;
  shopDomain: string;
  orderId: string;
  state: string;
  isTest: boolean;
  waybillId: number | null;
};

/** Whether a change of an invoice row is written to its order: real Shopify orders only, at an end state. */
export function writesBack(row: InvoiceForWrite, nextState: string | undefined, changed: boolean): boolean {
  if (row.isTest || row.waybillId !== null || !/^\d+$/.test(row.orderId)) return false;
  return changed && nextState !== undefined && (WRITTEN_STATES as string[]).includes(nextState);
}

/**
 * A write-back made due at `now` by the end of a job: pending when the offline token's recorded scopes include
 * write_orders, else waiting for them (no_scope: not retried until the merchant grants it). The end of a job reads
 * the scopes in its own transaction and writes what this says (app/db/hot.server.ts FinishJob).
 */
export function writeBackStart(scopes: string | null, now: Date): WriteBackStart {
  return includesWriteScope(scopes)
    ? { status: "pending", nextAttemptAt: now, lastError: null }
    : { status: "no_scope", nextAttemptAt: null, lastError: `missing scope ${WRITE_SCOPE}` };
}

/** Makes the order's write-back due now (inside the caller's transaction). What was written stays. */
export async function scheduleWriteBack(
  db: Pick<Db, "orderWriteBack">,
  invoiceId: string,
  shopDomain: string,
  now: Date,
) {
  await db.orderWriteBack.upsert({
    where: { invoiceId },
    create: { invoiceId, shopDomain, status: "pending", nextAttemptAt: now },
    update: { status: "pending", nextAttemptAt: now, attempts: 0, lastError: null, version: { increment: 1 } },
  });
}
