// The layout by feature (docs/decisions/0042-layout-by-feature.md): no two folders of app/ import each other, so a
// feature can be read from its folder down, and every folder is named in the README's layout section. No file cycle
// either, type-only imports included (ESLint's import-x/no-cycle skips `import type`: the hot statements' dialect
// classes once imported their interface back from the factory that imports them), and no module a reader cannot
// take in (over 500 lines) but the generated Admin API types and the two text catalogues.
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

/** app/X/… belongs to folder X; a file directly in app/ (shopify.server.ts, entry.server.tsx …) is its own node. */
const nodeOf = (file: string) => (file.split("/").length > 2 ? file.split("/")[1] : file);

function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return specs.flatMap((spec) => {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    const hit = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => files.includes(candidate));
    return hit ? [hit] : [];
  });
}

describe("the app's layout", () => {
  it("has no two folders that import each other", () => {
    const edges = new Map<string, string[]>();
    for (const file of files)
      for (const target of importsOf(file)) {
        const [from, to] = [nodeOf(file), nodeOf(target)];
        if (from !== to)
          edges.set(`${from} -> ${to}`, [...(edges.get(`${from} -> ${to}`) ?? []), `${file} -> ${target}`]);
      }
    const twoWay = [...edges.keys()]
      .filter((edge) => edges.has(edge.split(" -> ").reverse().join(" -> ")))
      .map((edge) => `${edge}: ${edges.get(edge)!.join(", ")}`);
    expect(files.length).toBeGreaterThan(100);
    expect(edges.size).toBeGreaterThan(50);
    expect(twoWay).toEqual([]);
  });

  it("has no file cycle, type-only imports included", () => {
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
    expect(cycles).toEqual([]);
  });

  it("builds the hot statements only in app/db.server.ts (their factory, app/db/hot.server.ts)", () => {
    const importers = files.filter((file) => importsOf(file).includes("app/db/hot.server.ts"));
    expect(importers).toEqual(["app/db.server.ts"]);
  });

  it("has no module over 500 lines but the generated types and the text catalogues", () => {
    const exempt = ["app/shopify/admin.generated.ts", "app/i18n/en.ts", "app/i18n/tr.ts"];
    const long = files
      .filter((file) => !exempt.includes(file))
      .map((file) => ({ file, lines: fs.readFileSync(file, "utf8").split("\n").length }))
      .filter(({ lines }) => lines > 500);
    expect(long).toEqual([]);
    expect(exempt.every((file) => files.includes(file))).toBe(true);
  });

  it("names every folder of app/ in the README's layout section", () => {
    const readme = fs.readFileSync("README.md", "utf8");
    const folders = fs
      .readdirSync("app", { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((folder) => !readme.includes(`${folder}/`))).toEqual([]);
    // …and no folder that is not there: the block between "app/" and the next top-level folder.
    const block = readme.slice(readme.indexOf("```\napp/\n"), readme.indexOf("\nserver/"));
    const named = [...block.matchAll(/^ {2}([a-z][a-z-]*\/(?:, [a-z][a-z-]*\/)*)/gm)].flatMap((m) =>
      m[1].split(", ").map((f) => f.slice(0, -1)),
    );
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((folder) => !folders.includes(folder))).toEqual([]);
  });
});
