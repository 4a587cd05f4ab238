// The cart block's theme app extension as files: its script carries exactly the server's VKN/TCKN checks, it
// passes Shopify's theme check, its texts exist in Turkish and English, it writes the attribute names the app
// reads by default, and its tax office list is sound.
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import fc from "fast-check";
import { themeCheckRun } from "@shopify/theme-check-node";
import { describe, expect, it } from "vitest";
import { defaultMappingSettings } from "../../app/settings/schema";
import * as server from "../../app/orders/tax-id";
import {
  BLOCK_SCRIPT,
  TAX_ID_SOURCE,
  generatedTaxIdCode,
  taxIdRegion,
  withTaxIdCode,
} from "../../scripts/lib/theme-assets";
import { EXTENSION_DIR, readBlock } from "../../sandbox/storefront/server";

const file = (relative: string) => readFileSync(path.join(EXTENSION_DIR, relative), "utf8");
const json = (relative: string) => JSON.parse(file(relative)) as Record<string, unknown>;

/** Every dotted key of a locale file. */
function keys(tree: unknown, prefix = ""): string[] {
  if (typeof tree !== "object" || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) => keys(value, prefix ? `${prefix}.${key}` : key));
}

type Checks = Pick<typeof server, "checkTaxId" | "isValidVkn" | "isValidTckn" | "normalizeTaxId">;

/** The functions as the buyer's browser gets them: the asset's generated part, evaluated on its own. */
function browserChecks(): Checks {
  const region = taxIdRegion(readFileSync(BLOCK_SCRIPT, "utf8"));
  return vm.runInNewContext(`${region}\n({ checkTaxId, isValidVkn, isValidTckn, normalizeTaxId })`) as Checks;
}

describe("the block's script shares the server's checks", () => {
  it("holds the code generated from app/orders/tax-id.ts (run `npm run theme:assets` after changing it)", () => {
    const script = readFileSync(BLOCK_SCRIPT, "utf8");
    expect(withTaxIdCode(script)).toBe(script);
  });

  it("would notice a change: a different source gives a different asset", () => {
    const source = readFileSync(TAX_ID_SOURCE, "utf8");
    const changed = source.replace("(10 - (sum % 10)) % 10", "(11 - (sum % 11)) % 10");
    expect(changed).not.toBe(source);
    expect(generatedTaxIdCode(changed)).not.toBe(taxIdRegion(readFileSync(BLOCK_SCRIPT, "utf8")));
  });

  it("gives the same answers as the server for anything a buyer may type", () => {
    const browser = browserChecks();
    const typed = fc.oneof(
      fc.stringMatching(/^[0-9]{9,12}$/),
      fc.stringMatching(/^[0-9 .\-/]{8,16}$/),
      fc.string({ maxLength: 14 }),
      fc.constantFrom("9860008925", "0720039666", "10000000146", "4444444444", "11111111111", "01234567890", ""),
    );
    fc.assert(
      fc.property(typed, fc.constantFrom(undefined, "vkn" as const, "tckn" as const), (value, kind) => {
        // JSON round trip: the vm's objects come from another realm.
        expect(JSON.parse(JSON.stringify(browser.checkTaxId(value, kind)))).toEqual(server.checkTaxId(value, kind));
        expect(browser.isValidVkn(value)).toBe(server.isValidVkn(value));
        expect(browser.isValidTckn(value)).toBe(server.isValidTckn(value));
        expect(browser.normalizeTaxId(value)).toBe(server.normalizeTaxId(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it("is plain browser JavaScript that stays within Shopify's 10,000-byte app block script limit", () => {
    const script = readFileSync(BLOCK_SCRIPT, "utf8");
    expect(() => new vm.Script(script)).not.toThrow();
    expect(script).not.toMatch(/^\s*(import|export)\s/m);
    expect(Buffer.byteLength(script)).toBeLessThan(10_000);
    // No request to anyone but the shop: the only URLs are the theme's own cart endpoint and the block's asset.
    expect(script).not.toMatch(/https?:\/\//);
  });
});

describe("theme app extension layout", () => {
  it("passes Shopify's theme check for theme app extensions", async () => {
    const run = await themeCheckRun(EXTENSION_DIR, undefined, () => {});
    expect(run.config.context).toBe("app");
    expect(run.config.checks.map((check) => check.meta.code)).toEqual(
      expect.arrayContaining(["AssetSizeAppBlockJavaScript", "AppBlockValidTags", "ValidSchema"]),
    );
    expect(run.theme.map((source) => path.relative(EXTENSION_DIR, new URL(source.uri).pathname)).sort()).toEqual([
      "blocks/invoice-details.liquid",
      "locales/en.default.json",
      "locales/en.default.schema.json",
      "locales/tr.json",
      "locales/tr.schema.json",
    ]);
    expect(run.offenses.map((offense) => `${offense.check}: ${offense.message}`)).toEqual([]);
  }, 60_000);

  it("is a theme extension with a section block for the cart whose assets exist", () => {
    expect(file("shopify.extension.toml")).toMatch(/^type = "theme"$/m);
    const { schema } = readBlock();
    const full = schema as Record<string, unknown>;
    expect(full.target).toBe("section");
    expect(full.enabled_on).toMatchObject({ templates: ["cart"] });
    for (const asset of [schema.javascript, schema.stylesheet])
      expect(existsSync(path.join(EXTENSION_DIR, "assets", asset!)), asset).toBe(true);
  });

  it("has every storefront and theme editor text in Turkish and English", () => {
    expect(keys(json("locales/tr.json")).sort()).toEqual(keys(json("locales/en.default.json")).sort());
    expect(keys(json("locales/tr.schema.json")).sort()).toEqual(keys(json("locales/en.default.schema.json")).sort());
    const source = file("blocks/invoice-details.liquid");
    const used = [...source.matchAll(/'([\w.]+)' \| t\b/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(10);
    for (const key of used) expect(keys(json("locales/tr.json")), key).toContain(key);
    const schemaKeys = [...JSON.stringify(readBlock().schema).matchAll(/"t:([\w.]+)"/g)].map((m) => m[1]);
    for (const key of schemaKeys) expect(keys(json("locales/tr.schema.json")), key).toContain(key);
    const name = (json("locales/tr.schema.json").blocks as Record<string, { name: string }>).invoice_details.name;
    expect(name.length).toBeLessThanOrEqual(25);
  });

  it("writes the attribute names the app's settings read by default", () => {
    const source = file("blocks/invoice-details.liquid");
    const assigned = (variable: string) => source.match(new RegExp(`assign ${variable} = '([^']+)'`))?.[1];
    const defaults = defaultMappingSettings();
    expect(assigned("name_tckn")).toBe(defaults.citizenNumberAttributes[0]);
    expect(assigned("name_vkn")).toBe(defaults.taxNumberAttributes[0]);
    expect(assigned("name_office")).toBe(defaults.taxOfficeAttributes[0]);
    expect(assigned("name_title")).toBe(defaults.companyTitleAttributes[0]);
  });
});

describe("tax office list (assets/tax-offices.js)", () => {
  const list = vm.runInNewContext(`${file("assets/tax-offices.js")}; window.eFaturaTaxOffices`, { window: {} }) as {
    provinces: string[];
    offices: Array<[number, string]>;
  };

  it("has the 81 provinces and every office once, each in a province", () => {
    expect(list.provinces).toHaveLength(81);
    expect(list.provinces[33]).toBe("İstanbul");
    expect(list.offices.length).toBe(1046);
    expect(new Set(list.offices.map(([code]) => code)).size).toBe(list.offices.length);
    for (const [code, name] of list.offices) {
      expect(Math.floor(code / 1000), name).toBeGreaterThanOrEqual(1);
      expect(Math.floor(code / 1000), name).toBeLessThanOrEqual(81);
      expect(name.trim(), String(code)).toBe(name);
      expect(name).not.toMatch(/Vergi Dairesi|Müdürlüğü|Başkanlığı/);
    }
  });

  it("holds the offices buyers name most, with the right province", () => {
    const find = (name: string) =>
      list.offices.filter(([, office]) => office === name).map(([code]) => list.provinces[Math.floor(code / 1000) - 1]);
    expect(find("Kadıköy")).toContain("İstanbul");
    expect(find("Çankaya")).toContain("Ankara");
    expect(find("Nilüfer")).toContain("Bursa");
    expect(find("Büyük Mükellefler")).toContain("İstanbul");
  });
});
