// npm run shop:setup -- --shop NAME.myshopify.com --api-key KEY --base-url URL --sale-channel-id N
//                       --integration-id N [--dummy-integration-id N] [--test-mode] [--timezone Europe/Istanbul]
//                       [--access-token TOKEN] [--scopes read_orders,write_orders] [--settings FILE.json]
// Installs a shop without Shopify (offline session and settings) in the database DATABASE_URL selects.
// --settings takes the shop's mapping settings as stored (ShopSettings.mapping: VAT, buyer fields, carriers, …),
// checked by the one settings schema, so a support engineer reproduces a merchant's configuration in one command.
// --access-token stores the token of the Admin API stand-in (`npm run shopify:standin` prints it) in the shop's
// offline session, so the app's Admin API reads work against the stand-in (with SHOPIFY_ADMIN_API_URL).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { migrate } from "../app/db/migrate";

const { values } = parseArgs({
  options: {
    shop: { type: "string" },
    "api-key": { type: "string" },
    "base-url": { type: "string" },
    "sale-channel-id": { type: "string" },
    "integration-id": { type: "string" },
    "dummy-integration-id": { type: "string" },
    "test-mode": { type: "boolean", default: false },
    timezone: { type: "string", default: "Europe/Istanbul" },
    trigger: { type: "string", default: "paid" },
    "access-token": { type: "string" },
    scopes: { type: "string", default: "read_orders" },
    settings: { type: "string" },
  },
});

const required = ["shop", "api-key", "base-url", "sale-channel-id", "integration-id"] as const;
const missing = required.filter((name) => !values[name]);
if (missing.length) {
  console.error(
    `Missing ${missing.map((m) => `--${m}`).join(", ")}.\nUsage: npm run shop:setup -- --shop NAME.myshopify.com --api-key KEY --base-url URL --sale-channel-id N --integration-id N [--dummy-integration-id N --test-mode] [--timezone Europe/Istanbul] [--access-token TOKEN] [--scopes read_orders,write_orders] [--settings FILE.json]`,
  );
  process.exit(2);
}

/** The mapping settings file: a JSON object; unknown keys are refused (a typo would otherwise be dropped unseen). */
async function mappingFrom(file: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (file === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    fail(
      `--settings ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : `not JSON (${(error as Error).message})`}`,
    );
  }
  if (!json || typeof json !== "object" || Array.isArray(json))
    fail(`--settings ${file}: a JSON object of mapping settings expected`);
  const { MappingSettingsSchema } = await import("../app/settings/schema");
  const unknown = Object.keys(json as object).filter((key) => !Object.hasOwn(MappingSettingsSchema.shape, key));
  if (unknown.length) fail(`--settings ${file}: no such setting: ${unknown.join(", ")}`);
  return json as Record<string, unknown>;
}

function fail(line: string): never {
  console.error(`shop:setup failed, nothing was installed:\n  ${line}`);
  process.exit(1);
}

// The script needs the database and the encryption key; the Shopify app settings are not used here.
process.env.SHOPIFY_API_KEY ??= "local-shop-setup";
process.env.SHOPIFY_API_SECRET ??= "local-shop-setup";
process.env.SHOPIFY_APP_URL ??= "http://localhost:3000";

/** The option each connection field comes from, for the error lines. */
const FLAGS: Record<string, string> = {
  baseUrl: "--base-url",
  apiKey: "--api-key",
  saleChannelId: "--sale-channel-id",
  invoiceIntegrationId: "--integration-id",
  dummyIntegrationId: "--dummy-integration-id",
  trigger: "--trigger",
};

try {
  const { env } = await import("../app/env.server");
  await migrate(env().DATABASE_URL);
  const { installShopLocally, LOCAL_DEFAULT_MAPPING } = await import("../app/shops/local-install.server");
  const mapping = await mappingFrom(values.settings);
  // Ids as typed: the settings schema reads them (a non-number is a field error, not NaN).
  await installShopLocally({
    shop: values.shop!,
    apiKey: values["api-key"]!,
    baseUrl: values["base-url"]!,
    saleChannelId: values["sale-channel-id"],
    invoiceIntegrationId: values["integration-id"],
    dummyIntegrationId: values["dummy-integration-id"] ?? null,
    testMode: values["test-mode"],
    timezone: values.timezone,
    trigger: values.trigger as "paid", // checked by the settings schema
    accessToken: values["access-token"],
    scopes: values.scopes,
    mapping: mapping ?? LOCAL_DEFAULT_MAPPING,
  });
  console.log(
    `Installed ${values.shop} (${values["test-mode"] ? "test mode" : "live"}), database ${env().DATABASE_URL}`,
  );
  process.exit(0);
} catch (error) {
  // A value the settings schema refuses: one line per option, in words (the scripts speak English).
  const errors = (error as { errors?: Record<string, string> }).errors;
  if (errors) {
    const { settingsErrorText } = await import("../app/settings/schema");
    const lines = Object.entries(errors).map(([field, code]) => {
      // A mapping setting's error names the file's key (`mapping.defaultTaxRate` → `--settings defaultTaxRate`).
      const flag = field.startsWith("mapping.")
        ? `--settings ${field.slice("mapping.".length)}`
        : (FLAGS[field] ?? field);
      // The value as given, to find it in the command line; never the API key.
      const given =
        flag.startsWith("--") && field !== "apiKey" ? values[flag.slice(2) as keyof typeof values] : undefined;
      return `  ${flag}${typeof given === "string" ? ` "${given}"` : ""}: ${settingsErrorText(code, "en")}`;
    });
    console.error(`shop:setup failed, nothing was installed:\n${lines.join("\n")}`);
  } else {
    console.error(`shop:setup failed: ${(error as Error).message}`);
  }
  process.exit(1);
}
