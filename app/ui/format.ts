// Display formatting in the admin's locale: the one place pages format dates, months, amounts and sizes, so a page
// never shows "6 Ara 2026 04:25" beside "06.12.2026 04:25:43" and "2026-12-06" (issue 36, point 6). Amounts are
// decimal strings and stay strings: Intl formats the string itself (no float arithmetic), so 0.1 + 0.2 never shows up
// as 0.30000000000000004.
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

/** A month as the filter holds it (YYYY-MM) → "Kasım 2026" / "November 2026". */
export function formatMonth(month: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}

/** A calendar day with its weekday, for a deadline: "28 Kasım 2026 Cumartesi" / "Saturday, November 28, 2026". */
export function formatDayWithWeekday(day: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "full", timeZone: "UTC" }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

/** A file's size: "1,5 MB" / "1.5 MB". */
export function formatBytes(bytes: number, locale: Locale): string {
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toLocaleString(intlLocale(locale), { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit]}`;
}

export function formatDateTime(iso: string, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeStyle: "short", timeZone }).format(
    new Date(iso),
  );
}
