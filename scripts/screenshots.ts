// Regenerates every screenshot the docs use (docs/screenshots/) from the current app: rebuilds the production
// build, runs the browser tests (test/browser/, which write test-results/screenshots/), then copies each image the
// README and docs/ name, and every image already in docs/screenshots/, from the fresh run. Fails, naming them, when
// an image the docs use was not made by the run. Usage: npm run screenshots [-- test/browser/some.test.ts …]
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ensureBuild } from "./lib/local-stack";

const SHOTS = path.resolve("test-results/screenshots");
const DOCS = path.resolve("docs/screenshots");

/** Every screenshots/NAME.png a Markdown file of the repository's docs names. */
function namedInDocs(): Set<string> {
  const files = [
    "README.md",
    ...readdirSync("docs")
      .filter((f) => f.endsWith(".md"))
      .map((f) => path.join("docs", f)),
  ];
  const names = new Set<string>();
  for (const file of files)
    for (const match of readFileSync(file, "utf8").matchAll(/screenshots\/([\w.-]+\.png)/g)) names.add(match[1]);
  return names;
}

ensureBuild(true);
const only = process.argv.slice(2);
const run = spawnSync("npx", ["vitest", "run", ...(only.length ? only : ["test/browser"])], { stdio: "inherit" });
const wanted = new Set([...namedInDocs(), ...readdirSync(DOCS).filter((f) => f.endsWith(".png"))]);
const missing: string[] = [];
for (const name of [...wanted].sort()) {
  const fresh = path.join(SHOTS, name);
  if (existsSync(fresh)) copyFileSync(fresh, path.join(DOCS, name));
  else missing.push(name);
}
console.log(`copied ${wanted.size - missing.length} screenshots to docs/screenshots/`);
if (missing.length) console.error(`not made by this run: ${missing.join(", ")}`);
process.exit(run.status !== 0 || missing.length ? 1 : 0);
