// Every page of the admin scanned with axe-core (injected from npm into the real page, production build, sandbox):
// no moderate, serious or critical violation, in Turkish and English, on a desktop and on a phone (390 px). Each page also
// has a title of its own in the admin's language (the browser tab, and what a screen reader announces first).
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import type { Db } from "../../app/db/client";
import { chromiumAvailable, closePage, openAdminPage, USER_AGENT, waitFor } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";
import { axeViolations } from "../helpers/axe";

const fixture = (name: string) =>
  JSON.parse(readFileSync(`test/fixtures/orders/${name}.json`, "utf8")) as Record<string, unknown>;
const FINAL = ["completed", "failed", "needs_attention", "cancelled"];

let stack: LocalStack;
let browser: Browser;
let db: Db;

/** Opens a page, waits until it has drawn `ready`, and returns its axe violations (moderate or worse) and title. */
async function scan(
  pathInApp: string,
  locale: "tr" | "en",
  ready: (page: Page) => Promise<unknown>,
  width = 1280,
  before?: (page: Page) => Promise<void>,
) {
  const page = await openAdminPage(browser, stack, pathInApp, locale);
  if (width !== 1280) await page.setViewportSize({ width, height: 900 });
  await ready(page);
  if (before) await before(page);
  await page.waitForLoadState("networkidle");
  const violations = await axeViolations(page);
  const title = await page.title();
  await closePage(page);
  return { violations, title };
}

describe.skipIf(!chromiumAvailable())("accessibility of every admin page (axe-core)", () => {
  let completedId = "";
  let attentionId = "";

  withBrowserStack(
    { name: "a11y", stack: { formalizeDelayMs: 150, testMode: true }, timeoutMs: 180_000 },
    async (started) => {
      ({ stack, db, browser } = started);
      for (const name of ["01-single-item-citizen", "09-company-buyer", "08-zero-rate-without-exemption"]) {
        expect((await stack.deliver("orders/paid", fixture(name))).status).toBe(200);
      }
      const rows = await waitFor(
        "three final invoices",
        () => db.invoice.findMany({ where: { shopDomain: stack.shop } }),
        (found) => found.length === 3 && found.every((row) => FINAL.includes(row.state)),
      );
      completedId = rows.find((row) => row.orderName === "#1009")!.id;
      attentionId = rows.find((row) => row.orderName === "#1008")!.id;
    },
  );

  const heading = (name: string | RegExp) => (page: Page) =>
    expect.poll(() => page.getByRole("heading", { name }).first().isVisible()).toBe(true);

  const pages = [
    { path: "/app", ready: heading(/Faturalar|Invoices/), title: { tr: "Faturalar", en: "Invoices" } },
    { path: "/app/settings", ready: heading(/Ayarlar|Settings/), title: { tr: "Ayarlar", en: "Settings" } },
    {
      path: "/app/waybills",
      ready: heading(/İrsaliyeden fatura|Invoice from a waybill/),
      title: { tr: "İrsaliyeden fatura", en: "Invoice from a waybill" },
    },
    {
      path: "/app/past-orders",
      ready: heading(/Geçmiş siparişleri faturala|Invoice past orders/),
      title: { tr: "Önceki siparişler", en: "Past orders" },
    },
    { path: "/app/returns", ready: heading(/İadeler|Returns/), title: { tr: "İadeler", en: "Returns" } },
    {
      path: "/app/accountant",
      ready: heading(/Muhasebeci paketi|Accountant package/),
      title: { tr: "Muhasebeci paketi", en: "Accountant package" },
    },
  ];

  for (const locale of ["tr", "en"] as const) {
    for (const target of pages) {
      it(`${target.path} (${locale}): no moderate or worse violation, a title of its own`, async () => {
        const { violations, title } = await scan(target.path, locale, target.ready);
        expect(violations).toEqual([]);
        expect(title).toBe(`${target.title[locale]} · ${locale === "tr" ? "e-Faturalar" : "e-Invoices"}`);
      }, 60_000);
    }

    it(`the invoice pages, completed and needing attention (${locale}): no moderate or worse violation`, async () => {
      for (const id of [completedId, attentionId]) {
        const { violations, title } = await scan(`/app/invoices/${id}`, locale, (page) =>
          expect.poll(() => page.locator("#serial-number").isVisible()).toBe(true),
        );
        expect(violations).toEqual([]);
        expect(title).toMatch(
          locale === "tr" ? /^#100\d siparişinin faturası · e-Faturalar$/ : /^Invoice for #100\d · e-Invoices$/,
        );
      }
    }, 60_000);

    it(`on a phone, 390 px (${locale}): the list, an invoice and the settings have no moderate or worse violation`, async () => {
      for (const target of [
        pages[0],
        { path: `/app/invoices/${completedId}`, ready: (page: Page) => page.locator("#serial-number").waitFor() },
        pages[1],
      ]) {
        const { violations } = await scan(target.path, locale, target.ready, 390);
        expect(violations).toEqual([]);
      }
    }, 90_000);
  }

  it("a waybill read into its invoice form (Turkish): no moderate or worse violation", async () => {
    const { violations } = await scan("/app/waybills", "tr", heading("İrsaliyeden fatura"), 1280, async (page) => {
      await page.locator("#waybillId").fill(String(stack.sandbox.account.waybillIds.completed));
      await page.locator("#read-waybill").click();
      await page.locator("#customer-address").waitFor();
    });
    expect(violations).toEqual([]);
  }, 60_000);

  it("a state badge reads its state once to a screen reader: 'Durum: Tamamlandı', not 'Başarılı Tamamlandı Tamamlandı'", async () => {
    const page = await openAdminPage(browser, stack, "/app", "tr");
    const badge = page.locator("tbody tr", { hasText: "#1009" }).locator(".Polaris-Badge").last();
    await expect.poll(() => badge.textContent()).toBe("Durum:Tamamlandı");
    await closePage(page);
  }, 30_000);

  it("the error page: no moderate or worse violation", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 700 }, userAgent: USER_AGENT });
    const page = await context.newPage();
    await page.goto(`${stack.appUrl}/no-such-page`);
    await page.getByText("This page does not exist.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 30_000);

  it("a page reloaded outside the admin (/auth/login): the app's own form in Turkish and English, which takes the shop's address (issue 36, point 8)", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 700 }, userAgent: USER_AGENT });
    const page = await context.newPage();
    const response = await page.goto(`${stack.appUrl}/auth/login`);
    expect(response?.status()).toBe(200);
    await page.getByText("Uygulamayı Shopify yönetim panelinizden açın", { exact: false }).first().waitFor();
    const text = await page.locator("body").innerText();
    expect(text).toContain("Open the app from your Shopify admin");
    expect(text).not.toMatch(/authenticate\.admin|Detected call/);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('input[name="shop"]').fill("bu bir mağaza değil");
    await page.getByRole("button").click();
    await page.getByText("That is not a shop address", { exact: false }).waitFor();
    expect(await page.locator("body").innerText()).toContain("Bu bir mağaza adresi değil");
    await page.screenshot({ path: "test-results/screenshots/login-invalid.png" });
    await context.close();
  }, 30_000);
});
