// Shopify's published Admin GraphQL schema of the version the app declares (scripts/shopify-schema.ts keeps the
// file; CI checks it is byte for byte the one in @shopify/dev-mcp).
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { declaredApiVersion, schemaFile } from "../shopify-schema";

let cached: GraphQLSchema | undefined;

export function publishedAdminSchema(): GraphQLSchema {
  if (!cached) {
    const json = JSON.parse(gunzipSync(readFileSync(schemaFile())).toString("utf8")) as { data: IntrospectionQuery };
    cached = buildClientSchema(json.data);
  }
  return cached;
}

export { declaredApiVersion };
