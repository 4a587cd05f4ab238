import { describe, expect, it } from "vitest";
import { computeTotals, lineTotals, type TotalsLine } from "../../app/invoicing-service/totals";

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
    expect(
      lineTotals({
        quantity: 2,
        unit_price: "50",
        tax_rate: "10",
        discount_type: "amount",
        discount: "10",
      }).total.toFixed(2),
    ).toBe("99.00");
    expect(
      lineTotals({
        quantity: 1,
        unit_price: "200",
        tax_rate: "20",
        discount_type: "percentage",
        discount: "12.5",
      }).total.toFixed(2),
    ).toBe("210.00");
    expect(
      lineTotals({
        quantity: 1,
        unit_price: "5",
        tax_rate: "20",
        discount_type: "amount",
        discount: "9",
      }).total.toFixed(2),
    ).toBe("0.00");
  });

  it("sums several lines with different rates and extra taxes exactly", () => {
    const totals = computeTotals([
      { quantity: 3, unit_price: "33.33", tax_rate: "20" },
      { quantity: "0.5", unit_price: "19.99", tax_rate: "1" },
      { quantity: 1, unit_price: "100", tax_rate: "0", extra_taxes: [{ tax_code: "4080", tax_rate: "7.5" }] },
    ]);
    // 99.99 + 10.00 (9.995 → 10.00) + 100 = 209.99; tax 20.00 + 0.10; extra 7.50
    expect(totals).toEqual({
      lines_total: "209.99",
      discount_total: "0.00",
      tax_total: "20.10",
      extra_tax_total: "7.50",
      grand_total: "237.59",
    });
  });
});

// Every field of a line on figures worked out by hand (mutation testing, issue 28, found these rules untested).
const line = (l: TotalsLine) => Object.fromEntries(Object.entries(lineTotals(l)).map(([k, v]) => [k, v.toFixed(2)]));

describe("service totals: one line", () => {
  it("no discount when none is given, whatever the type says", () => {
    const plain = { gross: "100.00", discount: "0.00", net: "100.00", tax: "20.00", extraTax: "0.00", total: "120.00" };
    expect(line({ quantity: 2, unit_price: "50", tax_rate: 20 })).toEqual(plain);
    expect(line({ quantity: 2, unit_price: "50", tax_rate: 20, discount_type: "amount", discount: null })).toEqual(
      plain,
    );
    expect(line({ quantity: 2, unit_price: "50", tax_rate: 20, discount_type: "percentage", discount: "" })).toEqual(
      plain,
    );
  });

  it("an amount discount is rounded to kuruş and never more than the line; without a type it is an amount", () => {
    // 10.005 → 10.01; net 89.99, tax 17.998 → 18.00.
    expect(line({ quantity: 1, unit_price: "100", tax_rate: 20, discount_type: "amount", discount: "10.005" })).toEqual(
      {
        gross: "100.00",
        discount: "10.01",
        net: "89.99",
        tax: "18.00",
        extraTax: "0.00",
        total: "107.99",
      },
    );
    expect(line({ quantity: 1, unit_price: "5", tax_rate: 20, discount_type: "amount", discount: "9" })).toMatchObject({
      discount: "5.00",
      net: "0.00",
      total: "0.00",
    });
    expect(line({ quantity: 1, unit_price: "100", tax_rate: 20, discount_type: null, discount: "12.5" })).toMatchObject(
      { discount: "12.50", net: "87.50" },
    );
  });

  it("a percentage discount is a share of the rounded gross, rounded on its own", () => {
    // 99.99 × 15 % = 14.9985 → 15.00; net 84.99; tax 16.998 → 17.00.
    expect(line({ quantity: 1, unit_price: "99.99", tax_rate: 20, discount_type: "percentage", discount: 15 })).toEqual(
      {
        gross: "99.99",
        discount: "15.00",
        net: "84.99",
        tax: "17.00",
        extraTax: "0.00",
        total: "101.99",
      },
    );
  });

  it("the gross is rounded before anything else, half away from zero", () => {
    // 3 × 0.335 = 1.005 → 1.01; tax 1 % of 1.01 = 0.0101 → 0.01.
    expect(line({ quantity: 3, unit_price: "0.335", tax_rate: 1 })).toEqual({
      gross: "1.01",
      discount: "0.00",
      net: "1.01",
      tax: "0.01",
      extraTax: "0.00",
      total: "1.02",
    });
  });

  it("each extra tax is rounded on its own before they are added", () => {
    // net 1.01: 0.5 % → 0.00505 → 0.01 twice = 0.02 (one 1 % tax would give 0.0101 → 0.01).
    expect(
      line({
        quantity: 1,
        unit_price: "1.01",
        tax_rate: 0,
        extra_taxes: [{ tax_rate: "0.5" }, { tax_code: "4171", tax_rate: "0.5" }],
      }),
    ).toEqual({
      gross: "1.01",
      discount: "0.00",
      net: "1.01",
      tax: "0.00",
      extraTax: "0.02",
      total: "1.03",
    });
    expect(line({ quantity: 1, unit_price: "10", tax_rate: 0, extra_taxes: null })).toMatchObject({
      extraTax: "0.00",
      total: "10.00",
    });
  });
});

describe("service totals: an invoice", () => {
  it("sums each field over the lines; grand total = lines − discounts + tax + extra tax", () => {
    const totals = computeTotals([
      { quantity: 2, unit_price: "50", tax_rate: 20, discount_type: "amount", discount: "10" }, // 100, 10, tax 18.00
      { quantity: 1, unit_price: "99.99", tax_rate: 10, discount_type: "percentage", discount: 15 }, // 99.99, 15.00, tax 8.499 → 8.50
      { quantity: 1, unit_price: "40", tax_rate: 0, extra_taxes: [{ tax_rate: "7.5" }] }, // 40, extra 3.00
    ]);
    expect(totals).toEqual({
      lines_total: "239.99",
      discount_total: "25.00",
      tax_total: "26.50",
      extra_tax_total: "3.00",
      grand_total: "244.49",
    });
  });

  it("an invoice without lines is all zeros", () => {
    expect(computeTotals([])).toEqual({
      lines_total: "0.00",
      discount_total: "0.00",
      tax_total: "0.00",
      extra_tax_total: "0.00",
      grand_total: "0.00",
    });
  });
});
