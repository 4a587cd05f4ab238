// The one shopifyApp() configuration: App Store distribution, embedded auth by token exchange, expiring offline
// tokens kept valid by one refresher per shop (docs/decisions/0044), sessions in Prisma (their Shopify tokens
// encrypted at rest), and the shop recorded after every authentication.
import "@shopify/shopify-app-remix/adapters/node";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import prisma from "./db.server";
import { PrismaSessions } from "./db/sessions.server";
import { env } from "./env.server";
import { EncryptedSessionStorage } from "./secrets/session-storage.server";
import { API_VERSION } from "./shopify/api-version";
import { libraryFetch } from "./shopify/library-fetch.server";
import { OfflineTokenStorage } from "./shopify/offline-tokens.server";
import { resumeAfterReconnect } from "./shops/connection.server";
import { onAuthenticated } from "./shops/shops.server";

const config = env();

/** The library's own log level follows LOG_LEVEL (it logs every authentication at "info"). */
const LIBRARY_LOG_LEVEL: Record<string, LogSeverity> = {
  trace: LogSeverity.Debug,
  debug: LogSeverity.Debug,
  info: LogSeverity.Info,
  warn: LogSeverity.Warning,
};

export { API_VERSION };

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
  sessionStorage: new OfflineTokenStorage(
    new EncryptedSessionStorage(new PrismaSessions(prisma)),
    resumeAfterReconnect,
  ),
  distribution: AppDistribution.AppStore,
  logger: { level: LIBRARY_LOG_LEVEL[config.LOG_LEVEL] ?? LogSeverity.Error },
  // Expiring offline tokens (required of public apps from 1 January 2027): the library asks for them in every token
  // exchange; OfflineTokenStorage refreshes and migrates them under one lock per shop.
  future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
  hooks: { afterAuth: onAuthenticated },
} satisfies Parameters<typeof shopifyApp>[0]);

// The library's own requests (token exchange, the afterAuth shop query) go through the outbound guard too.
setAbstractFetchFunc(libraryFetch());

export default shopify;

export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const login = shopify.login;
export const sessionStorage = shopify.sessionStorage;
export const unauthenticated = shopify.unauthenticated;
