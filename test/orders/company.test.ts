// A B2B order's buyer (app/orders/company.ts, and its rules in app/orders/customer.ts). The rules: Shopify B2B puts
// the buyer company on the order (`purchasingEntity` → `PurchasingCompany { company, location }`), the location holds
// the tax registration id (`taxSettings.taxRegistrationId`) and the billing address (a `CompanyAddress`); Shopify has
// no tax office field, so the merchant keeps it in a metafield (shared/spec/shopify-platform-2026-facts.md). The
// service's customer object: a company has `type` company, a 10- or 11-digit `tax_number`, a `tax_office` and a
// `title` (shared spec). VKNs and T.C. numbers as worked in test/orders/tax-id.test.ts.
import { describe, expect, it } from "vitest";
import {
  companyOf,
  metafieldKey,
  purchasingCompanyFrom,
  PurchasingEntitySchema,
  type PurchasingCompany,
} from "../../app/orders/company";
import { mapCustomer } from "../../app/orders/customer";
import { ShopifyOrderSchema, type ShopifyOrder } from "../../app/orders/order";
import type { BuyerOverride } from "../../app/orders/buyer-override";
import { buyerFactsChanged } from "../../app/orders/buyer-facts";
import { defaultMappingSettings } from "../../app/settings/schema";

const settings = defaultMappingSettings();

/** The contact who placed the order, with their own (home) billing address on the order. */
const order = (patch: Record<string, unknown> = {}): ShopifyOrder =>
  ShopifyOrderSchema.parse({
    id: 5001,
    name: "#5001",
    created_at: "2026-11-18T10:00:00+03:00",
    currency: "TRY",
    total_price: "1200.00",
    line_items: [],
    customer: { id: 77, first_name: "Mehmet", last_name: "Kaya", email: "mehmet@acme.com.tr" },
    billing_address: {
      first_name: "Mehmet",
      last_name: "Kaya",
      address1: "Ev Sok. 1",
      city: "Üsküdar",
      province: "İstanbul",
      zip: "34660",
      country: "Turkey",
      country_code: "TR",
    },
    company: { id: 9001, location_id: 9101 },
    ...patch,
  });

/** Acme's Ankara location as the worker reads it from Shopify. */
const acme = (patch: Partial<PurchasingCompany> = {}): PurchasingCompany => ({
  companyId: "gid://shopify/Company/9001",
  locationId: "gid://shopify/CompanyLocation/9101",
  name: "Acme Makine A.Ş.",
  locationName: "Ankara Merkez",
  taxRegistrationId: "9860008925",
  taxOffice: "Çankaya",
  billingAddress: {
    first_name: null,
    last_name: null,
    company: "Acme Makine A.Ş.",
    address1: "Atatürk Bulv. 100",
    address2: "Kat 4",
    city: "Çankaya",
    province: "Ankara",
    province_code: "TR-06",
    zip: "06420",
    country: "Turkey",
    country_code: "TR",
    phone: "+90 312 000 00 00",
  },
  ...patch,
});

describe("a B2B order's company as Shopify answers it", () => {
  const answer = (entity: unknown) =>
    PurchasingEntitySchema.parse({ order: { id: "gid://shopify/Order/5001", purchasingEntity: entity } });
  const company = (location: Record<string, unknown>, companyTaxOffice: string | null = null) => ({
    __typename: "PurchasingCompany",
    company: {
      id: "gid://shopify/Company/9001",
      name: "Acme Makine A.Ş.",
      taxOffice: companyTaxOffice === null ? null : { value: companyTaxOffice },
    },
    location: {
      id: "gid://shopify/CompanyLocation/9101",
      name: "Ankara Merkez",
      taxSettings: { taxRegistrationId: " 9860008925 " },
      billingAddress: {
        address1: "Atatürk Bulv. 100",
        address2: null,
        city: "Çankaya",
        province: "Ankara",
        zoneCode: "TR-06",
        zip: "06420",
        country: "Turkey",
        countryCode: "TR",
        companyName: "Acme Makine A.Ş.",
        firstName: null,
        lastName: null,
        phone: null,
      },
      taxOffice: { value: "Çankaya" },
      ...location,
    },
  });

  it("takes the name, the location's id, number, address and tax office (the location's before the company's)", () => {
    expect(purchasingCompanyFrom(answer(company({}, "Kavaklıdere")))).toEqual({
      companyId: "gid://shopify/Company/9001",
      locationId: "gid://shopify/CompanyLocation/9101",
      name: "Acme Makine A.Ş.",
      locationName: "Ankara Merkez",
      taxRegistrationId: "9860008925",
      taxOffice: "Çankaya",
      billingAddress: {
        first_name: null,
        last_name: null,
        company: "Acme Makine A.Ş.",
        address1: "Atatürk Bulv. 100",
        address2: null,
        city: "Çankaya",
        province: "Ankara",
        province_code: "TR-06",
        zip: "06420",
        country: "Turkey",
        country_code: "TR",
        phone: null,
      },
    });
  });

  it("falls back to the company's tax office, and has none and no number when Shopify holds none", () => {
    const facts = purchasingCompanyFrom(
      answer(
        company({ taxOffice: null, taxSettings: { taxRegistrationId: "  " }, billingAddress: null }, "Kavaklıdere"),
      ),
    );
    expect(facts).toMatchObject({ taxOffice: "Kavaklıdere", taxRegistrationId: null, billingAddress: null });
    expect(purchasingCompanyFrom(answer(company({ taxOffice: null })))?.taxOffice).toBeNull();
  });

  it("is no company for an order a customer bought, or one Shopify does not have", () => {
    expect(purchasingCompanyFrom(answer({ __typename: "Customer" }))).toBeNull();
    expect(purchasingCompanyFrom(answer(null))).toBeNull();
    expect(purchasingCompanyFrom(PurchasingEntitySchema.parse({ order: null }))).toBeNull();
  });

  it("refuses an answer whose ids are not Shopify's", () => {
    expect(() => answer({ ...company({}), company: { id: "9001", name: "x", taxOffice: null } })).toThrow();
  });
});

describe("what the order itself says about its company", () => {
  it("names the location as GIDs, says none when the webhook says null, and unknown without the field", () => {
    expect(companyOf(order())).toEqual({
      companyId: "gid://shopify/Company/9001",
      locationId: "gid://shopify/CompanyLocation/9101",
    });
    expect(companyOf(order({ company: null }))).toBe("none");
    const { company: _dropped, ...withoutField } = order() as Record<string, unknown>;
    expect(companyOf(ShopifyOrderSchema.parse(withoutField))).toBe("unknown");
    expect(companyOf(order({ company: { id: 9001 } }))).toBe("unknown");
    expect(companyOf(order({ company: { id: 9001, location_id: null } }))).toBe("unknown");
    expect(companyOf(order({ company: { id: null, location_id: 9101 } }))).toBe("unknown");
    expect(companyOf(order({ company: { location_id: 9101 } }))).toBe("unknown");
  });

  it("is kept in the stored snapshot and a change of location is a change of buyer", () => {
    expect(buyerFactsChanged(order(), order({ company: { id: 9001, location_id: 9102 } }))).toBe(true);
    expect(buyerFactsChanged(order(), order({ company: { id: "9001", location_id: "9101" } }))).toBe(false);
  });

  it("reads Settings' metafield as namespace.key", () => {
    expect(metafieldKey(" custom.tax_office ")).toEqual({ namespace: "custom", key: "tax_office" });
    expect(metafieldKey("tax_office")).toBeNull();
    expect(metafieldKey("a.b")).toBeNull();
    expect(metafieldKey("custom.tax office")).toBeNull();
    expect(metafieldKey("my custom.tax_office")).toBeNull();
  });
});

describe("the invoice's buyer of a B2B order", () => {
  it("is the company: its VKN, name as title, tax office from the metafield and the location's billing address", () => {
    const mapped = mapCustomer(order(), settings, null, null, acme());
    expect(mapped.errors).toEqual([]);
    expect(mapped.customer).toEqual({
      id: 77,
      type: "company",
      tax_number: "9860008925",
      tax_office: "Çankaya",
      title: "Acme Makine A.Ş.",
      country: "Turkey",
      address: "Atatürk Bulv. 100 Kat 4",
      city: "Ankara",
      district: "Çankaya",
      postcode: "06420",
      phone: "+90 312 000 00 00",
      email: "mehmet@acme.com.tr",
    });
    expect(mapped.warnings).toContainEqual({
      code: "customer.from_company",
      params: { company: "Acme Makine A.Ş.", location: "Ankara Merkez" },
      severity: "warning",
    });
  });

  it("wins over a tax number and title the contact typed into the order's notes", () => {
    const typed = order({
      note_attributes: [
        { name: "Vergi Numarası", value: "0720039666" },
        { name: "Şirket Unvanı", value: "Kaya Ltd." },
        { name: "Vergi Dairesi", value: "Kadıköy" },
      ],
    });
    expect(mapCustomer(typed, settings, null, null, acme()).customer).toMatchObject({
      tax_number: "9860008925",
      title: "Acme Makine A.Ş.",
      tax_office: "Çankaya",
    });
  });

  it("with a sole trader's T.C. number is still a company (their T.C. number is their tax number)", () => {
    expect(
      mapCustomer(order(), settings, null, null, acme({ taxRegistrationId: "10000000146" })).customer,
    ).toMatchObject({ type: "company", tax_number: "10000000146", title: "Acme Makine A.Ş." });
  });

  it("with an invalid tax registration id is a problem naming the company and the value, and nothing is mapped", () => {
    const mapped = mapCustomer(order(), settings, null, null, acme({ taxRegistrationId: "1234567891" }));
    expect(mapped.customer).toBeUndefined();
    expect(mapped.errors).toEqual([
      {
        code: "customer.invalid_company_tax_number",
        params: { value: "1234567891", company: "Acme Makine A.Ş." },
        severity: "error",
      },
    ]);
  });

  it("without a tax registration id takes the number from the order's notes, and is a problem when there is none", () => {
    const typed = order({ note_attributes: [{ name: "VKN", value: "0720039666" }] });
    expect(mapCustomer(typed, settings, null, null, acme({ taxRegistrationId: null })).customer).toMatchObject({
      type: "company",
      tax_number: "0720039666",
      title: "Acme Makine A.Ş.",
    });
    const mapped = mapCustomer(order(), settings, null, null, acme({ taxRegistrationId: null }));
    expect(mapped.customer).toBeUndefined();
    expect(mapped.errors).toEqual([
      {
        code: "customer.company_without_tax_number",
        params: { company: "Acme Makine A.Ş.", location: "Ankara Merkez" },
        severity: "error",
      },
    ]);
  });

  it("without a tax office in Shopify takes the order's tax office note, and otherwise names the metafield to fill", () => {
    const noted = order({ note_attributes: [{ name: "Vergi Dairesi", value: "Ulus" }] });
    expect(mapCustomer(noted, settings, null, null, acme({ taxOffice: null })).customer?.tax_office).toBe("Ulus");
    const mapped = mapCustomer(
      order(),
      { ...settings, companyTaxOfficeMetafield: "b2b.vergi_dairesi" },
      null,
      null,
      acme({ taxOffice: null }),
    );
    expect(mapped.customer).toBeUndefined();
    expect(mapped.errors).toEqual([
      {
        code: "customer.company_without_tax_office_b2b",
        params: { company: "Acme Makine A.Ş.", metafield: "b2b.vergi_dairesi" },
        severity: "error",
      },
    ]);
  });

  it("without a billing address on the location keeps the order's", () => {
    expect(mapCustomer(order(), settings, null, null, acme({ billingAddress: null })).customer).toMatchObject({
      city: "İstanbul",
      district: "Üsküdar",
      address: "Ev Sok. 1",
    });
  });

  it("abroad is a buyer abroad named by its company, its own tax id on the note, never checked as a VKN", () => {
    const berlin = {
      first_name: null,
      last_name: null,
      company: "Acme GmbH",
      address1: "Hauptstraße 1",
      address2: null,
      city: "Berlin",
      province: null,
      province_code: null,
      zip: "10115",
      country: "Germany",
      country_code: "DE",
      phone: null,
    };
    const mapped = mapCustomer(
      order(),
      settings,
      null,
      null,
      acme({ name: "Acme GmbH", taxRegistrationId: "DE123456789", billingAddress: berlin }),
    );
    expect(mapped.errors).toEqual([]);
    expect(mapped.customer).toMatchObject({
      type: "person",
      tax_number: settings.foreignBuyerTaxNumber,
      title: "Acme GmbH",
      country: "Germany",
      city: "Berlin",
    });
    expect(mapped.foreignTaxId).toBe("DE123456789");
    // Printed on a legal document: printable characters only, at most 40.
    const long = mapCustomer(
      order(),
      settings,
      null,
      null,
      acme({ taxRegistrationId: ` DE<123>${"9".repeat(50)} `, billingAddress: berlin }),
    );
    expect(long.foreignTaxId).toBe(`DE123${"9".repeat(35)}`);
    expect(
      mapCustomer(order(), settings, null, null, acme({ taxRegistrationId: "<>", billingAddress: berlin }))
        .foreignTaxId,
    ).toBeUndefined();
  });

  it("is the buyer the merchant set on the invoice page when there is one", () => {
    const override: BuyerOverride = {
      kind: "company",
      taxNumber: "0720039666",
      title: "Başka A.Ş.",
      taxOffice: "Beyoğlu",
      reason: "muhasebe",
      at: "2026-11-20T10:00:00.000Z",
    };
    const mapped = mapCustomer(order(), settings, null, override, acme());
    expect(mapped.customer).toMatchObject({
      tax_number: "0720039666",
      title: "Başka A.Ş.",
      tax_office: "Beyoğlu",
      city: "İstanbul",
    });
    expect(mapped.warnings.map((w) => w.code)).not.toContain("customer.from_company");
  });

  it("is the order's own buyer when no company was read (a customer's order, or no scope)", () => {
    expect(mapCustomer(order(), settings, null, null, null).customer).toMatchObject({
      type: "person",
      tax_number: "11111111111",
      title: "Mehmet Kaya",
    });
  });
});
