// Turkish tax identifiers: the VKN (vergi kimlik numarası, 10 digits, companies and sole traders) and the
// T.C. kimlik numarası (TCKN, 11 digits, citizens), with their check digits.
//
// One implementation for the server and the storefront: the theme block's script
// (extensions/invoice-details/assets/invoice-details.js) carries a copy generated from this file by
// `npm run theme:assets`, and a test fails when that copy differs. So this file stays plain: no imports,
// nothing a browser lacks.

export type TaxIdKind = "vkn" | "tckn";

/** Why a value is not a valid identifier. */
export type TaxIdProblem = "empty" | "not_digits" | "length" | "leading_zero" | "repeated" | "checksum";

export type TaxIdCheck =
  | { valid: true; kind: TaxIdKind; value: string }
  | { valid: false; kind: TaxIdKind | null; value: string; problem: TaxIdProblem };

export const TAX_ID_LENGTH = { vkn: 10, tckn: 11 } as const;

/** Removes what people type between digits: spaces (also non-breaking), dots, dashes and slashes. */
export function normalizeTaxId(input: string): string {
  return String(input).replace(/[\s.\-/]/g, "");
}

/** The VKN check digit: the tax authority's weighted sum of the first nine digits. A leading 0 is allowed. */
export function isValidVkn(value: string): boolean {
  if (!/^\d{10}$/.test(value) || /^(\d)\1{9}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const t = (Number(value[i]) + 9 - i) % 10;
    let v = (t * Math.pow(2, 9 - i)) % 9;
    if (t !== 0 && v === 0) v = 9;
    sum += v;
  }
  return (10 - (sum % 10)) % 10 === Number(value[9]);
}

/** The TCKN's two check digits; the first digit is never 0. */
export function isValidTckn(value: string): boolean {
  if (!/^[1-9]\d{10}$/.test(value)) return false;
  const d: number[] = [];
  for (let i = 0; i < 11; i++) d.push(Number(value[i]));
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  let firstTen = 0;
  for (let i = 0; i < 10; i++) firstTen += d[i];
  return d[9] === tenth && d[10] === firstTen % 10;
}

/**
 * Checks a value as typed: as the given kind, or (without one) as a VKN when it has 10 digits and a
 * TCKN when it has 11. The result says which rule failed, so a form can say what to fix.
 */
export function checkTaxId(input: string, kind?: TaxIdKind): TaxIdCheck {
  const value = normalizeTaxId(input);
  const expected: TaxIdKind | null = kind ?? (value.length === 10 ? "vkn" : value.length === 11 ? "tckn" : null);
  const fail = (problem: TaxIdProblem): TaxIdCheck => ({ valid: false, kind: expected, value, problem });
  if (value === "") return fail("empty");
  if (!/^\d+$/.test(value)) return fail("not_digits");
  if (expected === null || value.length !== TAX_ID_LENGTH[expected]) return fail("length");
  if (expected === "tckn" && value[0] === "0") return fail("leading_zero");
  if (/^(\d)\1+$/.test(value)) return fail("repeated");
  const valid = expected === "vkn" ? isValidVkn(value) : isValidTckn(value);
  return valid ? { valid: true, kind: expected, value } : fail("checksum");
}
