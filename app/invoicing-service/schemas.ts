// Shapes of the invoicing service's API (docs/spec/invoicing-service.md, "Resources and their fields").
// One zod schema per shape; the TypeScript types are inferred from them so request building, response
// parsing and the sandbox agree on a single definition.
//
// Requests are checked strictly (the app builds them; an invalid body is our bug). Responses are read
// tolerantly: the service "may extend" records, and much of their content is "not shown" in the spec,
// so only `id` is required and unknown fields are kept (looseObject).
import { z } from "zod";
import { CURRENT_VAT_RATES, isVatRate, LEGACY_VAT_RATES, VAT_RATES, type VatRate } from "./vat-rates";
import { dec } from "./money";

// ---------------------------------------------------------------------------------------------------
// Value sets (facts file, "Value sets")

export const INVOICE_TYPES = [
  "SATIS",
  "IADE",
  "TEVKIFAT",
  "TEVKIFATIADE",
  "ISTISNA",
  "OZELMATRAH",
  "IHRACKAYITLI",
  "KONAKLAMAVERGISI",
] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

/** What the service's `tax_rate` accepts (its specification): the wire format only. */
export const TAX_RATES = ["0", "1", "2", "8", "10", "18", "20"] as const;
export type TaxRate = (typeof TAX_RATES)[number];

// The app's own VAT rates are among what the service accepts (checked here, at compile time).
VAT_RATES satisfies readonly TaxRate[];
export { CURRENT_VAT_RATES, LEGACY_VAT_RATES, VAT_RATES, isVatRate, type VatRate };

export const PAYMENT_METHODS = [
  "credit_or_debit",
  "direct_transfer",
  "cash_on_delivery",
  "payment_agent",
  "other",
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The live service's address (the default of every shop's settings). */
export const LIVE_BASE_URL = "https://app.faturaentegrator.com/api";

/** The anonymous final consumer's tax number: always e-archive, never used for customer matching. */
export const ANONYMOUS_TAX_NUMBER = "11111111111";

// ---------------------------------------------------------------------------------------------------
// Building blocks

const DateYmd = z.iso.date(); // Y-m-d
const TimeHi = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected H:i");
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;

/**
 * An amount in a request: a JSON number or a decimal string. The spec's tables say "number", but the
 * Laravel backend validates with `numeric`, which accepts numeric strings; the app sends decimal strings
 * so no amount ever passes through a binary float.
 */
export const AmountSchema = z.union([z.number().finite(), z.string().regex(DECIMAL_RE, "expected a decimal")]);
export type Amount = z.infer<typeof AmountSchema>;

// zod runs refinements even after the format check failed; a malformed value is reported by that check.
const isDecimal = (v: Amount) => typeof v === "number" || DECIMAL_RE.test(v);
const positive = (v: Amount) => !isDecimal(v) || dec(v).gt(0);
const nonNegative = (v: Amount) => !isDecimal(v) || dec(v).gte(0);

/** An ID that the service sends as a number but might send as a numeric string. */
const IdSchema = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);

/** A decimal amount in a response: the spec says decimal strings; a number is accepted and made a string. */
const DecimalOut = z.union([z.string(), z.number()]).transform(String);

const str = z.string().nullish();

// ---------------------------------------------------------------------------------------------------
// Invoice request (POST /api/invoices and POST /api/waybills/{id}/invoice)

export const InvoiceLineRequestSchema = z.object({
  id: z.union([z.number(), z.string().min(1)]),
  name: z.string().min(1),
  quantity: AmountSchema.refine(positive, "quantity must be greater than 0"),
  // UN/ECE Recommendation 20 code (C62, KGM, ...), as the sandbox checks it.
  unit: z.string().regex(/^[A-Z0-9]{1,3}$/, "expected a UN/ECE unit code"),
  unit_price: AmountSchema.refine(nonNegative, "unit_price must be >= 0"),
  tax_rate: z.enum(TAX_RATES),
  sku: z.string().optional(),
  description: z.string().optional(),
  discount_type: z.enum(["amount", "percentage"]).optional(),
  discount: AmountSchema.refine(nonNegative, "discount must be >= 0").optional(),
  exemption_code: z.union([z.string(), z.number()]).optional(),
  exemption_reason: z.string().optional(),
  withholding_tax_code: z.string().optional(),
  withholding_tax_reason: z.string().optional(),
  extra_taxes: z.array(z.object({ tax_code: z.string(), tax_rate: z.union([z.string(), z.number()]) })).optional(),
});
export type InvoiceLineRequest = z.infer<typeof InvoiceLineRequestSchema>;

export const CustomerSchema = z.object({
  // The spec types it as number; waybill invoicing shows a string identifier too.
  id: z.union([z.number(), z.string().min(1)]),
  type: z.enum(["person", "company"]),
  tax_number: z.string().regex(/^\d{10,11}$/, "10 or 11 digits"),
  tax_office: z.string().optional(),
  title: z.string().optional(),
  name: z.string().optional(),
  surname: z.string().optional(),
  country: z.string().min(1),
  address: z.string().min(1),
  city: z.string().min(1),
  district: z.string().min(1),
  postcode: z.string().optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
  iban: z.string().optional(),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const InternetSaleSchema = z.object({
  web_address: z.string().optional(),
  payment_method: z.enum(PAYMENT_METHODS).optional(),
  payment_platform: z.string().max(255).optional(),
  payment_date: DateYmd.optional(),
});
export type InternetSale = z.infer<typeof InternetSaleSchema>;

export const ShipmentSchema = z.object({
  company_title: z.string().max(255).optional(),
  company_tax_number: z.string().max(20).optional(),
  courier_name: z.string().max(255).optional(),
  courier_tax_number: z.string().max(20).optional(),
  delivery_date: DateYmd.optional(),
});
export type Shipment = z.infer<typeof ShipmentSchema>;

export const InvoiceRequestSchema = z
  .object({
    type: z.enum(INVOICE_TYPES),
    profile: z.string().optional(),
    invoice_integration_id: z.number().int().optional(),
    sale_channel_id: z.number().int(),
    order_id: z.string().min(1).optional(),
    order_d_id: z.string().optional(),
    order_created_at: DateYmd.optional(),
    currency_rate: AmountSchema.refine(positive, "currency_rate must be greater than 0").optional(),
    issue_date: DateYmd,
    issue_time: TimeHi,
    // The spec: a numeric string (the waybill form says so before anything is sent).
    waybill_number: z.string().regex(/^\d+$/, "expected a numeric string").optional(),
    // The spec: a currency code (ISO 4217, facts file); the sandbox refuses anything else.
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "expected a 3-letter ISO 4217 code")
      .optional(),
    waybill_date: DateYmd.optional(),
    cash_sale: z.boolean(),
    due_date: DateYmd.optional(),
    payment_date: DateYmd.optional(),
    callback_url: z.url().optional(),
    description: z.string().optional(),
    lines: z.array(InvoiceLineRequestSchema).min(1),
    is_internet_sale: z.boolean().optional(),
    internet_sale: InternetSaleSchema.optional(),
    is_need_shipment: z.boolean().optional(),
    shipment: ShipmentSchema.optional(),
    customer_id: z.number().int().optional(),
    customer: CustomerSchema.optional(),
  })
  // The conditional rules of the spec's tables ("Errors" section), checked before anything is sent.
  .superRefine((body, ctx) => {
    const need = (cond: boolean, path: (string | number)[], message: string) => {
      if (cond) ctx.addIssue({ code: "custom", path, message });
    };
    need(
      body.order_id !== undefined && !body.order_created_at,
      ["order_created_at"],
      "required when order_id is present",
    );
    need(body.cash_sale && !body.payment_date, ["payment_date"], "required when cash_sale is true");
    need(
      body.is_internet_sale === true && !body.internet_sale,
      ["internet_sale"],
      "required when is_internet_sale is true",
    );
    need(body.customer_id === undefined && !body.customer, ["customer"], "required when customer_id is not sent");
    if (body.customer?.type === "company") {
      need(!body.customer.tax_office, ["customer", "tax_office"], "required for a company");
      need(!body.customer.title, ["customer", "title"], "required for a company");
    }
    if (body.is_need_shipment === true) {
      const s = body.shipment;
      need(!s, ["shipment"], "required when is_need_shipment is true");
      if (s) {
        const company = Boolean(s.company_title && s.company_tax_number);
        const courier = Boolean(s.courier_name && s.courier_tax_number);
        need(
          !company && !courier,
          ["shipment"],
          "carrier (company_title + company_tax_number) or courier pair required",
        );
        need(!s.delivery_date, ["shipment", "delivery_date"], "required when is_need_shipment is true");
      }
    }
    body.lines.forEach((line, i) => {
      if (line.tax_rate !== "0") return;
      need(
        line.exemption_code === undefined || line.exemption_code === "",
        ["lines", i, "exemption_code"],
        "required when tax_rate is 0",
      );
      need(!line.exemption_reason, ["lines", i, "exemption_reason"], "required when tax_rate is 0");
    });
  });
export type InvoiceRequest = z.infer<typeof InvoiceRequestSchema>;

// ---------------------------------------------------------------------------------------------------
// Invoice record (response)

export const InvoiceRecordLineSchema = z.looseObject({
  id: IdSchema.nullish(),
  name: str,
  quantity: DecimalOut.nullish(),
  unit_price: DecimalOut.nullish(),
  grand_total: DecimalOut.nullish(),
});

export const ReceiverSchema = z.looseObject({
  name: str,
  surname: str,
  title: str,
  tax_number: str,
});

export const InvoiceRecordSchema = z.looseObject({
  id: IdSchema,
  team_id: IdSchema.nullish(),
  type: str,
  profile: str,
  invoice_integration_id: IdSchema.nullish(),
  sale_channel_id: IdSchema.nullish(),
  order_id: z.union([z.string(), z.number()]).transform(String).nullish(),
  workflow_status: str,
  formal_status: str,
  ettn: str,
  serial_number: str,
  pdf_url: str,
  currency: str,
  currency_rate: DecimalOut.nullish(),
  issue_date: str,
  issue_time: str,
  cash_sale: z.boolean().nullish(),
  payment_date: str,
  due_date: str,
  callback_url: str,
  lines_total: DecimalOut.nullish(),
  discount_total: DecimalOut.nullish(),
  tax_total: DecimalOut.nullish(),
  extra_tax_total: DecimalOut.nullish(),
  grand_total: DecimalOut.nullish(),
  is_internet_sale: z.boolean().nullish(),
  is_need_shipment: z.boolean().nullish(),
  receiver: ReceiverSchema.nullish(),
  lines: z.array(InvoiceRecordLineSchema).nullish(),
  // Element fields are "not shown"; null or absent is read as "no errors".
  errors: z.preprocess((v) => v ?? [], z.array(z.unknown())),
  internet_sale: z.looseObject({}).nullish(),
  shipment: z.looseObject({}).nullish(),
  waybill_number: str,
  created_at: str,
  updated_at: str,
});
export type InvoiceRecord = z.infer<typeof InvoiceRecordSchema>;

/**
 * An invoice number as GİB gives it, e.g. ARS2026000000123: a 3-character series, the year and a 9-digit sequence
 * (the service's spec says only "the invoice number"). The service's answer is not trusted: it is shown in the admin, printed in e-mails, written to
 * the order and used in file names.
 */
export const SERIAL_NUMBER = /^[A-Z0-9]{3}\d{13}$/;

/**
 * Which document the service chose. UBL-TR profile EARSIVFATURA is an e-archive invoice; any other profile
 * (TEMELFATURA, TICARIFATURA, ...) an e-invoice. The anonymous final consumer is always e-archive (spec,
 * scope rule 5). Otherwise null: the service decides during processing and the record does not say yet.
 */
export function documentKindOf(record: Pick<InvoiceRecord, "profile" | "receiver">): "e_invoice" | "e_archive" | null {
  const profile = record.profile?.trim().toUpperCase();
  if (profile) return profile === "EARSIVFATURA" ? "e_archive" : "e_invoice";
  if (record.receiver?.tax_number === ANONYMOUS_TAX_NUMBER) return "e_archive";
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Accounts and channels

/** An invoice account; the vendor's clients show either `name` or `title`, normalised to `name`. */
export const InvoiceIntegrationSchema = z
  .looseObject({ id: IdSchema, name: str, title: str })
  .transform(({ name, title, ...rest }) => ({ ...rest, name: name ?? title ?? "" }));
export type InvoiceIntegration = z.infer<typeof InvoiceIntegrationSchema>;

export const SaleChannelSchema = z
  .looseObject({ id: IdSchema, name: str })
  .transform(({ name, ...rest }) => ({ ...rest, name: name ?? "" }));
export type SaleChannel = z.infer<typeof SaleChannelSchema>;

// ---------------------------------------------------------------------------------------------------
// Waybill (only the fields the spec refers to; the name of the status field is not shown)

export const WaybillPartySchema = z.looseObject({
  role: str,
  identifier_number: str,
  title: str,
  name: str,
  surname: str,
  tax_office: str,
  country: str,
  city: str,
  district: str,
  address: str,
});

export const WaybillLineSchema = z.looseObject({
  id: z.union([z.number(), z.string()]).nullish(),
  seller_product_code: str,
  name: str,
  quantity: DecimalOut.nullish(),
  unit: str,
  unit_price: DecimalOut.nullish(),
  tax_rate: DecimalOut.nullish(),
});

export const WaybillRecordSchema = z.looseObject({
  id: IdSchema,
  document_number: str,
  issue_date: str,
  currency: str,
  currency_rate: DecimalOut.nullish(),
  invoice_integration_id: IdSchema.nullish(),
  invoice_id: IdSchema.nullish(),
  status: str,
  parties: z.array(WaybillPartySchema).nullish(),
  lines: z.array(WaybillLineSchema).nullish(),
});
export type WaybillRecord = z.infer<typeof WaybillRecordSchema>;

// ---------------------------------------------------------------------------------------------------
// Per-invoice callback (spec "Events")

export const CallbackPayloadSchema = z.object({
  invoice_id: IdSchema,
  team_id: IdSchema,
  time: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, "expected Y-m-d H:i:s"),
  hash: z.string().regex(/^[0-9a-fA-F]{128}$/, "expected 128 hex characters"),
});
export type CallbackPayload = z.infer<typeof CallbackPayloadSchema>;
