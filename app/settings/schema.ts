// A shop's settings, defined once. The zod schemas below are the only definition: the types are inferred from
// them, the settings form's field errors come from them, the stored mapping JSON is read with them, and
// `npm run shop:setup` checks with them. An issue's message is an error code; its text, Turkish and English, is
// the i18n catalogues' `settings.error.<code>`. No server code here: the settings page imports this module.
// (The operator's allow-list of service addresses is added on the server: app/settings/settings.server.ts.)
import { z } from "zod";
import { en } from "../i18n/en";
import { translateKey, type Locale, type MessageKey } from "../i18n/i18n";

/** A metafield as Shopify names it, "namespace.key" (Settings' companyTaxOfficeMetafield). */
export const METAFIELD_KEY = /^([A-Za-z0-9_-]{2,255})\.([A-Za-z0-9_-]{2,64})$/;
import {
  INVOICE_TYPES,
  LIVE_BASE_URL,
  PAYMENT_METHODS,
  VAT_RATES,
  type PaymentMethod,
} from "../invoicing-service/schemas";

export { PAYMENT_METHODS, VAT_RATES, type PaymentMethod };

export type SettingsErrorCode = MessageKey extends infer K
  ? K extends `settings.error.${infer Code}`
    ? Code
    : never
  : never;
/** Field path ("carriers.1.taxNumber") → error code. */
export type FieldErrors = Record<string, SettingsErrorCode>;

/** Every issue raised here carries one of the catalogue's codes (checked by the compiler). */
const code = (value: SettingsErrorCode) => ({ error: value });

export const TRIGGERS = ["paid", "fulfilled", "manual"] as const;
/** A shop without settings (or without a trigger) invoices an order when it is paid. */
export const DEFAULT_TRIGGER = "paid" satisfies (typeof TRIGGERS)[number];
export type Trigger = (typeof TRIGGERS)[number];
export const INVOICE_CURRENCIES = ["shop", "presentment"] as const;
export const UNITS = [
  "C62",
  "KGM",
  "GRM",
  "LTR",
  "MTR",
  "MTK",
  "SET",
  "PR",
  "BX",
  "DZN",
  "HUR",
  "DAY",
  "MON",
  "KWH",
] as const;
/** Free texts (titles, exemption texts, payment names) and rows per table: far above any real shop's need. */
export const MAX_TEXT = 255;
export const MAX_ROWS = 200;

// ---------------------------------------------------------------------------------------------------
// Building blocks, shared by the stored mapping and the form

const taxNumber = z
  .string()
  .trim()
  .regex(/^\d{10,11}$/, code("digits_10_11"));
const exemptionCode = z
  .string()
  .trim()
  .regex(/^\d{3}$/, code("exemption_code"));
const requiredText = z.string().trim().min(1, code("required")).max(MAX_TEXT, code("too_long"));
const optionalText = z.string().trim().max(MAX_TEXT, code("too_long"));
/** Positive id, or null for none; the form may send it as a string ("" = none). */
const optionalId = z.preprocess(
  (value) => (value === "" || value === undefined ? null : typeof value === "string" ? Number(value) : value),
  z.number(code("invalid")).int(code("invalid")).positive(code("invalid")).nullable(),
);

const CarrierSchema = z.object({ title: requiredText, taxNumber });
export type Carrier = z.infer<typeof CarrierSchema>;

const AddressSchema = z.object({
  city: z.string().min(1),
  district: z.string().min(1),
  address: z.string().min(1),
  country: z.string().min(1),
  postcode: z.string().optional(),
});
export type DefaultAddress = z.infer<typeof AddressSchema>;

/** A Shopify tag: at most 40 characters, no comma (Shopify splits tags at commas). */
export const OrderTagSchema = z
  .string()
  .trim()
  .max(40, code("tag"))
  .regex(/^[^,]*$/, code("tag"));
/** Tags on the Shopify order of a completed invoice ("" for none); see app/write-back/plan.ts. */
export type OrderTags = { orderTag: string; eArchiveTag: string; eInvoiceTag: string };

// ---------------------------------------------------------------------------------------------------
// Defaults

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

// ---------------------------------------------------------------------------------------------------
// The stored mapping (ShopSettings.mapping): what the order mapping reads. Every field has a default, so `{}`
// is a valid document (docs/mapping-settings.md describes each field).

export const MappingSettingsSchema = z.object({
  /** UN/ECE unit code of every line; C62 is "Adet" (piece). */
  unit: z.string().min(1, code("unit")).default("C62"),
  /** VAT rate of lines when the order carries no tax lines at all. */
  defaultTaxRate: z.enum(VAT_RATES).default("20"),
  /** When the order has no tax lines: do the Shopify prices already include VAT? */
  pricesIncludeVat: z.boolean().default(true),
  /** Exemption code and its official text for 0 % lines (e.g. "301", "11/1-a Mal İhracatı"). */
  exemptionCode: z.string().min(1, code("exemption_code")).optional(),
  exemptionReason: z.string().min(1, code("required")).optional(),
  /**
   * The exemption of a sale abroad on which the shop collected no VAT (0 % lines, invoice type ISTISNA).
   * 301 "11/1-a Mal İhracatı" is the export of goods; a code and its official text must match.
   */
  exportExemptionCode: exemptionCode.default("301"),
  exportExemptionReason: z.string().min(1, code("required")).default("11/1-a Mal İhracatı"),
  taxNumberAttributes: z.array(z.string()).default(["Vergi Numarası", "Vergi No", "VKN"]),
  citizenNumberAttributes: z.array(z.string()).default(["TC Kimlik No", "TCKN", "T.C. Kimlik No"]),
  taxOfficeAttributes: z.array(z.string()).default(["Vergi Dairesi"]),
  /** Note attributes with the company title a buyer typed for the invoice (the cart block writes the first). */
  companyTitleAttributes: z.array(z.string()).default(["Şirket Unvanı", "Firma Unvanı", "Fatura Unvanı"]),
  /** Take the company title (and a tax number written into it) from the billing address's company field. */
  useBillingCompany: z.boolean().default(true),
  /** 2222222222 is the number Turkish e-archive practice uses for buyers outside Turkey. */
  foreignBuyerTaxNumber: taxNumber.default("2222222222"),
  /**
   * "namespace.key" of the metafield with a B2B company's tax office, read on the company location, then the company
   * (Shopify has no tax office field; app/orders/company.ts).
   */
  companyTaxOfficeMetafield: z.string().regex(METAFIELD_KEY, code("metafield")).default("custom.tax_office"),
  paymentMethodMap: z
    .array(z.object({ match: z.string().min(1, code("required")), method: z.enum(PAYMENT_METHODS) }))
    .default(defaultPaymentMethodMap),
  carriers: z.record(z.string(), CarrierSchema).default(defaultCarriers),
  /** Carrier used when the order is not fulfilled yet or its tracking company is not in `carriers`. */
  defaultCarrier: CarrierSchema.optional(),
  /** Address parts used when neither the billing nor the shipping address has them (e.g. POS sales). */
  defaultAddress: AddressSchema.optional(),
  /** "shop": the shop's currency; "presentment": the currency the customer paid in. */
  invoiceCurrency: z.enum(INVOICE_CURRENCIES).default("shop"),
  invoiceType: z.enum(INVOICE_TYPES).default("SATIS"),
});

export type MappingSettings = z.infer<typeof MappingSettingsSchema>;
export type MappingSettingsInput = z.input<typeof MappingSettingsSchema>;

export function defaultMappingSettings(): MappingSettings {
  return MappingSettingsSchema.parse({});
}

/**
 * A stored mapping, read so that no shop loses its settings: a row written by an older version (fields
 * missing, or a value that a later rule refuses) keeps every field that is still valid; only a field that is
 * not falls back to its default, never the whole document.
 */
export function readMapping(value: unknown): MappingSettings {
  const whole = MappingSettingsSchema.safeParse(value ?? {});
  if (whole.success) return whole.data;
  const stored = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const fields = Object.entries(MappingSettingsSchema.shape).flatMap(([key, field]) => {
    const own = Object.hasOwn(stored, key) ? field.safeParse(stored[key]) : undefined;
    const fieldValue = own?.success ? own.data : field.parse(undefined);
    return fieldValue === undefined ? [] : [[key, fieldValue] as const];
  });
  return Object.fromEntries(fields) as MappingSettings;
}

// ---------------------------------------------------------------------------------------------------
// The connection to the invoicing service (ShopSettings' own columns), as saveSettings and shop:setup take it

export const ConnectionSchema = z.object({
  baseUrl: z.url(code("url")).default(LIVE_BASE_URL),
  apiKey: z.string().trim().min(8, code("api_key_format")).max(512, code("api_key_format")).optional(),
  invoiceIntegrationId: optionalId.optional(),
  saleChannelId: optionalId.optional(),
  testMode: z.boolean(code("invalid")).default(true),
  dummyIntegrationId: optionalId.optional(),
  trigger: z.enum(TRIGGERS, code("invalid")).default(DEFAULT_TRIGGER),
});

// ---------------------------------------------------------------------------------------------------
// The settings page's form, as the browser holds and posts it (JSON). Its paths are the page's field names.

/** Names a JavaScript object treats specially: never a carrier's key. */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

const formFields = z.object({
  /** Write-only: empty means "keep the stored key". */
  apiKey: z
    .string()
    .trim()
    .refine((key) => key === "" || (key.length >= 8 && key.length <= 512), code("api_key_format")),
  baseUrl: z
    .string()
    .trim()
    .max(2048, code("url"))
    .overwrite((url) => url.replace(/\/+$/, ""))
    .pipe(z.url(code("url"))),
  invoiceIntegrationId: optionalId,
  saleChannelId: optionalId,
  testMode: z.boolean(code("invalid")),
  dummyIntegrationId: optionalId,
  trigger: z.enum(TRIGGERS, code("invalid")),
  unit: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{1,3}$/, code("unit")),
  defaultTaxRate: z.enum(VAT_RATES, code("invalid")),
  pricesIncludeVat: z.boolean(code("invalid")),
  /** Empty: no exemption for 0 % lines. */
  exemptionCode: z
    .string()
    .trim()
    .regex(/^(\d{3})?$/, code("exemption_code")),
  exemptionReason: optionalText,
  /** Both empty: the default pair (301). */
  exportExemptionCode: z
    .string()
    .trim()
    .regex(/^(\d{3})?$/, code("exemption_code")),
  exportExemptionReason: optionalText,
  /** Comma-separated note-attribute names, as typed. */
  taxNumberAttributes: z.string().max(4 * MAX_TEXT, code("too_long")),
  citizenNumberAttributes: z.string().max(4 * MAX_TEXT, code("too_long")),
  taxOfficeAttributes: z.string().max(4 * MAX_TEXT, code("too_long")),
  companyTitleAttributes: z.string().max(4 * MAX_TEXT, code("too_long")),
  useBillingCompany: z.boolean(code("invalid")),
  foreignBuyerTaxNumber: taxNumber,
  companyTaxOfficeMetafield: z.string().trim().regex(METAFIELD_KEY, code("metafield")),
  paymentMethodMap: z
    .array(z.object({ match: requiredText, method: z.enum(PAYMENT_METHODS, code("invalid")) }), code("invalid"))
    .max(MAX_ROWS, code("too_many")),
  carriers: z
    .array(
      z.object({
        /** The tracking company as Shopify fulfilments name it, e.g. "Yurtiçi Kargo". */
        name: requiredText.refine((name) => !RESERVED_NAMES.has(name), code("invalid")),
        title: requiredText,
        taxNumber,
      }),
      code("invalid"),
    )
    .max(MAX_ROWS, code("too_many")),
  defaultCarrierTitle: optionalText,
  defaultCarrierTaxNumber: z.string().trim(),
  invoiceCurrency: z.enum(INVOICE_CURRENCIES, code("invalid")),
  /** Tags on the Shopify order of a completed invoice (written only with the write_orders scope). */
  orderTag: OrderTagSchema,
  eArchiveTag: OrderTagSchema,
  eInvoiceTag: OrderTagSchema,
});

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** Rules between fields. They run even when a field failed (`when`), so every error shows at once. */
export const SettingsFormSchema = formFields.superRefine(
  (form, ctx) => {
    const issue = (path: string, error: SettingsErrorCode) =>
      ctx.addIssue({ code: "custom", path: path.split("."), message: error });
    for (const [codeField, reasonField] of [
      ["exemptionCode", "exemptionReason"],
      ["exportExemptionCode", "exportExemptionReason"],
    ] as const) {
      const [codeValue, reason] = [text(form[codeField]), text(form[reasonField])];
      if (codeValue && /^\d{3}$/.test(codeValue) && !reason) issue(reasonField, "exemption_pair");
      else if (!codeValue && reason) issue(codeField, "exemption_pair");
    }
    if (form.testMode === false && form.invoiceIntegrationId === null)
      issue("invoiceIntegrationId", "invoice_integration_required");
    const seen = new Set<string>();
    (Array.isArray(form.carriers) ? form.carriers : []).forEach((row, index) => {
      const name = text((row as { name?: unknown } | null)?.name).toLocaleLowerCase("tr");
      if (name && seen.has(name)) issue(`carriers.${index}.name`, "duplicate");
      seen.add(name);
    });
    const [title, number] = [text(form.defaultCarrierTitle), text(form.defaultCarrierTaxNumber)];
    if (title || number) {
      if (!title) issue("defaultCarrierTitle", "required");
      if (!/^\d{10,11}$/.test(number)) issue("defaultCarrierTaxNumber", "digits_10_11");
    }
  },
  { when: (payload) => typeof payload.value === "object" && payload.value !== null },
);

/** A form that passed the schema. */
export type ValidSettingsForm = z.output<typeof SettingsFormSchema>;
type Loose<T> = {
  [K in keyof T]: T[K] extends string ? string : T[K] extends Array<infer Row> ? Array<Loose<Row>> : T[K];
};
/** The form as the page holds it: the schema's fields, its choices plain strings until the schema checks them. */
export type SettingsForm = Loose<ValidSettingsForm>;

const isCode = (message: string): message is SettingsErrorCode => `settings.error.${message}` in en;

/** zod's issues as the page's field errors: the issue's path names the field, its message is the code; first wins. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "form";
    errors[field] ??= isCode(issue.message) ? issue.message : "invalid";
  }
  return errors;
}

/** An error code's text in the merchant's language (a code no catalogue knows is shown as it is). */
export function settingsErrorText(errorCode: string, locale: Locale, detail = "-"): string {
  return translateKey(locale, `settings.error.${errorCode}`, errorCode, { detail });
}

export function splitNames(names: string): string[] {
  return names
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

/** The settings a valid form stands for: the connection, the stored mapping and the order tags. */
export function settingsFromForm(form: ValidSettingsForm, current: MappingSettings) {
  // Fields this form does not show (e.g. the default address) keep their stored values.
  const {
    exemptionCode: _c,
    exemptionReason: _r,
    exportExemptionCode: _ec,
    exportExemptionReason: _er,
    defaultCarrier: _d,
    ...kept
  } = current;
  const mapping = MappingSettingsSchema.parse({
    ...kept,
    unit: form.unit,
    defaultTaxRate: form.defaultTaxRate,
    pricesIncludeVat: form.pricesIncludeVat,
    ...(form.exemptionCode ? { exemptionCode: form.exemptionCode, exemptionReason: form.exemptionReason } : {}),
    // The export exemption always has a value: both fields emptied fall back to the default pair.
    ...(form.exportExemptionCode
      ? { exportExemptionCode: form.exportExemptionCode, exportExemptionReason: form.exportExemptionReason }
      : {}),
    taxNumberAttributes: splitNames(form.taxNumberAttributes),
    citizenNumberAttributes: splitNames(form.citizenNumberAttributes),
    taxOfficeAttributes: splitNames(form.taxOfficeAttributes),
    companyTitleAttributes: splitNames(form.companyTitleAttributes),
    useBillingCompany: form.useBillingCompany,
    foreignBuyerTaxNumber: form.foreignBuyerTaxNumber,
    companyTaxOfficeMetafield: form.companyTaxOfficeMetafield,
    paymentMethodMap: form.paymentMethodMap,
    // fromEntries defines own keys (no prototype setter), and the names are not reserved ones.
    carriers: Object.fromEntries(
      form.carriers.map((row) => [row.name, { title: row.title, taxNumber: row.taxNumber }]),
    ),
    ...(form.defaultCarrierTitle
      ? { defaultCarrier: { title: form.defaultCarrierTitle, taxNumber: form.defaultCarrierTaxNumber } }
      : {}),
    invoiceCurrency: form.invoiceCurrency,
  } satisfies MappingSettingsInput);
  const connection = {
    baseUrl: form.baseUrl,
    ...(form.apiKey ? { apiKey: form.apiKey } : {}),
    invoiceIntegrationId: form.invoiceIntegrationId,
    saleChannelId: form.saleChannelId,
    testMode: form.testMode,
    dummyIntegrationId: form.dummyIntegrationId,
    trigger: form.trigger,
  };
  const orderTags: OrderTags = {
    orderTag: form.orderTag,
    eArchiveTag: form.eArchiveTag,
    eInvoiceTag: form.eInvoiceTag,
  };
  return { connection, mapping, orderTags };
}

/** A shop's saved settings as the server reads them (without the API key; app/settings/settings.server.ts). */
export interface SettingsView {
  baseUrl: string;
  hasApiKey: boolean;
  invoiceIntegrationId: number | null;
  saleChannelId: number | null;
  testMode: boolean;
  dummyIntegrationId: number | null;
  trigger: Trigger;
  mapping: MappingSettings;
  orderTags: OrderTags;
}

/** The form showing a shop's settings (the API key is never in it). */
export function formFromSettings(
  view: Omit<SettingsView, "hasApiKey" | "orderTags"> & { orderTags?: OrderTags },
): ValidSettingsForm {
  const m = view.mapping;
  return {
    apiKey: "",
    baseUrl: view.baseUrl,
    invoiceIntegrationId: view.invoiceIntegrationId,
    saleChannelId: view.saleChannelId,
    testMode: view.testMode,
    dummyIntegrationId: view.dummyIntegrationId,
    trigger: view.trigger,
    unit: m.unit,
    defaultTaxRate: m.defaultTaxRate,
    pricesIncludeVat: m.pricesIncludeVat,
    exemptionCode: m.exemptionCode ?? "",
    exemptionReason: m.exemptionReason ?? "",
    exportExemptionCode: m.exportExemptionCode,
    exportExemptionReason: m.exportExemptionReason,
    taxNumberAttributes: m.taxNumberAttributes.join(", "),
    citizenNumberAttributes: m.citizenNumberAttributes.join(", "),
    taxOfficeAttributes: m.taxOfficeAttributes.join(", "),
    companyTitleAttributes: m.companyTitleAttributes.join(", "),
    useBillingCompany: m.useBillingCompany,
    foreignBuyerTaxNumber: m.foreignBuyerTaxNumber,
    companyTaxOfficeMetafield: m.companyTaxOfficeMetafield,
    paymentMethodMap: m.paymentMethodMap.map((row) => ({ ...row })),
    carriers: Object.entries(m.carriers).map(([name, carrier]) => ({
      name,
      title: carrier.title,
      taxNumber: carrier.taxNumber,
    })),
    defaultCarrierTitle: m.defaultCarrier?.title ?? "",
    defaultCarrierTaxNumber: m.defaultCarrier?.taxNumber ?? "",
    invoiceCurrency: m.invoiceCurrency,
    orderTag: view.orderTags?.orderTag ?? "e-fatura",
    eArchiveTag: view.orderTags?.eArchiveTag ?? "",
    eInvoiceTag: view.orderTags?.eInvoiceTag ?? "",
  };
}
