// The order payload's schema and the snapshot the app stores (app/orders/order.ts), field by field: what Shopify's
// REST order may hold (decimal strings, numeric ids), what is refused and how the refusal names the field (the
// merchant reads `problem.order.invalid_payload`: "({path}: {message})"), and what the stored snapshot keeps.
// Mutation testing (issue 28) found these rules reached only through whole fixtures.
import { describe, expect, it } from "vitest";
import { orderSnapshot, parseShopifyOrder } from "../../app/orders/order";

type Json = Record<string, unknown>;
const base = (over: Json = {}): Json => ({
  id: 5810000001,
  name: "#1001",
  created_at: "2026-11-20T14:05:11+03:00",
  currency: "TRY",
  total_price: "120.00",
  line_items: [{ id: 11, title: "Kupa", quantity: 1, price: "120.00" }],
  ...over,
});

const parsed = (json: unknown) => {
  const result = parseShopifyOrder(json);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.order;
};
const problems = (json: unknown) => {
  const result = parseShopifyOrder(json);
  return result.ok ? [] : result.problems.map((p) => p.params as { path: string; message: string });
};

describe("amounts", () => {
  it("a decimal string is read as it is; a whole number, a negative one and one padded with spaces are decimals too", () => {
    expect(parsed(base()).total_price).toBe("120.00");
    expect(parsed(base({ total_price: "120" })).total_price).toBe("120");
    expect(
      parsed(base({ refunds: [{ order_adjustments: [{ kind: "refund_discrepancy", amount: "-1.50" }] }] })).refunds![0]
        .order_adjustments![0].amount,
    ).toBe("-1.50");
    // Whitespace is not part of a number (JSON and decimal.js ignore it alike); the amount is kept without it.
    expect(parsed(base({ total_price: " 120.00 " })).total_price).toBe("120.00");
  });

  it("a stray JSON number is taken as its shortest decimal text, never as a float", () => {
    const order = parsed(base({ total_price: 12.3, line_items: [{ id: 11, title: "Kupa", quantity: 1, price: 0.1 }] }));
    expect(order.total_price).toBe("12.3");
    expect(order.line_items[0].price).toBe("0.1");
  });

  it("refuses what is not a decimal in Shopify's notation, naming the field: Turkish notation, a currency, a word", () => {
    for (const text of ["1.234,50", "12,30", "12.30 TL", "TL 12.30", "₺12.30", "12.", ".5", "on iki"]) {
      expect(problems(base({ total_price: text })), text).toEqual([
        { path: "total_price", message: "decimal amount expected" },
      ]);
    }
  });

  it("the amount of a refund's order adjustment is an amount like any other", () => {
    const refund = (amount: unknown) =>
      base({ refunds: [{ id: 77, order_adjustments: [{ kind: "shipping_refund", amount }] }] });
    expect(problems(refund("-49,90"))).toEqual([
      { path: "refunds.0.order_adjustments.0.amount", message: "decimal amount expected" },
    ]);
    expect(parsed(refund(-49.9)).refunds![0].order_adjustments![0]).toEqual({
      kind: "shipping_refund",
      amount: "-49.9",
    });
  });
});

describe("tax rates", () => {
  const withRate = (rate: unknown) =>
    base({
      line_items: [
        { id: 11, title: "Kupa", quantity: 1, price: "120.00", tax_lines: [{ title: "KDV", price: "20.00", rate }] },
      ],
    });
  const rateOf = (json: unknown) => parsed(json).line_items[0].tax_lines![0].rate;

  it("a fraction, as Shopify's number (0.2 for 20 %) or as decimal text, is kept as text", () => {
    expect(rateOf(withRate(0.2))).toBe("0.2");
    expect(rateOf(withRate("0.20"))).toBe("0.20");
    expect(rateOf(withRate("0"))).toBe("0");
    expect(rateOf(withRate(0))).toBe("0");
  });

  it("refuses a rate written as a percentage in Turkish notation (%20) or with a decimal comma", () => {
    for (const rate of ["%20", "0,20", "0.20%", "KDV 0.2", "-0.2"]) {
      expect(
        problems(withRate(rate)).map((p) => p.path),
        rate,
      ).toEqual(["line_items.0.tax_lines.0.rate"]);
    }
  });
});

describe("refunds", () => {
  it("their ids and their lines' item ids are ids like any other: digits as text are the number", () => {
    const order = parsed(
      base({
        refunds: [
          {
            id: "9300000001",
            created_at: "2026-11-21T10:00:00+03:00",
            refund_line_items: [{ line_item_id: "14000000011", quantity: 1 }],
          },
        ],
      }),
    );
    expect(order.refunds![0]).toMatchObject({
      id: 9300000001,
      refund_line_items: [{ line_item_id: 14000000011, quantity: 1 }],
    });
  });

  it("a refund line without the item it returns, or with a quantity that is not a whole number, is refused", () => {
    const refund = (line: Json) => base({ refunds: [{ id: 9300000001, refund_line_items: [line] }] });
    expect(problems(refund({ quantity: 1 })).map((p) => p.path)).toEqual([
      "refunds.0.refund_line_items.0.line_item_id",
    ]);
    expect(problems(refund({ line_item_id: 14000000011, quantity: "1" })).map((p) => p.path)).toEqual([
      "refunds.0.refund_line_items.0.quantity",
    ]);
    expect(problems(base({ refunds: [{ id: "r-1" }] })).map((p) => p.path)).toEqual(["refunds.0.id"]);
  });
});

describe("ids", () => {
  it("a numeric id, or the same digits as a string, is the number", () => {
    expect(parsed(base()).id).toBe(5810000001);
    expect(parsed(base({ id: "5810000001" })).id).toBe(5810000001);
    expect(
      parsed(base({ line_items: [{ id: "14000000011", title: "Kupa", quantity: 1, price: "120.00" }] })).line_items[0]
        .id,
    ).toBe(14000000011);
  });

  it("refuses an id that is not digits alone: a GraphQL GID where the REST id belongs, a decimal, digits with a suffix", () => {
    for (const id of ["gid://shopify/Order/5810000001", "5810000001.0", "5810000001a", "#1001", ""]) {
      expect(
        problems(base({ id })).map((p) => p.path),
        id,
      ).toEqual(["id"]);
    }
  });
});

describe("a B2B order's company", () => {
  it("is the company's and the location's ids as Shopify's REST order gives them (company: { id, location_id })", () => {
    expect(parsed(base({ company: { id: 3301, location_id: "4402" } })).company).toEqual({
      id: 3301,
      location_id: 4402,
    });
    expect(parsed(base({ company: null })).company).toBeNull();
  });

  it("refuses ids that are not ids: the company's GID in place of its REST id", () => {
    expect(
      problems(base({ company: { id: "gid://shopify/Company/3301", location_id: 4402 } })).map((p) => p.path),
    ).toEqual(["company.id"]);
    expect(problems(base({ company: { id: 3301, location_id: "Merkez" } })).map((p) => p.path)).toEqual([
      "company.location_id",
    ]);
  });
});

describe("the problems of a payload that is not an order", () => {
  it("name the field by its path, dot-separated, and the payload itself as (root)", () => {
    expect(problems(base({ line_items: [{ id: 11, title: "Kupa", quantity: 1, price: "1 TL" }] }))).toEqual([
      { path: "line_items.0.price", message: "decimal amount expected" },
    ]);
    expect(problems("not an order")).toEqual([{ path: "(root)", message: expect.stringMatching(/object/) }]);
    expect(problems(null).map((p) => p.path)).toEqual(["(root)"]);
  });

  it("are at most ten, the first ten in the payload's order", () => {
    const lines = Array.from({ length: 14 }, (_, i) => ({ id: 11 + i, title: "Kupa", quantity: 1, price: `${i},00` }));
    expect(problems(base({ line_items: lines })).map((p) => p.path)).toEqual(
      Array.from({ length: 10 }, (_, i) => `line_items.${i}.price`),
    );
  });
});

describe("the stored snapshot", () => {
  it("keeps only the fields received: a field the payload lacks is not added, at any depth", () => {
    const payload = base();
    const snapshot = orderSnapshot(payload) as Json;
    expect(Object.keys(snapshot).sort()).toEqual(Object.keys(payload).sort());
    expect(Object.keys((snapshot.line_items as Json[])[0]).sort()).toEqual(["id", "price", "quantity", "title"]);
  });

  it("drops an object found where Shopify sends a plain value, with everything in it", () => {
    const payload = base({
      phone: { number: "+90 555 111 22 33", owner: "Ayşe Yılmaz" },
      note_attributes: [{ name: "Vergi Numarası", value: { vkn: "0720039666", note: "gizli" } }],
    });
    const snapshot = orderSnapshot(payload) as Json;
    expect(snapshot.phone).toBeNull();
    expect(snapshot.note_attributes).toEqual([{ name: "Vergi Numarası", value: null }]);
    expect(JSON.stringify(snapshot)).not.toMatch(/555|Ayşe|gizli|0720039666/);
  });

  it("keeps a value of the wrong kind as received, so that the snapshot is refused as the payload was", () => {
    for (const over of [
      { billing_address: "Moda Caddesi 3, Kadıköy" },
      { billing_address: ["Moda Caddesi 3"] },
      { customer: 42 },
      { line_items: "none" },
    ]) {
      const payload = base(over);
      const snapshot = orderSnapshot(payload) as Json;
      const [field] = Object.keys(over);
      expect(snapshot[field], field).toEqual(payload[field]);
      expect(problems(snapshot), field).toEqual(problems(payload));
      expect(
        problems(payload).map((p) => p.path),
        field,
      ).toEqual([field]);
    }
  });
});
