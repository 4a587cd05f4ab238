// Generated orders of the shapes real Shopify orders have and our fixtures lack: several tax lines per line,
// 0-priced and duplicate-priced lines, huge quantities, discounts on shipping, several shipping lines, an order
// paid in another currency (each amount converted on its own, as Shopify does), gift cards and tips (left off
// the invoice), long Turkish names with emoji, a missing customer or address. Every body, as sent (amounts as
// JSON numbers), passes the sandbox's strict rules, and the service's grand total reconciles within 0.01 with
// what the customer paid for the invoiced items, computed here from the generated order with Shopify's own
// arithmetic, independently of the mapping. An order that cannot be invoiced says why (only: no address).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dec } from "../../app/invoicing/money";
import { InvoiceRequestSchema } from "../../app/invoicing/schemas";
import { computeTotals } from "../../app/invoicing/totals";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { todayInIstanbul, validateInvoiceBody } from "../../sandbox/rules";
import { contextFor, orderArb, shopifyOrder } from "../helpers/generated-orders";
import { onTheWire } from "../helpers/wire";

const rulesContext = { saleChannelIds: [5], invoiceIntegrationIds: [6], today: "2026-11-22" };

describe("mapping property: shapes beyond the fixtures", () => {
  it("maps every generated order to a body that passes the strict rules as sent and reconciles within 0.01, or says why not", () => {
    expect(todayInIstanbul(new Date("2026-11-22T10:00:00Z"))).toBe(rulesContext.today);
    const RUNS = 1500;
    let index = 0;
    const seen = { mapped: 0, refused: 0, exact: 0 };
    fc.assert(
      fc.property(orderArb, (g) => {
        const { payload, paid, paidAll } = shopifyOrder(g, index++);
        const parsed = parseShopifyOrder(payload);
        if (!parsed.ok) throw new Error(`payload refused: ${JSON.stringify(parsed)}`);
        const result = mapOrderToInvoice(parsed.order, contextFor(g.invoiceIn));
        const invoiceable = g.lines.some((l) => l.kind !== "gift_card") || g.shipping.length > 0;
        if (!result.ok) {
          const codes = result.problems.map((p) => p.code);
          // Only these refusals are expected of such orders: no address at all, nothing to invoice, or a free order
          // in another currency (no total, on either side, to take the rate from).
          const allowed = [
            ...(g.address === "none" ? ["customer.missing_address"] : []),
            ...(!invoiceable || paid.isZero() ? ["order.no_invoiceable_lines"] : []),
            ...((paidAll.isZero() || dec(payload.total_price).isZero()) && g.fx !== null ? ["order.currency_rate_unavailable"] : []),
          ];
          if (codes.some((c) => !allowed.includes(c))) throw new Error(`unexpected refusal ${JSON.stringify(result.problems)} of ${JSON.stringify(g)}`);
          seen.refused++;
          return;
        }
        const wire = onTheWire(result.body);
        expect(validateInvoiceBody(wire, rulesContext)).toEqual({});
        expect(InvoiceRequestSchema.safeParse(result.body).success).toBe(true);
        const grand = dec(computeTotals(result.body.lines).grand_total);
        const difference = grand.sub(paid);
        if (difference.abs().gt("0.01")) throw new Error(`grand total ${grand} for ${paid} paid: ${JSON.stringify(g)}`);
        expect(result.paid).toBe(paid.toFixed(2));
        expect(result.body.currency).toBe(g.invoiceIn === "presentment" && g.fx !== null ? "EUR" : "TRY");
        seen.mapped++;
        if (difference.isZero()) seen.exact++;
      }),
      { numRuns: RUNS, seed: 20261124 },
    );
    console.log(`shapes property: ${seen.mapped} mapped (${seen.exact} exact), ${seen.refused} refused with a reason`);
    expect(seen.mapped + seen.refused).toBe(RUNS);
    expect(seen.mapped).toBeGreaterThan(RUNS * 0.6);
  }, 120_000);
});
