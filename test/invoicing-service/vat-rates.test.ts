// One list of valid VAT rates (issue 36, point 2): the settings schema and the texts follow
// app/invoicing-service/vat-rates.ts here; the mapping (test/orders/lines.test.ts) and the waybill form
// (test/waybills/waybill-invoice.test.ts) are held to the same list where they are tested.
import { describe, expect, it } from "vitest";
import { CURRENT_VAT_RATES, LEGACY_VAT_RATES, TAX_RATES, VAT_RATES } from "../../app/invoicing-service/schemas";
import { MappingSettingsSchema } from "../../app/settings/schema";
import { en } from "../../app/i18n/en";
import { tr } from "../../app/i18n/tr";

describe("the valid VAT rates", () => {
  it("are Turkey's current 0, 1, 10, 20 and the earlier 8 and 18; never 2, though the service's format takes it", () => {
    expect([...VAT_RATES].sort()).toEqual(["0", "1", "10", "18", "20", "8"]);
    expect(VAT_RATES.every((rate) => (TAX_RATES as readonly string[]).includes(rate))).toBe(true);
    expect(VAT_RATES).not.toContain("2");
  });

  it("are exactly what Settings' default rate takes", () => {
    for (const rate of [...TAX_RATES, "5", "7.5"])
      expect(MappingSettingsSchema.safeParse({ defaultTaxRate: rate }).success, rate).toBe(
        (VAT_RATES as readonly string[]).includes(rate),
      );
  });

  it("are named in every text that lists them, in both languages", () => {
    const texts = [
      en["problem.line.unsupported_tax_rate"],
      en["waybill.error.tax_rate"],
      tr["problem.line.unsupported_tax_rate"],
      tr["waybill.error.tax_rate"],
    ];
    for (const text of texts) {
      expect(text).toContain(CURRENT_VAT_RATES.join(", "));
      expect(text).toContain(LEGACY_VAT_RATES.join(", "));
      expect(text).not.toMatch(/\b2\b/);
    }
  });
});
