// The "Create invoices" admin action as files and as logic: both targets (an extension each), texts in Turkish and
// English for every key it uses and every refusal and state the app can answer, and what it sends and shows.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { REFUSAL_REASONS } from "../../app/invoices/bulk-invoice.server";
import { INVOICE_STATES } from "../../app/invoice-state/transitions";
import {
  invoiceRequest,
  invoiceSummary,
  MAX_ORDERS,
} from "../../extensions/invoice-orders-action/src/invoice-request.js";

const DIR = "extensions/invoice-orders-action";
const keys = (tree: unknown, prefix = ""): string[] =>
  typeof tree !== "object" || tree === null
    ? [prefix]
    : Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
const locale = (name: string) =>
  JSON.parse(readFileSync(path.join(DIR, "locales", name), "utf8")) as Record<string, unknown>;

describe("invoice-orders-action as files", () => {
  it("renders as the order list's selection action and the order page's action, one target per extension as Shopify takes admin actions", () => {
    const toml = parse(readFileSync(path.join(DIR, "shopify.extension.toml"), "utf8")) as {
      extensions: Array<{ handle: string; targeting: Array<{ target: string; module: string }> }>;
    };
    expect(toml.extensions.map((e) => [e.handle, e.targeting.map((t) => t.target)])).toEqual([
      ["invoice-orders-action", ["admin.order-index.selection-action.render"]],
      ["invoice-order-details-action", ["admin.order-details.action.render"]],
    ]);
    for (const t of toml.extensions.flatMap((e) => e.targeting))
      expect(readFileSync(path.join(DIR, t.module), "utf8")).toContain("<s-admin-action");
  });

  it("has every text in Turkish and English, every text it uses, and a text for every refusal and state the app answers", () => {
    const en = keys(locale("en.default.json"));
    expect(keys(locale("tr.json")).sort()).toEqual([...en].sort());
    const source = readFileSync(path.join(DIR, "src/ActionExtension.jsx"), "utf8");
    // A plural message ({ one, other }: test/extensions/texts.test.ts) counts as its key.
    for (const used of source.matchAll(/translate\("([\w.]+)"/g))
      expect(en.map((key) => key.replace(/\.(one|other)$/, ""))).toContain(used[1]);
    for (const reason of REFUSAL_REASONS) expect(en).toContain(`refused.${reason}`);
    for (const state of INVOICE_STATES) expect(en).toContain(`state.${state}`);
    expect((locale("tr.json") as { title: string }).title).toBe("Fatura kes");
    expect((locale("en.default.json") as { title: string }).title).toBe("Create invoices");
  });
});

describe("placeholders in every extension's texts", () => {
  it("are written as Shopify's i18n.translate fills them ({{count}}); a single-brace {count} would show as it is", () => {
    const files = readdirSync("extensions").flatMap((extension) => {
      const dir = path.join("extensions", extension, "locales");
      return existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith(".json"))
            .map((f) => path.join(dir, f))
        : [];
    });
    expect(files).toContain(path.join(DIR, "locales", "tr.json"));
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toMatch(/(?<!\{)\{\w+\}(?!\})/);
  });
});

describe("what the action sends and shows", () => {
  it("sends the selected orders' ids once each, at most 50, and says how many were left out", () => {
    const selected = [
      { id: "gid://shopify/Order/1" },
      { id: "gid://shopify/Order/1" },
      { id: "gid://shopify/Order/2" },
      { id: "gid://shopify/Product/3" },
      null,
      { id: 4 },
    ];
    expect(invoiceRequest(selected)).toEqual({
      body: { orderIds: ["gid://shopify/Order/1", "gid://shopify/Order/2"] },
      skipped: 0,
    });
    const many = Array.from({ length: 60 }, (_, i) => ({ id: `gid://shopify/Order/${i + 1}` }));
    const request = invoiceRequest(many);
    expect(request!.body.orderIds).toHaveLength(MAX_ORDERS);
    expect(request!.skipped).toBe(10);
    expect(invoiceRequest([])).toBeNull();
    expect(invoiceRequest(undefined)).toBeNull();
  });

  it("counts what was queued and names what was already invoiced or refused, with the reason's text key", () => {
    const answer = {
      ok: true,
      results: [
        { orderId: "1", name: "#1001", result: "queued" },
        { orderId: "2", name: "#1002", result: "already", state: "completed", invoiceId: "x" },
        { orderId: "3", name: null, result: "refused", reason: "not_paid" },
        { orderId: "4", name: "#1004", result: "refused", reason: "admin_api", detail: "503" },
      ],
    };
    expect(invoiceSummary(answer)).toEqual({
      queued: 1,
      already: [{ order: "#1002", state: "state.completed" }],
      refused: [
        { order: "#3", reason: "refused.not_paid" },
        { order: "#1004", reason: "refused.admin_api" },
      ],
    });
    expect(invoiceSummary(null)).toEqual({ queued: 0, already: [], refused: [] });
  });
});
