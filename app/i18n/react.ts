// The admin's locale on the client. The shell's loader (routes/app) reads it from the embedded URL once;
// child routes take it from there, because their data requests after a client-side navigation no longer
// carry Shopify's `locale` parameter.
import { useRouteLoaderData } from "@remix-run/react";
import { useCallback } from "react";
import { translate, translateKey, type Locale, type MessageKey } from "./i18n";

export function useLocale(): Locale {
  const data = useRouteLoaderData("routes/app") as { locale?: Locale } | undefined;
  return data?.locale === "tr" ? "tr" : "en";
}

export type T = ((key: MessageKey, params?: Record<string, string | number>) => string) & {
  /** A key built at run time, with a fallback when it does not exist. */
  dyn: (key: string, fallback: string, params?: Record<string, string | number>) => string;
  locale: Locale;
};

/** `t(key, params)` in the admin's locale. */
export function useT(): T {
  const locale = useLocale();
  const t = useCallback(
    (key: MessageKey, params?: Record<string, string | number>) => translate(locale, key, params),
    [locale],
  );
  return Object.assign(t, {
    dyn: (key: string, fallback: string, params?: Record<string, string | number>) =>
      translateKey(locale, key, fallback, params),
    locale,
  });
}
