// Shopify refunds read and applied (app/orders/refunds.ts). The shapes are Shopify's REST refund (`refunds/create`,
// and the elements of an order's `refunds[]`): `refund_line_items[]` with `line_item_id`, `quantity`, `restock_type`
// (`no_restock`, `cancel`, `return`), `subtotal`/`total_tax` and their `*_set` twins (shop and presentment money);
// `transactions[]` (`kind` refund, `status` success/pending/failure/error, `gateway`, `amount`); `order_adjustments[]`
// (`kind` shipping_refund or refund_discrepancy, negative `amount` and `tax_amount`); newer API versions list refunded
// shipping as `refund_shipping_lines[]`. What is kept is decision 0017's list: items, amounts with their VAT, shipping
// given back tax included, money returned and its gift-card part, restock. Every expected amount is worked by hand.
import { describe, expect, it } from "vitest";
import {
  amountOnly,
  fullyRefunded,
  orderAsItStands,
  parseRefund,
  refundedLinesOf,
  refundFacts,
  ShopifyRefundSchema,
  type RefundFacts,
  type StoredRefund,
} from "../../app/orders/refunds";
import { ShopifyOrderSchema, type ShopifyOrder } from "../../app/orders/order";

type Json = Record<string, unknown>;

const money = (shop: string, presentment = shop) => ({
  shop_money: { amount: shop, currency_code: "TRY" },
  presentment_money: { amount: presentment, currency_code: "EUR" },
});

const payload = (over: Json = {}): Json => ({
  id: 9100000001,
  order_id: 5810000001,
  created_at: "2026-11-20T19:00:00+03:00",
  ...over,
});

function facts(over: Json = {}): RefundFacts {
  const r = parseRefund(payload(over));
  if (!r.ok) throw new Error(r.error);
  return r.refund;
}
const errorOf = (body: unknown) => {
  const r = parseRefund(body);
  return r.ok ? "accepted" : r.error;
};

/** The Yoga Matı line of the refund-full fixture: 1 unit returned, 549.00 with 91.50 of VAT in it. */
const yogaMat = {
  line_item_id: 58100000061,
  quantity: 1,
  restock_type: "return",
  subtotal: 549,
  subtotal_set: money("549.00", "13.73"),
  total_tax: 91.5,
  total_tax_set: money("91.50", "2.29"),
  line_item: { title: "Yoga Matı", name: "Yoga Matı - Mor", sku: "SKU-1006-1", gift_card: false },
};

describe("parseRefund: the payload", () => {
  it("a refund with nothing but its ids and date: nothing returned, nothing refunded", () => {
    expect(facts()).toStrictEqual({
      refundId: "9100000001",
      orderId: "5810000001",
      // 19:00 at +03:00 is 16:00 UTC.
      refundedAt: new Date("2026-11-20T16:00:00Z"),
      currency: null,
      lineItems: [],
      hasLineItems: false,
      shipping: "0.00",
      amount: "0.00",
      giftCardAmount: "0.00",
      restock: false,
    });
  });

  it("ids come as numbers or digit strings and are kept as text", () => {
    expect(facts({ id: "9100000001", order_id: "5810000001" })).toMatchObject({
      refundId: "9100000001",
      orderId: "5810000001",
    });
  });

  it("refuses what is no refund, naming the field (or the body)", () => {
    expect(errorOf(null)).toMatch(/^body: /);
    expect(errorOf("refund")).toMatch(/^body: /);
    for (const id of [0, -1, 1.5, "12a", "a12", "", " 12"])
      expect(errorOf(payload({ id })), String(id)).toMatch(/^id: /);
    expect(errorOf(payload({ order_id: "x" }))).toMatch(/^order_id: /);
    expect(errorOf(payload({ created_at: "yesterday" }))).toBe("created_at: not a date");
    expect(errorOf(payload({ refund_line_items: [{ ...yogaMat, quantity: -1 }] }))).toMatch(
      /^refund_line_items\.0\.quantity: /,
    );
    expect(errorOf(payload({ refund_line_items: [{ ...yogaMat, quantity: 0.5 }] }))).toMatch(
      /^refund_line_items\.0\.quantity: /,
    );
  });

  it("amounts are decimal strings (or JSON numbers); anything else is refused wherever it is", () => {
    const ok = ["12", "12.5", "-12.50", " 12.50 ", "0.001", "1234567.89"];
    for (const amount of ok)
      expect(errorOf(payload({ transactions: [{ kind: "refund", amount }] })), amount).toBe("accepted");
    const bad = ["12,50", "1e3", "", ".5", "12.", "x12", "12x", "1.2.3", "--1", "12.5a", "TRY 12"];
    for (const amount of bad)
      expect(errorOf(payload({ transactions: [{ kind: "refund", amount }] })), amount).toBe(
        "transactions.0.amount: decimal amount expected",
      );
    expect(errorOf(payload({ transactions: [{ kind: "refund", amount: true }] }))).toMatch(
      /^transactions\.0\.amount: /,
    );
  });

  it("every amount of the refund is checked: lines, their money sets, adjustments, shipping lines", () => {
    const places: Array<[Json, string]> = [
      [{ refund_line_items: [{ ...yogaMat, subtotal: "5,49" }] }, "refund_line_items.0.subtotal"],
      [{ refund_line_items: [{ ...yogaMat, total_tax: "9,15" }] }, "refund_line_items.0.total_tax"],
      [
        { refund_line_items: [{ ...yogaMat, subtotal_set: money("5,49") }] },
        "refund_line_items.0.subtotal_set.shop_money.amount",
      ],
      [
        { refund_line_items: [{ ...yogaMat, total_tax_set: money("91.50", "2,29") }] },
        "refund_line_items.0.total_tax_set.presentment_money.amount",
      ],
      [{ order_adjustments: [{ kind: "shipping_refund", amount: "-41,58" }] }, "order_adjustments.0.amount"],
      [
        { order_adjustments: [{ kind: "shipping_refund", amount: "-41.58", tax_amount: "-8,32" }] },
        "order_adjustments.0.tax_amount",
      ],
      [
        { refund_shipping_lines: [{ subtotal_amount_set: money("41,58") }] },
        "refund_shipping_lines.0.subtotal_amount_set.shop_money.amount",
      ],
      [
        { refund_shipping_lines: [{ tax_amount_set: money("8,32") }] },
        "refund_shipping_lines.0.tax_amount_set.shop_money.amount",
      ],
    ];
    for (const [over, path] of places) expect(errorOf(payload(over)), path).toBe(`${path}: decimal amount expected`);
    // The refunded item's own fields are text and a flag.
    expect(errorOf(payload({ refund_line_items: [{ ...yogaMat, line_item: { title: 5 } }] }))).toMatch(
      /^refund_line_items\.0\.line_item\.title: /,
    );
    expect(errorOf(payload({ refund_line_items: [{ ...yogaMat, line_item: { gift_card: "yes" } }] }))).toMatch(
      /^refund_line_items\.0\.line_item\.gift_card: /,
    );
    expect(errorOf(payload({ transactions: [{ kind: 1 }] }))).toMatch(/^transactions\.0\.kind: /);
    expect(errorOf(payload({ restock: "yes" }))).toMatch(/^restock: /);
    // Fields Shopify adds in later versions pass (loose objects).
    expect(ShopifyRefundSchema.parse(payload({ duties: [], return: null })).duties).toEqual([]);
  });

  it("the refund's date: processed_at when given, else created_at", () => {
    expect(facts({ processed_at: "2026-11-21T09:30:00+03:00" }).refundedAt).toEqual(new Date("2026-11-21T06:30:00Z"));
    expect(facts({ processed_at: null }).refundedAt).toEqual(new Date("2026-11-20T16:00:00Z"));
  });
});

describe("refundFacts: the refunded items", () => {
  it("a returned line as the refund-full fixture has it: amounts of the shop's currency, two decimals", () => {
    expect(facts({ refund_line_items: [yogaMat] }).lineItems).toStrictEqual([
      {
        lineItemId: "58100000061",
        name: "Yoga Matı",
        sku: "SKU-1006-1",
        quantity: 1,
        subtotal: "549.00",
        tax: "91.50",
        restockType: "return",
        giftCard: false,
      },
    ]);
  });

  it("the shop-currency amount of a money set wins; without the set, the plain amount", () => {
    const noSets = facts({ refund_line_items: [{ ...yogaMat, subtotal_set: null, total_tax_set: null }] }).lineItems[0];
    expect(noSets).toMatchObject({ subtotal: "549.00", tax: "91.50" });
    const setsOnly = facts({ refund_line_items: [{ ...yogaMat, subtotal: null, total_tax: undefined }] }).lineItems[0];
    expect(setsOnly).toMatchObject({ subtotal: "549.00", tax: "91.50" });
    const none = facts({
      refund_line_items: [{ ...yogaMat, subtotal: null, subtotal_set: null, total_tax: null, total_tax_set: null }],
    }).lineItems[0];
    expect(none).toMatchObject({ subtotal: "0.00", tax: "0.00" });
  });

  it("amounts are kept as positive figures, rounded to two decimals", () => {
    const l = facts({
      refund_line_items: [{ ...yogaMat, subtotal_set: money("-549.004"), total_tax_set: money("-91.496") }],
    }).lineItems[0];
    expect(l).toMatchObject({ subtotal: "549.00", tax: "91.50" });
  });

  it("a line of 0 units refunds nothing and is not kept", () => {
    const r = facts({ refund_line_items: [{ ...yogaMat, quantity: 0 }] });
    expect(r.lineItems).toEqual([]);
    expect(r.hasLineItems).toBe(false);
    const two = facts({
      refund_line_items: [
        { ...yogaMat, quantity: 0 },
        { ...yogaMat, line_item_id: 58100000062, quantity: 2 },
      ],
    });
    expect(two.lineItems.map((l) => [l.lineItemId, l.quantity])).toEqual([["58100000062", 2]]);
    expect(two.hasLineItems).toBe(true);
  });

  it("the item's name: its title, else its name, else the line's id; no SKU or restock type is null", () => {
    const named = (line_item: Json | null) =>
      facts({ refund_line_items: [{ line_item_id: 77, quantity: 1, line_item }] }).lineItems[0];
    expect(named({ title: "Kupa", name: "Kupa - Mavi" }).name).toBe("Kupa");
    expect(named({ title: null, name: "Kupa - Mavi" }).name).toBe("Kupa - Mavi");
    expect(named({ title: null, name: null })).toStrictEqual({
      lineItemId: "77",
      name: "#77",
      sku: null,
      quantity: 1,
      subtotal: "0.00",
      tax: "0.00",
      restockType: null,
      giftCard: false,
    });
    expect(named(null).name).toBe("#77");
  });

  it("a gift card line is marked (a gift card is no sale of goods: it is not on the invoice)", () => {
    const gift = (gift_card: boolean | null) =>
      facts({ refund_line_items: [{ ...yogaMat, line_item: { title: "Hediye Kartı", gift_card } }] }).lineItems[0]
        .giftCard;
    expect(gift(true)).toBe(true);
    expect(gift(false)).toBe(false);
    expect(gift(null)).toBe(false);
  });
});

describe("refundFacts: money returned", () => {
  const tx = (over: Json) => ({
    kind: "refund",
    status: "success",
    gateway: "shopify_payments",
    currency: "TRY",
    ...over,
  });

  it("the successful refund transactions add up; pending, failed, other kinds do not count", () => {
    const r = facts({
      transactions: [
        tx({ amount: "100.00" }),
        tx({ amount: "50.00", gateway: "gift_card" }),
        tx({ amount: "999.00", status: "failure" }),
        tx({ amount: "999.00", status: "pending" }),
        tx({ amount: "999.00", status: "error" }),
        tx({ amount: "999.00", kind: "sale" }),
        tx({ amount: "999.00", kind: null }),
        // No status: taken as done (refunds.ts reads a missing status as "success").
        tx({ amount: "-10.00", status: null }),
      ],
    });
    expect(r).toMatchObject({ amount: "160.00", giftCardAmount: "50.00", currency: "TRY" });
  });

  it("the part returned to a gift card counts successful gift-card refunds only", () => {
    const r = facts({
      transactions: [
        tx({ amount: "30.00", gateway: "gift_card" }),
        tx({ amount: "70.00", gateway: "gift_card", status: "failure" }),
        tx({ amount: "5.00", gateway: "gift_card", kind: "sale" }),
      ],
    });
    expect(r).toMatchObject({ amount: "30.00", giftCardAmount: "30.00" });
  });

  it("the currency is that of the first successful refund transaction that names one", () => {
    const r = facts({
      transactions: [
        tx({ amount: "1.00", status: "failure", currency: "USD" }),
        tx({ amount: "1.00", currency: null }),
        tx({ amount: "1.00", currency: "EUR" }),
        tx({ amount: "1.00", currency: "TRY" }),
      ],
    });
    expect(r.currency).toBe("EUR");
    expect(facts({ transactions: [tx({ amount: "1.00", currency: null })] }).currency).toBeNull();
  });
});

describe("refundFacts: shipping given back and restock", () => {
  it("the shipping_refund adjustments, tax included; other adjustments are not shipping", () => {
    // 41.58 + 8.32 of VAT = 49.90 (Shopify lists the adjustment as negative amounts).
    const r = facts({
      order_adjustments: [
        { kind: "shipping_refund", amount: "-41.58", tax_amount: "-8.32" },
        { kind: "refund_discrepancy", amount: "-5.00", tax_amount: "0.00" },
      ],
    });
    expect(r.shipping).toBe("49.90");
    expect(
      facts({
        order_adjustments: [
          { kind: "shipping_refund", amount: "-20.00" },
          { kind: "shipping_refund", amount: "-29.90", tax_amount: null },
        ],
      }).shipping,
    ).toBe("49.90");
  });

  it("without a shipping adjustment, the refund's shipping lines, tax included, in the shop's currency", () => {
    const r = facts({
      refund_shipping_lines: [
        { subtotal_amount_set: money("41.58", "1.04"), tax_amount_set: money("8.32", "0.21") },
        { subtotal_amount_set: money("10.00") },
      ],
    });
    expect(r.shipping).toBe("59.90");
    expect(facts({ refund_shipping_lines: [{}] }).shipping).toBe("0.00");
  });

  it("the same shipping listed both ways is counted once: the adjustment", () => {
    const r = facts({
      order_adjustments: [{ kind: "shipping_refund", amount: "-41.58", tax_amount: "-8.32" }],
      refund_shipping_lines: [{ subtotal_amount_set: money("41.58"), tax_amount_set: money("8.32") }],
    });
    expect(r.shipping).toBe("49.90");
    // An adjustment of nothing does not hide the shipping lines.
    const zero = facts({
      order_adjustments: [{ kind: "shipping_refund", amount: "0.00", tax_amount: "0.00" }],
      refund_shipping_lines: [{ subtotal_amount_set: money("41.58"), tax_amount_set: money("8.32") }],
    });
    expect(zero.shipping).toBe("49.90");
  });

  it("restocked: the refund says so, or one of its lines goes back to stock (returned or cancelled)", () => {
    expect(facts({ restock: true }).restock).toBe(true);
    expect(facts({ restock: false, refund_line_items: [{ ...yogaMat, restock_type: "return" }] }).restock).toBe(true);
    expect(facts({ restock: null, refund_line_items: [{ ...yogaMat, restock_type: "cancel" }] }).restock).toBe(true);
    expect(facts({ restock: false, refund_line_items: [{ ...yogaMat, restock_type: "no_restock" }] }).restock).toBe(
      false,
    );
    expect(facts({ refund_line_items: [{ ...yogaMat, restock_type: null }] }).restock).toBe(false);
    expect(
      facts({
        restock: false,
        refund_line_items: [
          { ...yogaMat, restock_type: "no_restock" },
          { ...yogaMat, line_item_id: 2, restock_type: "return" },
        ],
      }).restock,
    ).toBe(true);
  });

  it("refundFacts reads a parsed refund as parseRefund does", () => {
    const body = payload({
      refund_line_items: [yogaMat],
      transactions: [{ kind: "refund", status: "success", amount: "640.50", currency: "TRY" }],
    });
    const parsed = parseRefund(body);
    expect(parsed.ok && parsed.refund).toEqual(refundFacts(ShopifyRefundSchema.parse(body)));
  });
});

describe("amountOnly, refundedLinesOf", () => {
  const stored = (over: Partial<StoredRefund> = {}): StoredRefund => ({
    refundId: "9100000001",
    refundedAt: new Date("2026-11-20T16:00:00Z"),
    lineItems: [],
    hasLineItems: false,
    shipping: "0.00",
    amount: "50.00",
    giftCardAmount: "0.00",
    restock: false,
    ...over,
  });

  it("money back with no item and no shipping is an amount-only refund", () => {
    expect(amountOnly(stored())).toBe(true);
    expect(amountOnly(stored({ hasLineItems: true }))).toBe(false);
    expect(amountOnly(stored({ shipping: "49.90" }))).toBe(false);
    expect(amountOnly(stored({ shipping: "0.01" }))).toBe(false);
    expect(amountOnly(stored({ amount: "0.00" }))).toBe(false);
    expect(amountOnly(stored({ amount: "0.01" }))).toBe(true);
  });

  it("the stored lines as a list; anything else stored is no line", () => {
    const lines = [
      {
        lineItemId: "11",
        name: "Kupa",
        sku: null,
        quantity: 1,
        subtotal: "120.00",
        tax: "20.00",
        restockType: null,
        giftCard: false,
      },
    ];
    expect(refundedLinesOf({ lineItems: lines })).toBe(lines);
    for (const lineItems of [null, undefined, {}, "[]", 1])
      expect(refundedLinesOf({ lineItems }), String(lineItems)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The order as it stands

const vat = (price: string, presentment = price) => ({
  title: "KDV",
  price,
  rate: 0.2,
  price_set: money(price, presentment),
});
const item = (over: Json = {}): Json => ({
  id: 11,
  product_id: 101,
  variant_id: 201,
  title: "Kupa",
  quantity: 3,
  price: "120.00",
  tax_lines: [vat("60.00")],
  ...over,
});
const ship = (over: Json = {}): Json => ({
  title: "Standart",
  price: "60.00",
  price_set: money("60.00", "1.50"),
  tax_lines: [vat("10.00", "0.25")],
  ...over,
});

const order = (over: Json = {}): ShopifyOrder =>
  ShopifyOrderSchema.parse({
    id: 5810000001,
    name: "#1001",
    created_at: "2026-11-20T14:05:11+03:00",
    currency: "TRY",
    taxes_included: true,
    total_price: "480.00",
    line_items: [item(), item({ id: 12, title: "Tabak", quantity: 1, price: "60.00", tax_lines: [vat("10.00")] })],
    shipping_lines: [ship()],
    ...over,
  });

const later = (over: Partial<StoredRefund> = {}): StoredRefund => ({
  refundId: "9100000002",
  refundedAt: new Date("2026-11-22T07:00:00Z"),
  lineItems: [],
  hasLineItems: false,
  shipping: "0.00",
  amount: "0.00",
  giftCardAmount: "0.00",
  restock: false,
  ...over,
});
const units = (lineItemId: string, quantity: number) => ({
  lineItemId,
  name: "x",
  sku: null,
  quantity,
  subtotal: "0.00",
  tax: "0.00",
  restockType: null,
  giftCard: false,
});
const left = (o: ShopifyOrder) => o.line_items.map((l) => [l.id, l.current_quantity]);

describe("orderAsItStands: items", () => {
  it("no refund the order does not already show: the order itself", () => {
    const o = order();
    expect(orderAsItStands(o, [])).toBe(o);
    // A stored refund that is already in the order's refunds[] (current_quantity reflects it) counts once.
    const shown = order({
      refunds: [{ id: 9100000002, refund_line_items: [{ line_item_id: 11, quantity: 1 }] }],
      line_items: [item({ current_quantity: 2 })],
    });
    expect(orderAsItStands(shown, [later({ lineItems: [units("11", 1)], hasLineItems: true })])).toBe(shown);
  });

  it("a later refund's units come off the line; the other lines are left as they are", () => {
    const o = order();
    const r = orderAsItStands(o, [later({ lineItems: [units("11", 1)], hasLineItems: true })]);
    expect(left(r)).toEqual([
      [11, 2],
      [12, undefined],
    ]);
    expect(r.line_items[1]).toBe(o.line_items[1]);
    expect(r.line_items[0]).toMatchObject({ quantity: 3, price: "120.00" });
    expect(o.line_items[0].current_quantity).toBeUndefined(); // the order given is not changed
  });

  it("from Shopify's current_quantity when sent, else the quantity less the order's own refunds of that line", () => {
    const lateOne = [later({ lineItems: [units("11", 1)], hasLineItems: true })];
    // current_quantity 2 already reflects the order's refund of one unit: 2 − 1 = 1.
    const withCurrent = order({
      refunds: [{ id: 9100000001, refund_line_items: [{ line_item_id: 11, quantity: 1 }] }],
      line_items: [item({ current_quantity: 2 })],
    });
    expect(left(orderAsItStands(withCurrent, lateOne))).toEqual([[11, 1]]);
    // Without it: 3 ordered − 1 on the order's refunds (another line's refund not counted) − 1 later = 1.
    const without = order({
      refunds: [
        {
          id: 9100000001,
          refund_line_items: [
            { line_item_id: 11, quantity: 1 },
            { line_item_id: 12, quantity: 1 },
          ],
        },
        { id: 9100000003, refund_line_items: [{ line_item_id: 12, quantity: 1 }] },
      ],
      line_items: [item(), item({ id: 12, quantity: 5 })],
    });
    expect(left(orderAsItStands(without, lateOne))).toEqual([
      [11, 1],
      [12, undefined],
    ]);
    // Two refunds on the order of the same line add up: 3 − 1 − 1 − 1 = 0.
    const twice = order({
      refunds: [
        { id: 1, refund_line_items: [{ line_item_id: 11, quantity: 1 }] },
        { id: 2, refund_line_items: [{ line_item_id: 11, quantity: 1 }] },
      ],
      line_items: [item()],
    });
    expect(left(orderAsItStands(twice, lateOne))).toEqual([[11, 0]]);
    // A current_quantity of 0 is Shopify's figure too (not "absent").
    expect(left(orderAsItStands(order({ line_items: [item({ current_quantity: 0 })] }), lateOne))).toEqual([[11, 0]]);
  });

  it("later refunds of the same line add up, and never below 0", () => {
    const two = [
      later({ refundId: "1", lineItems: [units("11", 1)], hasLineItems: true }),
      later({ refundId: "2", lineItems: [units("11", 1), units("12", 1)], hasLineItems: true }),
    ];
    expect(left(orderAsItStands(order(), two))).toEqual([
      [11, 1],
      [12, 0],
    ]);
    expect(left(orderAsItStands(order(), [later({ lineItems: [units("11", 5)], hasLineItems: true })]))).toEqual([
      [11, 0],
      [12, undefined],
    ]);
  });

  it("the later refunds are listed on the order without their lines (already taken off) and with their date", () => {
    const r = orderAsItStands(
      order({ refunds: [{ id: 9100000001, refund_line_items: [{ line_item_id: 12, quantity: 1 }] }] }),
      [later({ lineItems: [units("11", 1)], hasLineItems: true, amount: "120.00" })],
    );
    expect(r.refunds).toEqual([
      { id: 9100000001, refund_line_items: [{ line_item_id: 12, quantity: 1 }], order_adjustments: [] },
      { id: 9100000002, created_at: "2026-11-22T07:00:00.000Z", refund_line_items: [], order_adjustments: [] },
    ]);
  });

  it("an amount-only refund changes no line and is listed with its amount as an adjustment the invoice does not reflect", () => {
    const o = order();
    const r = orderAsItStands(o, [later({ amount: "25.00", lineItems: null })]);
    expect(r.line_items).toEqual(o.line_items);
    expect(r.shipping_lines).toEqual(o.shipping_lines);
    expect(r.refunds).toEqual([
      {
        id: 9100000002,
        created_at: "2026-11-22T07:00:00.000Z",
        refund_line_items: [],
        order_adjustments: [{ kind: "refund_discrepancy", amount: "-25.00" }],
      },
    ]);
  });
});

describe("orderAsItStands: shipping", () => {
  it("refunded shipping comes off the shipping line, its tax in the same proportion, in both currencies", () => {
    // 30.00 of 60.00 given back: half kept. Tax 10.00 → 5.00; presentment 1.50 → 0.75, tax 0.25 → 0.125 → 0.13.
    const r = orderAsItStands(order(), [later({ shipping: "30.00" })]);
    expect(r.shipping_lines).toEqual([
      {
        title: "Standart",
        price: "30.00",
        discounted_price: "30.00",
        price_set: money("30.00", "0.75"),
        discount_allocations: [],
        tax_lines: [{ title: "KDV", price: "5.00", rate: "0.2", price_set: money("5.00", "0.13") }],
      },
    ]);
    expect(left(r)).toEqual([
      [11, undefined],
      [12, undefined],
    ]);
  });

  it("all of it given back: the line is no longer charged", () => {
    const [line] = orderAsItStands(order(), [later({ shipping: "60.00" })]).shipping_lines!;
    expect(line).toMatchObject({
      price: "0.00",
      discounted_price: "0.00",
      price_set: money("0.00", "0.00"),
      tax_lines: [{ price: "0.00" }],
    });
  });

  it("a third kept: amounts rounded half up to the cent", () => {
    // 60.00 − 40.00 = 20.00 kept, a third: tax 10.00 / 3 = 3.333 → 3.33; presentment 1.50 / 3 = 0.50, 0.25 / 3 = 0.083 → 0.08.
    const [line] = orderAsItStands(order(), [later({ shipping: "40.00" })]).shipping_lines!;
    expect(line).toMatchObject({
      price: "20.00",
      price_set: money("20.00", "0.50"),
      tax_lines: [{ price: "3.33", price_set: money("3.33", "0.08") }],
    });
    // 1/8 kept of 0.20 tax: 0.025 → 0.03 (half up, not half even).
    const [small] = orderAsItStands(
      order({
        shipping_lines: [
          ship({ price: "8.00", price_set: null, tax_lines: [{ title: "KDV", price: "0.20", rate: 0.2 }] }),
        ],
      }),
      [later({ shipping: "7.00" })],
    ).shipping_lines!;
    expect(small).toMatchObject({ price: "1.00", price_set: null, tax_lines: [{ price: "0.03" }] });
  });

  it("more than one line: taken off in order; a line past what was given back is untouched", () => {
    const o = order({
      shipping_lines: [ship(), ship({ title: "Ek", price: "40.00", price_set: money("40.00", "1.00"), tax_lines: [] })],
    });
    const r = orderAsItStands(o, [later({ shipping: "80.00" })]);
    expect(r.shipping_lines!.map((l) => [l.title, l.price, l.discounted_price])).toEqual([
      ["Standart", "0.00", "0.00"],
      ["Ek", "20.00", "20.00"],
    ]);
    const some = orderAsItStands(o, [later({ shipping: "30.00" })]);
    expect(some.shipping_lines![0].price).toBe("30.00");
    expect(some.shipping_lines![1]).toBe(o.shipping_lines![1]);
  });

  it("a free shipping line takes none of it: the charged line after it does", () => {
    const o = order({
      shipping_lines: [ship({ title: "Bedava", price: "0.00", price_set: money("0.00"), tax_lines: [] }), ship()],
    });
    const r = orderAsItStands(o, [later({ shipping: "60.00" })]);
    expect(r.shipping_lines![0]).toBe(o.shipping_lines![0]);
    expect(r.shipping_lines![1]).toMatchObject({ price: "0.00" });
  });

  it("a discounted shipping line: the charged price is the base, no discount is left, the presentment twin is dropped", () => {
    // Charged 50.00 (60.00 less a 10.00 discount); 25.00 given back: half of 50.00 kept.
    const o = order({
      shipping_lines: [
        ship({ discounted_price: "50.00", discount_allocations: [{ amount: "10.00" }], tax_lines: [vat("8.33")] }),
      ],
    });
    const [line] = orderAsItStands(o, [later({ shipping: "25.00" })]).shipping_lines!;
    expect(line).toMatchObject({
      price: "25.00",
      discounted_price: "25.00",
      price_set: null,
      discount_allocations: [],
      tax_lines: [{ price: "4.17" }],
    });
    // The charged price is what is given back against: all 50.00 back is all of it.
    const [all] = orderAsItStands(o, [later({ shipping: "50.00" })]).shipping_lines!;
    expect(all).toMatchObject({ price: "0.00", tax_lines: [{ price: "0.00" }] });
  });

  it("a shipping line without tax lines or money set stays without them", () => {
    const o = order({ shipping_lines: [{ title: "Kargo", price: "60.00" }] });
    const [line] = orderAsItStands(o, [later({ shipping: "30.00" })]).shipping_lines!;
    expect(line).toEqual({
      title: "Kargo",
      price: "30.00",
      discounted_price: "30.00",
      price_set: null,
      discount_allocations: [],
      tax_lines: [],
    });
    // A tax line without its money set keeps none.
    const [bare] = orderAsItStands(
      order({ shipping_lines: [ship({ tax_lines: [{ title: "KDV", price: "10.00", rate: 0.2 }] })] }),
      [later({ shipping: "30.00" })],
    ).shipping_lines!;
    expect(bare.tax_lines).toEqual([{ title: "KDV", price: "5.00", rate: "0.2", price_set: undefined }]);
  });

  it("shipping refunded on the order itself comes off too, and its adjustment is then no longer listed", () => {
    const o = order({
      refunds: [
        {
          id: 9100000001,
          refund_line_items: [],
          order_adjustments: [
            { kind: "shipping_refund", amount: "-25.00", tax_amount: "-5.00" },
            { kind: "refund_discrepancy", amount: "-3.00" },
          ],
        },
      ],
    });
    const r = orderAsItStands(o, []);
    expect(r).not.toBe(o);
    expect(r.shipping_lines![0]).toMatchObject({ price: "30.00", tax_lines: [{ price: "5.00" }] });
    expect(r.refunds).toEqual([
      { id: 9100000001, refund_line_items: [], order_adjustments: [{ kind: "refund_discrepancy", amount: "-3.00" }] },
    ]);
    // With a later refund's shipping: both come off (30.00 + 20.00 of 60.00).
    expect(orderAsItStands(o, [later({ shipping: "20.00" })]).shipping_lines![0].price).toBe("10.00");
  });

  it("an order without shipping lines has none after a shipping refund", () => {
    expect(orderAsItStands(order({ shipping_lines: null }), [later({ shipping: "30.00" })]).shipping_lines).toEqual([]);
  });
});

describe("fullyRefunded", () => {
  it("nothing left: every unit refunded and no shipping charged", () => {
    expect(fullyRefunded(order({ line_items: [item({ current_quantity: 0 })], shipping_lines: [] }))).toBe(true);
    expect(fullyRefunded(order({ line_items: [item({ current_quantity: 1 })], shipping_lines: [] }))).toBe(false);
    expect(fullyRefunded(order({ line_items: [item({ current_quantity: 0 })] }))).toBe(false);
    expect(
      fullyRefunded(order({ line_items: [item({ current_quantity: 0 })], shipping_lines: [ship({ price: "0.00" })] })),
    ).toBe(true);
    expect(fullyRefunded(order({ line_items: [item({ current_quantity: 0 })], shipping_lines: null }))).toBe(true);
  });

  it("shipping counts at its charged price: a line discounted to nothing is nothing left", () => {
    expect(
      fullyRefunded(
        order({ line_items: [item({ current_quantity: 0 })], shipping_lines: [ship({ discounted_price: "0.00" })] }),
      ),
    ).toBe(true);
    expect(
      fullyRefunded(
        order({
          line_items: [item({ current_quantity: 0 })],
          shipping_lines: [ship({ price: "0.00", discounted_price: null })],
        }),
      ),
    ).toBe(true);
    expect(
      fullyRefunded(
        order({ line_items: [item({ current_quantity: 0 })], shipping_lines: [ship({ discounted_price: "0.01" })] }),
      ),
    ).toBe(false);
  });

  it("gift cards sold on the order are not goods left to invoice", () => {
    expect(
      fullyRefunded(
        order({
          line_items: [item({ current_quantity: 0 }), item({ id: 12, gift_card: true, quantity: 1 })],
          shipping_lines: [],
        }),
      ),
    ).toBe(true);
    expect(
      fullyRefunded(
        order({
          line_items: [item({ current_quantity: 0 }), item({ id: 12, gift_card: false, quantity: 1 })],
          shipping_lines: [],
        }),
      ),
    ).toBe(false);
  });

  it("without current_quantity: the quantity less the order's refunds of that line, summed over the lines", () => {
    const refunds = [
      {
        id: 1,
        refund_line_items: [
          { line_item_id: 11, quantity: 2 },
          { line_item_id: 12, quantity: 1 },
        ],
      },
      { id: 2, refund_line_items: [{ line_item_id: 11, quantity: 1 }] },
    ];
    expect(
      fullyRefunded(order({ refunds, line_items: [item(), item({ id: 12, quantity: 1 })], shipping_lines: [] })),
    ).toBe(true);
    expect(
      fullyRefunded(order({ refunds, line_items: [item(), item({ id: 12, quantity: 2 })], shipping_lines: [] })),
    ).toBe(false);
    expect(
      fullyRefunded(
        order({ refunds: [refunds[0]], line_items: [item(), item({ id: 12, quantity: 1 })], shipping_lines: [] }),
      ),
    ).toBe(false);
  });
});
