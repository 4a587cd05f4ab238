// What orders/updated compares (app/orders/buyer-facts.ts): the same order as the webhook sends it and as the Admin API
// reads it has the same facts, so an unrelated update after a re-read makes no work; a change of the buyer, an
// address, a note attribute or a tax line is a change.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyerFacts, buyerFactsChanged } from "../../app/orders/buyer-facts";
import { orderSnapshot } from "../../app/orders/order";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { standinReader } from "../helpers/standin";

const order = JSON.parse(readFileSync("test/fixtures/orders/01-single-item-citizen.json", "utf8")) as Record<string, unknown> & { id: number };
let standin: Standin;

beforeAll(async () => {
  // The fixture has a fixed date: without read_all_orders the stand-in, as Shopify, hides orders older than 60 days.
  standin = await startStandin({ port: 0, shop: "demo-magaza.myshopify.com", orders: [order], scopes: ["read_orders", "read_all_orders"] });
});
afterAll(() => standin.stop());

describe("buyer facts of an order", () => {
  it("are the same for the webhook's body and the Admin API's read of the order", async () => {
    const read = await standinReader(standin).readOrder(standin.shop, String(order.id));
    expect(buyerFacts(orderSnapshot(read))).toBe(buyerFacts(orderSnapshot(order)));
  });

  it("ignore tags, notes, fulfilment and timestamps", () => {
    const changed = { ...order, tags: "vip, e-fatura", note: "kapıya bırakın", updated_at: "2027-01-01T00:00:00Z", fulfillment_status: "fulfilled" };
    expect(buyerFactsChanged(order, changed)).toBe(false);
  });

  it("see the buyer, the addresses, the note attributes and the tax lines", () => {
    const billing = order.billing_address as Record<string, unknown>;
    const lines = order.line_items as Array<Record<string, unknown>>;
    const variants = [
      { ...order, email: "baska@example.com" },
      { ...order, billing_address: { ...billing, address1: "Moda Caddesi 3" } },
      { ...order, shipping_address: null },
      { ...order, note_attributes: [...((order.note_attributes as unknown[]) ?? []), { name: "Vergi Numarası", value: "1234567890" }] },
      { ...order, tax_lines: [{ title: "KDV", rate: 0.1, price: "1.00" }] },
      { ...order, line_items: lines.map((line) => ({ ...line, tax_lines: [{ title: "KDV", rate: 0.01, price: "0.10" }] })) },
    ];
    for (const variant of variants) expect(buyerFactsChanged(order, variant)).toBe(true);
    // 0.2 and "0.20" are the same rate.
    expect(buyerFactsChanged({ ...order, tax_lines: [{ title: "KDV", rate: 0.2, price: "10" }] }, { ...order, tax_lines: [{ title: "KDV", rate: "0.20", price: "10.00" }] })).toBe(false);
  });
});
