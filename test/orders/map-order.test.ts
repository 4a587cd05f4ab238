// mapOrderToInvoice on variations of the fixture orders: the rules that no fixture shows alone.
import { describe, expect, it } from "vitest";
import { mapOrderToInvoice, type MappingContext } from "../../app/orders/map-order";
import { parseShopifyOrder, type ShopifyOrder } from "../../app/orders/order";
import { MappingSettingsSchema } from "../../app/settings/schema";
import { fixtureContext, fixtureOrder } from "./fixture-loader";
import { ATTRIBUTE_LIMITS } from "../../app/orders/customer";
import { readFileSync } from "node:fs";

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

const codes = (r: ReturnType<typeof mapOrderToInvoice>) =>
  (r.ok ? r.warnings : [...r.problems, ...r.warnings]).map((p) => p.code);

describe("mapOrderToInvoice", () => {
  it("is pure: the same input gives the same output and the order is not changed", () => {
    const o = order("05-order-discount-code");
    const before = JSON.stringify(o);
    expect(mapOrderToInvoice(o, ctx("05-order-discount-code"))).toEqual(
      mapOrderToInvoice(o, ctx("05-order-discount-code")),
    );
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
    expect(r.ok && r.warnings).toContainEqual({
      code: "order.total_mismatch",
      severity: "warning",
      params: { invoiced: "338.90", orderTotal: "358.90" },
    });
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
    expect(codes(mapOrderToInvoice(o, ctx("22-presentment-eur-invoiced-in-eur")))).toContain(
      "order.currency_rate_unavailable",
    );
  });

  it("an unknown time zone falls back to Turkey's", () => {
    const r = mapOrderToInvoice(
      order("01-single-item-citizen"),
      ctx("01-single-item-citizen", { shop: { domain: "x.myshopify.com", timezone: "Not/AZone", currency: "TRY" } }),
    );
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

  it("refuses a cart attribute over the cart block's limit, or one that is not text, before anything else is read", () => {
    const problemsOf = (o: ShopifyOrder) => {
      const r = mapOrderToInvoice(o, ctx("12-anonymous-consumer"));
      return r.ok ? [] : r.problems;
    };
    const cases: Array<[Json, Json]> = [
      [
        { name: "Şirket Unvanı", value: "Ş".repeat(20_000) },
        { code: "customer.attribute_too_long", params: { source: "Şirket Unvanı", length: 20_000, max: 255 } },
      ],
      [
        { name: "Vergi Dairesi", value: "K".repeat(101) },
        { code: "customer.attribute_too_long", params: { source: "Vergi Dairesi", length: 101, max: 100 } },
      ],
      [
        { name: "Vergi Numarası", value: "9".repeat(21) },
        { code: "customer.attribute_too_long", params: { source: "Vergi Numarası", length: 21, max: 20 } },
      ],
      [
        { name: "TC Kimlik No", value: "1".repeat(5_000) },
        { code: "customer.attribute_too_long", params: { source: "TC Kimlik No", length: 5_000, max: 20 } },
      ],
      [
        { name: "Şirket Unvanı", value: "Moda \uE000 Kitabevi" },
        { code: "customer.attribute_not_text", params: { source: "Şirket Unvanı" } },
      ],
    ];
    for (const [attribute, expected] of cases) {
      // The attribute replaces the one of the same name (the first value of a name is the one read).
      const o = order("12-anonymous-consumer", (j) => {
        j.note_attributes = [
          attribute,
          { name: "Vergi Numarası", value: "9860008925" },
          { name: "Vergi Dairesi", value: "Kadıköy" },
          { name: "Şirket Unvanı", value: "Moda Kitabevi" },
        ];
      });
      expect(problemsOf(o), attribute.name).toEqual([{ ...expected, severity: "error" }]);
    }
    // At the limits: accepted.
    const atLimits = order("12-anonymous-consumer", (j) => {
      j.note_attributes = [
        { name: "Vergi Numarası", value: "9860008925" },
        { name: "Vergi Dairesi", value: "K".repeat(100) },
        { name: "Şirket Unvanı", value: "Ş".repeat(255) },
      ];
    });
    const r = mapOrderToInvoice(atLimits, ctx("12-anonymous-consumer"));
    expect(r.ok && r.body.customer).toMatchObject({
      type: "company",
      title: "Ş".repeat(255),
      tax_office: "K".repeat(100),
    });
  });

  it("holds the server's limits to the cart block's inputs", () => {
    const block = readFileSync("extensions/invoice-details/blocks/invoice-details.liquid", "utf8");
    const maxlength = (id: string) =>
      Number(block.match(new RegExp(`id="\\{\\{ uid \\}\\}-${id}"[^>]*?maxlength="(\\d+)"`))?.[1]);
    expect({
      title: maxlength("title"),
      office: maxlength("office"),
      vkn: maxlength("vkn"),
      tckn: maxlength("tckn"),
    }).toEqual({
      title: ATTRIBUTE_LIMITS.companyTitle,
      office: ATTRIBUTE_LIMITS.taxOffice,
      vkn: ATTRIBUTE_LIMITS.taxNumber,
      tckn: ATTRIBUTE_LIMITS.taxNumber,
    });
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
    expect(r.ok && r.body.customer).toMatchObject({
      type: "company",
      tax_number: "9860008925",
      tax_office: "Kadıköy",
      title: "Moda Kitabevi Ltd. Şti.",
    });
  });

  it("reports a number that fails its checksum with the value and the note attribute it came from, and posts nothing", () => {
    const citizen = order("01-single-item-citizen", (j) => {
      j.note_attributes = [{ name: "T.C. Kimlik No", value: "123 456 789 01" }];
    });
    const r = mapOrderToInvoice(citizen, ctx("01-single-item-citizen"));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([
      {
        code: "customer.invalid_tax_number",
        severity: "error",
        params: { value: "123 456 789 01", source: "T.C. Kimlik No" },
      },
    ]);
    const repeated = order("09-company-buyer", (j) => {
      j.note_attributes = [
        { name: "VKN", value: "4444444444" },
        { name: "Vergi Dairesi", value: "Nilüfer" },
      ];
    });
    expect(!mapOrderToInvoice(repeated, ctx("09-company-buyer")).ok).toBe(true);
  });

  it("reports a bad number in the billing company as coming from that field", () => {
    const o = order("12-anonymous-consumer", (j) => {
      j.note_attributes = [];
      j.billing_address.company = "Moda Kitabevi 9860008926";
    });
    const r = mapOrderToInvoice(o, ctx("12-anonymous-consumer"));
    expect(!r.ok && r.problems).toEqual([
      { code: "customer.invalid_tax_number_in_company", severity: "error", params: { value: "9860008926" } },
    ]);
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
    const r = mapOrderToInvoice(
      order("01-single-item-citizen"),
      ctx("01-single-item-citizen", { now: new Date("2026-12-31T21:30:00Z") }),
    );
    expect(r.ok && [r.body.issue_date, r.body.issue_time]).toEqual(["2027-01-01", "00:30"]);
  });
});

describe("tips", () => {
  it("a tip line (no product, named Tip, equal to total_tip_received) is left off the invoice and noted", () => {
    const o = order("21-pos-sale", (j) => {
      j.total_tip_received = "30.00";
      j.total_price = "345.00";
      j.current_total_price = "345.00";
      j.line_items.push({
        ...j.line_items[0],
        id: 999,
        product_id: null,
        variant_id: null,
        title: "Tip",
        name: "Tip",
        quantity: 1,
        current_quantity: 1,
        price: "30.00",
        price_set: undefined,
        tax_lines: [],
        discount_allocations: [],
        taxable: false,
        requires_shipping: false,
      });
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

describe("cash sale or not, by Shopify's financial status", () => {
  // Shopify's statuses (REST financial_status, GraphQL displayFinancialStatus in lower case; "unpaid" is the REST
  // orders filter's name for those not paid): an order not (yet) paid, only authorized, partly paid or voided is no
  // cash sale, so it carries no payment date (the service requires payment_date only when cash_sale is true).
  const mapped = (status: string | null | undefined) => {
    const o = order("12-anonymous-consumer", (j) => {
      if (status === undefined) delete j.financial_status;
      else j.financial_status = status;
    });
    const r = mapOrderToInvoice(o, ctx("12-anonymous-consumer"));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return r.body;
  };

  it.each(["pending", "authorized", "unpaid", "partially_paid", "voided"])(
    "%s: no cash sale, no payment date",
    (status) => {
      const body = mapped(status);
      expect(body.cash_sale).toBe(false);
      expect(body.payment_date).toBeUndefined();
      expect(body.internet_sale?.payment_date).toBeUndefined();
    },
  );

  it.each(["paid", "partially_refunded", "refunded"])("%s: a cash sale with its payment date", (status) => {
    expect(mapped(status)).toMatchObject({
      cash_sale: true,
      payment_date: "2026-11-21",
      internet_sale: { payment_date: "2026-11-21" },
    });
  });

  it("no status at all (orders/paid is sent once the order is paid) is a cash sale", () => {
    for (const status of [undefined, null])
      expect(mapped(status)).toMatchObject({ cash_sale: true, payment_date: "2026-11-21" });
  });
});

describe("sales abroad", () => {
  const ok = (r: ReturnType<typeof mapOrderToInvoice>) => {
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return r;
  };

  it("38: an order shipped abroad with no tax lines is an export at 0 % with the default exemption 301, never the default 20 %", () => {
    const context = ctx("38-export-no-tax-lines");
    expect(context.settings.defaultTaxRate).toBe("20");
    expect(context.settings.exemptionCode).toBeUndefined(); // the export exemption does not need the general one
    const r = ok(mapOrderToInvoice(order("38-export-no-tax-lines"), context));
    expect(r.body.type).toBe("ISTISNA");
    expect(r.body.lines.map((l) => [l.tax_rate, l.exemption_code, l.exemption_reason])).toEqual([
      ["0", "301", "11/1-a Mal İhracatı"],
      ["0", "301", "11/1-a Mal İhracatı"],
      ["0", "301", "11/1-a Mal İhracatı"],
    ]);
    expect(r.body.customer).toMatchObject({ type: "person", tax_number: "2222222222", country: "Germany" });
    expect(r.totals).toMatchObject({ tax_total: "0.00", grand_total: "4441.00" });
    expect(r.paid).toBe("4441.00");
    expect(codes(mapOrderToInvoice(order("38-export-no-tax-lines"), context))).toContain("order.export_zero_rated");
  });

  it("the same order shipped inside Turkey keeps the shop's default rate (the rule is only for exports)", () => {
    const domestic = order("38-export-no-tax-lines", (j) => {
      for (const address of [j.billing_address, j.shipping_address])
        Object.assign(address, { country: "Turkey", country_code: "TR", province: "İzmir", city: "Konak" });
    });
    const r = ok(mapOrderToInvoice(domestic, ctx("38-export-no-tax-lines")));
    expect(r.body.type).toBe("SATIS");
    expect(r.body.lines.every((l) => l.tax_rate === "20" && l.exemption_code === undefined)).toBe(true);
    expect(r.body.customer!.tax_number).toBe("11111111111");
  });

  it("prices excluding VAT add nothing on an export: the invoice equals what the buyer paid", () => {
    const r = ok(
      mapOrderToInvoice(
        order("38-export-no-tax-lines"),
        ctx("38-export-no-tax-lines", {}, { pricesIncludeVat: false }),
      ),
    );
    expect(r.totals.grand_total).toBe("4441.00");
    expect(r.warnings.map((w) => w.code)).not.toContain("order.vat_added_to_prices");
  });

  it("the export exemption is a setting: another code and text are used as given", () => {
    const r = ok(
      mapOrderToInvoice(
        order("38-export-no-tax-lines"),
        ctx(
          "38-export-no-tax-lines",
          {},
          { exportExemptionCode: "302", exportExemptionReason: "11/1-a Hizmet İhracatı" },
        ),
      ),
    );
    expect(
      r.body.lines.every((l) => l.exemption_code === "302" && l.exemption_reason === "11/1-a Hizmet İhracatı"),
    ).toBe(true);
    expect(() => MappingSettingsSchema.parse({ exportExemptionCode: "30" })).toThrow();
  });

  it("goods shipped abroad for a buyer billed in Turkey are still an export, made out to the buyer-abroad number", () => {
    const gift = order("38-export-no-tax-lines", (j) => {
      Object.assign(j.billing_address, { country: "Turkey", country_code: "TR", province: "İzmir", city: "Konak" });
    });
    const r = ok(mapOrderToInvoice(gift, ctx("38-export-no-tax-lines")));
    expect(r.body.type).toBe("ISTISNA");
    expect(r.body.customer).toMatchObject({ tax_number: "2222222222", city: "İzmir" });
  });

  it("a foreign buyer on whose order the shop collected VAT is invoiced with that VAT (13 stays SATIS at 20 %)", () => {
    const r = ok(mapOrderToInvoice(order("13-foreign-buyer"), ctx("13-foreign-buyer")));
    expect(r.body.type).toBe("SATIS");
    expect(r.body.lines.every((l) => l.tax_rate === "20")).toBe(true);
    expect(r.warnings.map((w) => w.code)).not.toContain("order.export_zero_rated");
  });

  it("07: 0 % tax lines abroad take the export exemption even when the shop's general exemption is not set", () => {
    const r = ok(
      mapOrderToInvoice(
        order("07-zero-rate-export-with-exemption"),
        ctx(
          "07-zero-rate-export-with-exemption",
          {},
          { exemptionCode: undefined, exemptionReason: undefined, invoiceType: "SATIS" },
        ),
      ),
    );
    expect(r.body.type).toBe("ISTISNA");
    expect(r.body.lines.every((l) => l.exemption_code === "301")).toBe(true);
    expect(r.warnings.map((w) => w.code)).not.toContain("order.export_zero_rated"); // its own tax lines already said 0 %
  });

  it("39: paid in EUR and invoiced in EUR at the order's rate; a foreign VAT id goes on the note, the number stays 2222222222", () => {
    const r = ok(mapOrderToInvoice(order("39-export-eur-foreign-tax-id"), ctx("39-export-eur-foreign-tax-id")));
    expect(r.body).toMatchObject({
      type: "ISTISNA",
      currency: "EUR",
      currency_rate: "40",
      description: "Alıcı vergi no / Buyer tax ID: FR 12 345678901",
    });
    expect(r.body.customer).toMatchObject({ type: "person", tax_number: "2222222222" });
    expect(r.totals.grand_total).toBe("110.00");
    expect(r.warnings.map((w) => w.code)).toContain("customer.foreign_tax_id");
    const inTry = ok(
      mapOrderToInvoice(
        order("39-export-eur-foreign-tax-id"),
        ctx("39-export-eur-foreign-tax-id", {}, { invoiceCurrency: "shop" }),
      ),
    );
    expect(inTry.body).toMatchObject({ currency: "TRY", currency_rate: "1" });
    expect(inTry.totals.grand_total).toBe("4400.00");
  });

  it("a buyer abroad who gives a valid Turkish number is invoiced under it (company with office and title, or citizen)", () => {
    const company = order("38-export-no-tax-lines", (j) => {
      j.note_attributes = [
        { name: "Vergi Numarası", value: "0720039666" },
        { name: "Vergi Dairesi", value: "Nilüfer" },
      ];
      j.billing_address.company = "Anadolu Tekstil GmbH";
    });
    const r = ok(mapOrderToInvoice(company, ctx("38-export-no-tax-lines")));
    expect(r.body.customer).toMatchObject({
      type: "company",
      tax_number: "0720039666",
      tax_office: "Nilüfer",
      title: "Anadolu Tekstil GmbH",
    });
    expect(r.body.description).toBeUndefined();
    const citizen = order("38-export-no-tax-lines", (j) => {
      j.note_attributes = [{ name: "TC Kimlik No", value: "10000000146" }];
    });
    expect(ok(mapOrderToInvoice(citizen, ctx("38-export-no-tax-lines"))).body.customer).toMatchObject({
      type: "person",
      tax_number: "10000000146",
    });
  });

  it("a foreign id that looks Turkish but fails the check digit is not refused abroad: it is a foreign id", () => {
    const o = order("38-export-no-tax-lines", (j) => {
      j.note_attributes = [{ name: "VKN", value: "1234567891" }];
    });
    const r = ok(mapOrderToInvoice(o, ctx("38-export-no-tax-lines")));
    expect(r.body.customer!.tax_number).toBe("2222222222");
    expect(r.body.description).toBe("Alıcı vergi no / Buyer tax ID: 1234567891");
  });
});

describe("rules of the body, one by one (mutation testing, issue 28)", () => {
  const ok = (r: ReturnType<typeof mapOrderToInvoice>) => {
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return r;
  };

  it("a shop currency other than TRY is refused naming that currency", () => {
    const o = order("12-anonymous-consumer", (j) => {
      j.currency = "EUR";
    });
    const r = mapOrderToInvoice(o, ctx("12-anonymous-consumer"));
    expect(!r.ok && r.problems).toEqual([
      { code: "order.currency_rate_unavailable", severity: "error", params: { currency: "EUR" } },
    ]);
  });

  it("a domestic 0 % line carries the shop's exemption code and text; a 20 % line carries no exemption at all", () => {
    const exemption = { exemptionCode: "351", exemptionReason: "KDV İstisna Olmayan Diğer" };
    const r = ok(
      mapOrderToInvoice(order("08-zero-rate-without-exemption"), ctx("08-zero-rate-without-exemption", {}, exemption)),
    );
    const gold = r.body.lines.find((l) => l.tax_rate === "0")!;
    expect(gold).toMatchObject({
      name: "Külçe Altın 1 gr",
      exemption_code: "351",
      exemption_reason: "KDV İstisna Olmayan Diğer",
    });
    const shipping = r.body.lines.find((l) => l.tax_rate === "20")!;
    expect(Object.keys(shipping)).not.toContain("exemption_code");
    expect(Object.keys(shipping)).not.toContain("exemption_reason");
  });

  it("a 0 % line needs both the exemption code and its text (the service refuses either alone)", () => {
    for (const half of [{ exemptionCode: "351" }, { exemptionReason: "KDV İstisna Olmayan Diğer" }]) {
      const r = mapOrderToInvoice(
        order("08-zero-rate-without-exemption"),
        ctx("08-zero-rate-without-exemption", {}, half),
      );
      expect(!r.ok && r.problems, JSON.stringify(half)).toEqual([
        { code: "line.zero_rate_without_exemption", severity: "error", params: { line: "Külçe Altın 1 gr" } },
      ]);
    }
  });

  it("the unknown-gateway warning names the gateway, so that the merchant can map it", () => {
    const o = order("12-anonymous-consumer", (j) => {
      j.payment_gateway_names = ["Acme Pay"];
    });
    expect(ok(mapOrderToInvoice(o, ctx("12-anonymous-consumer"))).warnings).toContainEqual({
      code: "payment.unknown_method",
      severity: "warning",
      params: { gateway: "Acme Pay" },
    });
  });

  it("the payment date is the day Shopify processed the payment, else the day of the order", () => {
    const processedLater = order("12-anonymous-consumer", (j) => {
      j.created_at = "2026-11-20T19:45:00+03:00";
      j.processed_at = "2026-11-21T09:15:00+03:00";
    });
    expect(ok(mapOrderToInvoice(processedLater, ctx("12-anonymous-consumer"))).body).toMatchObject({
      payment_date: "2026-11-21",
      order_created_at: "2026-11-20",
    });
    const unprocessed = order("12-anonymous-consumer", (j) => {
      j.created_at = "2026-11-20T19:45:00+03:00";
      j.processed_at = null;
    });
    expect(ok(mapOrderToInvoice(unprocessed, ctx("12-anonymous-consumer"))).body).toMatchObject({
      payment_date: "2026-11-20",
      internet_sale: { payment_date: "2026-11-20" },
    });
  });

  it("the web address is the storefront's, trimmed; without one, the shop's myshopify address", () => {
    const webAddress = (shop: Partial<MappingContext["shop"]>) =>
      ok(
        mapOrderToInvoice(
          order("12-anonymous-consumer"),
          ctx("12-anonymous-consumer", {
            shop: { domain: "ornek-magaza.myshopify.com", timezone: "Europe/Istanbul", currency: "TRY", ...shop },
          }),
        ),
      ).body.internet_sale?.web_address;
    expect(webAddress({ storefrontUrl: " https://www.ornekmagaza.com.tr " })).toBe("https://www.ornekmagaza.com.tr");
    expect(webAddress({ storefrontUrl: null })).toBe("https://ornek-magaza.myshopify.com");
    expect(webAddress({ storefrontUrl: "  " })).toBe("https://ornek-magaza.myshopify.com");
  });

  it("the payment platform is cut to the service's 255 characters", () => {
    const gateway = `Ödeme Aracı ${"X".repeat(300)}`;
    const o = order("12-anonymous-consumer", (j) => {
      j.payment_gateway_names = [gateway];
    });
    expect(ok(mapOrderToInvoice(o, ctx("12-anonymous-consumer"))).body.internet_sale?.payment_platform).toBe(
      gateway.slice(0, 255),
    );
  });

  it("1 × 99.99 incl. 20 % cannot be invoiced exactly (net 83.32 → 99.98, 83.33 → 100.00): the lower total, with a warning of the cent", () => {
    const o = order("16-digital-goods", (j) => {
      j.line_items = [
        {
          ...j.line_items[0],
          price: "99.99",
          price_set: undefined,
          tax_lines: [{ title: "KDV %20", price: "16.67", rate: 0.2 }],
        },
      ];
      j.tax_lines = [{ title: "KDV %20", price: "16.67", rate: 0.2 }];
      j.total_price = j.current_total_price = j.subtotal_price = "99.99";
      j.total_price_set = j.current_total_price_set = undefined;
    });
    const r = ok(mapOrderToInvoice(o, ctx("16-digital-goods")));
    expect(r.body.lines.map((l) => [l.quantity, l.unit_price, l.tax_rate])).toEqual([[1, "83.32", "20"]]);
    expect(r.totals.grand_total).toBe("99.98");
    expect([r.paid, r.difference]).toEqual(["99.99", "-0.01"]);
    expect(r.warnings).toEqual([
      { code: "totals.rounding_difference", severity: "warning", params: { difference: "-0.01" } },
    ]);
  });
});

describe("the check against Shopify's order total", () => {
  const mismatch = (r: ReturnType<typeof mapOrderToInvoice>) =>
    (r.ok ? r.warnings : []).filter((w) => w.code === "order.total_mismatch");

  it("runs on an order without a refunds field, and whatever other warning the order has", () => {
    const noRefundsField = order("12-anonymous-consumer", (j) => {
      delete j.refunds;
      j.current_total_price = "358.90";
    });
    expect(mismatch(mapOrderToInvoice(noRefundsField, ctx("12-anonymous-consumer")))).toHaveLength(1);
    const otherWarning = order("12-anonymous-consumer", (j) => {
      j.payment_gateway_names = ["Acme Pay"];
      j.current_total_price = "358.90";
    });
    const r = mapOrderToInvoice(otherWarning, ctx("12-anonymous-consumer"));
    expect(codes(r)).toContain("payment.unknown_method");
    expect(mismatch(r)).toHaveLength(1);
  });

  it("is skipped after a refund, whose rounding Shopify does not expose", () => {
    const o = order("19-partial-refund", (j) => {
      j.current_total_price = "602.70";
    });
    const r = mapOrderToInvoice(o, ctx("19-partial-refund"));
    expect(r.ok && r.paid).toBe("602.72");
    expect(mismatch(r)).toEqual([]);
  });

  it("is skipped when the invoice is in the customer's currency and the order gives no total in it", () => {
    const o = order("22-presentment-eur-invoiced-in-eur", (j) => {
      j.current_total_price_set = null;
    });
    const r = mapOrderToInvoice(o, ctx("22-presentment-eur-invoiced-in-eur"));
    expect(r.ok && r.paid).toBe("80.00");
    // No check, so nothing added to the warnings the order has with its total (the buyer abroad).
    const withTotal = mapOrderToInvoice(
      order("22-presentment-eur-invoiced-in-eur"),
      ctx("22-presentment-eur-invoiced-in-eur"),
    );
    expect(r.ok && r.warnings).toEqual(withTotal.warnings);
    expect(r.ok && r.warnings.map((w) => w.code)).toEqual(["customer.foreign_buyer"]);
  });
});
