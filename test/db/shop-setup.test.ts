// `npm run shop:setup` with values the settings schema refuses: one readable line per option, exit code 1, the
// API key never printed, and nothing installed.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { prisma } from "../helpers/db";

const SHOP = "kurulum-hatasi.myshopify.com";
const setup = (...args: string[]) =>
  spawnSync("npx", ["tsx", "scripts/shop-setup.ts", "--shop", SHOP, ...args], { encoding: "utf8", env: { ...process.env, LOCAL_SERVICES: "1" }, timeout: 60_000 });

describe("shop:setup with bad values", () => {
  it("prints one line per bad option in words, exits 1 and installs nothing", () => {
    const run = setup("--api-key", "short", "--base-url", "not a url", "--sale-channel-id", "x", "--integration-id", "3", "--trigger", "later");
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
    const run = setup("--api-key", "a-long-enough-key", "--base-url", "https://evil.example.com/api", "--sale-channel-id", "4", "--integration-id", "3");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('  --base-url "https://evil.example.com/api": Only the invoicing service\'s own https addresses can be used');
    expect(run.stderr).not.toContain("a-long-enough-key");
  }, 60_000);
});
