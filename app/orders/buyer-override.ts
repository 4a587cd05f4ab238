// The buyer as the merchant sets it on the invoice page, over what the order says (issue 22, point 1): a person or a
// company, its T.C. number or VKN (the same check digits as the cart block and the mapping, ./tax-id.ts), the
// company's title and tax office or the person's name, and why (kept in the invoice's history). The address, e-mail
// and phone still come from the order. Pure: the form's check, and what it puts on the invoice's customer.
import { z } from "zod";
import { ANONYMOUS_TAX_NUMBER } from "../invoicing-service/schemas";
import { checkTaxId, type TaxIdProblem } from "./tax-id";
import { clean } from "./text";

export interface BuyerOverride {
  kind: "person" | "company";
  /** VKN or T.C. number as checked (digits only); a person without one is invoiced with the anonymous number. */
  taxNumber: string;
  /** A company's title; a person's first and last name. */
  title?: string;
  name?: string;
  surname?: string;
  taxOffice?: string;
  reason: string;
  at: string;
}

/** Field → why it is refused: a tax-id problem (`empty`, `checksum`, …), or `required` / `too_long`. */
export type BuyerOverrideErrors = Partial<
  Record<
    "kind" | "taxNumber" | "title" | "name" | "surname" | "taxOffice" | "reason",
    TaxIdProblem | "required" | "too_long" | "kind"
  >
>;

const LIMITS = { title: 255, name: 100, surname: 100, taxOffice: 100, reason: 500 } as const;

/** The posted form checked; `at` is when it was set. */
export function checkBuyerOverride(
  input: Record<string, unknown>,
  at: Date,
): { ok: true; override: BuyerOverride } | { ok: false; errors: BuyerOverrideErrors } {
  const field = (name: string) => clean(typeof input[name] === "string" ? (input[name] as string) : undefined) ?? "";
  const errors: BuyerOverrideErrors = {};
  const kind = field("kind");
  if (kind !== "person" && kind !== "company") return { ok: false, errors: { kind: "kind" } };
  const limited = (name: keyof typeof LIMITS, required: boolean) => {
    const value = field(name);
    if (!value && required) errors[name] = "required";
    else if (value.length > LIMITS[name]) errors[name] = "too_long";
    return value;
  };
  const reason = limited("reason", true);
  const rawNumber = field("taxNumber");
  let taxNumber = ANONYMOUS_TAX_NUMBER;
  if (kind === "company") {
    // A company is a VKN, or a sole trader's T.C. number (which is their tax number too).
    const check = checkTaxId(rawNumber);
    if (!check.valid) errors.taxNumber = check.problem;
    else taxNumber = check.value;
    const title = limited("title", true);
    const taxOffice = limited("taxOffice", true);
    if (Object.keys(errors).length) return { ok: false, errors };
    return { ok: true, override: { kind, taxNumber, title, taxOffice, reason, at: at.toISOString() } };
  }
  if (rawNumber) {
    const check = checkTaxId(rawNumber, "tckn");
    if (!check.valid) errors.taxNumber = check.problem;
    else taxNumber = check.value;
  }
  const name = limited("name", true);
  const surname = limited("surname", true);
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, override: { kind, taxNumber, name, surname, reason, at: at.toISOString() } };
}

const StoredSchema = z.object({
  kind: z.enum(["person", "company"]),
  taxNumber: z.string().regex(/^\d{10,11}$/),
  title: z.string().optional(),
  name: z.string().optional(),
  surname: z.string().optional(),
  taxOffice: z.string().optional(),
  reason: z.string(),
  at: z.string(),
});

/** The stored override (a JSON column), read defensively: anything else is no override. */
export function buyerOverrideFrom(value: unknown): BuyerOverride | null {
  const parsed = StoredSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
