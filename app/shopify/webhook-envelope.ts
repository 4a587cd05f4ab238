// The few order fields the webhook routes read to record a row. The full order is mapped later by the
// worker; here a body without a usable id or name is rejected as malformed (4xx), nothing more.
import { z } from "zod";

const person = z.looseObject({
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  company: z.string().nullish(),
});

export const OrderEnvelopeSchema = z.looseObject({
  id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
  name: z.string().min(1),
  created_at: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date"),
  currency: z.string().length(3).default("TRY"),
  total_price: z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .default("0.00"),
  financial_status: z.string().nullish(),
  customer: z
    .looseObject({
      id: z.union([z.number(), z.string()]).nullish(),
      first_name: z.string().nullish(),
      last_name: z.string().nullish(),
    })
    .nullish(),
  billing_address: person.nullish(),
  shipping_address: person.nullish(),
});

export type OrderEnvelope = z.infer<typeof OrderEnvelopeSchema>;

export function parseEnvelope(payload: unknown): { ok: true; envelope: OrderEnvelope } | { ok: false; error: string } {
  const result = OrderEnvelopeSchema.safeParse(payload);
  if (result.success) return { ok: true, envelope: result.data };
  const issue = result.error.issues[0];
  return { ok: false, error: `${issue.path.join(".") || "body"}: ${issue.message}` };
}

/** The buyer's name for the admin list: billing address, then customer, then shipping address. */
export function customerNameOf(order: OrderEnvelope): string | null {
  for (const who of [order.billing_address, order.customer, order.shipping_address]) {
    const name = [who?.first_name, who?.last_name].filter(Boolean).join(" ").trim();
    const company = (who as { company?: string | null } | null | undefined)?.company;
    if (company) return name ? `${company} (${name})` : company;
    if (name) return name;
  }
  return null;
}

/** Orders Shopify reports as paid (fully or after a partial refund) may be invoiced. */
export function isPaid(order: OrderEnvelope): boolean {
  return ["paid", "partially_refunded"].includes(order.financial_status ?? "paid");
}
