// The invoice's states and every change between them live in app/invoice-state/transitions.ts; here: the claim
// priorities and the history's event types.
/**
 * A row's claim priority (Invoice.priority): live work (webhooks, reconciliation, the bulk action) first; a past-orders
 * run's rows fill the slots left. The claim reads each shop's due rows per priority, so a row can have only these.
 */
export const PRIORITY = { live: 0, pastOrders: 1 } as const;
export const PRIORITIES = Object.values(PRIORITY);

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
