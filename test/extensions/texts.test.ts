// Every UI extension's texts as Shopify's i18n.translate reads them: `count` is its pluralisation key, so a
// message translated with { count } must be a plural message ({ one, other }) in every locale, and a message
// translated without it a plain string.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { uiExtensions } from "../../scripts/lib/extensions";

const lookup = (messages: unknown, key: string): unknown =>
  key
    .split(".")
    .reduce<unknown>(
      (node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined),
      messages,
    );

/** Each `translate("key", { ... })` of a source file: its key and whether its options carry `count`. */
function translateCalls(source: string): Array<{ key: string; count: boolean }> {
  return [...source.matchAll(/translate\(\s*"([\w.]+)"\s*(?:,\s*\{([^}]*)\})?/g)].map((match) => ({
    key: match[1],
    count: /\bcount\s*:/.test(match[2] ?? ""),
  }));
}

describe("translateCalls", () => {
  it("finds the key and whether count is passed", () => {
    expect(
      translateCalls(`i18n.translate("a.b") + i18n.translate("c", { count: n, max: 2 }) + translate("d", { orders })`),
    ).toEqual([
      { key: "a.b", count: false },
      { key: "c", count: true },
      { key: "d", count: false },
    ]);
  });
});

describe.each(uiExtensions().map((extension) => [extension.folder, extension.dir]))("%s", (_folder, dir) => {
  const locales = readdirSync(path.join(dir, "locales")).filter((file) => file.endsWith(".json"));
  const sources = readdirSync(path.join(dir, "src")).filter((file) => /\.(jsx?|tsx?)$/.test(file));
  const calls = sources.flatMap((file) =>
    translateCalls(readFileSync(path.join(dir, "src", file), "utf8")).map((call) => ({ ...call, file })),
  );

  it("has Turkish and English texts and translates with them", () => {
    expect(locales.sort()).toEqual(["en.default.json", "tr.json"]);
    expect(calls.length).toBeGreaterThan(0);
  });

  it.each(["en.default.json", "tr.json"])(
    "%s: a plural message for each translate with count, a string for each without",
    (locale) => {
      const messages = JSON.parse(readFileSync(path.join(dir, "locales", locale), "utf8")) as unknown;
      for (const call of calls) {
        const message = lookup(messages, call.key);
        const where = `${call.file}: translate("${call.key}"${call.count ? ", { count }" : ""})`;
        if (call.count) {
          expect(message, where).toEqual({ one: expect.any(String), other: expect.any(String) });
        } else {
          expect(typeof message, where).toBe("string");
        }
      }
    },
  );
});
