import { describe, expect, it } from "vitest";
import { computeTotals, lineTotals } from "../../app/invoicing/totals";

describe("service totals", () => {
  it("rounds each line's amounts to kuruş, half away from zero, before summing", () => {
    // 3 × 27.775 = 83.325 → 83.33; tax 20 % of 83.33 = 16.666 → 16.67
    expect(computeTotals([{ quantity: 3, unit_price: "27.775", tax_rate: "20" }])).toEqual({
      lines_total: "83.33",
      discount_total: "0.00",
      tax_total: "16.67",
      extra_tax_total: "0.00",
      grand_total: "100.00",
    });
  });

  it("applies amount and percentage discounts before tax, never more than the line", () => {
    expect(lineTotals({ quantity: 2, unit_price: "50", tax_rate: "10", discount_type: "amount", discount: "10" }).total.toFixed(2)).toBe("99.00");
    expect(lineTotals({ quantity: 1, unit_price: "200", tax_rate: "20", discount_type: "percentage", discount: "12.5" }).total.toFixed(2)).toBe("210.00");
    expect(lineTotals({ quantity: 1, unit_price: "5", tax_rate: "20", discount_type: "amount", discount: "9" }).total.toFixed(2)).toBe("0.00");
  });

  it("sums several lines with different rates and extra taxes exactly", () => {
    const totals = computeTotals([
      { quantity: 3, unit_price: "33.33", tax_rate: "20" },
      { quantity: "0.5", unit_price: "19.99", tax_rate: "1" },
      { quantity: 1, unit_price: "100", tax_rate: "0", extra_taxes: [{ tax_code: "4080", tax_rate: "7.5" }] },
    ]);
    // 99.99 + 10.00 (9.995 → 10.00) + 100 = 209.99; tax 20.00 + 0.10; extra 7.50
    expect(totals).toEqual({ lines_total: "209.99", discount_total: "0.00", tax_total: "20.10", extra_tax_total: "7.50", grand_total: "237.59" });
  });
});
