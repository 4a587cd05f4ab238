// The mapping's last guard (app/orders/map-order.ts): an invoice whose totals are more than 0.01 from what the
// customer paid is never posted; it is refused with both amounts for the merchant
// ("problem.totals.difference_over_limit"). The pricing (app/orders/rounding.ts) keeps every invoice within a
// cent (docs/decisions/0004-order-to-invoice-rounding.md), so only a fault of the pricing could reach the guard:
// here one is simulated, a price a few cents off, in a priceLines that otherwise is the real one.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Decimal } from "../../app/invoicing-service/money";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import * as rounding from "../../app/orders/rounding";
import { fixtureContext, fixtureOrder } from "./fixture-loader";

vi.mock("../../app/orders/rounding", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../app/orders/rounding")>();
  return { ...real, priceLines: vi.fn(real.priceLines) };
});
afterEach(() => vi.mocked(rounding.priceLines).mockReset());

/** The real pricing, with the first line's unit price `cents` cents higher (1 unit: its total rises by cents × 1.2). */
function pricingOff(cents: number) {
  const real = vi.mocked(rounding.priceLines).getMockImplementation()!;
  vi.mocked(rounding.priceLines).mockImplementation((requests) => {
    const priced = real(requests);
    const [first, ...rest] = priced.parts[0];
    return {
      ...priced,
      parts: [
        [{ ...first, unitPrice: first.unitPrice.add(new Decimal(cents).div(100)) }, ...rest],
        ...priced.parts.slice(1),
      ],
    };
  });
}

const map = () => {
  const parsed = parseShopifyOrder(fixtureOrder("12-anonymous-consumer"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return mapOrderToInvoice(parsed.order, fixtureContext("12-anonymous-consumer"));
};

describe("an invoice more than 0.01 off what was paid", () => {
  it("is the real pricing here: fixture 12 maps exactly", () => {
    const r = map();
    expect(r.ok && [r.totals.grand_total, r.paid, r.difference]).toEqual(["338.90", "338.90", "0.00"]);
  });

  it("is refused, with the invoice's total, the amount paid and the difference, and nothing else", () => {
    const real = map();
    if (!real.ok) throw new Error("fixture 12 maps");
    pricingOff(5); // the first line: 1 unit, 20 %: 0.05 more net is 0.06 more in total
    const r = map();
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      {
        code: "totals.difference_over_limit",
        severity: "error",
        params: { grandTotal: "338.96", paid: "338.90", difference: "0.06" },
      },
    ]);
    expect(r.warnings).toEqual(real.warnings);
  });
});
