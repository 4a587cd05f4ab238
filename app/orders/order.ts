// The part of Shopify's REST `orders/paid` payload that invoicing reads. Loose: unknown fields pass,
// because Shopify adds fields with every API version. Money stays a decimal string, never a number.
import { z } from "zod";
import { problem, type Problem } from "../problems";

/** A decimal amount as Shopify sends it ("12.30"); a stray JSON number is taken as its shortest decimal text. */
const amount = z.union([
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, "decimal amount expected"),
  z
    .number()
    .refine(
      (n) => Number.isFinite(n),
      // Stryker disable next-line StringLiteral: zod 4's z.number() already refuses NaN and ±Infinity, so this refine never fails and its message is never read.
      "finite number expected",
    )
    .transform((n) => String(n)),
]);
const id = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);
const text = z.string().nullish();

const MoneySchema = z.looseObject({ amount, currency_code: z.string() });
const MoneySetSchema = z.looseObject({ shop_money: MoneySchema, presentment_money: MoneySchema });

const TaxLineSchema = z.looseObject({
  title: text,
  price: amount,
  price_set: MoneySetSchema.nullish(),
  /** A fraction: 0.2 for 20 %. */
  rate: z.union([z.number(), z.string().regex(/^\d+(\.\d+)?$/)]).transform((r) => String(r)),
});

const DiscountAllocationSchema = z.looseObject({
  amount,
  amount_set: MoneySetSchema.nullish(),
  discount_application_index: z.number().int().nullish(),
});

const LineItemSchema = z.looseObject({
  id,
  product_id: id.nullish(),
  variant_id: id.nullish(),
  title: z.string(),
  variant_title: text,
  name: text,
  sku: text,
  quantity: z.number().int().nonnegative(),
  current_quantity: z.number().int().nonnegative().nullish(),
  price: amount,
  price_set: MoneySetSchema.nullish(),
  total_discount: amount.nullish(),
  discount_allocations: z.array(DiscountAllocationSchema).nullish(),
  tax_lines: z.array(TaxLineSchema).nullish(),
  taxable: z.boolean().nullish(),
  requires_shipping: z.boolean().nullish(),
  gift_card: z.boolean().nullish(),
});

const ShippingLineSchema = z.looseObject({
  id: id.nullish(),
  title: z.string().nullish(),
  code: text,
  price: amount,
  price_set: MoneySetSchema.nullish(),
  discounted_price: amount.nullish(),
  tax_lines: z.array(TaxLineSchema).nullish(),
  discount_allocations: z.array(DiscountAllocationSchema).nullish(),
});

const AddressSchema = z.looseObject({
  first_name: text,
  last_name: text,
  name: text,
  company: text,
  address1: text,
  address2: text,
  city: text,
  province: text,
  province_code: text,
  zip: text,
  country: text,
  country_code: text,
  phone: text,
});

const CustomerSchema = z.looseObject({
  id,
  email: text,
  first_name: text,
  last_name: text,
  phone: text,
});

const RefundSchema = z.looseObject({
  id: id.nullish(),
  created_at: text,
  refund_line_items: z.array(z.looseObject({ line_item_id: id, quantity: z.number().int().nonnegative() })).nullish(),
  order_adjustments: z.array(z.looseObject({ kind: text, amount: amount.nullish() })).nullish(),
});

const FulfillmentSchema = z.looseObject({
  id: id.nullish(),
  status: text,
  created_at: text,
  tracking_company: text,
  tracking_number: text,
});

export const ShopifyOrderSchema = z.looseObject({
  id,
  admin_graphql_api_id: text,
  name: z.string(),
  order_number: z.number().int().nullish(),
  created_at: z.string(),
  processed_at: text,
  source_name: text,
  test: z.boolean().nullish(),
  currency: z.string(),
  presentment_currency: text,
  taxes_included: z.boolean().nullish(),
  total_price: amount,
  total_price_set: MoneySetSchema.nullish(),
  current_total_price: amount.nullish(),
  current_total_price_set: MoneySetSchema.nullish(),
  subtotal_price: amount.nullish(),
  total_tax: amount.nullish(),
  total_discounts: amount.nullish(),
  total_tip_received: amount.nullish(),
  email: text,
  phone: text,
  customer: CustomerSchema.nullish(),
  billing_address: AddressSchema.nullish(),
  shipping_address: AddressSchema.nullish(),
  line_items: z.array(LineItemSchema),
  shipping_lines: z.array(ShippingLineSchema).nullish(),
  note_attributes: z
    .array(z.looseObject({ name: z.string(), value: z.union([z.string(), z.number()]).nullish() }))
    .nullish(),
  gateway: text,
  payment_gateway_names: z.array(z.string()).nullish(),
  financial_status: text,
  fulfillments: z.array(FulfillmentSchema).nullish(),
  refunds: z.array(RefundSchema).nullish(),
  /** A B2B order's company and company location (ids only; app/orders/company.ts). */
  company: z.looseObject({ id: id.nullish(), location_id: id.nullish() }).nullish(),
});

export type ShopifyOrder = z.infer<typeof ShopifyOrderSchema>;
export type ShopifyLineItem = z.infer<typeof LineItemSchema>;
export type ShopifyShippingLine = z.infer<typeof ShippingLineSchema>;
export type ShopifyAddress = z.infer<typeof AddressSchema>;
export type ShopifyTaxLine = z.infer<typeof TaxLineSchema>;
export type ShopifyMoneySet = z.infer<typeof MoneySetSchema>;

export function parseShopifyOrder(
  json: unknown,
): { ok: true; order: ShopifyOrder } | { ok: false; problems: Problem[] } {
  const result = ShopifyOrderSchema.safeParse(json);
  if (result.success) return { ok: true, order: result.data };
  return {
    ok: false,
    problems: result.error.issues
      .slice(0, 10)
      .map((issue) =>
        problem("order.invalid_payload", { path: issue.path.join(".") || "(root)", message: issue.message }),
      ),
  };
}

/**
 * The order as the app stores it (the Invoice row's snapshot): only the fields ShopifyOrderSchema names, at every
 * depth, as received. Browser IPs, client details, landing pages, marketing consents and whatever else Shopify
 * sends are not kept: the app holds no personal data it does not need to invoice.
 */
export function orderSnapshot(payload: unknown): unknown {
  return pickKnown(ShopifyOrderSchema, payload);
}

/** `value` cut to what `schema` names (objects by their shape, arrays by their element), raw values kept. */
function pickKnown(schema: z.ZodType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
    return pickKnown(schema.unwrap() as z.ZodType, value);
  if (schema instanceof z.ZodPipe) return pickKnown(schema.in as z.ZodType, value);
  if (schema instanceof z.ZodArray)
    return Array.isArray(value) ? value.map((item) => pickKnown(schema.element as z.ZodType, item)) : value;
  if (schema instanceof z.ZodObject) {
    if (typeof value !== "object" || Array.isArray(value)) return value;
    const shape = schema.shape as Record<string, z.ZodType>;
    const source = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(shape)
        .filter((key) => key in source)
        .map((key) => [key, pickKnown(shape[key], source[key])]),
    );
  }
  // Unions here are of scalars (amounts, ids, rates); an object where a scalar belongs is dropped.
  return typeof value === "object" ? null : value;
}
