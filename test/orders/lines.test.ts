// draftLines on small hand-built orders: which items reach the invoice, at which rate, what the customer paid for
// them and which discount is shown, each expected amount worked out by hand from the order. Shapes no fixture shows
// alone (mutation testing, issue 28, found these rules untested).
import { describe, expect, it } from "vitest";
import { TAX_RATES } from "../../app/invoicing-service/schemas";
import { VAT_RATES } from "../../app/invoicing-service/vat-rates";
import { draftLines, lineName, remainingQuantity, type DraftResult } from "../../app/orders/lines";
import { parseShopifyOrder, type ShopifyOrder } from "../../app/orders/order";
import { MappingSettingsSchema } from "../../app/settings/schema";

type Json = Record<string, unknown>;

const money = (shop: string, presentment = shop) => ({
  shop_money: { amount: shop, currency_code: "TRY" },
  presentment_money: { amount: presentment, currency_code: "EUR" },
});
const vat = (price: string, rate = 0.2) => ({ title: "KDV", price, rate });

function order(over: Json): ShopifyOrder {
  const parsed = parseShopifyOrder({
    id: 1,
    name: "#1001",
    created_at: "2026-11-20T14:05:11+03:00",
    currency: "TRY",
    taxes_included: true,
    total_price: "0.00",
    line_items: [],
    ...over,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.order;
}
const item = (over: Json = {}): Json => ({
  id: 11,
  product_id: 101,
  variant_id: 201,
  title: "Kupa",
  quantity: 1,
  price: "120.00",
  tax_lines: [vat("20.00")],
  ...over,
});
const ship = (over: Json = {}): Json => ({ title: "Standart", price: "60.00", tax_lines: [vat("10.00")], ...over });

const settings = (over: Json = {}) => MappingSettingsSchema.parse(over);
const draft = (
  o: ShopifyOrder,
  over: Json = {},
  side: "shop_money" | "presentment_money" = "shop_money",
  zeroRate = false,
): DraftResult => draftLines(o, settings(over), side, { zeroRate });
/** Each draft as figures: what the invoice line must reach and the discount it shows. */
const figures = (r: DraftResult) =>
  r.drafts.map((d) => ({
    kind: d.kind,
    quantity: d.quantity,
    rate: d.rate,
    target: d.target.toFixed(2),
    discount: d.discount.toFixed(2),
  }));

describe("draftLines: amounts", () => {
  it("VAT-inclusive prices: the target is what was paid, the discount is shown net of VAT", () => {
    // 2 × 100.00 − 20.00 = 180.00 paid; 20.00 of discount at 20 % is 20 × 100 / 120 = 16.67 net.
    const r = draft(
      order({
        line_items: [
          item({
            quantity: 2,
            price: "100.00",
            tax_lines: [vat("30.00")],
            discount_allocations: [{ amount: "20.00" }],
          }),
        ],
      }),
    );
    expect(figures(r)).toEqual([{ kind: "item", quantity: 2, rate: "20", target: "180.00", discount: "16.67" }]);
    expect(r).toMatchObject({ errors: [], warnings: [], notes: [] });
    expect(r.excluded.toFixed(2)).toBe("0.00");
  });

  it("VAT-exclusive prices with tax lines: the target adds the tax Shopify charged, the discount stays as given", () => {
    // 2 × 50.00 − 10.00 = 90.00 net, Shopify's tax 16.20 at 18 % → 106.20 paid.
    const r = draft(
      order({
        taxes_included: false,
        line_items: [
          item({
            quantity: 2,
            price: "50.00",
            tax_lines: [vat("16.20", 0.18)],
            discount_allocations: [{ amount: "10.00" }],
          }),
        ],
      }),
    );
    expect(figures(r)).toEqual([{ kind: "item", quantity: 2, rate: "18", target: "106.20", discount: "10.00" }]);
  });

  it("a partly refunded line keeps its share of the discount and of Shopify's tax", () => {
    // 3 ordered, 1 refunded: 2 × 50.00 − 2/3 × 15.00 = 90.00 net; tax 2/3 × 27.00 = 18.00 → 108.00.
    const o = order({
      taxes_included: false,
      line_items: [
        item({ quantity: 3, price: "50.00", tax_lines: [vat("27.00")], discount_allocations: [{ amount: "15.00" }] }),
      ],
      refunds: [{ refund_line_items: [{ line_item_id: 11, quantity: 1 }] }],
    });
    expect(figures(draft(o))).toEqual([{ kind: "item", quantity: 2, rate: "20", target: "108.00", discount: "10.00" }]);
    // VAT included: 2 × 50.00 − 10.00 = 90.00 paid; 10.00 discount → 8.33 net of 20 %.
    const included = order({
      line_items: [item({ quantity: 3, price: "50.00", discount_allocations: [{ amount: "15.00" }] })],
      refunds: [{ refund_line_items: [{ line_item_id: 11, quantity: 1 }] }],
    });
    expect(figures(draft(included))).toEqual([
      { kind: "item", quantity: 2, rate: "20", target: "90.00", discount: "8.33" },
    ]);
  });

  it("refunds of the same line add up; a line refunded whole is left off", () => {
    const o = order({
      line_items: [
        item({ quantity: 3, price: "10.00" }),
        item({ id: 12, variant_id: 202, quantity: 1, price: "30.00" }),
      ],
      refunds: [
        { refund_line_items: [{ line_item_id: 11, quantity: 1 }] },
        {
          refund_line_items: [
            { line_item_id: 11, quantity: 1 },
            { line_item_id: 12, quantity: 1 },
          ],
        },
      ],
    });
    expect(figures(draft(o))).toEqual([{ kind: "item", quantity: 1, rate: "20", target: "10.00", discount: "0.00" }]);
  });

  it("no tax lines and prices without VAT: the default rate is added to the price and the merchant is warned", () => {
    // 100.00 + 20 % = 120.00; shipping 30.00 + 20 % = 36.00.
    const o = order({
      taxes_included: false,
      line_items: [item({ price: "100.00", tax_lines: [] })],
      shipping_lines: [ship({ price: "30.00", tax_lines: [] })],
    });
    const r = draft(o, { pricesIncludeVat: false });
    expect(figures(r)).toEqual([
      { kind: "item", quantity: 1, rate: "20", target: "120.00", discount: "0.00" },
      { kind: "shipping", quantity: 1, rate: "20", target: "36.00", discount: "0.00" },
    ]);
    expect(r.warnings).toEqual([{ code: "order.vat_added_to_prices", params: { rate: "20" }, severity: "warning" }]);
  });

  it("no tax lines and prices with VAT: the settings' rate, the price as paid, no warning", () => {
    const o = order({ taxes_included: false, line_items: [item({ price: "100.00", tax_lines: null })] });
    const r = draft(o, { defaultTaxRate: "10" });
    expect(figures(r)).toEqual([{ kind: "item", quantity: 1, rate: "10", target: "100.00", discount: "0.00" }]);
    expect(r.warnings).toEqual([]);
  });

  it("VAT-exclusive items take the tax Shopify charged, not a tax computed again", () => {
    // 100.00 net + the 19.99 Shopify charged (its cents spread over the order) = 119.99, not 120.00.
    const r = draft(
      order({ taxes_included: false, line_items: [item({ price: "100.00", tax_lines: [vat("19.99")] })] }),
    );
    expect(figures(r)).toEqual([{ kind: "item", quantity: 1, rate: "20", target: "119.99", discount: "0.00" }]);
  });

  it("with tax lines the order's taxes_included decides, not the settings", () => {
    // taxes_included false on the order: 100.00 + the 20.00 charged = 120.00, although the settings say VAT is included.
    const r = draft(
      order({ taxes_included: false, line_items: [item({ price: "100.00", tax_lines: [vat("20.00")] })] }),
      { pricesIncludeVat: true },
    );
    expect(figures(r)).toEqual([{ kind: "item", quantity: 1, rate: "20", target: "120.00", discount: "0.00" }]);
    // taxes_included missing counts as excluded when there are tax lines; the settings are not asked.
    const missing = draft(
      order({ taxes_included: null, line_items: [item({ price: "100.00", tax_lines: [vat("20.00")] })] }),
      { pricesIncludeVat: true },
    );
    expect(figures(missing)[0].target).toBe("120.00");
    expect(missing.warnings).toEqual([]);
  });

  it("an untaxed line on an order with tax lines is a 0 % line, even with VAT-exclusive prices", () => {
    // Its rate is the sum of no tax lines (0 %), so nothing is added to its 40.00.
    const o = order({
      taxes_included: false,
      line_items: [
        item({ price: "100.00", tax_lines: [vat("20.00")] }),
        item({ id: 12, variant_id: 202, price: "40.00", tax_lines: [] }),
      ],
    });
    expect(figures(draft(o))).toEqual([
      { kind: "item", quantity: 1, rate: "20", target: "120.00", discount: "0.00" },
      { kind: "item", quantity: 1, rate: "0", target: "40.00", discount: "0.00" },
    ]);
  });

  it("an export at 0 %: every line at 0, no VAT added and no warning, even when the settings add VAT", () => {
    const o = order({
      taxes_included: false,
      line_items: [item({ price: "100.00", tax_lines: [] })],
      shipping_lines: [ship({ price: "30.00", tax_lines: [] })],
    });
    const r = draft(o, { pricesIncludeVat: false }, "shop_money", true);
    expect(figures(r)).toEqual([
      { kind: "item", quantity: 1, rate: "0", target: "100.00", discount: "0.00" },
      { kind: "shipping", quantity: 1, rate: "0", target: "30.00", discount: "0.00" },
    ]);
    expect(r.warnings).toEqual([]);
    // Tax lines that exist do not change the 0 % either.
    expect(
      figures(
        draft(order({ line_items: [item({ price: "100.00", tax_lines: [vat("0.00", 0)] })] }), {}, "shop_money", true),
      )[0].rate,
    ).toBe("0");
  });

  it("rates add up over a line's tax lines and must be one the service accepts", () => {
    const o = order({
      line_items: [
        item({ title: "İkili", tax_lines: [vat("8.00", 0.1), vat("6.40", 0.08)] }),
        item({ id: 12, variant_id: 202, title: "Yarım", tax_lines: [vat("5.00", 0.185)] }),
        item({ id: 13, variant_id: 203, title: "Yüzde on beş", tax_lines: [vat("5.00", 0.15)] }),
      ],
    });
    const r = draft(o);
    expect(figures(r)).toEqual([{ kind: "item", quantity: 1, rate: "18", target: "120.00", discount: "0.00" }]);
    expect(r.errors).toEqual([
      { code: "line.unsupported_tax_rate", params: { line: "Yarım", rate: "18.5" }, severity: "error" },
      { code: "line.unsupported_tax_rate", params: { line: "Yüzde on beş", rate: "15" }, severity: "error" },
    ]);
  });

  it("maps exactly the one list of valid VAT rates: every one of them, and never 2 (issue 36, point 2)", () => {
    for (const rate of [...TAX_RATES, "5"]) {
      const r = draft(order({ line_items: [item({ tax_lines: [vat("1.00", Number(rate) / 100)] })] }));
      expect(r.errors.length === 0, rate).toBe((VAT_RATES as readonly string[]).includes(rate));
    }
  });

  it("a line whose discount exceeds its price is a problem, not a negative line", () => {
    const r = draft(
      order({ line_items: [item({ title: "Hatalı", price: "10.00", discount_allocations: [{ amount: "25.00" }] })] }),
    );
    expect(r.drafts).toEqual([]);
    expect(r.errors).toEqual([
      { code: "line.negative_amount", params: { line: "Hatalı", amount: "-15.00" }, severity: "error" },
    ]);
  });

  it("a fully discounted line is a line of 0.00, not a problem", () => {
    const r = draft(order({ line_items: [item({ price: "10.00", discount_allocations: [{ amount: "10.00" }] })] }));
    expect(figures(r)).toEqual([{ kind: "item", quantity: 1, rate: "20", target: "0.00", discount: "8.33" }]);
    expect(r.errors).toEqual([]);
  });
});

describe("draftLines: what is left off the invoice", () => {
  it("a gift card is not a VAT sale: left off, its price net of its discount counted as excluded", () => {
    // 2 × 50.00 − 10.00 = 90.00.
    const r = draft(
      order({
        line_items: [
          item({
            title: "Hediye kartı",
            gift_card: true,
            quantity: 2,
            price: "50.00",
            tax_lines: [],
            discount_allocations: [{ amount: "10.00" }],
          }),
          item({ id: 12 }),
        ],
      }),
    );
    expect(r.drafts.map((d) => d.id)).toEqual(["201"]);
    expect(r.excluded.toFixed(2)).toBe("90.00");
    expect(r.notes).toEqual(['Gift card "Hediye kartı" (2 × 50.00) is not a VAT sale and was left off the invoice.']);
  });

  it("a gift card refunded whole leaves nothing excluded and no note", () => {
    const r = draft(
      order({
        line_items: [
          item({
            gift_card: true,
            quantity: 1,
            current_quantity: 0,
            price: "50.00",
            tax_lines: [],
            discount_allocations: [{ amount: "5.00" }],
          }),
          item({ id: 12 }),
        ],
      }),
    );
    expect(r.excluded.toFixed(2)).toBe("0.00");
    expect(r.notes).toEqual([]);
    expect(r.drafts).toHaveLength(1);
  });

  it("a tip (no product, named like a tip, the order's tip amount) is left off and counted as excluded", () => {
    for (const title of ["Tip", " bahşiş ", "BAHSIS"]) {
      const r = draft(
        order({
          total_tip_received: "15.00",
          line_items: [
            item(),
            item({ id: 12, product_id: null, variant_id: null, title, quantity: 3, price: "5.00", tax_lines: [] }),
          ],
        }),
      );
      expect(
        r.drafts.map((d) => d.id),
        title,
      ).toEqual(["201"]);
      expect(r.excluded.toFixed(2)).toBe("15.00");
      expect(r.notes).toEqual([
        `Tip "${title.trim()}" (15.00) is not a sale of goods or services and was left off the invoice.`,
      ]);
    }
  });

  it("a custom line is not a tip unless everything says so: it is invoiced", () => {
    const custom = (over: Json, order_: Json = {}) =>
      draft(
        order({
          total_tip_received: "15.00",
          ...order_,
          line_items: [item({ id: 12, product_id: null, variant_id: null, title: "Tip", price: "15.00", ...over })],
        }),
      );
    const invoiced = [
      custom({ product_id: 7 }), // a product
      custom({ variant_id: 8 }), // a variant
      custom({ title: "Tip jar" }), // named otherwise
      custom({ title: "Multip" }),
      custom({ price: "10.00" }), // not the tip's amount
      custom({}, { total_tip_received: "0.00" }), // no tip on the order
      custom({}, { total_tip_received: null }),
      custom({ price: "0.00" }, { total_tip_received: "0.00" }), // a free line is not a tip of 0
    ];
    for (const r of invoiced) {
      expect(r.notes).toEqual([]);
      expect(r.excluded.toFixed(2)).toBe("0.00");
      expect(r.drafts).toHaveLength(1);
    }
    expect(custom({ title: "Tip jar" }).drafts[0]).toMatchObject({ id: "line-12", name: "Tip jar" });
    // A gift card named Tip stays a gift card.
    const card = custom({ gift_card: true });
    expect(card.notes).toEqual(['Gift card "Tip" (1 × 15.00) is not a VAT sale and was left off the invoice.']);
  });

  it("free shipping is not a sale; a discounted shipping line shows its discount", () => {
    // Shop side, no allocations: price 60.00, discounted to 45.00 → 45.00 paid, 15.00 discount = 12.50 net.
    const r = draft(
      order({
        line_items: [item()],
        shipping_lines: [ship({ price: "0.00" }), ship({ title: "Hızlı", discounted_price: "45.00" })],
      }),
    );
    expect(figures(r)).toEqual([
      { kind: "item", quantity: 1, rate: "20", target: "120.00", discount: "0.00" },
      { kind: "shipping", quantity: 1, rate: "20", target: "45.00", discount: "12.50" },
    ]);
    expect(r.drafts[1]).toMatchObject({ id: "shipping", name: "Kargo: Hızlı", requiresShipping: false });
    const untitled = draft(
      order({ line_items: [item()], shipping_lines: [ship({ title: "  " }), ship({ title: null })] }),
    );
    expect(untitled.drafts.slice(1).map((d) => d.name)).toEqual(["Kargo", "Kargo"]);
  });

  it("a shipping discounted_price above the price gives no negative discount; allocations win over discounted_price", () => {
    const above = draft(order({ line_items: [item()], shipping_lines: [ship({ discounted_price: "70.00" })] }));
    expect(figures(above)[1]).toEqual({ kind: "shipping", quantity: 1, rate: "20", target: "60.00", discount: "0.00" });
    const allocated = draft(
      order({
        line_items: [item()],
        shipping_lines: [ship({ discounted_price: "45.00", discount_allocations: [{ amount: "6.00" }] })],
      }),
    );
    expect(figures(allocated)[1]).toEqual({
      kind: "shipping",
      quantity: 1,
      rate: "20",
      target: "54.00",
      discount: "5.00",
    });
  });

  it("on the presentment side a shipping line's discounted_price (shop money) is not used", () => {
    const o = order({
      presentment_currency: "EUR",
      line_items: [
        item({
          price_set: money("120.00", "3.00"),
          tax_lines: [{ ...vat("20.00"), price_set: money("20.00", "0.50") }],
        }),
      ],
      shipping_lines: [
        ship({
          price_set: money("60.00", "1.50"),
          discounted_price: "45.00",
          tax_lines: [{ ...vat("10.00"), price_set: money("10.00", "0.25") }],
        }),
      ],
    });
    const r = draft(o, {}, "presentment_money");
    expect(figures(r)).toEqual([
      { kind: "item", quantity: 1, rate: "20", target: "3.00", discount: "0.00" },
      { kind: "shipping", quantity: 1, rate: "20", target: "1.50", discount: "0.00" },
    ]);
    expect(r.errors).toEqual([]);
  });

  it("a shipping line at an unsupported rate or with a discount above its price is a problem", () => {
    const r = draft(
      order({
        line_items: [item()],
        shipping_lines: [
          ship({ title: "Özel", tax_lines: [vat("3.00", 0.05)] }),
          ship({ title: "Bedava", price: "10.00", discount_allocations: [{ amount: "12.00" }] }),
        ],
      }),
    );
    expect(r.drafts.map((d) => d.kind)).toEqual(["item"]);
    expect(r.errors).toEqual([
      { code: "line.unsupported_tax_rate", params: { line: "Kargo: Özel", rate: "5" }, severity: "error" },
      { code: "line.negative_amount", params: { line: "Kargo: Bedava", amount: "-2.00" }, severity: "error" },
    ]);
  });

  it("shipping VAT-exclusive with tax lines takes Shopify's tax, not one computed again", () => {
    // 60.00 net + the 10.81 Shopify charged (not 12.00) = 70.81.
    const r = draft(
      order({
        taxes_included: false,
        line_items: [item({ price: "100.00" })],
        shipping_lines: [ship({ tax_lines: [vat("10.81")] })],
      }),
    );
    expect(figures(r)[1]).toEqual({ kind: "shipping", quantity: 1, rate: "20", target: "70.81", discount: "0.00" });
  });
});

describe("draftLines: warnings and problems about the order", () => {
  it("money changed on a refund outside its lines is ignored once, with a warning", () => {
    const adjusted = draft(
      order({
        line_items: [item()],
        refunds: [
          { order_adjustments: [{ kind: "refund_discrepancy", amount: "-5.00" }] },
          { order_adjustments: [{ amount: "2.00" }] },
        ],
      }),
    );
    expect(adjusted.warnings).toEqual([{ code: "order.refund_adjustments_ignored", severity: "warning" }]);
    const zero = draft(
      order({
        line_items: [item()],
        refunds: [{ order_adjustments: [{ amount: "0.00" }] }, { order_adjustments: [] }, {}],
      }),
    );
    expect(zero.warnings).toEqual([]);
  });

  it("a presentment invoice needs presentment amounts; the problem names the customer's currency, else the shop's", () => {
    const eur = draft(order({ presentment_currency: "EUR", line_items: [item()] }), {}, "presentment_money");
    expect(eur.errors).toEqual([
      { code: "order.currency_rate_unavailable", params: { currency: "EUR" }, severity: "error" },
    ]);
    const none = draft(order({ line_items: [item()] }), {}, "presentment_money");
    expect(none.errors).toEqual([
      { code: "order.currency_rate_unavailable", params: { currency: "TRY" }, severity: "error" },
    ]);
    expect(draft(order({ line_items: [item()] })).errors).toEqual([]);
  });
});

describe("line identity", () => {
  it("the id is the variant, else the product, else the line", () => {
    const r = draft(
      order({
        line_items: [
          item(),
          item({ id: 12, variant_id: null, product_id: 102 }),
          item({ id: 13, variant_id: null, product_id: null }),
        ],
      }),
    );
    expect(r.drafts.map((d) => d.id)).toEqual(["201", "102", "line-13"]);
  });

  it("sku cleaned, requires_shipping only false when Shopify says false", () => {
    const r = draft(
      order({
        line_items: [
          item({ sku: "  K-1  " }),
          item({ id: 12, sku: "  ", requires_shipping: false }),
          item({ id: 13, requires_shipping: null }),
        ],
      }),
    );
    expect(r.drafts.map((d) => [d.sku, d.requiresShipping])).toEqual([
      ["K-1", true],
      [undefined, false],
      [undefined, true],
    ]);
  });

  it("names: title and variant, no 'Default Title', the line's name when the title is blank, else Ürün", () => {
    const li = (over: Json) => order({ line_items: [item(over)] }).line_items[0];
    expect(lineName(li({ title: "Kupa", variant_title: " Kırmızı " }))).toBe("Kupa - Kırmızı");
    expect(lineName(li({ title: "Kupa", variant_title: "Default Title" }))).toBe("Kupa");
    expect(lineName(li({ title: "  ", name: "Kupa - Mavi" }))).toBe("Kupa - Mavi");
    expect(lineName(li({ title: "", name: null }))).toBe("Ürün");
  });

  it("the units left: Shopify's current_quantity when it sends one, else ordered minus refunded, never below 0", () => {
    const li = (over: Json) => order({ line_items: [item(over)] }).line_items[0];
    const refunded = new Map([[11, 2]]);
    expect(remainingQuantity(li({ quantity: 3, current_quantity: 2 }), new Map())).toBe(2);
    expect(remainingQuantity(li({ quantity: 3, current_quantity: 0 }), new Map())).toBe(0);
    expect(remainingQuantity(li({ quantity: 3, current_quantity: 3 }), refunded)).toBe(3);
    expect(remainingQuantity(li({ quantity: 3, current_quantity: null }), refunded)).toBe(1);
    expect(remainingQuantity(li({ quantity: 3 }), refunded)).toBe(1);
    expect(remainingQuantity(li({ quantity: 1 }), refunded)).toBe(0);
  });
});
