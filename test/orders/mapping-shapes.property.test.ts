// Generated orders of the shapes real Shopify orders have and our fixtures lack: several tax lines per line,
// 0-priced and duplicate-priced lines, huge quantities, discounts on shipping, several shipping lines, an order
// paid in another currency (each amount converted on its own, as Shopify does), gift cards and tips (left off
// the invoice), long Turkish names with emoji, a missing customer or address. Every body, as sent (amounts as
// JSON numbers), passes the sandbox's strict rules, and the service's grand total reconciles within 0.01 with
// what the customer paid for the invoiced items, computed here from the generated order with Shopify's own
// arithmetic, independently of the mapping. An order that cannot be invoiced says why (only: no address).
// B2B orders (a Shopify B2B company read with the order, app/orders/company.ts) keep all of that, and are invoiced to
// the company whenever its number and tax office are there to do so.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dec } from "../../app/invoicing-service/money";
import { InvoiceRequestSchema } from "../../app/invoicing-service/schemas";
import { computeTotals } from "../../app/invoicing-service/totals";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { todayInIstanbul, validateInvoiceBody } from "../../sandbox/rules";
import { contextFor, orderArb, shopifyOrder } from "../helpers/generated-orders";
import { checkTaxId } from "../../app/orders/tax-id";
import type { PurchasingCompany } from "../../app/orders/company";
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
            ...((paidAll.isZero() || dec(payload.total_price).isZero()) && g.fx !== null
              ? ["order.currency_rate_unavailable"]
              : []),
          ];
          if (codes.some((c) => !allowed.includes(c)))
            throw new Error(`unexpected refusal ${JSON.stringify(result.problems)} of ${JSON.stringify(g)}`);
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

/** A B2B company as the worker reads it from Shopify: numbers valid (VKN, T.C.), invalid, missing or foreign. */
const companyArb = fc.record({
  name: fc.constantFrom("Acme Makine A.Ş.", "Çiçek Tekstil Ltd. Şti.", "Öz Gıda 👩‍🍳 Pazarlama", "Ali Veli"),
  taxRegistrationId: fc.constantFrom<string | null>(
    "9860008925",
    "0720039666",
    "10000000146",
    " 986 000 8925 ",
    "1234567891",
    "986000892",
    null,
  ),
  taxOffice: fc.constantFrom<string | null>("Çankaya", "Kadıköy", null),
  country: fc.constantFrom("TR", "TR", "TR", "DE", null),
});

const companyOf = (c: typeof companyArb extends fc.Arbitrary<infer T> ? T : never): PurchasingCompany => ({
  companyId: "gid://shopify/Company/1",
  locationId: "gid://shopify/CompanyLocation/2",
  name: c.name,
  locationName: "Merkez",
  taxRegistrationId: c.taxRegistrationId?.trim() || null,
  taxOffice: c.taxOffice,
  billingAddress:
    c.country === null
      ? null
      : c.country === "TR"
        ? {
            company: c.name,
            address1: "Atatürk Bulv. 100",
            city: "Çankaya",
            province: "Ankara",
            zip: "06420",
            country: "Turkey",
            country_code: "TR",
          }
        : {
            company: c.name,
            address1: "Hauptstraße 1",
            city: "Berlin",
            province: null,
            zip: "10115",
            country: "Germany",
            country_code: "DE",
          },
});

describe("mapping property: B2B orders", () => {
  it("invoices the company when Shopify holds its number and tax office, within the strict rules and 0.01; otherwise says which is missing", () => {
    let index = 10_000;
    const seen = { company: 0, abroad: 0, refused: 0 };
    fc.assert(
      fc.property(orderArb, companyArb, (g, c) => {
        const { payload, paid } = shopifyOrder(g, index++);
        const parsed = parseShopifyOrder(payload);
        if (!parsed.ok) throw new Error(`payload refused: ${JSON.stringify(parsed)}`);
        const company = companyOf(c);
        const result = mapOrderToInvoice(parsed.order, { ...contextFor(g.invoiceIn), company });
        const check = company.taxRegistrationId ? checkTaxId(company.taxRegistrationId) : null;
        const abroad = c.country === "DE";
        if (!result.ok) {
          const codes = result.problems.filter((p) => p.severity === "error").map((p) => p.code);
          const allowed = [
            "order.no_invoiceable_lines",
            "order.currency_rate_unavailable",
            ...(g.address === "none" && c.country === null ? ["customer.missing_address"] : []),
            ...(!abroad && check && !check.valid ? ["customer.invalid_company_tax_number"] : []),
            ...(!abroad && !check ? ["customer.company_without_tax_number"] : []),
            ...(!c.taxOffice ? ["customer.company_without_tax_office_b2b"] : []),
          ];
          if (codes.some((code) => !allowed.includes(code)))
            throw new Error(`unexpected refusal ${JSON.stringify(result.problems)} of ${JSON.stringify([g, c])}`);
          seen.refused++;
          return;
        }
        expect(validateInvoiceBody(onTheWire(result.body), rulesContext)).toEqual({});
        expect(dec(computeTotals(result.body.lines).grand_total).sub(paid).abs().lte("0.01")).toBe(true);
        if (abroad && !check?.valid) {
          // Abroad, a number that is not a valid Turkish one is the company's foreign tax id: the buyer-abroad number.
          expect(result.body.customer).toMatchObject({ type: "person", tax_number: "2222222222" });
          seen.abroad++;
        } else {
          // Only a valid number and a tax office make it to the service, and they are the company's (a Turkish
          // taxpayer's number is kept abroad too).
          expect(check?.valid).toBe(true);
          expect(result.body.customer).toMatchObject({
            type: "company",
            tax_number: check!.valid ? check!.value : "",
            tax_office: c.taxOffice,
          });
          seen.company++;
        }
      }),
      { numRuns: 500, seed: 20261129 },
    );
    console.log(
      `B2B property: ${seen.company} invoiced to the company, ${seen.abroad} abroad, ${seen.refused} refused with a reason`,
    );
    expect(seen.company).toBeGreaterThan(50);
    expect(seen.refused).toBeGreaterThan(50);
  }, 120_000);
});
