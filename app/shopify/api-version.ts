// The Admin API version the app's GraphQL documents, the stand-in and `shopify.app.toml` are written and checked
// against; the schema tests, the stand-in and the webhook subscriptions move with it (docs/decisions/0035).
// Its own module so that app/shopify/ reads it without importing the library's configuration (shopify.server.ts).
import { ApiVersion } from "@shopify/shopify-api";

export const API_VERSION = ApiVersion.October26;
