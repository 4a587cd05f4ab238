// The one list of VAT rates the app offers, maps to and accepts (issue 36, point 2): Turkey's rates since 10 July 2023
// (0, 1, 10, 20) and the earlier 8 and 18 (an invoice for a sale before that date, or a correction of one). The
// service's wire format also takes 2 (schemas.ts TAX_RATES), which is no Turkish VAT rate: the app never offers nor
// sends it. The texts that name the valid rates are written from these lists (app/i18n). No imports: the admin's
// pages load it with the texts.
export const CURRENT_VAT_RATES = ["0", "1", "10", "20"] as const;
export const LEGACY_VAT_RATES = ["8", "18"] as const;
export const VAT_RATES = [...CURRENT_VAT_RATES, ...LEGACY_VAT_RATES] as const;
export type VatRate = (typeof VAT_RATES)[number];

export function isVatRate(value: string): value is VatRate {
  return (VAT_RATES as readonly string[]).includes(value);
}
