// Turkish and English texts. The admin tells the app its language (`locale` in the embedded URL);
// Turkish for a Turkish admin, English otherwise.
import { en } from "./en";
import { tr } from "./tr";

export type Locale = "tr" | "en";
export type MessageKey = keyof typeof en;
export const messages: Record<Locale, Record<MessageKey, string>> = { en, tr };

export function localeFrom(value: string | null | undefined): Locale {
  return value?.toLowerCase().startsWith("tr") ? "tr" : "en";
}

/** The admin's locale from the request: Shopify's `locale` parameter, then Accept-Language. */
export function requestLocale(request: Request): Locale {
  const url = new URL(request.url);
  return localeFrom(url.searchParams.get("locale") ?? request.headers.get("accept-language"));
}

/** The text for `key`, with `{name}` placeholders filled from `params`. */
export function translate(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = messages[locale][key] ?? messages.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

/** For keys built at run time ("state." + state): the text if the key exists, otherwise `fallback`. */
export function translateKey(
  locale: Locale,
  key: string,
  fallback: string,
  params: Record<string, string | number> = {},
): string {
  return key in messages.en ? translate(locale, key as MessageKey, params) : fallback;
}
