// Prints, as JSON, the invoice body the app would send for a Shopify order, with its totals and any
// problems (Turkish and English). For merchants' support and for checking the mapping by hand:
//   npm run --silent invoice:preview -- --order ORDER.json [--settings SETTINGS.json]
//        [--now 2026-11-22T10:00:00Z] [--timezone Europe/Istanbul] [--shop my-shop.myshopify.com]
//        [--storefront https://www.example.com] [--sale-channel-id 1] [--invoice-integration-id 1]
// Settings file format: docs/mapping-settings.md. Exit code 0: invoice body; 1: problems; 2: bad input.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { mapOrderToInvoice } from "../app/orders/map-order";
import { parseShopifyOrder } from "../app/orders/order";
import { problemText, type Problem } from "../app/problems";
import { fieldErrors, MappingSettingsSchema, settingsErrorText } from "../app/settings/schema";
import type { Locale } from "../app/i18n/i18n";
import { TURKEY_ZONE } from "../app/orders/dates";

const USAGE =
  "usage: npm run --silent invoice:preview -- --order ORDER.json [--settings SETTINGS.json] [--now ISO-8601] [--timezone IANA-ZONE] " +
  "[--shop DOMAIN] [--storefront URL] [--sale-channel-id N] [--invoice-integration-id N]";

function fail(message: string): never {
  console.error(`invoice-preview: ${message}`);
  process.exit(2);
}

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    fail(`cannot read the ${what} file "${file}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    fail(`the ${what} file "${file}" is not valid JSON: ${(e as Error).message}`);
  }
}

function withMessages(problems: Problem[]) {
  // A settings field's error is a code of the settings schema: its text, too, in each language.
  const inLocale = (p: Problem, locale: Locale) =>
    p.code === "settings.invalid"
      ? {
          ...p,
          params: { ...p.params, message: settingsErrorText(String(p.params?.message), locale).replace(/\.$/, "") },
        }
      : p;
  return problems.map((p) => ({
    ...p,
    message: { tr: problemText(inLocale(p, "tr"), "tr"), en: problemText(inLocale(p, "en"), "en") },
  }));
}

function positiveInt(value: string | undefined, name: string): number {
  if (value === undefined) return 1;
  if (!/^\d+$/.test(value) || Number(value) < 1) fail(`--${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

let args;
try {
  args = parseArgs({
    options: {
      order: { type: "string" },
      settings: { type: "string" },
      now: { type: "string" },
      timezone: { type: "string" },
      shop: { type: "string" },
      storefront: { type: "string" },
      "sale-channel-id": { type: "string" },
      "invoice-integration-id": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }).values;
} catch (e) {
  fail(`${(e as Error).message}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args.order) fail(`--order is required\n${USAGE}`);

const now = args.now ? new Date(args.now) : new Date();
if (Number.isNaN(now.getTime())) fail(`--now is not an ISO 8601 date-time: "${args.now}"`);
const timezone = args.timezone ?? TURKEY_ZONE;
if (!Intl.supportedValuesOf("timeZone").includes(timezone) && timezone !== "UTC")
  fail(`--timezone is not an IANA time zone: "${timezone}"`);

function output(value: unknown, code: number): never {
  console.log(JSON.stringify(value, null, 2));
  process.exit(code);
}

const settingsJson = args.settings ? readJson(args.settings, "settings") : {};
const settings = MappingSettingsSchema.safeParse(settingsJson);
if (!settings.success) {
  const problems: Problem[] = Object.entries(fieldErrors(settings.error)).map(([path, message]) => ({
    code: "settings.invalid",
    severity: "error",
    params: { path, message },
  }));
  output(
    {
      ok: false,
      body: null,
      totals: null,
      paid: null,
      difference: null,
      problems: withMessages(problems),
      warnings: [],
      notes: [],
    },
    1,
  );
}

const parsed = parseShopifyOrder(readJson(args.order, "order"));
if (!parsed.ok) {
  output(
    {
      ok: false,
      body: null,
      totals: null,
      paid: null,
      difference: null,
      problems: withMessages(parsed.problems),
      warnings: [],
      notes: [],
    },
    1,
  );
}

const result = mapOrderToInvoice(parsed.order, {
  settings: settings.data,
  shop: {
    domain: args.shop ?? "shop.myshopify.com",
    timezone,
    currency: parsed.order.currency,
    storefrontUrl: args.storefront ?? null,
  },
  now,
  saleChannelId: positiveInt(args["sale-channel-id"], "sale-channel-id"),
  invoiceIntegrationId: positiveInt(args["invoice-integration-id"], "invoice-integration-id"),
});

if (result.ok) {
  const { body, totals, paid, difference, warnings, notes } = result;
  output({ ok: true, body, totals, paid, difference, problems: [], warnings: withMessages(warnings), notes }, 0);
} else {
  output(
    {
      ok: false,
      body: null,
      totals: null,
      paid: null,
      difference: null,
      problems: withMessages(result.problems),
      warnings: withMessages(result.warnings),
      notes: [],
    },
    1,
  );
}
