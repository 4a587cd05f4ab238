// Turkish tax numbers: VKN (10 digits, companies) and TCKN (11 digits, citizens) with their check digits.
// The sandbox fails the formalisation of an invoice whose recipient number has a wrong check digit, as the
// tax authority would, and decides e-invoice vs e-archive from a per-account list of registered numbers.

/** The anonymous final consumer: always e-archive, never matched to a customer, valid without checksum. */
export const ANONYMOUS_TAX_NUMBER = "11111111111";
/** The number e-archive practice uses for buyers abroad; like the anonymous one it has no check digit. */
export const FOREIGN_BUYER_TAX_NUMBER = "2222222222";

/** Valid VKNs registered as e-invoice users in the default sandbox account (any recipient not listed gets e-archive). */
export const E_INVOICE_TAX_NUMBERS = ["9876543217", "4567890128", "1112223339"] as const;

/** A valid VKN that is NOT registered for e-invoice: its invoices become e-archive invoices. */
export const E_ARCHIVE_VKN_EXAMPLE = "1234567890";
/** A valid TCKN (a person): e-archive. */
export const VALID_TCKN_EXAMPLE = "12345678950";
/** Ten digits with a wrong VKN check digit: formalisation fails. */
export const INVALID_VKN_EXAMPLE = "1234567891";
/** Eleven digits with wrong TCKN check digits: formalisation fails. */
export const INVALID_TCKN_EXAMPLE = "12345678901";

/** VKN check digit (the tax authority's algorithm). */
export function isValidVkn(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const v1 = (Number(value[i]) + 10 - (i + 1)) % 10;
    let v2 = (v1 * 2 ** (10 - (i + 1))) % 9;
    if (v1 !== 0 && v2 === 0) v2 = 9;
    sum += v2;
  }
  return (10 - (sum % 10)) % 10 === Number(value[9]);
}

/** TCKN check digits (10th and 11th); the first digit is never 0. */
export function isValidTckn(value: string): boolean {
  if (!/^[1-9]\d{10}$/.test(value)) return false;
  const d = [...value].map(Number);
  const d10 = ((((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10) + 10) % 10;
  const d11 = d.slice(0, 10).reduce((a, b) => a + b, 0) % 10;
  return d[9] === d10 && d[10] === d11;
}

/** Whether the tax authority accepts the number as a recipient identifier. */
export function isAcceptableTaxNumber(value: string): boolean {
  return (
    value === ANONYMOUS_TAX_NUMBER || value === FOREIGN_BUYER_TAX_NUMBER || isValidVkn(value) || isValidTckn(value)
  );
}
