// The UI extensions as Shopify runs them: the bundles the Shopify CLI would deploy (scripts/lib/extensions.ts: a
// clean install of each extension's package.json, the CLI's entry and esbuild options), each evaluated in a fresh
// DOM (happy-dom) with the real @shopify/ui-extensions and Preact they carry. The bundle must register its target
// with shopify.extend, hand @preact/signals to Shopify, and render the expected s-* elements into document.body
// when Shopify calls the target. A bundle with React's JSX runtime renders nothing here, as on Shopify.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Window } from "happy-dom";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildExtensions, type Bundle, type BuiltExtension } from "../../scripts/lib/extensions";
import { shopifyGlobal } from "../../sandbox/extensions/shopify-global";

let built: BuiltExtension[];
// The first run installs each extension's dependencies from the npm registry; later runs reuse those installs.
beforeAll(async () => {
  built = await buildExtensions();
}, 300_000);

const windows: Window[] = [];
afterEach(async () => {
  for (const window of windows.splice(0)) await window.happyDOM.close();
});

function bundle(handle: string): Bundle {
  const found = built.flatMap((extension) => extension.bundles).find((candidate) => candidate.handle === handle);
  if (!found) throw new Error(`no bundle ${handle}`);
  return found;
}

interface Sent {
  url: string;
  method: string;
  body: unknown;
}

interface Rendered {
  document: Window["document"];
  sent: Sent[];
  signal: unknown;
}

/**
 * Loads the bundle in a fresh window as Shopify's runtime does, then calls the target's registered callback.
 * `answers`: the app's answers by path prefix (the admin's fetch to the app's own paths).
 */
async function render(
  handle: string,
  target: string,
  locale: "tr" | "en",
  api: Record<string, unknown>,
  answers: Record<string, unknown> = {},
): Promise<Rendered> {
  const { folder, code } = bundle(handle);
  const messages = JSON.parse(
    readFileSync(path.join("extensions", folder, "locales", locale === "en" ? "en.default.json" : "tr.json"), "utf8"),
  ) as Record<string, unknown>;
  const window = new Window({ url: "https://extensions.shopifycdn.com/" });
  windows.push(window);
  const global = shopifyGlobal({ messages, locale, api });
  const sent: Sent[] = [];
  const fetch = async (input: unknown, init: { method?: string; body?: string } = {}) => {
    const url = String(input);
    sent.push({ url, method: init.method ?? "GET", body: init.body ? JSON.parse(init.body) : undefined });
    const key = Object.keys(answers).find((prefix) => url.startsWith(prefix));
    return new Response(JSON.stringify(key ? answers[key] : { error: "unknown" }), {
      status: key ? 200 : 404,
      headers: { "content-type": "application/json" },
    });
  };
  Object.assign(window, { shopify: global.shopify });
  // The bundle's free names are the worker's globals; everything else (Promise, setTimeout...) is Node's.
  new Function("globalThis", "self", "window", "document", "shopify", "fetch", code)(
    window,
    window,
    window,
    window.document,
    global.shopify,
    fetch,
  );
  expect([...global.targets.keys()]).toEqual([target]);
  await global.targets.get(target)!();
  return { document: window.document, sent, signal: global.signal() };
}

const text = (rendered: Rendered) => rendered.document.body.textContent ?? "";
const only = (rendered: Rendered, selector: string) => {
  const found = rendered.document.body.querySelectorAll(selector);
  expect(found.length, selector).toBe(1);
  return found[0];
};

describe("every bundle", () => {
  it("is built for each [[extensions]] entry, one target each, with Preact's JSX runtime, @preact/signals and @shopify/ui-extensions of its api_version", () => {
    const handles = built.flatMap((extension) =>
      extension.bundles.map((b) => `${b.handle}: ${b.targets.map((t) => t.target).join(", ")}`),
    );
    expect(handles.sort()).toEqual([
      "customer-invoice-download: customer-account.order-status.block.render",
      "invoice-order-details-action: admin.order-details.action.render",
      "invoice-orders-action: admin.order-index.selection-action.render",
      "order-invoice-block: admin.order-details.block.render",
      "order-invoice-print-selection: admin.order-index.selection-print-action.render",
      "order-invoice-print: admin.order-details.print-action.render",
    ]);
    for (const extension of built) {
      expect(
        extension.uiExtensionsVersion.startsWith(extension.extension.apiVersion.replace(/^(\d+)-0?(\d+)$/, "$1.$2.")),
      ).toBe(true);
      for (const b of extension.bundles) {
        expect(b.inputs).toContain("node_modules/@shopify/ui-extensions/build/esm/preact.mjs");
        expect(b.inputs.some((input) => input.startsWith("node_modules/@preact/signals/"))).toBe(true);
        expect(b.inputs.some((input) => input.startsWith("node_modules/preact/jsx-runtime/"))).toBe(true);
        expect(b.inputs.filter((input) => /(^|\/)react(-dom)?\//.test(input))).toEqual([]);
      }
    }
  });
});

const metafield = (key: string, value: string) => ({
  target: { type: "order", id: "1001" },
  metafield: { namespace: "$app", key, value, type: "single_line_text_field" },
});
const completed = [
  metafield("invoice_state", "completed"),
  metafield("invoice_pdf_url", "https://service.example/pdf/ARS2026000000123.pdf"),
  metafield("invoice_serial", "ARS2026000000123"),
  metafield("invoice_kind", "e_archive"),
  metafield("invoice_date", "2026-11-23"),
];
const customer = (locale: "tr" | "en", metafields: unknown[]) => ({
  appMetafields: { value: metafields },
  localization: { language: { value: { isoCode: locale } } },
});

describe("customer-invoice-download (customer-account.order-status.block.render)", () => {
  it("offers the completed invoice's PDF, in Turkish and English", async () => {
    for (const [locale, heading, button, date] of [
      ["tr", "Fatura", "Faturayı indir", "23 Kasım 2026"],
      ["en", "Invoice", "Download invoice", "November 23, 2026"],
    ] as const) {
      const rendered = await render(
        "customer-invoice-download",
        "customer-account.order-status.block.render",
        locale,
        customer(locale, completed),
      );
      expect(rendered.signal, "@shopify/ui-extensions/preact hands @preact/signals' Signal to Shopify").toEqual(
        expect.any(Function),
      );
      expect(only(rendered, "s-section").getAttribute("heading")).toBe(heading);
      const link = only(rendered, "s-section s-button");
      expect(link.getAttribute("href")).toBe("https://service.example/pdf/ARS2026000000123.pdf");
      expect(link.getAttribute("target")).toBe("_blank");
      expect(link.textContent).toBe(button);
      expect(text(rendered)).toContain("ARS2026000000123");
      expect(text(rendered)).toContain(date);
    }
  });

  it("renders nothing for an order without a completed invoice", async () => {
    for (const metafields of [[], [metafield("invoice_state", "processing")]]) {
      const rendered = await render(
        "customer-invoice-download",
        "customer-account.order-status.block.render",
        "tr",
        customer("tr", metafields),
      );
      expect(rendered.document.body.children.length).toBe(0);
    }
  });
});

const invoice = {
  invoiceId: "inv1",
  state: "completed",
  documentKind: "e_archive",
  serialNumber: "ARS2026000000123",
  pdfUrl: "https://service.example/pdf/ARS2026000000123.pdf",
  test: false,
};

describe("order-invoice-block (admin.order-details.block.render)", () => {
  it("asks the app for the order's invoice and shows its state, serial number and links", async () => {
    const rendered = await render(
      "order-invoice-block",
      "admin.order-details.block.render",
      "en",
      { data: { selected: [{ id: "gid://shopify/Order/1001" }] } },
      { "/api/orders/": { invoice } },
    );
    expect(only(rendered, "s-admin-block").getAttribute("heading")).toBe("e-Invoice");
    await expect
      .poll(() => rendered.document.body.querySelector("s-text[type=strong]")?.textContent)
      .toBe("ARS2026000000123");
    expect(rendered.sent).toEqual([
      { url: "/api/orders/gid%3A%2F%2Fshopify%2FOrder%2F1001/invoice", method: "GET", body: undefined },
    ]);
    expect(text(rendered)).toContain("Completed · e-Arşiv");
    const links = [...rendered.document.body.querySelectorAll("s-link")].map((link) => [
      link.getAttribute("href"),
      link.textContent,
    ]);
    expect(links).toEqual([
      ["https://service.example/pdf/ARS2026000000123.pdf", "Open PDF"],
      ["app:app/invoices/inv1", "Invoice details"],
    ]);
  });

  it("says so when the order has no invoice, in Turkish", async () => {
    const rendered = await render(
      "order-invoice-block",
      "admin.order-details.block.render",
      "tr",
      { data: { selected: [{ id: "gid://shopify/Order/1002" }] } },
      { "/api/orders/": { invoice: null } },
    );
    await expect.poll(() => text(rendered)).toContain("Bu sipariş için henüz fatura yok.");
  });
});

const results = [
  { orderId: "1041", name: "#1041", result: "queued" },
  { orderId: "1042", name: "#1042", result: "queued" },
  { orderId: "1043", name: "#1043", result: "queued" },
  { orderId: "1044", name: "#1044", result: "already", state: "completed", invoiceId: "inv1" },
  { orderId: "1045", name: "#1045", result: "refused", reason: "not_paid" },
];

describe("invoice-orders-action and invoice-order-details-action (admin actions)", () => {
  it("order list selection: asks, sends the selected orders and says what became of each", async () => {
    const closed: string[] = [];
    const selected = ["1041", "1042", "1043", "1044", "1045"].map((id) => ({ id: `gid://shopify/Order/${id}` }));
    const rendered = await render(
      "invoice-orders-action",
      "admin.order-index.selection-action.render",
      "en",
      { data: { selected }, close: () => closed.push("close") },
      { "/api/orders/invoice": { results } },
    );
    expect(only(rendered, "s-admin-action").getAttribute("heading")).toBe("Create invoices");
    expect(text(rendered)).toContain("Invoice 5 selected orders?");
    const create = only(rendered, 's-admin-action > s-button[slot="primary-action"]');
    expect(create.textContent).toBe("Create invoices");
    only(rendered, 's-admin-action > s-button[slot="secondary-actions"]');
    create.dispatchEvent(new rendered.document.defaultView!.Event("click"));
    await expect.poll(() => text(rendered)).toContain("3 orders queued for invoicing.");
    expect(rendered.sent).toEqual([
      { url: "/api/orders/invoice", method: "POST", body: { orderIds: selected.map((s) => s.id) } },
    ]);
    expect(text(rendered)).toContain("1 order already in the app: #1044 (completed)");
    expect(text(rendered)).toContain("1 order not invoiced:#1045: not paid");
    const done = only(rendered, 's-admin-action > s-button[slot="primary-action"]');
    expect(done.textContent).toBe("Close");
    done.dispatchEvent(new rendered.document.defaultView!.Event("click"));
    expect(closed).toEqual(["close"]);
  });

  it("order page: asks for the one order in the singular, in Turkish", async () => {
    const rendered = await render("invoice-order-details-action", "admin.order-details.action.render", "tr", {
      data: { selected: [{ id: "gid://shopify/Order/1041" }] },
      close: () => undefined,
    });
    expect(only(rendered, "s-admin-action").getAttribute("heading")).toBe("Fatura kes");
    expect(text(rendered)).toContain("Seçili sipariş faturalansın mı?");
  });

  it("more than 50 selected: says how many were left out", async () => {
    const selected = Array.from({ length: 51 }, (_, i) => ({ id: `gid://shopify/Order/${2000 + i}` }));
    const rendered = await render("invoice-orders-action", "admin.order-index.selection-action.render", "en", {
      data: { selected },
      close: () => undefined,
    });
    expect(only(rendered, "s-banner[tone=warning]").textContent).toBe(
      "Only the first 50 orders are sent; 1 more was not: select it again afterwards.",
    );
  });
});

const printAnswer = {
  ok: true,
  url: "https://app.example/print/invoices/token.signature",
  orders: [
    { orderId: "1001", orderName: "#1001", status: "ready", serialNumber: "ARS2026000000123" },
    { orderId: "1002", orderName: "#1002", status: "ready", serialNumber: "ARS2026000000124" },
    { orderId: "1003", orderName: "#1003", status: "not_yet", serialNumber: null },
  ],
};

describe("order-invoice-print and order-invoice-print-selection (admin print actions)", () => {
  it("order list selection: hands the merged PDF to the print preview and names the order without one yet", async () => {
    const selected = ["1001", "1002", "1003"].map((id) => ({ id: `gid://shopify/Order/${id}` }));
    const rendered = await render(
      "order-invoice-print-selection",
      "admin.order-index.selection-print-action.render",
      "en",
      { data: { selected } },
      { "/api/print/invoices": printAnswer },
    );
    const action = only(rendered, "s-admin-print-action");
    await expect.poll(() => action.getAttribute("src")).toBe(printAnswer.url);
    expect(rendered.sent.map((s) => s.url)).toEqual([
      `/api/print/invoices?orders=${encodeURIComponent(selected.map((s) => s.id).join(","))}`,
    ]);
    expect(text(rendered)).toContain("2 invoices will be printed.");
    expect(only(rendered, "s-banner[tone=warning]").textContent).toContain("No invoice to print yet for #1003");
  });

  it("order page: one invoice, in Turkish", async () => {
    const answer = { ...printAnswer, orders: [printAnswer.orders[0]] };
    const rendered = await render(
      "order-invoice-print",
      "admin.order-details.print-action.render",
      "tr",
      { data: { selected: [{ id: "gid://shopify/Order/1001" }] } },
      { "/api/print/invoices": answer },
    );
    await expect.poll(() => only(rendered, "s-admin-print-action").getAttribute("src")).toBe(printAnswer.url);
    expect(text(rendered)).toContain("1 fatura yazdırılacak.");
  });
});
