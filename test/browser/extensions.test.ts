// The UI extensions rendered in a real browser on a local host page (sandbox/extensions/host.ts) from the bundles the
// Shopify CLI would deploy: the customer account's "Faturayı indir / Download invoice", the order page block, the
// admin print action and the admin action, in Turkish and English, with screenshots.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extensionBundle, extensionPage, type HostOptions } from "../../sandbox/extensions/host";
import { chromiumAvailable, launchBrowser, SHOTS } from "../helpers/browser";

// Without Chromium the file is skipped (and says so), as the other browser tests; in CI that is a failure.
const hasBrowser = chromiumAvailable();
let browser: Browser;
beforeAll(async () => {
  if (!hasBrowser) return;
  browser = await launchBrowser();
  // The first build installs each extension's own dependencies from the npm registry (later ones reuse them).
  await Promise.all([
    extensionBundle("customer-invoice-download", "customer-invoice-download"),
    extensionBundle("order-invoice-print", "order-invoice-print-selection"),
    extensionBundle("invoice-orders-action", "invoice-orders-action"),
    extensionBundle("order-invoice-block", "order-invoice-block"),
  ]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
});

const metafield = (key: string, value: string) => ({
  target: { type: "order", id: "1001" },
  metafield: { namespace: "$app", key, value, type: "single_line_text_field" },
});
const completed = [
  metafield("invoice_state", "completed"),
  metafield("invoice_pdf_url", "https://app.faturaentegrator.com/pdf/ARS2026000000123.pdf"),
  metafield("invoice_serial", "ARS2026000000123"),
  metafield("invoice_kind", "e_archive"),
  metafield("invoice_date", "2026-11-23"),
];

async function render(options: HostOptions, width = 760): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 560 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.setContent(await extensionPage(options));
  await page.waitForFunction(() => document.documentElement.dataset.rendered === "1");
  await page.waitForTimeout(100);
  expect(errors).toEqual([]);
  return page;
}

const customer = (locale: "tr" | "en", appMetafields: unknown[]): HostOptions => ({
  extension: "customer-invoice-download",
  handle: "customer-invoice-download",
  target: "customer-account.order-status.block.render",
  locale,
  frame: "customer-account",
  title: locale === "tr" ? "Demo Mağaza · Siparişler" : "Demo Store · Orders",
  api: { appMetafields: { value: appMetafields }, localization: { language: { value: { isoCode: locale } } } },
});

const print = (locale: "tr" | "en"): HostOptions => ({
  extension: "order-invoice-print",
  handle: "order-invoice-print-selection",
  target: "admin.order-index.selection-print-action.render",
  locale,
  frame: "admin-print",
  title: locale === "tr" ? "Yazdır: e-Fatura" : "Print: e-Fatura invoice",
  api: {
    data: {
      selected: [
        { id: "gid://shopify/Order/1001" },
        { id: "gid://shopify/Order/1002" },
        { id: "gid://shopify/Order/1003" },
      ],
    },
  },
  fetchAnswers: {
    "/api/print/invoices": {
      ok: true,
      url: "https://invoices.example.com/print/invoices/eyJzIjoiZGVtby1tYWdhemEubXlzaG9waWZ5LmNvbSJ9.signature",
      orders: [
        { orderId: "1001", orderName: "#1001", status: "ready", serialNumber: "ARS2026000000123" },
        { orderId: "1002", orderName: "#1002", status: "ready", serialNumber: "ARS2026000000124" },
        { orderId: "1003", orderName: "#1003", status: "not_yet", serialNumber: null },
      ],
    },
  },
});

describe.skipIf(!hasBrowser)("customer account: download invoice", () => {
  it("shows the download for a completed invoice, in Turkish and English", async () => {
    for (const [locale, button, date] of [
      ["tr", "Faturayı indir", "23 Kasım 2026"],
      ["en", "Download invoice", "November 23, 2026"],
    ] as const) {
      const page = await render(customer(locale, completed));
      const text = await page.locator("#root").innerText();
      expect(text).toContain(button);
      expect(text).toContain("ARS2026000000123");
      expect(text).toContain(date);
      expect(await page.locator("s-button").getAttribute("href")).toBe(
        "https://app.faturaentegrator.com/pdf/ARS2026000000123.pdf",
      );
      await page.screenshot({ path: path.join(SHOTS, `customer-invoice-download-${locale}.png`) });
      await page.close();
    }
  });

  it("shows nothing for an order without a completed invoice", async () => {
    for (const metafields of [
      [],
      [metafield("invoice_state", "processing")],
      [...completed.slice(1), metafield("invoice_state", "test")],
    ]) {
      const page = await render(customer("tr", metafields));
      expect((await page.locator("#root").innerText()).trim()).toBe("");
      await page.close();
    }
  });
});

describe.skipIf(!hasBrowser)("admin print action", () => {
  it("prints the ready invoices and names the order whose invoice is not completed, in Turkish and English", async () => {
    for (const [locale, ready, waiting] of [
      ["tr", "2 fatura yazdırılacak.", "#1003 için henüz yazdırılacak fatura yok"],
      ["en", "2 invoices will be printed.", "No invoice to print yet for #1003"],
    ] as const) {
      const page = await render(print(locale));
      await page.getByText(ready).waitFor();
      expect(await page.locator("#root").innerText()).toContain(waiting);
      expect(await page.locator("s-admin-print-action").getAttribute("src")).toMatch(
        /^https:\/\/invoices\.example\.com\/print\/invoices\//,
      );
      await page.screenshot({ path: path.join(SHOTS, `print-action-${locale}.png`) });
      await page.close();
    }
  });
});

const createInvoices = (locale: "tr" | "en"): HostOptions => ({
  extension: "invoice-orders-action",
  handle: "invoice-orders-action",
  target: "admin.order-index.selection-action.render",
  locale,
  frame: "admin-action",
  title: "",
  api: { data: { selected: [1041, 1042, 1043, 1044, 1045, 1046].map((n) => ({ id: `gid://shopify/Order/${n}` })) } },
  fetchAnswers: {
    "/api/orders/invoice": {
      results: [
        { orderId: "1041", name: "#1041", result: "queued" },
        { orderId: "1042", name: "#1042", result: "queued" },
        { orderId: "1043", name: "#1043", result: "queued" },
        { orderId: "1044", name: "#1044", result: "already", state: "completed", invoiceId: "inv1" },
        { orderId: "1045", name: "#1045", result: "refused", reason: "not_paid" },
        { orderId: "1046", name: "#1046", result: "refused", reason: "cancelled" },
      ],
    },
  },
});

describe.skipIf(!hasBrowser)("admin action: create invoices from the order list", () => {
  it("asks for the selected orders, sends them and says what became of each, in Turkish and English", async () => {
    const texts = {
      tr: {
        intro: "Seçili 6 sipariş faturalansın mı?",
        create: "Fatura kes",
        queued: "3 sipariş faturalanmak üzere kuyruğa alındı.",
        already: "1 sipariş zaten uygulamada: #1044 (tamamlandı)",
        refused: ["2 sipariş faturalanmadı:", "#1045: ödenmemiş", "#1046: iptal edilmiş"],
      },
      en: {
        intro: "Invoice 6 selected orders?",
        create: "Create invoices",
        queued: "3 orders queued for invoicing.",
        already: "1 order already in the app: #1044 (completed)",
        refused: ["2 orders not invoiced:", "#1045: not paid", "#1046: cancelled"],
      },
    };
    for (const locale of ["tr", "en"] as const) {
      const text = texts[locale];
      const page = await render(createInvoices(locale), 640);
      expect(await page.locator("#root").innerText()).toContain(text.intro);
      await page.screenshot({ path: path.join(SHOTS, `invoice-orders-action-ask-${locale}.png`) });
      await page.locator('s-button[slot="primary-action"]', { hasText: text.create }).click();
      await page.getByText(text.queued).waitFor();
      const shown = await page.locator("#root").innerText();
      expect(shown).toContain(text.already);
      for (const line of text.refused) expect(shown).toContain(line);
      expect(shown).not.toMatch(/\{\{?\w+\}\}?/);
      await page.screenshot({ path: path.join(SHOTS, `invoice-orders-action-${locale}.png`) });
      await page.close();
    }
  });
});

const block = (locale: "tr" | "en", invoice: unknown): HostOptions => ({
  extension: "order-invoice-block",
  handle: "order-invoice-block",
  target: "admin.order-details.block.render",
  locale,
  frame: "admin-block",
  title: "",
  api: { data: { selected: [{ id: "gid://shopify/Order/1001" }] } },
  fetchAnswers: { "/api/orders/": { invoice } },
});

describe.skipIf(!hasBrowser)("admin block: the order's invoice", () => {
  it("shows the invoice's state, kind, serial number and links, in Turkish and English", async () => {
    const invoice = {
      invoiceId: "inv1",
      state: "completed",
      documentKind: "e_archive",
      serialNumber: "ARS2026000000123",
      pdfUrl: "https://app.faturaentegrator.com/pdf/ARS2026000000123.pdf",
      test: false,
    };
    for (const [locale, state, pdf] of [
      ["tr", "Tamamlandı · e-Arşiv", "PDF'i aç"],
      ["en", "Completed · e-Arşiv", "Open PDF"],
    ] as const) {
      const page = await render(block(locale, invoice), 420);
      await page.getByText("ARS2026000000123").waitFor();
      const text = await page.locator("#root").innerText();
      expect(text).toContain(state);
      expect(await page.locator("s-link", { hasText: pdf }).getAttribute("href")).toBe(invoice.pdfUrl);
      await page.screenshot({ path: path.join(SHOTS, `order-invoice-block-${locale}.png`) });
      await page.close();
    }
  });
});
