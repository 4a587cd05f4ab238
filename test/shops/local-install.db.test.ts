// `npm run shop:setup` with values the settings schema refuses: one readable line per option, exit code 1, the
// API key never printed, and nothing installed. With --settings FILE.json, a merchant's stored mapping settings are
// installed as they are, checked by the same schema.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { prisma } from "../helpers/db";
import { getSettings } from "../../app/settings/settings.server";

const SHOP = "kurulum-hatasi.myshopify.com";
const setup = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/shop-setup.ts", "--shop", SHOP, ...args], {
    encoding: "utf8",
    env: { ...process.env, LOCAL_SERVICES: "1" },
    timeout: 60_000,
  });

describe("shop:setup with bad values", () => {
  it("prints one line per bad option in words, exits 1 and installs nothing", () => {
    const run = setup(
      "--api-key",
      "short",
      "--base-url",
      "not a url",
      "--sale-channel-id",
      "x",
      "--integration-id",
      "3",
      "--trigger",
      "later",
    );
    expect(run.status).toBe(1);
    const lines = run.stderr.split("\n").filter((line) => line.startsWith("shop:setup") || line.startsWith("  "));
    expect(lines).toEqual([
      "shop:setup failed, nothing was installed:",
      '  --base-url "not a url": Enter an https address, e.g. https://app.faturaentegrator.com/api.',
      "  --api-key: An API key is 8 to 512 characters long.",
      '  --sale-channel-id "x": This value is not valid.',
      '  --trigger "later": This value is not valid.',
    ]);
    expect(run.stderr).not.toContain("short");
    expect(run.stderr).not.toMatch(/[{}[\]]|expected|Invalid input/);
    return expect(prisma.shop.findUnique({ where: { domain: SHOP } })).resolves.toBeNull();
  }, 60_000);

  it("names an address the operator does not allow", () => {
    const run = setup(
      "--api-key",
      "a-long-enough-key",
      "--base-url",
      "https://evil.example.com/api",
      "--sale-channel-id",
      "4",
      "--integration-id",
      "3",
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      '  --base-url "https://evil.example.com/api": Only the invoicing service\'s own https addresses can be used',
    );
    expect(run.stderr).not.toContain("a-long-enough-key");
  }, 60_000);
});

describe("shop:setup --settings FILE.json", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "shop-setup-"));
  const file = (name: string, content: string) => {
    const at = path.join(dir, name);
    writeFileSync(at, content);
    return at;
  };
  const valid = [
    "--api-key",
    "a-long-enough-key",
    "--base-url",
    "https://app.faturaentegrator.com/api",
    "--sale-channel-id",
    "4",
    "--integration-id",
    "3",
  ];

  it("installs the merchant's mapping settings as the file gives them", async () => {
    const settings = file(
      "merchant.json",
      JSON.stringify({
        defaultTaxRate: "10",
        pricesIncludeVat: false,
        taxOfficeAttributes: ["VD"],
        companyTaxOfficeMetafield: "b2b.vergi_dairesi",
        foreignBuyerTaxNumber: "2222222222",
      }),
    );
    const run = setup(...valid, "--settings", settings);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const { mapping } = await getSettings(SHOP);
    expect(mapping).toMatchObject({
      defaultTaxRate: "10",
      pricesIncludeVat: false,
      taxOfficeAttributes: ["VD"],
      companyTaxOfficeMetafield: "b2b.vergi_dairesi",
    });
    // What the file leaves out takes the schema's defaults, not the local demo's carrier.
    expect(mapping.defaultCarrier).toBeUndefined();
    expect(mapping.unit).toBe("C62");
  }, 60_000);

  it("names a refused value by its key, an unknown key, a missing file and a file that is not JSON; installs nothing", async () => {
    await prisma.shop.deleteMany({ where: { domain: SHOP } });
    const cases: Array<[string, string]> = [
      [
        file("bad.json", JSON.stringify({ defaultTaxRate: "17" })),
        "  --settings defaultTaxRate: This value is not valid.",
      ],
      [file("typo.json", JSON.stringify({ defaultTaxRat: "10", unit: "C62" })), "no such setting: defaultTaxRat"],
      [path.join(dir, "missing.json"), "no such file"],
      [file("broken.json", "{ defaultTaxRate: 10"), "not JSON"],
      [file("list.json", "[]"), "a JSON object of mapping settings expected"],
    ];
    for (const [settings, said] of cases) {
      const run = setup(...valid, "--settings", settings);
      expect(run.status, settings).toBe(1);
      expect(run.stderr, settings).toContain("shop:setup failed, nothing was installed:");
      expect(run.stderr, settings).toContain(said);
    }
    await expect(prisma.shop.findUnique({ where: { domain: SHOP } })).resolves.toBeNull();
  }, 120_000);
});
