// Posting a Shopify order (POST /invoices): the order as it stands, mapped to an invoice, found again at the
// service by its order id after an unknown outcome or a duplicate refusal.
import type { Connection } from "../settings/settings.server";
import { settleUnknownCreate, type PostedWith } from "../invoicing-service/client";
import { DuplicateOrderError } from "../invoicing-service/errors";
import { mapOrderToInvoice } from "../orders/map-order";
import { parseShopifyOrder } from "../orders/order";
import { buyerOverrideFrom } from "../orders/buyer-override";
import { orderAsItStands } from "../orders/refunds";
import { storedRefunds, type RefundRow } from "../after-sale/before-posting.server";
import { problem } from "../problems";
import { callbackUrlFor, serviceOrderId, type PostSource } from "./post-source";
import type { Client, ProcessDeps, Row } from "./process-types";

/**
 * What the row's earlier attempt was posted with. Rows posted before these columns existed fall back to the
 * current channel and any integration.
 */
function earlierPost(row: Row, connection: Connection, appUrl: string): PostedWith {
  return {
    saleChannelId: row.saleChannelId ?? connection.saleChannelId,
    invoiceIntegrationId: row.invoiceIntegrationId,
    orderId: serviceOrderId(row.orderId, row.postedInTestMode),
    callbackUrl: callbackUrlFor(appUrl, row.id),
  };
}

export function orderSource(
  row: Row,
  client: Client,
  connection: Connection,
  deps: ProcessDeps,
  refunds: RefundRow[],
): PostSource {
  const target: PostedWith = {
    saleChannelId: connection.saleChannelId,
    invoiceIntegrationId: connection.invoiceIntegrationId,
    orderId: serviceOrderId(row.orderId, connection.testMode),
    callbackUrl: callbackUrlFor(deps.appUrl, row.id),
  };
  return {
    settleEarlier: async () => ({
      record: await settleUnknownCreate(client, earlierPost(row, connection, deps.appUrl)),
    }),
    build(now, standing, company) {
      let order = standing;
      if (!order) {
        const parsed = parseShopifyOrder(row.orderSnapshot);
        if (!parsed.ok) return { ok: false, problems: parsed.problems };
        // The order as it stands: units and shipping refunded since the snapshot are not invoiced.
        order = orderAsItStands(parsed.order, storedRefunds(refunds));
      }
      const mapped = mapOrderToInvoice(order, {
        settings: connection.mapping,
        shop: {
          domain: row.shopDomain,
          timezone: row.shop.timezone,
          currency: row.shop.currency,
          storefrontUrl: row.shop.storefrontUrl,
        },
        now,
        saleChannelId: target.saleChannelId,
        invoiceIntegrationId: target.invoiceIntegrationId!,
        serviceOrderId: target.orderId,
        callbackUrl: callbackUrlFor(deps.appUrl, row.id),
        buyer: buyerOverrideFrom(row.buyerOverride),
        company: company?.company,
      });
      const warnings = [...(company?.warnings ?? []), ...mapped.warnings];
      if (!mapped.ok) return { ok: false, problems: [...mapped.problems, ...warnings] };
      return { ok: true, body: mapped.body, paid: mapped.paid, warnings };
    },
    create: (body) => client.createInvoice(body),
    afterRefusal: (error) =>
      error instanceof DuplicateOrderError
        ? {
            settle: async () => ({ record: await settleUnknownCreate(client, target) }),
            unresolved: problem("service.duplicate_unresolved"),
          }
        : null,
  };
}
