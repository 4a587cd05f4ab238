// Exact decimal arithmetic for money (decimal.js, docs/decisions/0003-money-and-rounding.md).
// Never use JavaScript numbers for amounts.
import DecimalJs from "decimal.js";

/** A Decimal with 40 significant digits, rounding half away from zero (PHP's round(), which the service uses). */
export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP });
export type Decimal = InstanceType<typeof Decimal>;
export type DecimalInput = Decimal | string | number;

export const ZERO = new Decimal(0);

export function dec(value: DecimalInput | null | undefined): Decimal {
  if (value === null || value === undefined || value === "") return ZERO;
  return new Decimal(value);
}

/** Rounds to kuruş (2 decimals), half away from zero. */
export function round2(value: DecimalInput): Decimal {
  return dec(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** "12.30": a two-decimal string, the format of every amount the service returns. */
export function money(value: DecimalInput): string {
  return round2(value).toFixed(2);
}
