// What orders/updated compares (app/orders/buyer-facts.ts): the same order as the webhook sends it and as the Admin API
// reads it has the same facts, so an unrelated update after a re-read makes no work; a change of the buyer, an
// address, a note attribute or a tax line is a change.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyerFacts, buyerFactsChanged } from "../../app/orders/buyer-facts";
import { orderSnapshot } from "../../app/orders/order";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { standinReader } from "../helpers/standin";

const order = JSON.parse(readFileSync("test/fixtures/orders/01-single-item-citizen.json", "utf8")) as Record<
  string,
  unknown
> & { id: number };
let standin: Standin;

beforeAll(async () => {
  // The fixture has a fixed date: without read_all_orders the stand-in, as Shopify, hides orders older than 60 days.
  standin = await startStandin({
    port: 0,
    shop: "demo-magaza.myshopify.com",
    orders: [order],
    scopes: ["read_orders", "read_all_orders"],
  });
});
afterAll(() => standin.stop());

describe("buyer facts of an order", () => {
  it("are the same for the webhook's body and the Admin API's read of the order", async () => {
    const read = await standinReader(standin).readOrder(standin.shop, String(order.id));
    expect(buyerFacts(orderSnapshot(read))).toBe(buyerFacts(orderSnapshot(order)));
  });

  it("ignore tags, notes, fulfilment and timestamps", () => {
    const changed = {
      ...order,
      tags: "vip, e-fatura",
      note: "kapıya bırakın",
      updated_at: "2027-01-01T00:00:00Z",
      fulfillment_status: "fulfilled",
    };
    expect(buyerFactsChanged(order, changed)).toBe(false);
  });

  it("see the buyer, the addresses, the note attributes and the tax lines", () => {
    const billing = order.billing_address as Record<string, unknown>;
    const lines = order.line_items as Array<Record<string, unknown>>;
    const variants = [
      { ...order, email: "baska@example.com" },
      { ...order, billing_address: { ...billing, address1: "Moda Caddesi 3" } },
      { ...order, shipping_address: null },
      {
        ...order,
        note_attributes: [
          ...((order.note_attributes as unknown[]) ?? []),
          { name: "Vergi Numarası", value: "1234567890" },
        ],
      },
      { ...order, tax_lines: [{ title: "KDV", rate: 0.1, price: "1.00" }] },
      {
        ...order,
        line_items: lines.map((line) => ({ ...line, tax_lines: [{ title: "KDV", rate: 0.01, price: "0.10" }] })),
      },
    ];
    for (const variant of variants) expect(buyerFactsChanged(order, variant)).toBe(true);
    // 0.2 and "0.20" are the same rate.
    expect(
      buyerFactsChanged(
        { ...order, tax_lines: [{ title: "KDV", rate: 0.2, price: "10" }] },
        { ...order, tax_lines: [{ title: "KDV", rate: "0.20", price: "10.00" }] },
      ),
    ).toBe(false);
  });
});

// Rule by rule, on the fixture (mutation testing, issue 28): the webhook's REST form and the Admin API's read differ
// in absent vs null vs "", number vs text, the order of lists and the case of e-mail addresses; none of that is a
// change. Every field the recipient or the taxes depend on is.
describe("buyer facts, rule by rule", () => {
  const billing = order.billing_address as Record<string, unknown>;
  const lines = order.line_items as Array<Record<string, unknown>>;
  const same = (a: unknown, b: unknown) => expect(buyerFactsChanged(a, b), JSON.stringify(b).slice(0, 200)).toBe(false);
  const changed = (a: unknown, b: unknown) =>
    expect(buyerFactsChanged(a, b), JSON.stringify(b).slice(0, 200)).toBe(true);

  it("absent, null, blank and an object where text belongs are all no value", () => {
    for (const email of [undefined, null, "", "   ", {}]) same({ ...order, email: null }, { ...order, email });
    for (const phone of [undefined, "", { number: "+905321234567" }])
      same({ ...order, phone: null }, { ...order, phone });
    same({ ...order, customer: null }, { ...order, customer: undefined });
    same({ ...order, customer: null }, { ...order, customer: [order.customer] });
    same({ ...order, note_attributes: [] }, { ...order, note_attributes: undefined });
    same({ ...order, note_attributes: [] }, { ...order, note_attributes: "TC Kimlik No: 10000000146" });
    // Not an order at all: no facts, the same as an empty order's.
    for (const nothing of [null, undefined, "order", [order]]) expect(buyerFacts(nothing)).toBe(buyerFacts({}));
  });

  it("an e-mail address is the same whatever its case and the spaces around it; its text is a change", () => {
    same(order, { ...order, email: " Ayse.Yilmaz@Example.COM " });
    same(order, { ...order, customer: { ...(order.customer as object), email: "AYSE.YILMAZ@example.com" } });
    changed(order, { ...order, customer: { ...(order.customer as object), email: "ayse@example.com" } });
    changed({ ...order, email: null }, { ...order, email: "ayse.yilmaz@example.com" });
    // Case is folded to lower case, which keeps Turkish letters apart: ı and i (Yılmaz, Yilmaz) are different
    // addresses, though both upper-case to I.
    changed({ ...order, email: "ayse.yılmaz@example.com" }, { ...order, email: "ayse.yilmaz@example.com" });
    changed(order, { ...order, customer: { ...(order.customer as object), email: "ayse.yılmaz@example.com" } });
    // A customer without an e-mail has none, whichever way it is absent.
    same(
      { ...order, customer: { ...(order.customer as object), email: null } },
      { ...order, customer: { ...(order.customer as object), email: " " } },
    );
  });

  it("the customer's id, names, e-mail and phone are facts; an id as a number or as digits is the same id", () => {
    const customer = order.customer as Record<string, unknown>;
    same(order, {
      ...order,
      customer: { ...customer, id: String(customer.id), updated_at: "2027-01-01T00:00:00Z", tags: "vip" },
    });
    for (const [field, value] of [
      ["id", 7120000002],
      ["first_name", "Ayşe Nur"],
      ["last_name", "Kaya"],
      ["phone", "+905320000000"],
    ] as const) {
      changed(order, { ...order, customer: { ...customer, [field]: value } });
    }
    changed({ ...order, phone: null }, { ...order, phone: "+905321234567" });
    changed(order, { ...order, customer: null });
  });

  it("every part of an address the invoice's recipient is made of is a fact; the country's name and the map pin are not", () => {
    for (const [field, value] of [
      ["first_name", "Ayşe Nur"],
      ["last_name", "Kaya"],
      ["company", "Moda Kitabevi"],
      ["address1", "Moda Cad. 3"],
      ["address2", "D: 5"],
      ["city", "Üsküdar"],
      ["province", "Ankara"],
      ["zip", "34711"],
      ["country_code", "DE"],
      ["phone", "+905320000000"],
    ] as const) {
      changed(order, { ...order, billing_address: { ...billing, [field]: value } });
      changed(order, { ...order, shipping_address: { ...billing, [field]: value } });
    }
    // Shopify renamed Turkey to Türkiye: the country's display name is not the country; the code is.
    same(order, {
      ...order,
      billing_address: { ...billing, country: "Türkiye", latitude: 40.98, longitude: 29.02, name: "Ayşe Y." },
    });
    // An address with no value at all is no address.
    same(
      { ...order, shipping_address: null },
      {
        ...order,
        shipping_address: Object.fromEntries(Object.keys(billing).map((key) => [key, key === "latitude" ? null : ""])),
      },
    );
    changed({ ...order, shipping_address: null }, { ...order, shipping_address: { zip: "34710" } });
  });

  it("note attributes are compared by name and value, in any order, trimmed; an attribute without a value is none", () => {
    const notes = [
      { name: "Vergi Dairesi", value: "Kadıköy" },
      { name: "TC Kimlik No", value: "10000000146" },
    ];
    same({ ...order, note_attributes: notes }, { ...order, note_attributes: [...notes].reverse() });
    same(
      { ...order, note_attributes: notes },
      {
        ...order,
        note_attributes: [
          { name: " TC Kimlik No ", value: 10000000146 },
          null,
          { name: "Vergi Dairesi", value: " Kadıköy " },
          { name: "Not", value: "" },
          { name: "", value: "x" },
        ],
      },
    );
    changed(
      { ...order, note_attributes: notes },
      { ...order, note_attributes: [notes[0], { name: "TC Kimlik No", value: "10000000147" }] },
    );
  });

  it("tax lines are compared by title, rate and amount, in any order, as numbers; a line item's by its id", () => {
    const a = { title: "KDV %20", rate: 0.2, price: "91.62" };
    const b = { title: "ÖTV", rate: 0.1, price: "5.00" };
    same(
      { ...order, tax_lines: [a, b] },
      { ...order, tax_lines: [b, null, { ...a, rate: "0.200", price: "91.620", price_set: {} }] },
    );
    changed({ ...order, tax_lines: [a] }, { ...order, tax_lines: [{ ...a, title: "KDV %10" }] });
    changed({ ...order, tax_lines: [a] }, { ...order, tax_lines: [{ ...a, rate: 0.1 }] });
    changed({ ...order, tax_lines: [a] }, { ...order, tax_lines: [{ ...a, price: "91.63" }] });
    // A value that is not a number is compared as the text it is.
    changed({ ...order, tax_lines: [{ ...a, price: "n/a" }] }, { ...order, tax_lines: [{ ...a, price: "yok" }] });
    same({ ...order, tax_lines: [{ ...a, price: "n/a" }] }, { ...order, tax_lines: [{ ...a, price: " n/a " }] });
    const second = { ...lines[0], id: 58100000012, tax_lines: [b] };
    same(
      { ...order, line_items: [lines[0], second] },
      { ...order, line_items: [second, null, { ...lines[0], id: String(lines[0].id), quantity: 5 }] },
    );
    changed(
      { ...order, line_items: [lines[0], second] },
      { ...order, line_items: [lines[0], { ...second, id: 58100000013 }] },
    );
  });

  it("whether prices include VAT is a fact; only true or false count", () => {
    changed(order, { ...order, taxes_included: false });
    same({ ...order, taxes_included: null }, { ...order, taxes_included: undefined });
    same({ ...order, taxes_included: null }, { ...order, taxes_included: "true" });
    changed({ ...order, taxes_included: null }, { ...order, taxes_included: true });
  });

  it("a B2B order's company and location are facts (another location is another buyer); ids as numbers or digits alike", () => {
    const b2b = { ...order, company: { id: 3301, location_id: 4402 } };
    same(b2b, { ...order, company: { id: "3301", location_id: "4402" } });
    changed(b2b, { ...order, company: { id: 3301, location_id: 4403 } });
    changed(b2b, { ...order, company: { id: 3302, location_id: 4402 } });
    changed(b2b, { ...order, company: null });
    same({ ...order, company: null }, { ...order, company: undefined });
    same({ ...order, company: null }, { ...order, company: "3301" });
  });
});
