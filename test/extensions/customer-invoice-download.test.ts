// The customer account extension "Faturayı indir / Download invoice": when it offers the download (its logic, pure),
// its target and declared metafields, and its texts in Turkish and English.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import {
  formatIssueDate,
  invoiceDownload,
  invoiceFields,
} from "../../extensions/customer-invoice-download/src/invoice-link.js";
import { METAFIELDS } from "../../app/write-back/plan";

const DIR = "extensions/customer-invoice-download";
const entry = (key: string, value: string, namespace = "$app", type = "order") => ({
  target: { type, id: "5001" },
  metafield: { namespace, key, value, type: "single_line_text_field" },
});
const completed = [
  entry("invoice_state", "completed"),
  entry("invoice_pdf_url", "https://service.example/pdf/ARS2026000000001.pdf"),
  entry("invoice_serial", "ARS2026000000001"),
  entry("invoice_kind", "e_archive"),
  entry("invoice_date", "2026-11-23"),
];

describe("invoiceDownload", () => {
  it("offers a completed invoice's PDF with its serial number, kind and date", () => {
    expect(invoiceDownload(completed)).toEqual({
      url: "https://service.example/pdf/ARS2026000000001.pdf",
      serial: "ARS2026000000001",
      kind: "e_archive",
      date: "2026-11-23",
    });
  });

  it("offers nothing for an order without an invoice, or one in progress, cancelled, failed, or a test invoice", () => {
    expect(invoiceDownload([])).toBeNull();
    expect(invoiceDownload(undefined)).toBeNull();
    for (const state of ["processing", "cancelled", "failed", "needs_attention", "test"]) {
      expect(invoiceDownload([entry("invoice_state", state), ...completed.slice(1)]), state).toBeNull();
    }
  });

  it("offers nothing without an https address (no javascript:, no plain http)", () => {
    const withUrl = (url: string) => [entry("invoice_state", "completed"), entry("invoice_pdf_url", url)];
    expect(invoiceDownload(withUrl("javascript:alert(1)"))).toBeNull();
    expect(invoiceDownload(withUrl("http://service.example/a.pdf"))).toBeNull();
    expect(invoiceDownload([entry("invoice_state", "completed")])).toBeNull();
  });

  it("reads only the app's own order metafields", () => {
    const others = [
      entry("invoice_state", "completed", "custom"),
      entry("invoice_pdf_url", "https://evil.example/x.pdf", "custom"),
      entry("invoice_state", "completed", "$app", "customer"),
    ];
    expect(invoiceFields(others)).toEqual({});
    expect(invoiceFields([entry("invoice_serial", "X", "app--123456")])).toEqual({ invoice_serial: "X" });
  });

  it("writes the issue date as the customer's language does, whatever the time zone", () => {
    expect(formatIssueDate("2026-11-23", "tr")).toBe("23 Kasım 2026");
    expect(formatIssueDate("2026-11-23", "en")).toBe("November 23, 2026");
  });
});

describe("the extension's files", () => {
  const toml = parse(readFileSync(path.join(DIR, "shopify.extension.toml"), "utf8")) as {
    api_version: string;
    extensions: Array<{
      type: string;
      targeting: Array<{ target: string; module: string }>;
      metafields: Array<{ namespace: string; key: string }>;
    }>;
  };
  const locale = (name: string) =>
    JSON.parse(readFileSync(path.join(DIR, "locales", name), "utf8")) as Record<string, unknown>;
  const keys = (tree: unknown, prefix = ""): string[] =>
    typeof tree !== "object" || tree === null
      ? [prefix]
      : Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));

  it("renders on the order status page and declares the metafields it reads, all written by the app", () => {
    const [extension] = toml.extensions;
    expect(extension.type).toBe("ui_extension");
    expect(extension.targeting.map((t) => t.target)).toEqual(["customer-account.order-status.block.render"]);
    for (const t of extension.targeting)
      expect(readFileSync(path.join(DIR, t.module), "utf8")).toContain("invoiceDownload(");
    const declared = extension.metafields.map((m) => `${m.namespace}.${m.key}`).sort();
    expect(declared).toEqual(
      ["invoice_date", "invoice_kind", "invoice_pdf_url", "invoice_serial", "invoice_state"].map((k) => `$app.${k}`),
    );
    for (const m of extension.metafields) expect(Object.keys(METAFIELDS)).toContain(m.key);
  });

  it("has every text in Turkish and English", () => {
    expect(keys(locale("tr.json")).sort()).toEqual(keys(locale("en.default.json")).sort());
    expect(locale("tr.json").download).toBe("Faturayı indir");
    expect(locale("en.default.json").download).toBe("Download invoice");
    const source = readFileSync(path.join(DIR, "src/OrderStatusBlock.jsx"), "utf8");
    for (const used of source.matchAll(/translate\("([\w.]+)"\)/g))
      expect(keys(locale("en.default.json"))).toContain(used[1]);
  });
});
