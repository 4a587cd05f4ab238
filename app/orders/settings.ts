// The shop's invoicing settings that the order mapping reads. Every field has a default, so an empty
// object is a valid settings document (docs/mapping-settings.md describes each field).
import { z } from "zod";
import { INVOICE_TYPES, PAYMENT_METHODS, TAX_RATES, type PaymentMethod } from "../invoicing/schemas";

export { PAYMENT_METHODS, TAX_RATES, type PaymentMethod };

const taxRate = z.enum(TAX_RATES);
const digits = (min: number, max: number) => z.string().regex(new RegExp(`^\\d{${min},${max}}$`), "digits only");

const CarrierSchema = z.object({
  title: z.string().min(1).max(255),
  taxNumber: digits(10, 11),
});
export type Carrier = z.infer<typeof CarrierSchema>;

const AddressSchema = z.object({
  city: z.string().min(1),
  district: z.string().min(1),
  address: z.string().min(1),
  country: z.string().min(1),
  postcode: z.string().optional(),
});
export type DefaultAddress = z.infer<typeof AddressSchema>;

/** First match wins; `match` is compared folded (case, accents, punctuation ignored) as a substring of the gateway. */
export const defaultPaymentMethodMap = (): Array<{ match: string; method: PaymentMethod }> => [
  { match: "Cash on Delivery", method: "cash_on_delivery" },
  { match: "COD", method: "cash_on_delivery" },
  { match: "kapıda", method: "cash_on_delivery" },
  { match: "Bank Deposit", method: "direct_transfer" },
  { match: "manual-bank", method: "direct_transfer" },
  { match: "havale", method: "direct_transfer" },
  { match: "eft", method: "direct_transfer" },
  { match: "iyzico", method: "payment_agent" },
  { match: "paytr", method: "payment_agent" },
  { match: "paypal", method: "payment_agent" },
  { match: "param", method: "payment_agent" },
  { match: "craftgate", method: "payment_agent" },
  { match: "sipay", method: "payment_agent" },
  { match: "shopify_payments", method: "credit_or_debit" },
  { match: "stripe", method: "credit_or_debit" },
  { match: "card", method: "credit_or_debit" },
  { match: "kart", method: "credit_or_debit" },
];

/**
 * Tracking-company names (as Shopify fulfillments carry them) → carrier title and tax number.
 * Only Yurtiçi Kargo's 9860008925 agrees across public sources; every other number here passes the VKN
 * checksum but public sources disagree on some (e.g. Sürat), so the merchant must check them against the
 * carrier's own invoice before relying on them.
 */
export const defaultCarriers = (): Record<string, Carrier> => {
  const yurtici = { title: "Yurtiçi Kargo Servisi A.Ş.", taxNumber: "9860008925" };
  const aras = { title: "Aras Kargo Yurtiçi Yurtdışı Taşımacılık A.Ş.", taxNumber: "0720039666" };
  const mng = { title: "MNG Kargo Yurtiçi ve Yurtdışı Taşımacılık A.Ş.", taxNumber: "6080712084" };
  const ptt = { title: "PTT Posta ve Telgraf Teşkilatı A.Ş.", taxNumber: "7320068060" };
  const surat = { title: "Sürat Kargo Lojistik ve Dağıtım Hizmetleri A.Ş.", taxNumber: "7870233582" };
  const hepsijet = { title: "D Fast Dağıtım Hizmetleri ve Lojistik A.Ş.", taxNumber: "2650701090" };
  const trendyol = { title: "Trendyol Lojistik A.Ş.", taxNumber: "8590921777" };
  const ups = { title: "UPS Hızlı Kargo Taşımacılığı A.Ş.", taxNumber: "8400105133" };
  return {
    "Yurtiçi Kargo": yurtici,
    Yurtici: yurtici,
    "Aras Kargo": aras,
    Aras: aras,
    "MNG Kargo": mng,
    "DHL eCommerce": mng,
    MNG: mng,
    "PTT Kargo": ptt,
    PTT: ptt,
    "Sürat Kargo": surat,
    Surat: surat,
    HepsiJET: hepsijet,
    "Trendyol Express": trendyol,
    UPS: ups,
  };
};

export const MappingSettingsSchema = z.object({
  /** UN/ECE unit code of every line; C62 is "Adet" (piece). */
  unit: z.string().min(1).default("C62"),
  /** VAT rate of lines when the order carries no tax lines at all. */
  defaultTaxRate: taxRate.default("20"),
  /** When the order has no tax lines: do the Shopify prices already include VAT? */
  pricesIncludeVat: z.boolean().default(true),
  /** Exemption code and its official text for 0 % lines (e.g. "301", "11/1-a Mal İhracatı"). */
  exemptionCode: z.string().min(1).optional(),
  exemptionReason: z.string().min(1).optional(),
  /**
   * The exemption of a sale abroad on which the shop collected no VAT (0 % lines, invoice type ISTISNA).
   * 301 "11/1-a Mal İhracatı" is the export of goods; a code and its official text must match.
   */
  exportExemptionCode: z.string().regex(/^\d{3}$/, "three digits").default("301"),
  exportExemptionReason: z.string().min(1).default("11/1-a Mal İhracatı"),
  taxNumberAttributes: z.array(z.string()).default(["Vergi Numarası", "Vergi No", "VKN"]),
  citizenNumberAttributes: z.array(z.string()).default(["TC Kimlik No", "TCKN", "T.C. Kimlik No"]),
  taxOfficeAttributes: z.array(z.string()).default(["Vergi Dairesi"]),
  /** Note attributes with the company title a buyer typed for the invoice (the cart block writes the first). */
  companyTitleAttributes: z.array(z.string()).default(["Şirket Unvanı", "Firma Unvanı", "Fatura Unvanı"]),
  /** Take the company title (and a tax number written into it) from the billing address's company field. */
  useBillingCompany: z.boolean().default(true),
  /** 2222222222 is the number Turkish e-archive practice uses for buyers outside Turkey. */
  foreignBuyerTaxNumber: digits(10, 11).default("2222222222"),
  paymentMethodMap: z
    .array(z.object({ match: z.string().min(1), method: z.enum(PAYMENT_METHODS) }))
    .default(defaultPaymentMethodMap),
  carriers: z.record(z.string(), CarrierSchema).default(defaultCarriers),
  /** Carrier used when the order is not fulfilled yet or its tracking company is not in `carriers`. */
  defaultCarrier: CarrierSchema.optional(),
  /** Address parts used when neither the billing nor the shipping address has them (e.g. POS sales). */
  defaultAddress: AddressSchema.optional(),
  /** "shop": the shop's currency; "presentment": the currency the customer paid in. */
  invoiceCurrency: z.enum(["shop", "presentment"]).default("shop"),
  invoiceType: z.enum(INVOICE_TYPES).default("SATIS"),
});

export type MappingSettings = z.infer<typeof MappingSettingsSchema>;
export type MappingSettingsInput = z.input<typeof MappingSettingsSchema>;

export function defaultMappingSettings(): MappingSettings {
  return MappingSettingsSchema.parse({});
}
