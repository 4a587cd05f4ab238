// For every problem the app names, what fixes it (issue 36, point 4): where the merchant changes what (the `how`
// text, `fix.how.<how>` in the catalogues) and the actions the invoice page offers for it. Typed by the problem
// catalogue: a new problem code does not compile until it is given its fix here. docs/admin.md has the table. Pure.
import type { ProblemCode } from "../problems";

/**
 * The invoice page's actions: the buyer form, the order in Shopify's admin, the app's Settings, a retry with the
 * order as it stands, closing it as issued in the invoicing panel or as needing no invoice.
 */
export type FixAction = "buyer" | "order" | "settings" | "retry" | "panel" | "not_needed";

export type FixHow =
  /** The buyer's number, name or tax office: the form, pre-filled with what the order has. */
  | "buyer"
  /** Something only the order in Shopify can change (its address, its lines): change it there, then retry. */
  | "order"
  /** The B2B company's data in Shopify (Customers > Companies): change it there, then retry. */
  | "company"
  /** The app's Settings (connection, accounts, exemptions, default address), then retry. */
  | "settings"
  /** A product's tax in Shopify, for the orders to come; this order keeps its lines: issue it in the panel. */
  | "tax_rate"
  /** The amounts cannot make a valid invoice from this order: issue it in the panel with the right ones. */
  | "panel"
  /** Nothing to invoice: close it as needing no invoice. */
  | "not_needed"
  /** A passing fault (the service, Shopify, a read): the app retries by itself; Retry does it now. */
  | "retry"
  /** Shopify refused the app's access: opening the app reconnects it; the work goes on by itself. */
  | "reconnect"
  /** Look at the invoice in the panel first: it may exist there. */
  | "check_panel"
  /** A warning: the invoice went out; nothing to fix. */
  | "none";

export interface Fix {
  how: FixHow;
  actions: FixAction[];
}

const buyer: Fix = { how: "buyer", actions: ["buyer", "retry"] };
const order: Fix = { how: "order", actions: ["order", "retry", "panel"] };
const company: Fix = { how: "company", actions: ["order", "retry", "buyer"] };
const settings: Fix = { how: "settings", actions: ["settings", "retry"] };
const panel: Fix = { how: "panel", actions: ["order", "panel"] };
const retry: Fix = { how: "retry", actions: ["retry"] };
const checkPanel: Fix = { how: "check_panel", actions: ["retry", "panel"] };
const none: Fix = { how: "none", actions: [] };

export const FIXES: Record<ProblemCode, Fix> = {
  "order.invalid_payload": order,
  "order.no_invoiceable_lines": { how: "not_needed", actions: ["order", "not_needed"] },
  "order.currency_rate_unavailable": { how: "settings", actions: ["settings", "retry", "panel"] },
  "order.total_mismatch": order,
  "order.vat_added_to_prices": none,
  "order.refund_adjustments_ignored": none,
  "order.issue_date_clamped": none,
  "order.export_zero_rated": none,
  "order.edited_unread": retry,
  "line.unsupported_tax_rate": { how: "tax_rate", actions: ["order", "panel"] },
  "line.zero_rate_without_exemption": settings,
  "line.negative_amount": panel,
  "customer.invalid_tax_number": buyer,
  "customer.invalid_tax_number_in_company": buyer,
  "customer.company_without_tax_office": buyer,
  "customer.invalid_company_tax_number": company,
  "customer.company_without_tax_number": company,
  "customer.company_without_tax_office_b2b": company,
  "customer.company_without_title": buyer,
  "customer.company_unread": retry,
  "customer.b2b_without_scope": none,
  "customer.from_company": none,
  "customer.attribute_too_long": buyer,
  "customer.attribute_not_text": buyer,
  "customer.missing_address": order,
  "customer.address_from_shipping": none,
  "customer.address_from_defaults": none,
  "customer.missing_name": none,
  "customer.foreign_buyer": none,
  "customer.foreign_tax_id": none,
  "customer.buyer_set_by_merchant": none,
  "payment.unknown_method": none,
  "shipment.no_carrier": none,
  "shipment.unknown_carrier": none,
  "totals.rounding_difference": none,
  "totals.difference_over_limit": panel,
  "settings.invalid": settings,
  "settings.missing_api_key": settings,
  "settings.missing_api_key_unreadable": settings,
  "settings.missing_sale_channel": settings,
  "settings.missing_invoice_integration": settings,
  "settings.missing_dummy_integration": settings,
  "settings.api_key_rejected": settings,
  "settings.base_url_not_allowed": settings,
  "settings.live_account_is_test": settings,
  "settings.test_account_is_live": settings,
  "settings.not_found_at_service": settings,
  "service.rejected": { how: "order", actions: ["order", "settings", "retry", "panel"] },
  "service.duplicate_unresolved": checkPanel,
  "service.unavailable": retry,
  "service.formalisation_failed": checkPanel,
  "service.serial_invalid": checkPanel,
  "invoice.unexpected_error": retry,
  "invoice.status_unknown": retry,
  "invoice.missing_at_service": checkPanel,
  "invoice.cancelled_after_invoicing": none,
  "invoice.withdraw_refused": checkPanel,
  "invoice.total_mismatch": none,
  "shopify.reconnect": { how: "reconnect", actions: ["retry"] },
  // A waybill's invoice is fixed in its own form (app/waybills), not on the invoice page.
  "waybill.not_found": none,
  "waybill.already_invoiced": none,
  "waybill.form_invalid": none,
};

/** The fix of a stored problem; a code no catalogue knows (an old one) can only be retried or closed. */
export function fixOf(code: string): Fix {
  return (FIXES as Record<string, Fix>)[code] ?? { how: "retry", actions: ["retry", "panel"] };
}

/** Whether any of these problems is fixed with the buyer form (the page offers the form first then). */
export function needsBuyer(codes: string[]): boolean {
  return codes.some((code) => fixOf(code).actions.includes("buyer"));
}

/**
 * Whether retrying with the order as it stands can fix these problems: not when every one of them is fixed only
 * elsewhere (a rate no Turkish invoice takes stays on this order; the panel issues it), so the page does not offer a
 * Retry that can only give the same error again. No problems recorded: a retry is the way on.
 */
export function retryCanFix(codes: string[]): boolean {
  return codes.length === 0 || codes.some((code) => fixOf(code).actions.includes("retry"));
}
