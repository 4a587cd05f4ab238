// npm run extensions:build [-- --check] [-- --fresh]
// Builds every UI extension as `shopify app build` / `deploy` does (scripts/lib/extensions.ts): a clean install of
// its own package.json, type-checked against the @shopify/ui-extensions of its api_version, bundled with the CLI's
// esbuild options into extensions/<folder>/dist/<handle>.js. Writes each folder's shopify.d.ts as the CLI generates
// it; with --check a stale one is an error instead (CI). --fresh installs again even when the same lock was
// installed before.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildExtensions, shopifyTypes, uiExtensions, writeBundles } from "./lib/extensions";

const check = process.argv.includes("--check");
const started = performance.now();

let stale = false;
for (const extension of uiExtensions()) {
  const file = path.join(extension.dir, "shopify.d.ts");
  const next = shopifyTypes(extension);
  const current = (() => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return null;
    }
  })();
  if (current === next) continue;
  if (check) {
    console.error(
      `extensions/${extension.folder}/shopify.d.ts is not what the Shopify CLI generates: run npm run extensions:build`,
    );
    stale = true;
  } else {
    writeFileSync(file, next);
    console.log(`Updated extensions/${extension.folder}/shopify.d.ts`);
  }
}
if (stale) process.exit(1);

try {
  const built = await buildExtensions({ fresh: process.argv.includes("--fresh"), typecheck: true });
  const written = writeBundles(built);
  for (const { extension, uiExtensionsVersion, bundles } of built) {
    console.log(
      `${extension.folder} (api_version ${extension.apiVersion}, @shopify/ui-extensions ${uiExtensionsVersion}): type-checked`,
    );
    for (const bundle of bundles) {
      console.log(
        `  dist/${bundle.handle}.js  ${(bundle.code.length / 1024).toFixed(1)} KiB  ${bundle.targets.map((t) => t.target).join(", ")}`,
      );
    }
  }
  console.log(`${written.length} bundles in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
