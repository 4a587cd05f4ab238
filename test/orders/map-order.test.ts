// mapOrderToInvoice on variations of the fixture orders: the rules that no fixture shows alone.
import { describe, expect, it } from "vitest";
import { mapOrderToInvoice, type MappingContext } from "../../app/orders/map-order";
import { parseShopifyOrder, type ShopifyOrder } from "../../app/orders/order";
import { MappingSettingsSchema } from "../../app/orders/settings";
import { fixtureContext, fixtureOrder } from "./fixture-loader";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function order(name: string, change: (o: Json) => void = () => {}): ShopifyOrder {
  const json = structuredClone(fixtureOrder(name)) as Json;
  change(json);
  const parsed = parseShopifyOrder(json);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.order;
}

const ctx = (name: string, patch: Partial<MappingContext> = {}, settings: Json = {}): MappingContext => {
  const base = fixtureContext(name);
  return { ...base, ...patch, settings: MappingSettingsSchema.parse({ ...base.settings, ...settings }) };
};

const codes = (r: ReturnType<typeof mapOrderToInvoice>) => (r.ok ? r.warnings : [...r.problems, ...r.warnings]).map((p) => p.code);

describe("mapOrderToInvoice", () => {
  it("is pure: the same input gives the same output and the order is not changed", () => {
    const o = order("05-order-discount-code");
    const before = JSON.stringify(o);
    expect(mapOrderToInvoice(o, ctx("05-order-discount-code"))).toEqual(mapOrderToInvoice(o, ctx("05-order-discount-code")));
    expect(JSON.stringify(o)).toBe(before);
  });

  it("refuses a payload that is not an order, naming the field", () => {
    const parsed = parseShopifyOrder({ id: 1, name: "#1", line_items: "no" });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems[0]).toMatchObject({ code: "order.invalid_payload", severity: "error" });
  });

  it("warns when the invoiced items do not add up to the order's total (e.g. a tip)", () => {
    const o = order("12-anonymous-consumer", (j) => {
      j.current_total_price = "358.90";
      j.total_price = "358.90";
    });
    const r = mapOrderToInvoice(o, ctx("12-anonymous-consumer"));
    expect(r.ok).toBe(true);
    expect(r.ok && r.warnings).toContainEqual({ code: "order.total_mismatch", severity: "warning", params: { invoiced: "338.90", orderTotal: "358.90" } });
  });

  it("never invents an exchange rate: a non-TRY shop currency is a problem", () => {
    const o = order("12-anonymous-consumer", (j) => {
      j.currency = "EUR";
    });
    expect(codes(mapOrderToInvoice(o, ctx("12-anonymous-consumer")))).toEqual(["order.currency_rate_unavailable"]);
  });

  it("a presentment invoice without presentment amounts is a problem", () => {
    const o = order("22-presentment-eur-invoiced-in-eur", (j) => {
      for (const li of j.line_items) delete li.price_set;
    });
    expect(codes(mapOrderToInvoice(o, ctx("22-presentment-eur-invoiced-in-eur")))).toContain("order.currency_rate_unavailable");
  });

  it("an unknown time zone falls back to Turkey's", () => {
    const r = mapOrderToInvoice(order("01-single-item-citizen"), ctx("01-single-item-citizen", { shop: { domain: "x.myshopify.com", timezone: "Not/AZone", currency: "TRY" } }));
    expect(r.ok && r.body.issue_time).toBe("13:00");
  });

  it("reads note attributes whatever their case and accents, and ignores the billing company when told to", () => {
    const o = order("09-company-buyer", (j) => {
      j.note_attributes = [
        { name: "VERGI NUMARASI", value: " 0720 039 666 " },
        { name: "vergi_dairesi", value: "Nilüfer" },
      ];
    });
    const r = mapOrderToInvoice(o, ctx("09-company-buyer"));
    expect(r.ok && r.body.customer).toMatchObject({ type: "company", tax_number: "0720039666", tax_office: "Nilüfer" });
    const noCompany = mapOrderToInvoice(o, ctx("09-company-buyer", {}, { useBillingCompany: false }));
    expect(codes(noCompany)).toContain("customer.company_without_title");
  });

  it("takes the cart block's attributes: the typed company title wins over the billing company", () => {
    const o = order("12-anonymous-consumer", (j) => {
      j.note_attributes = [
        { name: "Vergi Numarası", value: "9860008925" },
        { name: "Vergi Dairesi", value: "Kadıköy" },
        { name: "Şirket Unvanı", value: "Moda Kitabevi Ltd. Şti." },
      ];
      j.billing_address.company = "Moda";
    });
    const r = mapOrderToInvoice(o, ctx("12-anonymous-consumer"));
    expect(r.ok && r.body.customer).toMatchObject({ type: "company", tax_number: "9860008925", tax_office: "Kadıköy", title: "Moda Kitabevi Ltd. Şti." });
  });

  it("reports a number that fails its checksum with the value and the note attribute it came from, and posts nothing", () => {
    const citizen = order("01-single-item-citizen", (j) => {
      j.note_attributes = [{ name: "T.C. Kimlik No", value: "123 456 789 01" }];
    });
    const r = mapOrderToInvoice(citizen, ctx("01-single-item-citizen"));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([
      { code: "customer.invalid_tax_number", severity: "error", params: { value: "123 456 789 01", source: "T.C. Kimlik No" } },
    ]);
    const repeated = order("09-company-buyer", (j) => {
      j.note_attributes = [{ name: "VKN", value: "4444444444" }, { name: "Vergi Dairesi", value: "Nilüfer" }];
    });
    expect(!mapOrderToInvoice(repeated, ctx("09-company-buyer")).ok).toBe(true);
  });

  it("reports a bad number in the billing company as coming from that field", () => {
    const o = order("12-anonymous-consumer", (j) => {
      j.note_attributes = [];
      j.billing_address.company = "Moda Kitabevi 9860008926";
    });
    const r = mapOrderToInvoice(o, ctx("12-anonymous-consumer"));
    expect(!r.ok && r.problems).toEqual([{ code: "customer.invalid_tax_number_in_company", severity: "error", params: { value: "9860008926" } }]);
  });

  it("an unknown gateway is sent as 'other' with a warning", () => {
    const o = order("12-anonymous-consumer", (j) => {
      j.payment_gateway_names = ["Acme Pay"];
    });
    const r = mapOrderToInvoice(o, ctx("12-anonymous-consumer"));
    expect(r.ok && r.body.internet_sale?.payment_method).toBe("other");
    expect(codes(r)).toContain("payment.unknown_method");
  });

  it("refunds taken from refund_line_items when current_quantity is absent", () => {
    const o = order("19-partial-refund", (j) => {
      for (const li of j.line_items) delete li.current_quantity;
    });
    const r = mapOrderToInvoice(o, ctx("19-partial-refund"));
    expect(r.ok && r.paid).toBe("602.72");
  });

  it("a shipping refund adjustment is reported, not guessed", () => {
    const o = order("19-partial-refund", (j) => {
      j.refunds[0].order_adjustments = [{ kind: "shipping_refund", amount: "-49.90" }];
    });
    expect(codes(mapOrderToInvoice(o, ctx("19-partial-refund")))).toContain("order.refund_adjustments_ignored");
  });

  it("the invoicing moment and zone are inputs: the same order invoiced later gets that day's date", () => {
    const r = mapOrderToInvoice(order("01-single-item-citizen"), ctx("01-single-item-citizen", { now: new Date("2026-12-31T21:30:00Z") }));
    expect(r.ok && [r.body.issue_date, r.body.issue_time]).toEqual(["2027-01-01", "00:30"]);
  });
});

describe("tips", () => {
  it("a tip line (no product, named Tip, equal to total_tip_received) is left off the invoice and noted", () => {
    const o = order("21-pos-sale", (j) => {
      j.total_tip_received = "30.00";
      j.total_price = "345.00";
      j.current_total_price = "345.00";
      j.line_items.push({ ...j.line_items[0], id: 999, product_id: null, variant_id: null, title: "Tip", name: "Tip", quantity: 1, current_quantity: 1, price: "30.00", price_set: undefined, tax_lines: [], discount_allocations: [], taxable: false, requires_shipping: false });
    });
    const r = mapOrderToInvoice(o, ctx("21-pos-sale"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.body.lines.map((l) => l.name)).toEqual(["Filtre Kahve", "Cheesecake"]);
    expect(r.paid).toBe("315.00");
    expect(r.notes.join(" ")).toMatch(/Tip/);
    expect(r.warnings.map((w) => w.code)).not.toContain("order.total_mismatch");
  });
});

describe("unpaid orders", () => {
  it("an order not yet paid is no cash sale and carries no payment date", () => {
    const o = order("14-cash-on-delivery", (j) => {
      j.financial_status = "pending";
    });
    const r = mapOrderToInvoice(o, ctx("14-cash-on-delivery"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.body.cash_sale).toBe(false);
    expect(r.body.payment_date).toBeUndefined();
    expect(r.body.internet_sale?.payment_date).toBeUndefined();
  });
});
