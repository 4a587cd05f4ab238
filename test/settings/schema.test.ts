// The settings schema's pure parts: the form and the stored mapping agree (a form made from settings gives
// those settings back), field errors are named by the form's paths, and a stored mapping is read field by field.
import { describe, expect, it } from "vitest";
import {
  defaultMappingSettings,
  fieldErrors,
  formFromSettings,
  readMapping,
  SettingsFormSchema,
  settingsErrorText,
  settingsFromForm,
} from "../../app/settings/schema";

const view = (mapping = defaultMappingSettings()) => ({
  baseUrl: "https://app.faturaentegrator.com/api",
  invoiceIntegrationId: 11,
  saleChannelId: 5,
  testMode: false,
  dummyIntegrationId: null,
  trigger: "fulfilled" as const,
  mapping,
  orderTags: { orderTag: "e-fatura", eArchiveTag: "arsiv", eInvoiceTag: "" },
});

describe("settings schema", () => {
  it("a B2B company's tax office metafield is custom.tax_office unless the merchant names another namespace.key", () => {
    expect(defaultMappingSettings().companyTaxOfficeMetafield).toBe("custom.tax_office");
    const form = SettingsFormSchema.parse({
      ...formFromSettings(view()),
      companyTaxOfficeMetafield: " b2b.vergi_dairesi ",
    });
    expect(settingsFromForm(form, defaultMappingSettings()).mapping.companyTaxOfficeMetafield).toBe(
      "b2b.vergi_dairesi",
    );
    expect(readMapping({ companyTaxOfficeMetafield: "not a key" }).companyTaxOfficeMetafield).toBe("custom.tax_office");
  });

  it("a form made from settings passes the schema and gives the same settings back", () => {
    const mapping = {
      ...defaultMappingSettings(),
      exemptionCode: "301",
      exemptionReason: "11/1-a Mal İhracatı",
      defaultCarrier: { title: "Yurtiçi Kargo Servisi A.Ş.", taxNumber: "9860008925" },
      defaultAddress: { address: "Moda Caddesi No: 12", district: "Kadıköy", city: "İstanbul", country: "Türkiye" },
    };
    const form = SettingsFormSchema.parse(formFromSettings(view(mapping)));
    const back = settingsFromForm(form, mapping);
    expect(back.mapping).toEqual(mapping);
    expect(back.connection).toEqual({
      baseUrl: "https://app.faturaentegrator.com/api",
      invoiceIntegrationId: 11,
      saleChannelId: 5,
      testMode: false,
      dummyIntegrationId: null,
      trigger: "fulfilled",
    });
    expect(back.orderTags).toEqual({ orderTag: "e-fatura", eArchiveTag: "arsiv", eInvoiceTag: "" });
  });

  it("names each error by the form's path, with a code the catalogues translate", () => {
    const parsed = SettingsFormSchema.safeParse({
      ...formFromSettings(view()),
      unit: "kilogram",
      carriers: [{ name: "Aras", title: "", taxNumber: "1" }],
      eArchiveTag: "a,b",
      companyTaxOfficeMetafield: "tax office",
    });
    expect(parsed.success).toBe(false);
    const errors = fieldErrors(parsed.error!);
    expect(errors).toEqual({
      unit: "unit",
      "carriers.0.title": "required",
      "carriers.0.taxNumber": "digits_10_11",
      eArchiveTag: "tag",
      companyTaxOfficeMetafield: "metafield",
    });
    for (const code of Object.values(errors)) {
      expect(settingsErrorText(code, "tr")).not.toBe(code);
      expect(settingsErrorText(code, "en")).not.toBe(settingsErrorText(code, "tr"));
    }
  });

  it("reads anything stored without throwing: not an object gives the defaults, a bad field only its own default", () => {
    for (const stored of [null, undefined, "text", 42, [1, 2], {}])
      expect(readMapping(stored)).toEqual(defaultMappingSettings());
    const carriers = { Aras: { title: "Aras Kargo", taxNumber: "0720039666" } };
    expect(readMapping({ carriers, unit: "", paymentMethodMap: "iyzico" })).toEqual({
      ...defaultMappingSettings(),
      carriers,
    });
  });
});
