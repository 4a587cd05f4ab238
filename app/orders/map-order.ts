// A Shopify order (REST `orders/paid` payload) and the shop's settings → the invoicing service's request
// body, or the problems a merchant must fix first. Pure: the clock and the shop's zone are inputs.
import type { InvoiceRequest } from "../invoicing-service/schemas";
import { computeTotals, type InvoiceTotals } from "../invoicing-service/totals";
import { Decimal, ZERO, dec, money } from "../invoicing-service/money";
import { cleanDocumentText } from "../invoicing-service/text";
import { exportSale, hasTaxLines } from "./abroad";
import { chooseCurrency, pick } from "./currency";
import { mapCustomer } from "./customer";
import type { BuyerOverride } from "./buyer-override";
import type { PurchasingCompany } from "./company";
import { dateIn, issueMoment, minDate, zoneOrTurkey } from "./dates";
import { draftLines, type LineDraft } from "./lines";
import type { ShopifyOrder } from "./order";
import { paymentGateway, paymentMethod } from "./payment";
import { problem, type Problem } from "../problems";
import { priceLines, type PricedPart } from "./rounding";
import type { MappingSettings } from "../settings/schema";
import { mapShipment } from "./shipment";

export type { InvoiceRequest } from "../invoicing-service/schemas";
export type { InvoiceTotals } from "../invoicing-service/totals";

export interface MappingContext {
  settings: MappingSettings;
  shop: { domain: string; timezone: string /* IANA */; currency: string; storefrontUrl?: string | null };
  /** The invoicing moment. */
  now: Date;
  saleChannelId: number;
  invoiceIntegrationId: number;
  callbackUrl?: string;
  /** The order id as the service should record it (test-mode invoices use their own); the Shopify id by default. */
  serviceOrderId?: string;
  /** The buyer as the merchant set it on the invoice page, over the order's (./buyer-override.ts). */
  buyer?: BuyerOverride | null;
  /** A B2B order's company as read from Shopify (./company.ts), over the order's own buyer fields. */
  company?: PurchasingCompany | null;
}

export type MappingResult =
  | {
      ok: true;
      body: InvoiceRequest;
      /** computeTotals(body.lines): what the service will compute. */
      totals: InvoiceTotals;
      /** What the customer paid for the invoiced items, 2 decimals, in the invoice's currency. */
      paid: string;
      /** totals.grand_total − paid. */
      difference: string;
      warnings: Problem[];
      notes: string[];
    }
  | { ok: false; problems: Problem[]; warnings: Problem[] };

type InvoiceLine = InvoiceRequest["lines"][number];

const UNPAID = new Set(["pending", "authorized", "unpaid", "partially_paid", "voided"]);

export function mapOrderToInvoice(order: ShopifyOrder, context: MappingContext): MappingResult {
  const { settings } = context;
  const zone = zoneOrTurkey(context.shop.timezone);
  const errors: Problem[] = [];
  const warnings: Problem[] = [];

  const currency = chooseCurrency(order, settings);
  if (!currency.ok)
    return {
      ok: false,
      problems: [problem("order.currency_rate_unavailable", { currency: currency.currency })],
      warnings,
    };

  // An export untaxed by the shop is 0 % with the export exemption; everything else keeps the shop's own rule.
  const exported = exportSale(order);
  const exemption = exported
    ? { code: settings.exportExemptionCode, reason: settings.exportExemptionReason }
    : { code: settings.exemptionCode, reason: settings.exemptionReason };
  const drafted = draftLines(order, settings, currency.side, { zeroRate: exported !== null });
  errors.push(...drafted.errors);
  warnings.push(...drafted.warnings);
  if (drafted.drafts.length === 0 && drafted.errors.length === 0) errors.push(problem("order.no_invoiceable_lines"));
  if (exported && !hasTaxLines(order)) {
    warnings.push(
      problem(
        "order.export_zero_rated",
        { country: exported.country, code: exemption.code ?? "", rate: settings.defaultTaxRate },
        "warning",
      ),
    );
  }
  const exemptionMissing = !exemption.code || !exemption.reason;
  for (const line of drafted.drafts) {
    if (line.rate === "0" && exemptionMissing)
      errors.push(problem("line.zero_rate_without_exemption", { line: line.name }));
  }

  const issue = issueMoment(context.now, zone);
  if (issue.clamped) warnings.push(problem("order.issue_date_clamped", { date: issue.date }, "warning"));
  const createdOn = minDate(dateIn(order.created_at, zone) ?? issue.date, issue.date);

  const customer = mapCustomer(order, settings, exported, context.buyer, context.company);
  errors.push(...customer.errors);
  warnings.push(...customer.warnings);

  const gateway = paymentGateway(order);
  const method = paymentMethod(gateway, settings);
  const isInternetSale = order.source_name !== "pos";
  if (!method.known && gateway && isInternetSale)
    warnings.push(problem("payment.unknown_method", { gateway }, "warning"));
  // Cash on delivery and bank transfers are paid when the merchant marks them paid: the invoicing moment.
  const paidLater = method.method === "cash_on_delivery" || method.method === "direct_transfer";
  const paymentDate = paidLater
    ? issue.date
    : minDate(dateIn(order.processed_at ?? order.created_at, zone) ?? issue.date, issue.date);
  // Stryker disable next-line StringLiteral: "" is no unpaid status either, so an order without a status is a cash sale whatever the fallback's text.
  const cashSale = !UNPAID.has(order.financial_status ?? "paid");

  const needsShipment = isInternetSale && drafted.drafts.some((d) => d.kind === "item" && d.requiresShipping);
  let shipment: ReturnType<typeof mapShipment>["shipment"];
  if (needsShipment) {
    const mapped = mapShipment(order, settings, zone, issue.date);
    errors.push(...mapped.errors);
    warnings.push(...mapped.warnings);
    shipment = mapped.shipment;
  }

  if (errors.length > 0 || !customer.customer) return { ok: false, problems: errors, warnings };

  const priced = priceLines(
    drafted.drafts.map((d) => ({
      quantity: d.quantity,
      rate: new Decimal(d.rate),
      target: d.target,
      discount: d.discount,
    })),
  );
  const lines = drafted.drafts.flatMap((draft, i) =>
    priced.parts[i].map((part) => invoiceLine(draft, part, settings.unit, exemption)),
  );
  const totals = computeTotals(lines);
  const paid = drafted.drafts.reduce((sum, d) => sum.add(d.target), ZERO);
  const difference = dec(totals.grand_total).sub(paid);
  if (difference.abs().gt("0.01")) {
    return {
      ok: false,
      problems: [
        problem("totals.difference_over_limit", {
          grandTotal: totals.grand_total,
          paid: money(paid),
          difference: money(difference),
        }),
      ],
      warnings,
    };
  }
  if (!difference.isZero())
    warnings.push(problem("totals.rounding_difference", { difference: money(difference) }, "warning"));
  warnings.push(...totalCheck(order, currency.side, paid, drafted.excluded, warnings));

  const webAddress = context.shop.storefrontUrl?.trim() || `https://${context.shop.domain}`;
  const body: InvoiceRequest = {
    // A 3xx exemption (export) belongs on an exemption invoice; an e-Arşiv one, since the buyer abroad has no mailbox.
    type: exported ? "ISTISNA" : settings.invoiceType,
    sale_channel_id: context.saleChannelId,
    invoice_integration_id: context.invoiceIntegrationId,
    order_id: context.serviceOrderId ?? String(order.id),
    order_d_id: order.name,
    order_created_at: createdOn,
    currency: currency.currency,
    currency_rate: currency.rate.toFixed(),
    issue_date: issue.date,
    issue_time: issue.time,
    cash_sale: cashSale,
    ...(cashSale ? { payment_date: paymentDate } : {}),
    ...(context.callbackUrl ? { callback_url: context.callbackUrl } : {}),
    ...(customer.foreignTaxId ? { description: `Alıcı vergi no / Buyer tax ID: ${customer.foreignTaxId}` } : {}),
    lines,
    is_internet_sale: isInternetSale,
    ...(isInternetSale
      ? {
          internet_sale: {
            web_address: webAddress,
            payment_method: method.method,
            ...(gateway ? { payment_platform: gateway.slice(0, 255) } : {}),
            ...(cashSale ? { payment_date: paymentDate } : {}),
          },
        }
      : {}),
    is_need_shipment: needsShipment,
    ...(shipment ? { shipment } : {}),
    customer: customer.customer,
  };
  // Names and addresses come from buyers: nothing invisible may reach the legal document.
  return {
    ok: true,
    body: cleanDocumentText(body),
    totals,
    paid: money(paid),
    difference: money(difference),
    warnings,
    notes: drafted.notes,
  };
}

function invoiceLine(
  draft: LineDraft,
  part: PricedPart,
  unit: string,
  exemption: { code?: string; reason?: string },
): InvoiceLine {
  return {
    id: draft.id,
    name: draft.name,
    ...(draft.sku ? { sku: draft.sku } : {}),
    quantity: part.quantity,
    unit,
    unit_price: part.unitPrice.toFixed(),
    tax_rate: draft.rate as InvoiceLine["tax_rate"],
    ...(part.discount.gt(0) ? { discount_type: "amount" as const, discount: part.discount.toFixed(2) } : {}),
    ...(draft.rate === "0" ? { exemption_code: exemption.code, exemption_reason: exemption.reason } : {}),
  };
}

/**
 * A warning when the invoiced items do not add up to what Shopify says the order cost (tips, duties or a
 * shape this mapping does not know). Skipped after refunds, whose own rounding Shopify does not expose.
 */
function totalCheck(
  order: ShopifyOrder,
  side: "shop_money" | "presentment_money",
  paid: Decimal,
  excluded: Decimal,
  warnings: Problem[],
): Problem[] {
  if ((order.refunds ?? []).length > 0 || warnings.some((w) => w.code === "order.vat_added_to_prices")) return [];
  const total = order.current_total_price
    ? pick(order.current_total_price, order.current_total_price_set, side)
    : pick(order.total_price, order.total_price_set, side);
  if (total === null) return [];
  const orderTotal = total.sub(excluded);
  if (orderTotal.sub(paid).abs().lte("0.01")) return [];
  return [problem("order.total_mismatch", { invoiced: money(paid), orderTotal: money(orderTotal) }, "warning")];
}
