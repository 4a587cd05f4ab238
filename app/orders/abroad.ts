// Sales abroad (docs/spec/after-sale-facts.md, "Sales abroad"): goods sent outside Turkey on which the
// shop collected no VAT are an export. They are invoiced at 0 % with the export exemption as type ISTISNA,
// never at the domestic default rate, which only stands in for VAT a Turkish shop keeps out of Shopify.
import { dec } from "../invoicing-service/money";
import type { ShopifyOrder } from "./order";
import { clean } from "./text";

/** Where the goods go when that is outside Turkey: the shipping address, else the billing address. */
export function destinationAbroad(order: ShopifyOrder): { country: string; countryCode: string } | null {
  const address = order.shipping_address ?? order.billing_address;
  const code = clean(address?.country_code)?.toUpperCase();
  if (!code || code === "TR") return null;
  // Stryker disable next-line OptionalChaining: an address is there, else the country code was missing and the function returned above.
  return { countryCode: code, country: clean(address?.country) ?? code };
}

/** Whether the shop charged any tax on what is invoiced (items other than gift cards, and shipping). */
export function collectedTax(order: ShopifyOrder): boolean {
  // Stryker disable next-line ArrayDeclaration: a stand-in element that is not a line has no tax_lines, so it adds no tax line and no tax.
  const lines = [...order.line_items.filter((item) => !item.gift_card), ...(order.shipping_lines ?? [])];
  // Stryker disable next-line ArrayDeclaration: a stand-in tax line that is not one has no price, which counts as 0.00: no tax.
  if (lines.some((line) => (line.tax_lines ?? []).some((tax) => dec(tax.price).gt(0)))) return true;
  return dec(order.total_tax).gt(0);
}

/** Whether the order carries tax lines at all; without any, the shop keeps VAT out of Shopify and the settings decide. */
export function hasTaxLines(order: ShopifyOrder): boolean {
  // Stryker disable next-line ArrayDeclaration: a stand-in element that is not a line has no tax_lines, so it adds no tax line and no tax.
  const lines = [...order.line_items.filter((item) => !item.gift_card), ...(order.shipping_lines ?? [])];
  return lines.some((line) => (line.tax_lines ?? []).length > 0);
}

/** An export: goods go abroad and the shop collected no tax on them. */
export function exportSale(order: ShopifyOrder): { country: string; countryCode: string } | null {
  const abroad = destinationAbroad(order);
  return abroad && !collectedTax(order) ? abroad : null;
}
