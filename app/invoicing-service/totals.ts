// How the invoicing service computes an invoice's totals from the sent lines. The app uses it to choose
// unit prices that reproduce what the customer paid; the sandbox uses it to answer like the service.
// Rule (docs/decisions/0003-money-and-rounding.md): per line, each amount is rounded to kuruş, half away
// from zero, then summed:
//   gross    = round2(quantity × unit_price)
//   discount = round2(amount)               (discount_type "amount", at most gross)
//            = round2(gross × percent / 100) (discount_type "percentage")
//   net      = gross − discount
//   tax      = round2(net × tax_rate / 100)
//   extra    = Σ round2(net × extra_rate / 100)
// lines_total = Σ gross, discount_total = Σ discount, tax_total = Σ tax, extra_tax_total = Σ extra,
// grand_total = lines_total − discount_total + tax_total + extra_tax_total.
import { dec, money, round2, ZERO, Decimal, type DecimalInput } from "./money";

export interface TotalsLine {
  quantity: DecimalInput;
  unit_price: DecimalInput;
  tax_rate: DecimalInput;
  discount_type?: "amount" | "percentage" | null;
  discount?: DecimalInput | null;
  extra_taxes?: Array<{ tax_code?: string; tax_rate: DecimalInput }> | null;
}

export interface LineTotals {
  gross: Decimal;
  discount: Decimal;
  net: Decimal;
  tax: Decimal;
  extraTax: Decimal;
  total: Decimal;
}

export interface InvoiceTotals {
  lines_total: string;
  discount_total: string;
  tax_total: string;
  extra_tax_total: string;
  grand_total: string;
}

export function lineTotals(line: TotalsLine): LineTotals {
  const gross = round2(dec(line.quantity).mul(dec(line.unit_price)));
  let discount = ZERO;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: dec() reads undefined, null and "" as 0, so without the guard the discount is round2(0) = 0 too.
  if (line.discount !== undefined && line.discount !== null && line.discount !== "") {
    discount =
      line.discount_type === "percentage"
        ? round2(gross.mul(dec(line.discount)).div(100))
        : round2(Decimal.min(dec(line.discount), gross));
  }
  const net = gross.sub(discount);
  const tax = round2(net.mul(dec(line.tax_rate)).div(100));
  // Stryker disable next-line ArrayDeclaration: a stand-in extra tax has no rate, which dec() reads as 0: it adds 0.00.
  const extraTax = (line.extra_taxes ?? []).reduce(
    (sum, extra) => sum.add(round2(net.mul(dec(extra.tax_rate)).div(100))),
    ZERO,
  );
  return { gross, discount, net, tax, extraTax, total: net.add(tax).add(extraTax) };
}

export function computeTotals(lines: TotalsLine[]): InvoiceTotals {
  let linesTotal = ZERO;
  let discountTotal = ZERO;
  let taxTotal = ZERO;
  let extraTotal = ZERO;
  for (const line of lines) {
    const t = lineTotals(line);
    linesTotal = linesTotal.add(t.gross);
    discountTotal = discountTotal.add(t.discount);
    taxTotal = taxTotal.add(t.tax);
    extraTotal = extraTotal.add(t.extraTax);
  }
  return {
    lines_total: money(linesTotal),
    discount_total: money(discountTotal),
    tax_total: money(taxTotal),
    extra_tax_total: money(extraTotal),
    grand_total: money(linesTotal.sub(discountTotal).add(taxTotal).add(extraTotal)),
  };
}
