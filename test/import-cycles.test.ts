// No file cycle in app/, type-only imports included: ESLint's import-x/no-cycle skips `import type`, so, say, the hot
// statements' dialect classes could import their interface back from the factory that imports them (they did, until
// the interface moved to app/db/hot-statements.ts). Only app/db.server.ts builds the statements (app/db/hot.server.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const files: string[] = [];
(function walk(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) walk(p);
    else if (/\.tsx?$/.test(entry.name)) files.push(p);
  }
})("app");

/** Relative imports and re-exports of `file`, `import type` included, as files of app/. */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return specs.flatMap((spec) => {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    const hit = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => files.includes(candidate));
    return hit ? [hit] : [];
  });
}

describe("app's imports", () => {
  it("have no file cycle, type-only imports included", () => {
    const edges = new Map(files.map((file) => [file, importsOf(file)]));
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, route: string[]) => {
      if (route.includes(file)) return void cycles.push([...route.slice(route.indexOf(file)), file].join(" -> "));
      if (done.has(file)) return;
      for (const target of edges.get(file) ?? []) visit(target, [...route, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(files.filter((file) => file.startsWith("app/db/")).length).toBeGreaterThan(5);
    expect(cycles).toEqual([]);
  });

  it("reach the factory of the hot statements only from app/db.server.ts", () => {
    const importers = files.filter((file) => importsOf(file).includes("app/db/hot.server.ts"));
    expect(importers).toEqual(["app/db.server.ts"]);
  });
});
