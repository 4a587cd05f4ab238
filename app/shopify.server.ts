// The one shopifyApp() configuration: App Store distribution, embedded auth by token exchange,
// sessions in Prisma (their Shopify tokens encrypted at rest), and the shop recorded after every authentication.
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import prisma from "./db.server";
import { PrismaSessions } from "./db/sessions.server";
import { env } from "./env.server";
import { EncryptedSessionStorage } from "./secrets/session-storage.server";
import { onAuthenticated } from "./shops/shops.server";

const config = env();

/** The library's own log level follows LOG_LEVEL (it logs every authentication at "info"). */
const LIBRARY_LOG_LEVEL: Record<string, LogSeverity> = {
  trace: LogSeverity.Debug,
  debug: LogSeverity.Debug,
  info: LogSeverity.Info,
  warn: LogSeverity.Warning,
};

/**
 * The Admin API version the app's GraphQL documents, the stand-in and `shopify.app.toml` are written and checked
 * against; the schema tests, the stand-in and the webhook subscriptions move with it (docs/decisions/0035).
 */
export const API_VERSION = ApiVersion.October26;

// `satisfies` checks the options as written: shopifyApp's generic parameter alone accepts an option the library no
// longer has (customShopDomains went that way in @shopify/shopify-api 13, unnoticed: docs/decisions/0034).
const shopify = shopifyApp({
  apiKey: config.SHOPIFY_API_KEY,
  apiSecretKey: config.SHOPIFY_API_SECRET,
  apiVersion: API_VERSION,
  scopes: config.SCOPES.split(",")
    .map((scope) => scope.trim())
    .filter(Boolean),
  appUrl: config.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage: new EncryptedSessionStorage(new PrismaSessions(prisma)),
  distribution: AppDistribution.AppStore,
  logger: { level: LIBRARY_LOG_LEVEL[config.LOG_LEVEL] ?? LogSeverity.Error },
  future: { unstable_newEmbeddedAuthStrategy: true },
  hooks: { afterAuth: onAuthenticated },
} satisfies Parameters<typeof shopifyApp>[0]);

export default shopify;

export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const sessionStorage = shopify.sessionStorage;
export const unauthenticated = shopify.unauthenticated;
