// The invoice's buyer (app/orders/customer.ts) on small orders, rule by rule. The rules come from the invoicing
// service's customer object (shared spec: `type` person or company, `tax_number` 10 or 11 digits, `tax_office` and
// the company `title` required for a company, a person's title is the name; `country`, `address`, `city` = the
// province, `district` required), from Shopify's order shape (note attributes, billing and shipping addresses with
// `province` = il and `city` = ilçe in Turkey, `customer` null for guests) and from e-archive practice
// (11111111111 for an anonymous final consumer, 2222222222 for a buyer abroad). The numbers used are worked by hand
// in test/orders/tax-id.test.ts: VKNs 9860008925, 0720039666, 1112223339; T.C. numbers 10000000146, 12345678950.
import { describe, expect, it } from "vitest";
import { ATTRIBUTE_LIMITS, buyerDraft, mapCustomer, type MappedCustomer } from "../../app/orders/customer";
import type { BuyerOverride } from "../../app/orders/buyer-override";
import { ShopifyOrderSchema, type ShopifyOrder } from "../../app/orders/order";
import { defaultMappingSettings, type MappingSettings } from "../../app/settings/schema";

type Json = Record<string, unknown>;

/** A Turkish billing address as Shopify sends it: province = il (İstanbul), city = ilçe (Kadıköy). */
const istanbul = {
  first_name: "Ayşe",
  last_name: "Yılmaz",
  company: null,
  address1: "Moda Cad. No: 5",
  address2: "Daire 3",
  city: "Kadıköy",
  province: "İstanbul",
  zip: "34710",
  country: "Turkey",
  country_code: "TR",
  phone: "+90 555 111 22 33",
};

/** A German address: no province, so the city is both city and district. */
const berlin = {
  first_name: "Anna",
  last_name: "Schmidt",
  address1: "Hauptstraße 1",
  city: "Berlin",
  province: null,
  zip: "10115",
  country: "Germany",
  country_code: "DE",
};

const order = (patch: Json = {}): ShopifyOrder =>
  ShopifyOrderSchema.parse({
    id: 1001,
    name: "#1001",
    created_at: "2026-11-18T10:00:00+03:00",
    currency: "TRY",
    total_price: "100.00",
    line_items: [],
    billing_address: istanbul,
    ...patch,
  });

const settings = (patch: Partial<MappingSettings> = {}): MappingSettings => ({ ...defaultMappingSettings(), ...patch });

const attrs = (...pairs: Array<[string, string | number | null | undefined]>) => ({
  note_attributes: pairs.map(([name, value]) => (value === undefined ? { name } : { name, value })),
});

const map = (
  o: ShopifyOrder,
  s: MappingSettings = settings(),
  exportTo?: { country: string } | null,
  override?: BuyerOverride | null,
) => mapCustomer(o, s, exportTo, override);
const codes = (r: MappedCustomer) => [...r.errors, ...r.warnings].map((p) => p.code);
const errorCodes = (r: MappedCustomer) => r.errors.map((p) => p.code);

describe("the buyer's identity from the note attributes", () => {
  it("an order without a number is the anonymous final consumer, named from the billing address", () => {
    const r = map(order());
    // toStrictEqual: no key with an undefined value (foreignTaxId, an absent postcode…) may appear.
    expect(r).toStrictEqual({
      customer: {
        id: "guest-1001",
        type: "person",
        tax_number: "11111111111",
        title: "Ayşe Yılmaz",
        name: "Ayşe",
        surname: "Yılmaz",
        country: "Turkey",
        address: "Moda Cad. No: 5 Daire 3",
        city: "İstanbul",
        district: "Kadıköy",
        postcode: "34710",
        phone: "+90 555 111 22 33",
      },
      errors: [],
      warnings: [],
    });
  });

  it("a VKN makes a company, with the tax office and title the buyer typed", () => {
    const r = map(
      order(
        attrs(
          ["Vergi Numarası", "9860008925"],
          ["Vergi Dairesi", "Kadıköy"],
          ["Şirket Unvanı", "Moda Kitabevi Ltd. Şti."],
        ),
      ),
    );
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.customer).toMatchObject({
      type: "company",
      tax_number: "9860008925",
      tax_office: "Kadıköy",
      title: "Moda Kitabevi Ltd. Şti.",
    });
    // A company carries no first and last name (they are a natural person's fields).
    expect(r.customer).not.toHaveProperty("name");
    expect(r.customer).not.toHaveProperty("surname");
  });

  it("a T.C. number makes a citizen, under their own number and name", () => {
    const r = map(order(attrs(["TC Kimlik No", "10000000146"])));
    expect(r.errors).toEqual([]);
    expect(r.customer).toMatchObject({
      type: "person",
      tax_number: "10000000146",
      title: "Ayşe Yılmaz",
      name: "Ayşe",
      surname: "Yılmaz",
    });
    expect(r.customer).not.toHaveProperty("tax_office");
  });

  it("either kind from either field: a VKN in the citizen field is a company, a T.C. number in the tax field a citizen", () => {
    const company = map(
      order(attrs(["TCKN", "0720039666"], ["Vergi Dairesi", "Nilüfer"], ["Firma Unvanı", "Aras Kargo A.Ş."])),
    );
    expect(company.customer).toMatchObject({
      type: "company",
      tax_number: "0720039666",
      tax_office: "Nilüfer",
      title: "Aras Kargo A.Ş.",
    });
    const citizen = map(order(attrs(["VKN", "12345678950"])));
    expect(citizen.customer).toMatchObject({ type: "person", tax_number: "12345678950" });
  });

  it("the tax-number fields are read before the citizen-number fields, whatever their order on the order", () => {
    const r = map(
      order(
        attrs(
          ["TC Kimlik No", "10000000146"],
          ["Vergi No", "9860008925"],
          ["Vergi Dairesi", "Kadıköy"],
          ["Fatura Unvanı", "Moda Kitabevi"],
        ),
      ),
    );
    expect(r.customer).toMatchObject({ type: "company", tax_number: "9860008925" });
  });

  it("names match folded (case, Turkish i, accents, punctuation) and the number as typed is normalised", () => {
    const r = map(
      order(
        attrs(
          ["  vergi_numarasi ", " 986 000 89-25 "],
          ["VERGİ DAİRESİ", "  Kadıköy  "],
          ["sirket unvani", "Moda  Kitabevi"],
        ),
      ),
    );
    expect(r.customer).toMatchObject({
      type: "company",
      tax_number: "9860008925",
      tax_office: "Kadıköy",
      title: "Moda Kitabevi",
    });
  });

  it("a number sent as a JSON number is read like the same digits as text", () => {
    const r = map(
      order(attrs(["Vergi No", 9860008925], ["Vergi Dairesi", "Kadıköy"], ["Şirket Unvanı", "Moda Kitabevi"])),
    );
    expect(r.customer).toMatchObject({ type: "company", tax_number: "9860008925" });
  });

  it("an attribute with no value, or only blanks, is skipped: the next one of a wanted name is read", () => {
    for (const empty of [null, undefined, "   "]) {
      const r = map(
        order(
          attrs(
            ["VKN", empty],
            ["Vergi Numarası", "9860008925"],
            ["Vergi Dairesi", empty],
            ["Vergi Dairesi", "Kadıköy"],
            ["Şirket Unvanı", "Moda Kitabevi"],
          ),
        ),
      );
      expect(r.errors, String(empty)).toEqual([]);
      expect(r.customer, String(empty)).toMatchObject({
        type: "company",
        tax_number: "9860008925",
        tax_office: "Kadıköy",
      });
    }
  });

  it("attributes of other names are not read", () => {
    const r = map(order(attrs(["Hediye notu", "9860008925"], ["Vergi Dairesi", "Kadıköy"])));
    expect(r.customer).toMatchObject({ type: "person", tax_number: "11111111111" });
  });

  it("the anonymous number typed by the buyer is the anonymous consumer, not a refused number", () => {
    // 11111111111 alone would fail the T.C. rules (repeated digits); the e-archive practice gives it this meaning.
    const r = map(order(attrs(["TC Kimlik No", "111 111 111 11"])));
    expect(r.errors).toEqual([]);
    expect(r.customer).toMatchObject({ type: "person", tax_number: "11111111111", title: "Ayşe Yılmaz" });
  });

  it("a number that fails its check names the value as typed and the attribute it came from; no customer is made", () => {
    const r = map(order(attrs(["T.C. Kimlik No", "123 456 789 51"])));
    expect(r).toStrictEqual({
      errors: [
        {
          code: "customer.invalid_tax_number",
          params: { value: "123 456 789 51", source: "T.C. Kimlik No" },
          severity: "error",
        },
      ],
      warnings: [],
      customer: undefined,
    });
  });

  it("a company needs its tax office and its title (the service requires both for a legal entity)", () => {
    const r = map(order(attrs(["VKN", "1112223339"])));
    expect(r.customer).toBeUndefined();
    expect(r.errors).toEqual([
      { code: "customer.company_without_tax_office", params: { taxNumber: "1112223339" }, severity: "error" },
      { code: "customer.company_without_title", params: { taxNumber: "1112223339" }, severity: "error" },
    ]);
    const withOffice = map(order(attrs(["VKN", "1112223339"], ["Vergi Dairesi", "Beyoğlu"])));
    expect(errorCodes(withOffice)).toEqual(["customer.company_without_title"]);
    const withTitle = map(order(attrs(["VKN", "1112223339"], ["Şirket Unvanı", "Galata Ltd."])));
    expect(errorCodes(withTitle)).toEqual(["customer.company_without_tax_office"]);
  });

  it("a company is not warned about a missing person's name", () => {
    const r = map(
      order({
        ...attrs(["VKN", "9860008925"], ["Vergi Dairesi", "Kadıköy"], ["Şirket Unvanı", "Moda Kitabevi"]),
        billing_address: { ...istanbul, first_name: null, last_name: null },
      }),
    );
    expect(codes(r)).toEqual([]);
    expect(r.customer).toMatchObject({ type: "company", title: "Moda Kitabevi" });
  });
});

describe("a number in the billing address's company field", () => {
  const withCompany = (company: string, more: Json = {}) =>
    order({ billing_address: { ...istanbul, company }, ...more });
  const office = attrs(["Vergi Dairesi", "Kadıköy"]);

  it("a VKN written into the company makes a company whose title is the rest of the field", () => {
    const cases: Array<[string, string]> = [
      ["Moda Kitabevi Ltd. Şti. 9860008925", "Moda Kitabevi Ltd. Şti."],
      ["Moda Kitabevi - 9860008925", "Moda Kitabevi"],
      ["Moda Kitabevi / 9860008925 ,", "Moda Kitabevi"],
      ["Moda Kitabevi, 9860008925", "Moda Kitabevi"],
      ["9860008925 - Moda Kitabevi", "Moda Kitabevi"],
      [", 9860008925 / Moda Kitabevi", "Moda Kitabevi"],
      // The number in the middle leaves two spaces, which become one.
      ["Moda 9860008925 Kitabevi", "Moda Kitabevi"],
    ];
    for (const [company, title] of cases) {
      const r = map(withCompany(company, office));
      expect(r.errors, company).toEqual([]);
      expect(r.customer, company).toMatchObject({
        type: "company",
        tax_number: "9860008925",
        tax_office: "Kadıköy",
        title,
      });
    }
  });

  it("separators inside the title are kept: only those around it go", () => {
    const r = map(withCompany("Yılmaz-Demir / Tekstil, Ltd. 9860008925", office));
    expect(r.customer).toMatchObject({ title: "Yılmaz-Demir / Tekstil, Ltd." });
  });

  it("the title is the company field without its number, whichever number the buyer is invoiced under", () => {
    // The note attribute's VKN is the buyer's number; the T.C. number in the company field is still no part of the title.
    const r = map(
      withCompany("Ayşe Yılmaz Tasarım 10000000146", attrs(["VKN", "9860008925"], ["Vergi Dairesi", "Kadıköy"])),
    );
    expect(r.customer).toMatchObject({ type: "company", tax_number: "9860008925", title: "Ayşe Yılmaz Tasarım" });
    // A longer run of digits is no number: it stays in the title.
    const long = map(withCompany("Kitap 12345678901234", attrs(["VKN", "9860008925"], ["Vergi Dairesi", "Kadıköy"])));
    expect(long.customer).toMatchObject({ type: "company", title: "Kitap 12345678901234" });
  });

  it("a T.C. number in the company is a citizen (a sole trader writing their number)", () => {
    const r = map(withCompany("Ayşe Yılmaz Tasarım 10000000146"));
    expect(r.errors).toEqual([]);
    expect(r.customer).toMatchObject({ type: "person", tax_number: "10000000146", title: "Ayşe Yılmaz" });
  });

  it("only a run of exactly 10 or 11 digits is a number: 9 or 12 digits are part of the name", () => {
    for (const company of ["Moda 986000892512", "Moda 129860008925", "Moda 986000892", "Moda 1210000000146"]) {
      const r = map(withCompany(company));
      expect(r.errors, company).toEqual([]);
      expect(r.customer, company).toMatchObject({ type: "person", tax_number: "11111111111" });
    }
  });

  it("a company field without digits leaves a domestic person anonymous, titled by their name", () => {
    const r = map(withCompany("Moda Kitabevi"));
    expect(r.customer).toMatchObject({ type: "person", tax_number: "11111111111", title: "Ayşe Yılmaz" });
  });

  it("a note attribute's number wins over one in the company", () => {
    const r = map(withCompany("Moda Kitabevi 9860008925", attrs(["TC Kimlik No", "10000000146"])));
    expect(r.customer).toMatchObject({ type: "person", tax_number: "10000000146" });
  });

  it("a bad number in the company is reported as coming from the company field", () => {
    const r = map(withCompany("Moda Kitabevi 9860008926"));
    expect(r.customer).toBeUndefined();
    expect(r.errors).toEqual([
      { code: "customer.invalid_tax_number_in_company", params: { value: "9860008926" }, severity: "error" },
    ]);
  });

  it("with the setting off, the company field is neither a number nor a title", () => {
    const off = settings({ useBillingCompany: false });
    expect(map(withCompany("Moda Kitabevi 9860008925"), off).customer).toMatchObject({
      type: "person",
      tax_number: "11111111111",
      title: "Ayşe Yılmaz",
    });
    const r = map(withCompany("Moda Kitabevi", attrs(["VKN", "9860008925"], ["Vergi Dairesi", "Kadıköy"])), off);
    expect(errorCodes(r)).toEqual(["customer.company_without_title"]);
    expect(
      map(withCompany("Moda Kitabevi", attrs(["VKN", "9860008925"], ["Vergi Dairesi", "Kadıköy"]))).customer,
    ).toMatchObject({ title: "Moda Kitabevi" });
  });

  it("a company field that is only the number gives no title", () => {
    const r = map(withCompany(" 9860008925 ", office));
    expect(r.errors).toEqual([
      { code: "customer.company_without_title", params: { taxNumber: "9860008925" }, severity: "error" },
    ]);
  });

  it("an order without a billing address is read from the shipping address, and has no company", () => {
    const r = map(
      order({ billing_address: null, shipping_address: { ...istanbul, company: "Moda Kitabevi 9860008925" } }),
    );
    expect(r.errors).toEqual([]);
    // No billing address: nothing was missing from it, so no "taken from the shipping address" warning.
    expect(r.warnings).toEqual([]);
    expect(r.customer).toMatchObject({
      type: "person",
      tax_number: "11111111111",
      city: "İstanbul",
      district: "Kadıköy",
      phone: "+90 555 111 22 33",
    });
  });
});

describe("a buyer abroad", () => {
  const abroad = (more: Json = {}) => order({ billing_address: berlin, ...more });

  it("is invoiced under the foreign-buyer number, with a warning naming the country", () => {
    const r = map(abroad({ email: "anna@example.de" }));
    expect(r).toStrictEqual({
      customer: {
        id: "guest-1001",
        type: "person",
        tax_number: "2222222222",
        title: "Anna Schmidt",
        name: "Anna",
        surname: "Schmidt",
        country: "Germany",
        address: "Hauptstraße 1",
        city: "Berlin",
        district: "Berlin",
        postcode: "10115",
        email: "anna@example.de",
      },
      errors: [],
      warnings: [
        {
          code: "customer.foreign_buyer",
          params: { country: "Germany", taxNumber: "2222222222" },
          severity: "warning",
        },
      ],
    });
  });

  it("the foreign-buyer number is a setting", () => {
    const r = map(abroad(), settings({ foreignBuyerTaxNumber: "3333333333" }));
    expect(r.customer?.tax_number).toBe("3333333333");
    expect(r.warnings[0].params).toEqual({ country: "Germany", taxNumber: "3333333333" });
  });

  it("the country code decides, in either case; the country's name is shown, else its code", () => {
    expect(map(abroad({ billing_address: { ...berlin, country_code: "de" } })).customer?.tax_number).toBe("2222222222");
    expect(map(order({ billing_address: { ...istanbul, country_code: "tr" } })).customer).toMatchObject({
      tax_number: "11111111111",
      city: "İstanbul",
      district: "Kadıköy",
    });
    const noName = map(abroad({ billing_address: { ...berlin, country: null } }));
    expect(noName.warnings[0].params).toEqual({ country: "DE", taxNumber: "2222222222" });
    expect(noName.customer?.country).toBe("DE");
  });

  it("an address without a country code is taken as Turkish", () => {
    const r = map(order({ billing_address: { ...istanbul, country_code: null } }));
    expect(r.warnings).toEqual([]);
    expect(r.customer).toMatchObject({
      tax_number: "11111111111",
      city: "İstanbul",
      district: "Kadıköy",
      country: "Turkey",
    });
  });

  it("the billing country decides over the shipping country; without a billing address, the shipping one", () => {
    expect(map(order({ shipping_address: berlin })).customer).toMatchObject({
      tax_number: "11111111111",
      country: "Turkey",
    });
    expect(map(order({ billing_address: null, shipping_address: berlin })).customer).toMatchObject({
      tax_number: "2222222222",
      country: "Germany",
    });
  });

  it("a province abroad is the district, the city the city", () => {
    const r = map(
      abroad({
        billing_address: {
          ...berlin,
          country: "United States",
          country_code: "US",
          city: "Springfield",
          province: "Illinois",
        },
      }),
    );
    expect(r.customer).toMatchObject({ city: "Springfield", district: "Illinois" });
  });

  it("a foreign tax id goes to the note (foreignTaxId) with a warning; printable characters only", () => {
    const r = map(abroad(attrs(["Vergi Numarası", "FR 12.3-4/5 (TVA)"])));
    expect(r.foreignTaxId).toBe("FR 12.3-4/5 TVA");
    expect(r.customer?.tax_number).toBe("2222222222");
    expect(r.warnings).toEqual([
      { code: "customer.foreign_buyer", params: { country: "Germany", taxNumber: "2222222222" }, severity: "warning" },
      {
        code: "customer.foreign_tax_id",
        params: { taxId: "FR 12.3-4/5 TVA", taxNumber: "2222222222" },
        severity: "warning",
      },
    ]);
  });

  it("letters of any script are kept; what is left around the id is trimmed", () => {
    expect(map(abroad(attrs(["VKN", "ÖĞÜ-Ωμ 77"]))).foreignTaxId).toBe("ÖĞÜ-Ωμ 77");
    expect(map(abroad(attrs(["VKN", "# DE 123 #"]))).foreignTaxId).toBe("DE 123");
  });

  it("an id of symbols only, the anonymous number or the foreign-buyer number are no foreign id", () => {
    for (const given of ["###", "11111111111", "2222222222", "22 222 222 22"]) {
      const r = map(abroad(attrs(["VKN", given])));
      expect(r.errors, given).toEqual([]);
      expect(r.customer?.tax_number, given).toBe("2222222222");
      expect(r, given).not.toHaveProperty("foreignTaxId");
      expect(codes(r), given).toEqual(["customer.foreign_buyer"]);
    }
  });

  it("the citizen-number field is read too, after the tax-number field", () => {
    expect(map(abroad(attrs(["TC Kimlik No", "AT U12345678"]))).foreignTaxId).toBe("AT U12345678");
    expect(map(abroad(attrs(["TC Kimlik No", "AT U12345678"], ["Vergi No", "FR 99"]))).foreignTaxId).toBe("FR 99");
  });

  it("a valid Turkish number abroad is a Turkish taxpayer: a company or a citizen, no foreign-buyer warning", () => {
    const company = map(
      abroad({
        ...attrs(["TCKN", "0720039666"], ["Vergi Dairesi", "Nilüfer"]),
        billing_address: { ...berlin, company: "Anadolu Tekstil GmbH" },
      }),
    );
    expect(company.errors).toEqual([]);
    expect(company.warnings).toEqual([]);
    expect(company.customer).toMatchObject({
      type: "company",
      tax_number: "0720039666",
      tax_office: "Nilüfer",
      title: "Anadolu Tekstil GmbH",
      country: "Germany",
    });
    const citizen = map(abroad(attrs(["VKN", "10000000146"])));
    expect(citizen.warnings).toEqual([]);
    expect(citizen.customer).toMatchObject({ type: "person", tax_number: "10000000146", title: "Anna Schmidt" });
  });

  it("a number in the company abroad is a registry number: not read as a tax number; the company is the title", () => {
    // 1234567890 fails the VKN check: read as a Turkish number it would stop the invoice.
    const r = map(abroad({ billing_address: { ...berlin, company: "Schmidt GmbH 1234567890" } }));
    expect(r.errors).toEqual([]);
    expect(r.customer).toMatchObject({ type: "person", tax_number: "2222222222", name: "Anna", surname: "Schmidt" });
    expect(map(abroad({ billing_address: { ...berlin, company: "Schmidt GmbH" } })).customer?.title).toBe(
      "Schmidt GmbH",
    );
  });

  it("exported goods make the buyer a buyer abroad whatever the billing country, named by the export's country", () => {
    const r = map(order(), settings(), { country: "Azerbaijan" });
    expect(r.customer).toMatchObject({ type: "person", tax_number: "2222222222", country: "Turkey", city: "İstanbul" });
    expect(r.warnings).toEqual([
      {
        code: "customer.foreign_buyer",
        params: { country: "Azerbaijan", taxNumber: "2222222222" },
        severity: "warning",
      },
    ]);
    // Billed abroad too: the billing country is named.
    expect(map(abroad(), settings(), { country: "Azerbaijan" }).warnings[0].params).toEqual({
      country: "Germany",
      taxNumber: "2222222222",
    });
    // No export: domestic.
    expect(map(order(), settings(), null).customer?.tax_number).toBe("11111111111");
  });

  it("a domestic person's billing company is not their title; a foreign person's is", () => {
    expect(map(order({ billing_address: { ...istanbul, company: "Moda Kitabevi" } })).customer?.title).toBe(
      "Ayşe Yılmaz",
    );
    expect(
      map(order({ billing_address: { ...istanbul, company: "Moda Kitabevi" } }), settings(), { country: "Germany" })
        .customer?.title,
    ).toBe("Moda Kitabevi");
  });
});

describe("the person's name", () => {
  const noNames = { first_name: null, last_name: null };

  it("billing address first, then the Shopify customer, then the shipping address", () => {
    const customer = { id: 77, first_name: "Mehmet", last_name: "Kaya" };
    const shipping = { ...istanbul, first_name: "Zeynep", last_name: "Demir" };
    expect(map(order({ customer, shipping_address: shipping })).customer).toMatchObject({
      name: "Ayşe",
      surname: "Yılmaz",
    });
    expect(
      map(order({ billing_address: { ...istanbul, ...noNames }, customer, shipping_address: shipping })).customer,
    ).toMatchObject({ name: "Mehmet", surname: "Kaya", title: "Mehmet Kaya" });
    expect(
      map(order({ billing_address: { ...istanbul, ...noNames }, customer: { id: 77 }, shipping_address: shipping }))
        .customer,
    ).toMatchObject({ name: "Zeynep", surname: "Demir" });
  });

  it("a name in one field only is split at its last space: the last word is the surname", () => {
    const one = (first: string | null, last: string | null) =>
      map(
        order({
          billing_address: { ...istanbul, first_name: first, last_name: last },
          customer: { id: 77, first_name: "Mehmet", last_name: "Kaya" },
        }),
      ).customer;
    expect(one("Ayşe Nur Yılmaz", null)).toMatchObject({
      name: "Ayşe Nur",
      surname: "Yılmaz",
      title: "Ayşe Nur Yılmaz",
    });
    expect(one(null, "Ayşe Yılmaz")).toMatchObject({ name: "Ayşe", surname: "Yılmaz" });
    // One word: the name, with no surname (and no trailing space in the title).
    expect(one("Ayşe", null)).toMatchObject({ name: "Ayşe", surname: "", title: "Ayşe" });
    expect(one(null, "Yılmaz")).toMatchObject({ name: "Yılmaz", surname: "", title: "Yılmaz" });
  });

  it("no name anywhere: the final consumer ('Nihai Tüketici'), with a warning", () => {
    const r = map(order({ billing_address: { ...istanbul, ...noNames } }));
    expect(r.customer).toMatchObject({
      type: "person",
      tax_number: "11111111111",
      title: "Nihai Tüketici",
      name: "Nihai",
      surname: "Tüketici",
    });
    expect(r.warnings).toEqual([{ code: "customer.missing_name", severity: "warning" }]);
  });
});

describe("the address", () => {
  const defaults = {
    address: "Bağdat Cad. 1",
    district: "Maltepe",
    city: "İstanbul",
    country: "Türkiye",
    postcode: "34840",
  };

  it("street lines are joined by one space; a missing second line adds nothing", () => {
    expect(map(order({ billing_address: { ...istanbul, address2: null } })).customer?.address).toBe("Moda Cad. No: 5");
    expect(map(order({ billing_address: { ...istanbul, address1: null } })).customer?.address).toBe("Daire 3");
  });

  it("a part missing from the billing address is taken from the shipping address, with a warning naming the parts", () => {
    const shipping = { ...istanbul, address1: "Rıhtım Cad. 2", address2: null, city: "Beşiktaş", zip: "34353" };
    const r = map(
      order({
        billing_address: { ...istanbul, address1: null, address2: null, city: null, zip: null },
        shipping_address: shipping,
      }),
    );
    expect(r.customer).toMatchObject({
      address: "Rıhtım Cad. 2",
      district: "Beşiktaş",
      city: "İstanbul",
      country: "Turkey",
      postcode: "34353",
    });
    expect(r.warnings).toEqual([
      { code: "customer.address_from_shipping", params: { parts: "address, district" }, severity: "warning" },
    ]);
  });

  it("a part missing from both is taken from the default address in the settings, with a warning", () => {
    const r = map(
      order({ billing_address: { ...istanbul, city: null, province: null, zip: null } }),
      settings({ defaultAddress: defaults }),
    );
    expect(r.customer).toMatchObject({
      address: "Moda Cad. No: 5 Daire 3",
      district: "Maltepe",
      city: "İstanbul",
      country: "Turkey",
      postcode: "34840",
    });
    expect(r.warnings).toEqual([
      { code: "customer.address_from_defaults", params: { parts: "district, city" }, severity: "warning" },
    ]);
  });

  it("the three sources together: billing, then shipping, then defaults, each part on its own", () => {
    const r = map(
      order({
        billing_address: { ...istanbul, city: null, province: null, country: null, country_code: null },
        shipping_address: { first_name: "Ayşe", city: "Üsküdar", zip: "34660" },
      }),
      settings({ defaultAddress: defaults }),
    );
    expect(r.customer).toMatchObject({
      address: "Moda Cad. No: 5 Daire 3",
      district: "Üsküdar",
      city: "İstanbul",
      country: "Türkiye",
      postcode: "34710",
    });
    expect(r.warnings).toEqual([
      { code: "customer.address_from_shipping", params: { parts: "district" }, severity: "warning" },
      { code: "customer.address_from_defaults", params: { parts: "city, country" }, severity: "warning" },
    ]);
  });

  it("a part missing everywhere is an error per part; no customer is made", () => {
    const r = map(order({ billing_address: { first_name: "Ayşe", last_name: "Yılmaz", province: "İstanbul" } }));
    expect(r.customer).toBeUndefined();
    expect(r.errors).toEqual([
      { code: "customer.missing_address", params: { part: "address" }, severity: "error" },
      { code: "customer.missing_address", params: { part: "district" }, severity: "error" },
      { code: "customer.missing_address", params: { part: "country" }, severity: "error" },
    ]);
  });

  it("no address at all and no defaults: every part is missing", () => {
    const r = map(order({ billing_address: null }));
    expect(r.errors.map((e) => e.params?.part)).toEqual(["address", "district", "city", "country"]);
  });

  it("the country falls back to the country code", () => {
    expect(map(order({ billing_address: { ...istanbul, country: null } })).customer?.country).toBe("TR");
  });

  it("the postcode: billing, else shipping, else the default address's, else none", () => {
    const noZip = { ...istanbul, zip: null };
    expect(
      map(
        order({ billing_address: noZip, shipping_address: { ...istanbul, zip: "34000" } }),
        settings({ defaultAddress: defaults }),
      ).customer?.postcode,
    ).toBe("34000");
    expect(
      map(order({ billing_address: noZip, shipping_address: noZip }), settings({ defaultAddress: defaults })).customer
        ?.postcode,
    ).toBe("34840");
    const none = map(
      order({ billing_address: noZip }),
      settings({ defaultAddress: { ...defaults, postcode: undefined } }),
    ).customer;
    expect(none).toBeDefined();
    expect(none).not.toHaveProperty("postcode");
    const noDefaults = map(order({ billing_address: noZip })).customer;
    expect(noDefaults).toBeDefined();
    expect(noDefaults).not.toHaveProperty("postcode");
  });
});

describe("contact and id", () => {
  it("the Shopify customer's id, else a guest id from the order", () => {
    expect(map(order({ customer: { id: 555 } })).customer?.id).toBe(555);
    expect(map(order({ customer: null })).customer?.id).toBe("guest-1001");
  });

  it("e-mail: the order's, else the customer's; none is no key", () => {
    expect(
      map(order({ email: "order@example.com", customer: { id: 1, email: "customer@example.com" } })).customer?.email,
    ).toBe("order@example.com");
    expect(map(order({ email: " ", customer: { id: 1, email: "customer@example.com" } })).customer?.email).toBe(
      "customer@example.com",
    );
    expect(map(order({ customer: { id: 1 } })).customer).not.toHaveProperty("email");
  });

  it("phone: billing address, order, customer, shipping address, in that order; none is no key", () => {
    const b = { ...istanbul, phone: null };
    const shipping = { ...istanbul, phone: "4" };
    expect(
      map(order({ phone: "2", customer: { id: 1, phone: "3" }, shipping_address: shipping })).customer?.phone,
    ).toBe("+90 555 111 22 33");
    expect(
      map(order({ billing_address: b, phone: "2", customer: { id: 1, phone: "3" }, shipping_address: shipping }))
        .customer?.phone,
    ).toBe("2");
    expect(
      map(order({ billing_address: b, customer: { id: 1, phone: "3" }, shipping_address: shipping })).customer?.phone,
    ).toBe("3");
    expect(map(order({ billing_address: b, customer: { id: 1 }, shipping_address: shipping })).customer?.phone).toBe(
      "4",
    );
    expect(map(order({ billing_address: b })).customer).not.toHaveProperty("phone");
  });
});

describe("the buyer's note attributes are bounded and must be text", () => {
  const problemsOf = (...pairs: Array<[string, string]>) => map(order(attrs(...pairs))).errors;

  it("each field has its limit: the cart block's maxlength; at the limit it is read, one over it is refused", () => {
    const cases: Array<[string, number]> = [
      ["Vergi Numarası", ATTRIBUTE_LIMITS.taxNumber],
      ["TC Kimlik No", ATTRIBUTE_LIMITS.taxNumber],
      ["Vergi Dairesi", ATTRIBUTE_LIMITS.taxOffice],
      ["Şirket Unvanı", ATTRIBUTE_LIMITS.companyTitle],
    ];
    expect(ATTRIBUTE_LIMITS).toEqual({ taxNumber: 20, taxOffice: 100, companyTitle: 255 });
    for (const [name, max] of cases) {
      expect(problemsOf([name, "7".repeat(max + 1)]), name).toEqual([
        { code: "customer.attribute_too_long", params: { source: name, length: max + 1, max }, severity: "error" },
      ]);
      expect(codes(map(order(attrs([name, "7".repeat(max)])))), name).not.toContain("customer.attribute_too_long");
    }
  });

  it("every field over its limit is reported, and nothing else is read (no customer, no other check)", () => {
    const r = map(
      order({ ...attrs(["VKN", "1".repeat(21)], ["Vergi Dairesi", "K".repeat(101)]), billing_address: null }),
    );
    expect(r).toStrictEqual({
      errors: [
        { code: "customer.attribute_too_long", params: { source: "VKN", length: 21, max: 20 }, severity: "error" },
        {
          code: "customer.attribute_too_long",
          params: { source: "Vergi Dairesi", length: 101, max: 100 },
          severity: "error",
        },
      ],
      warnings: [],
    });
  });

  it("unassigned, private-use and lone surrogate code points are not text; other scripts and emoji are", () => {
    for (const odd of ["\u0378", "\uE000", "\uD800"]) {
      expect(problemsOf(["Vergi Dairesi", `Kadı${odd}köy`]), JSON.stringify(odd)).toEqual([
        { code: "customer.attribute_not_text", params: { source: "Vergi Dairesi" }, severity: "error" },
      ]);
    }
    const r = map(
      order(attrs(["VKN", "9860008925"], ["Vergi Dairesi", "Kadıköy"], ["Şirket Unvanı", "Ωμέγα 書店 😀 Ltd."])),
    );
    expect(r.errors).toEqual([]);
    expect(r.customer?.title).toBe("Ωμέγα 書店 😀 Ltd.");
  });

  it("a value both too long and not text is reported once, as too long", () => {
    expect(problemsOf(["Vergi Dairesi", "\uE000".repeat(101)])).toEqual([
      {
        code: "customer.attribute_too_long",
        params: { source: "Vergi Dairesi", length: 101, max: 100 },
        severity: "error",
      },
    ]);
  });

  it("the length counted is that of the value as read (blanks around it trimmed)", () => {
    expect(problemsOf(["Vergi Dairesi", `  ${"K".repeat(100)}  `])).toEqual([]);
  });
});

describe("the buyer set by the merchant", () => {
  const at = "2026-11-20T09:00:00.000Z";
  const company: BuyerOverride = {
    kind: "company",
    taxNumber: "9860008925",
    title: "Moda Kitabevi Ltd. Şti.",
    taxOffice: "Kadıköy",
    reason: "VKN by phone",
    at,
  };

  it("a company set by hand replaces the order's identity; address and contact stay the order's", () => {
    const r = map(
      order({ ...attrs(["TC Kimlik No", "10000000146"], ["Şirket Unvanı", "Other"]), email: "a@example.com" }),
      settings(),
      null,
      company,
    );
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      { code: "customer.buyer_set_by_merchant", params: { reason: "VKN by phone" }, severity: "warning" },
    ]);
    expect(r.customer).toStrictEqual({
      id: "guest-1001",
      type: "company",
      tax_number: "9860008925",
      tax_office: "Kadıköy",
      title: "Moda Kitabevi Ltd. Şti.",
      country: "Turkey",
      address: "Moda Cad. No: 5 Daire 3",
      city: "İstanbul",
      district: "Kadıköy",
      postcode: "34710",
      phone: "+90 555 111 22 33",
      email: "a@example.com",
    });
  });

  it("the merchant's buyer makes the buyer's faulty attributes irrelevant: they no longer stop the invoice", () => {
    const r = map(order(attrs(["Vergi Dairesi", "K".repeat(101)], ["VKN", "1234567890"])), settings(), null, company);
    expect(r.errors).toEqual([]);
    expect(r.customer).toMatchObject({ tax_number: "9860008925", tax_office: "Kadıköy" });
  });

  it("a company set by hand without office or title is refused like any company", () => {
    const r = map(order(attrs(["Vergi Dairesi", "Kadıköy"], ["Şirket Unvanı", "Moda"])), settings(), null, {
      ...company,
      title: undefined,
      taxOffice: undefined,
    });
    expect(errorCodes(r)).toEqual(["customer.company_without_tax_office", "customer.company_without_title"]);
  });

  it("a person set by hand: their T.C. number and name; without a number, the anonymous consumer", () => {
    const person: BuyerOverride = {
      kind: "person",
      taxNumber: "12345678950",
      name: "Mehmet",
      surname: "Kaya",
      reason: "name fixed",
      at,
    };
    expect(map(order(attrs(["VKN", "9860008925"])), settings(), null, person).customer).toMatchObject({
      type: "person",
      tax_number: "12345678950",
      title: "Mehmet Kaya",
      name: "Mehmet",
      surname: "Kaya",
    });
    const anonymous = map(order(), settings(), null, { ...person, taxNumber: "11111111111" });
    expect(anonymous.customer).toMatchObject({
      type: "person",
      tax_number: "11111111111",
      name: "Mehmet",
      surname: "Kaya",
    });
    expect(anonymous.warnings.map((w) => w.code)).toEqual(["customer.buyer_set_by_merchant"]);
  });

  it("a person set by hand without a surname, or without a name (then the order's name)", () => {
    const person: BuyerOverride = { kind: "person", taxNumber: "11111111111", name: "Mehmet", reason: "r", at };
    expect(map(order(), settings(), null, person).customer).toMatchObject({
      name: "Mehmet",
      surname: "",
      title: "Mehmet",
    });
    expect(map(order(), settings(), null, { ...person, name: undefined }).customer).toMatchObject({
      name: "Ayşe",
      surname: "Yılmaz",
    });
  });

  it("a buyer set by hand abroad is not replaced by the foreign-buyer number", () => {
    const person: BuyerOverride = {
      kind: "person",
      taxNumber: "10000000146",
      name: "Anna",
      surname: "Schmidt",
      reason: "r",
      at,
    };
    const r = map(order({ billing_address: berlin }), settings(), null, person);
    expect(r.customer).toMatchObject({ type: "person", tax_number: "10000000146", country: "Germany" });
    expect(r.warnings.map((w) => w.code)).toEqual(["customer.buyer_set_by_merchant"]);
  });
});

describe("the buyer form's starting values (buyerDraft, issue 36 point 4)", () => {
  it("starts from the company the buyer typed: a wrong number as typed (to correct), the title and the tax office", () => {
    const typed = order({
      note_attributes: [
        { name: "Vergi Numarası", value: "1234567891" },
        { name: "Vergi Dairesi", value: "Kadıköy" },
        { name: "Şirket Unvanı", value: "Yılmaz Ticaret Ltd. Şti." },
      ],
    });
    expect(buyerDraft(typed, settings())).toEqual({
      kind: "company",
      taxNumber: "1234567891",
      title: "Yılmaz Ticaret Ltd. Şti.",
      name: "Ayşe",
      surname: "Yılmaz",
      taxOffice: "Kadıköy",
    });
  });

  it("a T.C. number is a person; a VKN in the billing company a company named by the rest of that field", () => {
    expect(buyerDraft(order({ note_attributes: [{ name: "TCKN", value: "10000000146" }] }), settings())).toMatchObject({
      kind: "person",
      taxNumber: "10000000146",
      title: "",
      name: "Ayşe",
      surname: "Yılmaz",
    });
    const billed = order({ billing_address: { ...istanbul, company: "9860008925 - Deniz Ltd. Şti." } });
    expect(buyerDraft(billed, settings())).toMatchObject({
      kind: "company",
      taxNumber: "9860008925",
      title: "Deniz Ltd. Şti.",
    });
    // Not read from the billing company when the settings say so.
    expect(buyerDraft(billed, settings({ useBillingCompany: false }))).toMatchObject({
      kind: "person",
      taxNumber: "",
      title: "",
    });
  });

  it("nothing typed: a person with the billing name, or the customer's when there is no billing address", () => {
    expect(buyerDraft(order(), settings())).toEqual({
      kind: "person",
      taxNumber: "",
      title: "",
      name: "Ayşe",
      surname: "Yılmaz",
      taxOffice: "",
    });
    const guest = order({ billing_address: null, customer: { id: 1, first_name: "Mehmet", last_name: "Kaya" } });
    expect(buyerDraft(order({ billing_address: null, customer: null }), settings())).toMatchObject({
      name: "",
      surname: "",
    });
    // A wrong number typed with spaces: its ten digits make it a company's, kept as typed for the merchant to correct.
    expect(buyerDraft(order({ note_attributes: [{ name: "VKN", value: "123 456 7891" }] }), settings())).toMatchObject({
      kind: "company",
      taxNumber: "123 456 7891",
    });
    expect(buyerDraft(guest, settings())).toMatchObject({ kind: "person", name: "Mehmet", surname: "Kaya" });
    // A title typed without a number still makes it a company; an 11-digit wrong number with a title stays a person.
    expect(
      buyerDraft(order({ note_attributes: [{ name: "Şirket Unvanı", value: "Kaya Gıda" }] }), settings()).kind,
    ).toBe("company");
    expect(
      buyerDraft(
        order({
          note_attributes: [
            { name: "TCKN", value: "12345678901" },
            { name: "Şirket Unvanı", value: "Kaya Gıda" },
          ],
        }),
        settings(),
      ).kind,
    ).toBe("person");
  });
});
