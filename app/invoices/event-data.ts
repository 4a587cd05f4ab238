// What an invoice's history event records besides its type, so the invoice page can say it in the merchant's
// language (app/invoices/history.ts): a note for the events that happen in more than one way, and why a try failed.
// The event's `message` stays the operator's English line for logs and support; the page never shows it.
import { InvoicingError } from "../invoicing-service/errors";

export type EventNote =
  | "uninstalled"
  | "cancelled_before_post"
  | "cancelled_nothing_at_service"
  | "refunded_before_invoice"
  | "gift_card_sale"
  | "cancelled_withdrawn"
  | "refunded_withdrawn"
  | "delete_refused"
  | "cancelled_asking_service"
  | "cancelled_deleting"
  | "bulk_action"
  | "test_invoice"
  | "issued_for_real"
  | "waybill_corrected"
  | "panel_cancel_confirmed"
  | "edited_before_post"
  | "edited_after_post";

/** Why a try failed, as the catalogue names it: the service's error kind (and HTTP status), or the app's own. */
export interface FailureReason {
  kind: string;
  status?: number;
}

export function reasonOf(error: unknown): FailureReason {
  if (error instanceof InvoicingError)
    return error.status ? { kind: error.kind, status: error.status } : { kind: error.kind };
  return { kind: "unexpected" };
}
