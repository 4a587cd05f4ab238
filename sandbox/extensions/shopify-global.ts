// Shopify's `shopify` global as an extension bundle of api_version 2025-10 or later meets it, to render the CLI's
// bundles locally (the DOM test test/extensions/bundles.test.ts and the browser host sandbox/extensions/host.ts):
// - extend(target, callback): the CLI's generated entry registers each target's default export with it;
// - setSignals(Signal): @shopify/ui-extensions/preact hands it @preact/signals' Signal when the bundle loads;
// - i18n.translate(key, options) over the extension's locale file as Shopify documents it: `count` selects the
//   plural form ({ one, other, ... } by Intl.PluralRules), {{name}} is replaced. Stricter than Shopify: a missing
//   message, a plain message given `count`, or a placeholder without a value throws, so a test sees it.
// What the target reads besides (data, appMetafields, localization, close...) is given by the caller.
// Test and sandbox code only; never part of the app.

type Messages = Record<string, unknown>;

export function translator(messages: Messages, locale: string) {
  const plural = new Intl.PluralRules(locale);
  return (key: string, options: Record<string, unknown> = {}): string => {
    let message = key
      .split(".")
      .reduce<unknown>(
        (node, part) => (node && typeof node === "object" ? (node as Messages)[part] : undefined),
        messages,
      );
    if ("count" in options) {
      if (!message || typeof message !== "object")
        throw new Error(`translate("${key}", { count }): "${key}" is not a plural message`);
      const forms = message as Messages;
      message = forms[plural.select(Number(options.count))] ?? forms.other;
    }
    if (typeof message !== "string") throw new Error(`translate("${key}"): no such message`);
    return message.replace(/{{\s*(\w+)\s*}}/g, (_match, name: string) => {
      if (!(name in options)) throw new Error(`translate("${key}"): no value for {{${name}}}`);
      return String(options[name]);
    });
  };
}

export type TargetCallback = (...args: unknown[]) => unknown;

export interface ShopifyGlobal {
  shopify: Record<string, unknown>;
  /** The callbacks the bundle registered, by target. */
  targets: Map<string, TargetCallback>;
  /** The Signal class @shopify/ui-extensions/preact handed over, once the bundle has loaded. */
  signal(): unknown;
}

export function shopifyGlobal(options: {
  messages: Messages;
  locale: string;
  api: Record<string, unknown>;
}): ShopifyGlobal {
  const targets = new Map<string, TargetCallback>();
  let signal: unknown;
  const shopify = {
    ...options.api,
    i18n: { translate: translator(options.messages, options.locale) },
    extend(target: string, callback: TargetCallback) {
      if (typeof target !== "string" || typeof callback !== "function")
        throw new Error("shopify.extend(target, callback)");
      if (targets.has(target)) throw new Error(`shopify.extend: ${target} registered twice`);
      targets.set(target, callback);
    },
    setSignals(Signal: unknown) {
      signal = Signal;
    },
  };
  return { shopify, targets, signal: () => signal };
}
