// The print action extension as files: both print targets (an extension each), and every text in Turkish and English.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";

const DIR = "extensions/order-invoice-print";
const keys = (tree: unknown, prefix = ""): string[] =>
  typeof tree !== "object" || tree === null
    ? [prefix]
    : Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
const locale = (name: string) =>
  JSON.parse(readFileSync(path.join(DIR, "locales", name), "utf8")) as Record<string, unknown>;

describe("order-invoice-print", () => {
  it("renders as the order page's and the order list selection's print action, one target per extension as Shopify takes print actions", () => {
    const toml = parse(readFileSync(path.join(DIR, "shopify.extension.toml"), "utf8")) as {
      extensions: Array<{ handle: string; targeting: Array<{ target: string; module: string }> }>;
    };
    expect(toml.extensions.map((e) => [e.handle, e.targeting.map((t) => t.target)])).toEqual([
      ["order-invoice-print", ["admin.order-details.print-action.render"]],
      ["order-invoice-print-selection", ["admin.order-index.selection-print-action.render"]],
    ]);
    for (const t of toml.extensions.flatMap((e) => e.targeting))
      expect(readFileSync(path.join(DIR, t.module), "utf8")).toContain("<s-admin-print-action");
  });

  it("has every text in Turkish and English, and every text it uses", () => {
    expect(keys(locale("tr.json")).sort()).toEqual(keys(locale("en.default.json")).sort());
    const source = readFileSync(path.join(DIR, "src/PrintAction.jsx"), "utf8");
    const top = Object.keys(locale("en.default.json"));
    for (const used of source.matchAll(/translate\("([\w.]+)"/g)) expect(top).toContain(used[1]);
  });
});
