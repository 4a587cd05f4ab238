// What posting needs from where a row's invoice comes from (an order, ./order-source.server.ts, or a waybill,
// ./waybill-source.server.ts), and the addresses the invoice is found again by. Pure.
import type { InvoiceRecord, InvoiceRequest } from "../invoicing-service/schemas";
import type { ShopifyOrder } from "../orders/order";
import type { Problem } from "../problems";
import type { CompanyRead } from "./company.server";

export function callbackUrlFor(appUrl: string, invoiceId: string): string {
  return `${appUrl.replace(/\/+$/, "")}/callbacks/invoices/${invoiceId}`;
}

/** Test-mode invoices have their own order id at the service, so the live invoice of the order can follow later. */
export function serviceOrderId(orderId: string, testMode: boolean): string {
  return testMode ? `test-${orderId}` : orderId;
}

export type Settled = { record: InvoiceRecord | null; problem?: Problem };
export type Built =
  { ok: true; body: InvoiceRequest; paid: string | null; warnings: Problem[] } | { ok: false; problems: Problem[] };

/**
 * Where a row's invoice comes from: a Shopify order (POST /invoices, found again by its order id) or a waybill
 * (POST /waybills/{id}/invoice, found again through the waybill's invoice_id). The rules around them are the
 * same: count the attempt before the request leaves, and after an unknown outcome look before posting again.
 */
export interface PostSource {
  /** What an earlier attempt left at the service: the invoice, nothing (posting is safe), or a problem. */
  settleEarlier(): Promise<Settled>;
  /**
   * `standing`: the order as it stands, when the caller read it already (one parse of the snapshot per post);
   * `company`: a B2B order's company as Shopify holds it, and what reading it had to assume.
   */
  build(now: Date, standing?: ShopifyOrder, company?: CompanyRead): Built;
  create(body: InvoiceRequest): Promise<InvoiceRecord>;
  /** A refusal after which the invoice may exist all the same: how to look, and what to say if it is not found. */
  afterRefusal(error: unknown): { settle: () => Promise<Settled>; unresolved: Problem | null } | null;
  /** What a 404 to the create means. */
  notFound?: Problem;
}
