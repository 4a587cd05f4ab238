// Shopify's published Admin GraphQL schema for the API version the app declares, taken from the npm package
// @shopify/dev-mcp (Shopify's own introspection of every supported version, `dist/data/admin_<version>.json.gz`)
// and kept in test/fixtures/shopify-schema/ so the tests judge the app's documents and the stand-in against it
// offline (docs/decisions/0023-shopify-schema-as-the-judge.md).
//
//   npm run shopify:schema            writes the file for the declared version
//   npm run shopify:schema -- --check fails if the committed file is not byte for byte the published one (CI)
//
// Only the registry's tarball is read (`npm pack`): the package's own dependencies (Shopify CLI and more) are
// never installed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "smol-toml";

/** The @shopify/dev-mcp release whose schemas are the reference; moving it is a reviewed change. */
export const DEV_MCP_VERSION = "1.16.0";

const root = path.resolve(import.meta.dirname, "..");
export const SCHEMA_DIR = path.join(root, "test/fixtures/shopify-schema");

/** The Admin API version the app declares in shopify.app.toml (its webhooks' version, which the app queries too). */
export function declaredApiVersion(): string {
  const toml = parse(readFileSync(path.join(root, "shopify.app.toml"), "utf8")) as {
    webhooks?: { api_version?: string };
  };
  const version = toml.webhooks?.api_version;
  if (!version || !/^\d{4}-\d{2}$/.test(version))
    throw new Error("shopify.app.toml has no [webhooks] api_version like 2026-07");
  return version;
}

export function schemaFile(version = declaredApiVersion()): string {
  return path.join(SCHEMA_DIR, `admin_${version}.json.gz`);
}

function published(version: string): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "dev-mcp-"));
  try {
    const tarball = execFileSync(
      "npm",
      ["pack", `@shopify/dev-mcp@${DEV_MCP_VERSION}`, "--silent", "--pack-destination", dir],
      { encoding: "utf8" },
    )
      .trim()
      .split("\n")
      .pop()!;
    const member = `package/dist/data/admin_${version}.json.gz`;
    execFileSync("tar", ["-xzf", path.join(dir, tarball), "-C", dir, member]);
    return readFileSync(path.join(dir, member));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main() {
  const version = declaredApiVersion();
  const file = schemaFile(version);
  const fresh = published(version);
  if (process.argv.includes("--check")) {
    if (!existsSync(file) || !readFileSync(file).equals(fresh)) {
      console.error(
        `${path.relative(root, file)} is not Shopify's published admin_${version} schema of @shopify/dev-mcp@${DEV_MCP_VERSION}: run npm run shopify:schema`,
      );
      process.exit(1);
    }
    console.log(
      `${path.relative(root, file)} is Shopify's published admin_${version} schema (@shopify/dev-mcp@${DEV_MCP_VERSION})`,
    );
    return;
  }
  mkdirSync(SCHEMA_DIR, { recursive: true });
  writeFileSync(file, fresh);
  console.log(`wrote ${path.relative(root, file)} (${fresh.length} bytes) from @shopify/dev-mcp@${DEV_MCP_VERSION}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
