// Each page's <title> (the browser tab, and the first thing a screen reader announces): the route's `handle.title`
// in the admin's language, then the app's name. The root reads it from the deepest route that names one.
import { translate, type Locale, type MessageKey } from "./i18n";

export interface TitleHandle {
  /** A catalogue key, or the title from the route's data (an invoice page names its order). */
  title: MessageKey | ((data: unknown, locale: Locale) => string);
}

export function pageTitle(matches: Array<{ handle?: unknown; data?: unknown }>, locale: Locale): string {
  const app = translate(locale, "app.title");
  for (const match of [...matches].reverse()) {
    const handle = match.handle as Partial<TitleHandle> | undefined;
    if (!handle?.title) continue;
    const title =
      typeof handle.title === "function" ? handle.title(match.data, locale) : translate(locale, handle.title);
    if (title) return `${title} · ${app}`;
  }
  return app;
}
