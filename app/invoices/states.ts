import type { InvoiceRecord } from "../invoicing-service/schemas";

// The Invoice row is the job. Its states, as the admin shows them:
//   waiting          recorded, but the shop's trigger has not fired yet (on fulfilment, or manual)
//   queued           due to be posted at nextAttemptAt
//   sending          leased by a worker that is posting it (an expired lease makes it due again)
//   processing       created at the service; waiting for formalisation (callback or status sync)
//   completed        formalised: serial number, ETTN and PDF are known
//   failed           the service could not formalise it, or every retry was spent
//   needs_attention  the merchant must fix something (settings, order data), then retry
//   cancelled        the order was cancelled before it was invoiced
//   closed           the merchant closed it by hand from the invoice page: issued in the invoicing panel (with its
//                    serial number) or no invoice needed (with a reason); no work, not counted as needing attention or
//                    late; reopening returns it to the state it was closed from (Invoice.closure, app/invoices/fixes.server.ts)
// A needs_attention or waiting row whose order changed in Shopify (orders/updated: buyer, addresses, note attributes,
// tax lines) gets refreshOrder: the worker reads the order through the Admin API before its next post; a needs_attention
// row is queued again for that, a few seconds later (further changes push it on), as the same row: never a second invoice.
// A row is due for work when nextAttemptAt <= now and its lease is free: without a remote id the work
// is a post, with one it is a status read. Rows that need no work have nextAttemptAt = null.
/**
 * A row's claim priority (Invoice.priority): live work (webhooks, reconciliation, the bulk action) first; a past-orders
 * run's rows fill the slots left. The claim reads each shop's due rows per priority, so a row can have only these.
 */
export const PRIORITY = { live: 0, pastOrders: 1 } as const;
export const PRIORITIES = Object.values(PRIORITY);

export const INVOICE_STATES = [
  "waiting",
  "queued",
  "sending",
  "processing",
  "completed",
  "failed",
  "needs_attention",
  "cancelled",
  "closed",
] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/** States in which the service is still working and the invoice may still change by itself. */
export const IN_FLIGHT_STATES: InvoiceState[] = ["queued", "sending", "processing"];

export function isInFlight(state: string): boolean {
  return (IN_FLIGHT_STATES as string[]).includes(state);
}

/** States the merchant may retry from, once they fixed what stopped the invoice. */
export const RETRYABLE_STATES: InvoiceState[] = ["needs_attention", "failed"];

/** States the merchant may close by hand ("issued in the panel", "no invoice needed"): nothing of it is at work. */
export const CLOSABLE_STATES: InvoiceState[] = ["needs_attention", "failed", "waiting"];

/** The invoice's state as the service reports it. */
export function stateOf(record: Pick<InvoiceRecord, "workflow_status" | "formal_status">): InvoiceState {
  const formal = record.formal_status ?? "";
  const workflow = record.workflow_status ?? "";
  if (formal === "failed" || workflow === "failed") return "failed";
  if (formal === "canceled" || formal === "cancelled") return "cancelled";
  if (formal === "completed" || (formal === "not_required" && workflow === "completed")) return "completed";
  return "processing";
}

export type EventType =
  | "received"
  | "queued"
  | "waiting"
  | "posted"
  | "settled"
  | "callback"
  | "status"
  | "retry"
  | "error"
  | "needs_attention"
  | "cancelled"
  | "merchant_retry"
  | "refund"
  | "edited"
  | "withdrawn"
  | "reissue"
  | "after_sale"
  | "order_updated"
  | "order_read"
  | "order_read_failed"
  | "buyer_override"
  | "buyer_override_removed"
  | "closed"
  | "reopened";
