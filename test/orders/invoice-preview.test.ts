// The preview CLI, run as merchants' support runs it.
import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const run = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/invoice-preview.ts", ...args], { encoding: "utf8" });

describe("invoice:preview", () => {
  it("prints the body, totals and warnings of an order as JSON", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/invoice-preview.ts",
        "--order",
        "test/fixtures/orders/20-rounding-3x33.33.json",
        "--now",
        "2026-11-22T10:00:00Z",
      ],
      { encoding: "utf8" },
    );
    const result = JSON.parse(out);
    expect(result).toMatchObject({
      ok: true,
      paid: "99.99",
      difference: "0.00",
      problems: [],
      totals: { grand_total: "99.99" },
    });
    expect(result.body.issue_date).toBe("2026-11-22");
  });

  it("prints problems in Turkish and English with exit code 1", () => {
    const res = run("--order", "test/fixtures/orders/30-no-carrier.json", "--now", "2026-11-22T10:00:00Z");
    expect(res.status).toBe(1);
    const result = JSON.parse(res.stdout);
    expect(result.ok).toBe(false);
    expect(result.problems[0]).toMatchObject({
      code: "shipment.no_carrier",
      message: { tr: expect.stringContaining("Varsayılan kargo"), en: expect.stringContaining("Default carrier") },
    });
  });

  it("says clearly when a file cannot be read", () => {
    const res = run("--order", "does-not-exist.json");
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('cannot read the order file "does-not-exist.json"');
  });
});
