// The small rules the mapping builds on: where the goods go and whether tax was collected (abroad.ts), the invoice's
// currency and rate (currency.ts), the payment gateway and method (payment.ts) and text folding (text.ts), on
// hand-built orders. Mutation testing (issue 28) found these rules reached only through whole fixtures.
import { describe, expect, it } from "vitest";
import { collectedTax, destinationAbroad, exportSale, hasTaxLines } from "../../app/orders/abroad";
import { chooseCurrency, pick } from "../../app/orders/currency";
import { parseShopifyOrder, type ShopifyOrder } from "../../app/orders/order";
import { paymentGateway, paymentMethod } from "../../app/orders/payment";
import { clean, foldAll, foldName } from "../../app/orders/text";
import { MappingSettingsSchema } from "../../app/settings/schema";

type Json = Record<string, unknown>;
function order(over: Json): ShopifyOrder {
  const parsed = parseShopifyOrder({
    id: 1,
    name: "#1001",
    created_at: "2026-11-20T14:05:11+03:00",
    currency: "TRY",
    total_price: "120.00",
    line_items: [],
    ...over,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.order;
}
const item = (over: Json = {}): Json => ({
  id: 11,
  title: "Kupa",
  quantity: 1,
  price: "120.00",
  tax_lines: [],
  ...over,
});
const tax = (price: string) => ({ title: "KDV", price, rate: 0.2 });
const settings = (over: Json = {}) => MappingSettingsSchema.parse(over);
const set = (shop: string, presentment: string) => ({
  shop_money: { amount: shop, currency_code: "TRY" },
  presentment_money: { amount: presentment, currency_code: "EUR" },
});

describe("sales abroad", () => {
  it("the destination is the shipping address, else the billing address; Turkey or no country is not abroad", () => {
    expect(destinationAbroad(order({ shipping_address: { country: "Germany", country_code: "DE" } }))).toEqual({
      countryCode: "DE",
      country: "Germany",
    });
    expect(destinationAbroad(order({ billing_address: { country: " ", country_code: " de " } }))).toEqual({
      countryCode: "DE",
      country: "DE",
    });
    expect(
      destinationAbroad(order({ shipping_address: { country_code: "TR" }, billing_address: { country_code: "DE" } })),
    ).toBeNull();
    expect(destinationAbroad(order({ shipping_address: { country: "Germany" } }))).toBeNull();
    expect(destinationAbroad(order({}))).toBeNull();
  });

  it("tax collected: a positive tax line on an item that is not a gift card, or on shipping, else the order's total tax", () => {
    expect(collectedTax(order({ line_items: [item({ tax_lines: [tax("20.00")] })] }))).toBe(true);
    expect(
      collectedTax(
        order({ line_items: [item()], shipping_lines: [{ title: "DHL", price: "30.00", tax_lines: [tax("5.00")] }] }),
      ),
    ).toBe(true);
    // A gift card's tax line is not tax on what is invoiced; tax lines of 0.00 are no tax.
    expect(
      collectedTax(
        order({
          line_items: [item({ gift_card: true, tax_lines: [tax("5.00")] }), item({ id: 12, tax_lines: [tax("0.00")] })],
          total_tax: "0.00",
        }),
      ),
    ).toBe(false);
    expect(
      collectedTax(order({ line_items: [item({ tax_lines: null })], shipping_lines: null, total_tax: "3.00" })),
    ).toBe(true);
    expect(collectedTax(order({ line_items: [item({ tax_lines: null })], total_tax: null }))).toBe(false);
  });

  it("tax lines at all: on an item that is not a gift card, or on shipping", () => {
    expect(hasTaxLines(order({ line_items: [item({ tax_lines: [tax("0.00")] })] }))).toBe(true);
    expect(
      hasTaxLines(
        order({ line_items: [item()], shipping_lines: [{ title: "DHL", price: "30.00", tax_lines: [tax("0.00")] }] }),
      ),
    ).toBe(true);
    expect(
      hasTaxLines(
        order({
          line_items: [item({ gift_card: true, tax_lines: [tax("5.00")] }), item({ id: 12, tax_lines: null })],
          shipping_lines: [{ title: "DHL", price: "30.00" }],
        }),
      ),
    ).toBe(false);
  });

  it("an export: abroad and no tax collected", () => {
    const abroad = { shipping_address: { country: "Germany", country_code: "DE" } };
    expect(exportSale(order({ ...abroad, line_items: [item()] }))).toEqual({ countryCode: "DE", country: "Germany" });
    expect(exportSale(order({ ...abroad, line_items: [item({ tax_lines: [tax("20.00")] })] }))).toBeNull();
    expect(exportSale(order({ shipping_address: { country_code: "TR" }, line_items: [item()] }))).toBeNull();
  });
});

describe("the invoice's currency", () => {
  const eur = (over: Json = {}) =>
    order({ presentment_currency: "EUR", total_price: "1000.00", total_price_set: set("1000.00", "28.37"), ...over });

  it("in the customer's currency, the rate is the shop total over the presentment total, 6 decimals", () => {
    const choice = chooseCurrency(eur(), settings({ invoiceCurrency: "presentment" }));
    expect(choice).toMatchObject({ ok: true, currency: "EUR", side: "presentment_money" });
    expect(choice.ok && choice.rate.toFixed()).toBe("35.248502");
    // Currency codes in any case.
    expect(
      chooseCurrency(
        eur({ currency: "try", presentment_currency: "eur" }),
        settings({ invoiceCurrency: "presentment" }),
      ),
    ).toMatchObject({ ok: true, currency: "EUR" });
  });

  it("a presentment invoice needs a TRY shop and both totals above zero", () => {
    const presentment = settings({ invoiceCurrency: "presentment" });
    expect(chooseCurrency(eur({ currency: "USD" }), presentment)).toEqual({ ok: false, currency: "EUR" });
    expect(chooseCurrency(eur({ total_price_set: null }), presentment)).toEqual({ ok: false, currency: "EUR" });
    expect(chooseCurrency(eur({ total_price_set: set("0.00", "28.37") }), presentment)).toEqual({
      ok: false,
      currency: "EUR",
    });
    expect(chooseCurrency(eur({ total_price_set: set("1000.00", "0.00") }), presentment)).toEqual({
      ok: false,
      currency: "EUR",
    });
  });

  it("in the shop's currency (or when the customer paid in it) the rate is 1, and only TRY can be invoiced", () => {
    const one = { ok: true, currency: "TRY", side: "shop_money" };
    expect(chooseCurrency(eur(), settings())).toMatchObject(one);
    expect(
      chooseCurrency(order({ presentment_currency: "TRY" }), settings({ invoiceCurrency: "presentment" })),
    ).toMatchObject(one);
    expect(
      chooseCurrency(order({ presentment_currency: null }), settings({ invoiceCurrency: "presentment" })),
    ).toMatchObject(one);
    const choice = chooseCurrency(eur(), settings());
    expect(choice.ok && choice.rate.toFixed()).toBe("1");
    expect(
      chooseCurrency(
        order({ currency: "EUR", presentment_currency: "EUR" }),
        settings({ invoiceCurrency: "presentment" }),
      ),
    ).toEqual({ ok: false, currency: "EUR" });
  });

  it("an amount on the chosen side; none on the presentment side without a money set", () => {
    expect(pick("12.30", set("12.30", "0.35"), "shop_money")?.toFixed(2)).toBe("12.30");
    expect(pick("12.30", null, "shop_money")?.toFixed(2)).toBe("12.30");
    expect(pick("12.30", set("12.30", "0.35"), "presentment_money")?.toFixed(2)).toBe("0.35");
    expect(pick("12.30", undefined, "presentment_money")).toBeNull();
  });
});

describe("payment", () => {
  it("the gateway that took the money: the first named one that is not a gift card, else the gift card", () => {
    expect(paymentGateway(order({ payment_gateway_names: ["gift_card", "  ", "iyzico"] }))).toBe("iyzico");
    expect(paymentGateway(order({ payment_gateway_names: ["  ", "Gift Card"] }))).toBe("Gift Card");
    expect(paymentGateway(order({ payment_gateway_names: ["gift_card"], gateway: null }))).toBe("gift_card");
    expect(paymentGateway(order({ payment_gateway_names: null, gateway: "paytr" }))).toBe("paytr");
    expect(paymentGateway(order({ payment_gateway_names: ["  "] }))).toBeUndefined();
    expect(paymentGateway(order({}))).toBeUndefined();
  });

  it("the method: none known without a gateway, gift cards are a known 'other', names matched folded", () => {
    const s = settings();
    expect(paymentMethod(undefined, s)).toEqual({ method: "other", known: false });
    expect(paymentMethod("Gift Card", s)).toEqual({ method: "other", known: true });
    expect(paymentMethod("KAPIDA Ödeme", s)).toEqual({ method: "cash_on_delivery", known: true });
    expect(paymentMethod("EFT / Havale", s)).toEqual({ method: "direct_transfer", known: true });
    expect(paymentMethod("Bilinmeyen", s)).toEqual({ method: "other", known: false });
  });

  it("a pattern of up to 4 letters must start a word; a longer one may sit anywhere", () => {
    const s = settings();
    // "card" is 4 letters: "Scardino Pay" has it only inside a word.
    expect(paymentMethod("Scardino Pay", s)).toEqual({ method: "other", known: false });
    expect(paymentMethod("Credit card", s)).toEqual({ method: "credit_or_debit", known: true });
    // "iyzico" is longer: found inside "Öde-İyzicoPay".
    expect(paymentMethod("Öde-İyzicoPay", s)).toEqual({ method: "payment_agent", known: true });
  });

  it("a settings row whose name folds to nothing matches no gateway", () => {
    const s = settings({
      paymentMethodMap: [
        { match: "—", method: "credit_or_debit" },
        { match: "paytr", method: "payment_agent" },
      ],
    });
    expect(paymentMethod("PayTR", s)).toEqual({ method: "payment_agent", known: true });
    expect(paymentMethod("Bilinmeyen", s)).toEqual({ method: "other", known: false });
  });
});

describe("text", () => {
  it("clean: whitespace runs become one space, the ends are trimmed, nothing left is undefined", () => {
    expect(clean("  Kupa \n\t  Mavi  ")).toBe("Kupa Mavi");
    expect(clean(" a\u00a0\u00a0b ")).toBe("a b");
    expect(clean("   ")).toBeUndefined();
    expect(clean(null)).toBeUndefined();
  });

  it("foldName: Turkish İ/I/ı to i, accents and punctuation removed, lower case", () => {
    expect(foldName("VERGİ NUMARASI")).toBe("verginumarasi");
    expect(foldName("Kapıda Ödeme")).toBe("kapidaodeme");
    expect(foldName("vergi_dairesi")).toBe("vergidairesi");
  });

  it("foldAll folds a settings list once and returns the same folded list after", () => {
    const list = [{ match: "Kapıda" }, { match: "EFT" }];
    let calls = 0;
    const first = foldAll(list, (e) => (calls++, e.match));
    expect(first).toEqual(["kapida", "eft"]);
    expect(foldAll(list, (e) => (calls++, e.match))).toBe(first);
    expect(calls).toBe(2);
  });
});
