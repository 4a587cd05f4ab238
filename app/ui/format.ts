// Display formatting in the admin's locale. Amounts are decimal strings and stay strings: Intl formats the
// string itself (no float arithmetic), so 0.1 + 0.2 never shows up as 0.30000000000000004.
import type { Locale } from "../i18n/i18n";

const intlLocale = (locale: Locale) => (locale === "tr" ? "tr-TR" : "en-US");

/** "1234.50" TRY → "₺1.234,50" (tr) / "TRY 1,234.50" (en). Unparseable input is shown as given. */
export function formatMoney(amount: string, currency: string, locale: Locale): string {
  if (!/^-?\d+(\.\d+)?$/.test(amount.trim())) return `${amount} ${currency}`;
  try {
    const format = new Intl.NumberFormat(intlLocale(locale), {
      style: "currency",
      currency,
      currencyDisplay: locale === "tr" ? "symbol" : "code",
      minimumFractionDigits: 2,
      maximumFractionDigits: 20,
    });
    // ES2023 Intl.NumberFormat accepts a decimal string and formats it exactly.
    return format.format(amount.trim() as unknown as number);
  } catch {
    return `${amount} ${currency}`;
  }
}

export function formatDate(iso: string, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeZone }).format(new Date(iso));
}

/** A calendar day as the filter holds it (YYYY-MM-DD) → "26 Kas 2026" / "Nov 26, 2026"; the day itself, no zone shift. */
export function formatDay(day: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

export function formatDateTime(iso: string, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeStyle: "short", timeZone }).format(
    new Date(iso),
  );
}
