// Posting a waybill (POST /waybills/{id}/invoice): its snapshot made an invoice, found again through the
// waybill's invoice_id, which must carry this row's callback address to be this row's invoice.
import type { Connection } from "../settings/settings.server";
import { settleWaybillCreate } from "../invoicing-service/client";
import { AuthenticationError, BlockedError, InvoicingError, NotFoundError } from "../invoicing-service/errors";
import { waybillSnapshotOf } from "../waybills/snapshot";
import { waybillInvoiceBody } from "../waybills/waybill-invoice";
import { problem } from "../problems";
import { callbackUrlFor, type PostSource, type Settled } from "./post-source";
import type { Client, ProcessDeps, Row } from "./process-types";

/**
 * A waybill has no order id: the lookup is the waybill itself, whose invoice_id the service sets when it
 * invoices it. That invoice is this row's only if it carries this row's callback address; any other means
 * the waybill was invoiced elsewhere (the panel, another app), which the merchant must know
 * (docs/decisions/0013-invoices-from-waybills.md).
 */
export function waybillSource(
  row: Row,
  waybillId: number,
  client: Client,
  connection: Connection,
  deps: ProcessDeps,
): PostSource {
  const callbackUrl = callbackUrlFor(deps.appUrl, row.id);
  const settle = (invoiceIntegrationId: number | null) => async (): Promise<Settled> => {
    const found = await settleWaybillCreate(client, { waybillId, callbackUrl, invoiceIntegrationId });
    if (found.record) return { record: found.record };
    return found.takenBy
      ? { record: null, problem: problem("waybill.already_invoiced", { waybillId, invoiceId: found.takenBy }) }
      : { record: null };
  };
  return {
    // An earlier attempt: what it was posted to; a refusal of this one: what it is posted to now.
    settleEarlier: settle(row.invoiceIntegrationId),
    build(now) {
      const snapshot = waybillSnapshotOf(row.orderSnapshot);
      if (!snapshot) return { ok: false, problems: [problem("waybill.form_invalid", { details: "snapshot" })] };
      const built = waybillInvoiceBody(snapshot.form, {
        waybill: snapshot.waybill,
        settings: connection.mapping,
        saleChannelId: connection.saleChannelId,
        invoiceIntegrationId: connection.invoiceIntegrationId,
        now,
        timezone: row.shop.timezone,
        callbackUrl,
      });
      if (!built.ok) {
        const details = Object.entries(built.errors)
          .map(([field, e]) => `${field}: ${e.code}`)
          .join("; ");
        return { ok: false, problems: [problem("waybill.form_invalid", { details })] };
      }
      return { ok: true, body: built.body, paid: built.totals.grand_total, warnings: [] };
    },
    create: (body) => client.createInvoiceFromWaybill(waybillId, body),
    // Refusals of a waybill invoice are not documented beyond "already invoiced" and "not completed":
    // after any of them the waybill says whether an invoice exists.
    afterRefusal: (error) =>
      error instanceof InvoicingError &&
      error.retry === "never" &&
      !(error instanceof AuthenticationError) &&
      !(error instanceof NotFoundError) &&
      !(error instanceof BlockedError)
        ? { settle: settle(connection.invoiceIntegrationId), unresolved: null }
        : null,
    notFound: problem("waybill.not_found", { waybillId }),
  };
}
