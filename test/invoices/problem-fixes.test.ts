// Every problem the app names has its fix (issue 36, point 4): the table in app/invoices/problem-fixes.ts covers the
// whole catalogue, each fix's words exist in both languages, the actions fit the problem, and docs/admin.md's table
// says the same as the code.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXES, fixOf, needsBuyer, retryCanFix } from "../../app/invoices/problem-fixes";
import { PROBLEM_CODES } from "../../app/problems";
import { en } from "../../app/i18n/en";
import { tr } from "../../app/i18n/tr";

const ACTION_WORDS: Record<string, string> = {
  buyer: "buyer form",
  order: "order in Shopify",
  settings: "Settings",
  retry: "Retry",
  panel: "issued in the panel",
  not_needed: "no invoice needed",
};

describe("a fix for every problem", () => {
  it("covers exactly the problem catalogue", () => {
    expect(Object.keys(FIXES).sort()).toEqual([...PROBLEM_CODES].sort());
  });

  it("says what to do in Turkish and English, with at least one action, for every problem that is not a warning", () => {
    for (const [code, fix] of Object.entries(FIXES)) {
      if (fix.how === "none") {
        expect(fix.actions, code).toEqual([]);
        continue;
      }
      const key = `fix.how.${fix.how}` as keyof typeof en;
      expect(en[key]?.length ?? 0, code).toBeGreaterThan(20);
      expect(tr[key]?.length ?? 0, code).toBeGreaterThan(20);
      expect(tr[key], code).not.toBe(en[key]);
      expect(fix.actions.length, code).toBeGreaterThan(0);
    }
  });

  it("fits the action to the problem: the buyer's own data get the buyer form, the settings get Settings, a rate no Turkish invoice takes is issued in the panel, never a buyer form", () => {
    for (const code of PROBLEM_CODES) {
      const { actions } = FIXES[code];
      if (code.startsWith("settings.")) expect(actions, code).toContain("settings");
      if (
        [
          "customer.invalid_tax_number",
          "customer.company_without_tax_office",
          "customer.company_without_title",
        ].includes(code)
      )
        expect(actions, code).toContain("buyer");
    }
    expect(FIXES["line.unsupported_tax_rate"].actions).toEqual(["order", "panel"]);
    expect(needsBuyer(["line.unsupported_tax_rate", "service.unavailable"])).toBe(false);
    expect(needsBuyer(["line.unsupported_tax_rate", "customer.invalid_tax_number"])).toBe(true);
    expect(FIXES["order.no_invoiceable_lines"].actions).toContain("not_needed");
    expect(FIXES["shopify.reconnect"].how).toBe("reconnect");
  });

  it("offers Retry only where a retry with the order as it stands can fix something", () => {
    expect(retryCanFix(["line.unsupported_tax_rate"])).toBe(false);
    expect(retryCanFix(["line.unsupported_tax_rate", "service.unavailable"])).toBe(true);
    expect(retryCanFix(["customer.invalid_tax_number"])).toBe(true);
    expect(retryCanFix([])).toBe(true);
    const noRetry = Object.entries(FIXES)
      .filter(([, fix]) => !fix.actions.includes("retry"))
      .map(([code]) => code);
    expect(noRetry).toContain("line.unsupported_tax_rate");
    for (const code of noRetry) expect(retryCanFix([code])).toBe(false);
  });

  it("retries or closes a stored code no catalogue knows any more", () => {
    expect(fixOf("old.code")).toEqual({ how: "retry", actions: ["retry", "panel"] });
    expect(fixOf("customer.invalid_tax_number")).toBe(FIXES["customer.invalid_tax_number"]);
  });

  it("docs/admin.md's table says the same as the code, row by row", () => {
    const doc = fs.readFileSync("docs/admin.md", "utf8");
    const rows = new Map(
      [...doc.matchAll(/^\| `([a-z0-9_.]+)` \| (.*?) \| (.*?) \| .*\|$/gm)].map((m) => [
        m[1],
        { how: m[2], actions: m[3] },
      ]),
    );
    expect([...rows.keys()].sort()).toEqual([...PROBLEM_CODES].sort());
    for (const [code, fix] of Object.entries(FIXES)) {
      const row = rows.get(code)!;
      expect(row.how, code).toBe(
        fix.how === "none" ? "Nothing: a warning, the invoice went out." : en[`fix.how.${fix.how}` as keyof typeof en],
      );
      expect(row.actions, code).toBe(fix.actions.map((a) => ACTION_WORDS[a]).join(", ") || "—");
    }
  });
});
