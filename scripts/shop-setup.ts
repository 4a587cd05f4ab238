// npm run shop:setup -- --shop NAME.myshopify.com --api-key KEY --base-url URL --sale-channel-id N
//                       --integration-id N [--dummy-integration-id N] [--test-mode] [--timezone Europe/Istanbul]
//                       [--access-token TOKEN] [--scopes read_orders,write_orders]
// Installs a shop without Shopify (offline session and settings) in the database DATABASE_URL selects.
// --access-token stores the token of the Admin API stand-in (`npm run shopify:standin` prints it) in the shop's
// offline session, so the app's Admin API reads work against the stand-in (with SHOPIFY_ADMIN_API_URL).
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
  },
});

const required = ["shop", "api-key", "base-url", "sale-channel-id", "integration-id"] as const;
const missing = required.filter((name) => !values[name]);
if (missing.length) {
  console.error(`Missing ${missing.map((m) => `--${m}`).join(", ")}.\nUsage: npm run shop:setup -- --shop NAME.myshopify.com --api-key KEY --base-url URL --sale-channel-id N --integration-id N [--dummy-integration-id N --test-mode] [--timezone Europe/Istanbul] [--access-token TOKEN] [--scopes read_orders,write_orders]`);
  process.exit(2);
}

// The script needs the database and the encryption key; the Shopify app settings are not used here.
process.env.SHOPIFY_API_KEY ??= "local-shop-setup";
process.env.SHOPIFY_API_SECRET ??= "local-shop-setup";
process.env.SHOPIFY_APP_URL ??= "http://localhost:3000";

try {
  const { env } = await import("../app/env.server");
  await migrate(env().DATABASE_URL);
  const { installShopLocally } = await import("../app/shops/local-install.server");
  await installShopLocally({
    shop: values.shop!,
    apiKey: values["api-key"]!,
    baseUrl: values["base-url"]!,
    saleChannelId: Number(values["sale-channel-id"]),
    invoiceIntegrationId: Number(values["integration-id"]),
    dummyIntegrationId: values["dummy-integration-id"] ? Number(values["dummy-integration-id"]) : null,
    testMode: values["test-mode"],
    timezone: values.timezone,
    trigger: values.trigger as "paid" | "fulfilled" | "manual",
    accessToken: values["access-token"],
    scopes: values.scopes,
  });
  console.log(`Installed ${values.shop} (${values["test-mode"] ? "test mode" : "live"}), database ${env().DATABASE_URL}`);
  process.exit(0);
} catch (error) {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
  const message = issues ? issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ") : (error as Error).message;
  console.error(`shop:setup failed: ${message}`);
  process.exit(1);
}
