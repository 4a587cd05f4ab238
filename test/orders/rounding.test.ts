// The rounding search on figures worked out by hand with the service's rule (per line: total = net +
// round2(net × rate / 100), docs/decisions/0004-order-to-invoice-rounding.md). At 20 %, net 83.32 → 99.98 and
// net 83.33 → 100.00, so 99.99 is unreachable on one line; 0.02 → 0.02 and 0.03 → 0.04, so 0.03 is unreachable.
import { describe, expect, it } from "vitest";
import { Decimal } from "../../app/invoicing-service/money";
import { computeTotals } from "../../app/invoicing-service/totals";
import {
  exactNet,
  lineTotalFromNet,
  nearestNet,
  priceExactly,
  priceLines,
  priceNearest,
  unitPriceFor,
  type PricedPart,
} from "../../app/orders/rounding";

const d = (v: string | number) => new Decimal(v);
const RATE = d(20);
const shown = (parts: PricedPart[]) =>
  parts.map((p) => ({
    quantity: p.quantity,
    unitPrice: p.unitPrice.toFixed(),
    discount: p.discount.toFixed(2),
    net: p.net.toFixed(2),
    total: p.total.toFixed(2),
  }));
/** What the service computes for these parts (app/invoicing-service/totals.ts, an independent statement of its rule). */
const serviceTotal = (parts: PricedPart[], rate = 20) =>
  computeTotals(
    parts.map((p) => ({
      quantity: p.quantity,
      unit_price: p.unitPrice,
      tax_rate: rate,
      discount_type: "amount" as const,
      discount: p.discount,
    })),
  ).grand_total;

describe("one line's total", () => {
  it("the service's total of a net: the tax rounded on its own", () => {
    expect(lineTotalFromNet(d("83.33"), RATE).toFixed(2)).toBe("100.00");
    expect(lineTotalFromNet(d("83.32"), RATE).toFixed(2)).toBe("99.98");
    expect(lineTotalFromNet(d("0.03"), RATE).toFixed(2)).toBe("0.04");
    expect(lineTotalFromNet(d("50.00"), d(0)).toFixed(2)).toBe("50.00");
  });

  it("the exact net of a reachable total; none for an unreachable one", () => {
    expect(exactNet(d("100.00"), RATE)?.toFixed(2)).toBe("83.33");
    expect(exactNet(d("0.02"), RATE)?.toFixed(2)).toBe("0.02");
    expect(exactNet(d("0.00"), RATE)?.toFixed(2)).toBe("0.00");
    expect(exactNet(d("99.99"), RATE)).toBeNull();
    expect(exactNet(d("0.03"), RATE)).toBeNull();
    // 1 %: 1.51 would need a net of 1.495; net 1.49 → 1.50, net 1.50 → 1.52.
    expect(exactNet(d("1.51"), d(1))).toBeNull();
  });

  it("the nearest net; between two equally near totals, the lower one", () => {
    expect(nearestNet(d("99.99"), RATE).toFixed(2)).toBe("83.32");
    expect(nearestNet(d("0.03"), RATE).toFixed(2)).toBe("0.02");
    expect(nearestNet(d("100.00"), RATE).toFixed(2)).toBe("83.33");
    expect(nearestNet(d("0.00"), RATE).toFixed(2)).toBe("0.00");
  });
});

describe("unit prices", () => {
  it("the fewest decimals with round2(quantity × unit) = gross", () => {
    expect(unitPriceFor(d("45.00"), d(1)).toFixed()).toBe("45");
    expect(unitPriceFor(d("100.00"), d(3)).toFixed()).toBe("33.333"); // 3 × 33.33 = 99.99, 3 × 33.333 = 99.999 → 100.00
    expect(unitPriceFor(d("0.01"), d(3)).toFixed()).toBe("0.003"); // 0.009 → 0.01
    expect(unitPriceFor(d("0.00"), d(7)).toFixed()).toBe("0");
  });

  it("up to 12 decimals, and an error beyond rather than a price that does not add up", () => {
    // 9,999,999,999 × 0.000000000001 = 0.009999999999 → 0.01; 11 decimals give 0 or 0.1.
    expect(unitPriceFor(d("0.01"), d("9999999999")).toFixed()).toBe("0.000000000001");
    expect(() => unitPriceFor(d("0.01"), d("1000000000000"))).toThrow("no unit price for 0.01 / 1000000000000");
  });
});

describe("exact pricing of one line", () => {
  it("a reachable target is one line", () => {
    const parts = priceExactly({ quantity: 3, rate: RATE, target: d("100.00"), discount: d(0) }, d("100.00"));
    expect(shown(parts!)).toEqual([
      { quantity: 3, unitPrice: "27.777", discount: "0.00", net: "83.33", total: "100.00" },
    ]);
  });

  it("an unreachable target splits one unit off: 2 + 1 units for 99.99, the discount shared by units", () => {
    // Net of 2 units 55.54 → 66.65; 99.99 − 66.65 = 33.34 = net 27.78 on the last unit. 12.00 discount: 8.00 + 4.00.
    const parts = priceExactly({ quantity: 3, rate: RATE, target: d("99.99"), discount: d("12.00") }, d("99.99"))!;
    expect(shown(parts)).toEqual([
      { quantity: 2, unitPrice: "31.77", discount: "8.00", net: "55.54", total: "66.65" },
      { quantity: 1, unitPrice: "31.78", discount: "4.00", net: "27.78", total: "33.34" },
    ]);
    expect(serviceTotal(parts)).toBe("99.99");
  });

  it("no exact pricing for one unit at an unreachable total, nor for a negative target", () => {
    expect(priceExactly({ quantity: 1, rate: RATE, target: d("99.99"), discount: d(0) }, d("99.99"))).toBeNull();
    expect(priceExactly({ quantity: 3, rate: RATE, target: d("1.00"), discount: d(0) }, d("-0.01"))).toBeNull();
  });

  it("the nearest single line, never below zero", () => {
    expect(shown(priceNearest({ quantity: 1, rate: RATE, target: d("99.99"), discount: d(0) }, d("99.99")))).toEqual([
      { quantity: 1, unitPrice: "83.32", discount: "0.00", net: "83.32", total: "99.98" },
    ]);
    expect(
      shown(priceNearest({ quantity: 2, rate: RATE, target: d("0.00"), discount: d(0) }, d("-0.01")))[0].total,
    ).toBe("0.00");
  });
});

describe("pricing an invoice", () => {
  it("one line of 3 units at 99.99 is split so the invoice is exact", () => {
    const { parts, difference } = priceLines([{ quantity: 3, rate: RATE, target: d("99.99"), discount: d(0) }]);
    expect(difference.toFixed(2)).toBe("0.00");
    expect(parts[0].map((p) => p.quantity)).toEqual([2, 1]);
    expect(serviceTotal(parts[0])).toBe("99.99");
  });

  it("a cent no line can reach is absorbed at the end by splitting a unit off the last line that can take it", () => {
    // Line 1: 99.99 unreachable → 99.98, 0.01 carried. Line 2 then aims at 50.01, unreachable too (41.67 → 50.00,
    // 41.68 → 50.02; tie → 50.00). At the end line 2 takes 50.01 as 1 + 1 units: 20.84 → 25.01 and 20.83 → 25.00.
    const { parts, difference } = priceLines([
      { quantity: 1, rate: RATE, target: d("99.99"), discount: d(0) },
      { quantity: 2, rate: RATE, target: d("50.00"), discount: d(0) },
    ]);
    expect(difference.toFixed(2)).toBe("0.00");
    expect(shown(parts[0])).toEqual([
      { quantity: 1, unitPrice: "83.32", discount: "0.00", net: "83.32", total: "99.98" },
    ]);
    expect(shown(parts[1])).toEqual([
      { quantity: 1, unitPrice: "20.84", discount: "0.00", net: "20.84", total: "25.01" },
      { quantity: 1, unitPrice: "20.83", discount: "0.00", net: "20.83", total: "25.00" },
    ]);
    expect(serviceTotal(parts.flat())).toBe("149.99");
  });

  it("single units that cannot reach the cent leave it as the difference (invoiced − paid)", () => {
    const { parts, difference } = priceLines([
      { quantity: 1, rate: RATE, target: d("99.99"), discount: d(0) },
      { quantity: 1, rate: RATE, target: d("50.00"), discount: d(0) },
    ]);
    expect(difference.toFixed(2)).toBe("-0.01");
    expect(serviceTotal(parts.flat())).toBe("149.98");
  });
});
