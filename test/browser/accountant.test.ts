// The accountant package page in a real browser against the production build and the invoicing sandbox: the merchant
// asks for this month's package (Turkish), the worker builds it in the background with a progress bar (seen in both
// languages, across a reload), and the page offers the ZIP through its signed link (English); a PDF the service would not
// give is named on the page.
import type { Browser, Page } from "playwright-core";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import type { Db } from "../../app/db/client";
import { chromiumAvailable, closePage, openAdminPage, shot as screenshot, waitFor } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";

const FIXTURES = [
  "01-single-item-citizen",
  "02-mixed-rates-free-shipping",
  "07-zero-rate-export-with-exemption",
  "09-company-buyer",
  "22-presentment-eur-invoiced-in-eur",
  "20-rounding-3x33.33",
];
const fixture = (name: string) =>
  JSON.parse(readFileSync(`test/fixtures/orders/${name}.json`, "utf8")) as Record<string, unknown>;

let stack: LocalStack;
let browser: Browser;
let db: Db;

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name, { fullPage: true });
}

const progressText = (page: Page) => page.locator("[id^=accountant-progress-]").first().textContent();

describe.skipIf(!chromiumAvailable())("the accountant package page in the browser", () => {
  // One PDF at a time, each answered after 1.5 s: the build takes long enough to be watched.
  withBrowserStack(
    {
      name: "accountant",
      stack: { formalizeDelayMs: 100, env: { ACCOUNTANT_PDF_CONCURRENCY: "1", RECONCILE_INTERVAL_MINUTES: "0" } },
      timeoutMs: 180_000,
    },
    async (started) => {
      ({ stack, db, browser } = started);
      for (const name of FIXTURES) expect((await stack.deliver("orders/paid", fixture(name))).status).toBe(200);
      await waitFor(
        "six completed invoices",
        () => db.invoice.count({ where: { shopDomain: stack.shop, state: "completed" } }),
        (n) => n === FIXTURES.length,
        60_000,
      );
    },
  );

  it("builds this month's package with a progress bar (Turkish), then offers its ZIP (English)", async () => {
    stack.sandbox.faults.delayNext(50, 1_500, { method: "GET", path: /\/formal-pdf$/ });
    // The first PDF asked for fails every time (4 tries): the package names it.
    stack.sandbox.faults.failNext(4, { method: "GET", path: /\/formal-pdf$/, status: 503 });

    const tr = await openAdminPage(browser, stack, "/app/accountant", "tr", { height: 800 });
    await expect.poll(() => tr.getByRole("heading", { name: "Muhasebeci paketi" }).first().isVisible()).toBe(true);
    await expect.poll(() => tr.getByText("Henüz paket yok.").isVisible()).toBe(true);
    await tr.getByText("Tarih aralığı", { exact: true }).click();
    await expect.poll(() => tr.locator("#accountant-from").isVisible()).toBe(true);
    await tr.locator("#accountant-build").click();
    await expect
      .poll(() => progressText(tr), { timeout: 30_000 })
      .toMatch(/^PDF: 6 faturanın [1-5] tanesi okundu · 1 tanesi okunamadı$/);
    expect(await tr.getByText("Hazırlanıyor").first().isVisible()).toBe(true);
    expect(await tr.locator('[role="progressbar"], .Polaris-ProgressBar').count()).toBeGreaterThan(0);
    await shot(tr, "accountant-progress-tr");
    await closePage(tr);

    // A reload (a new page) finds the same build going on, in English.
    const enProgress = await openAdminPage(browser, stack, "/app/accountant", "en", { height: 800 });
    await expect
      .poll(() => progressText(enProgress), { timeout: 15_000 })
      .toMatch(/^PDFs: [1-5] of 6 read · 1 could not be read$/);
    await shot(enProgress, "accountant-progress-en");
    await closePage(enProgress);

    const en = await openAdminPage(browser, stack, "/app/accountant", "en", { height: 800 });
    const download = en.locator("[id^=accountant-download-]").first();
    await expect.poll(() => download.isVisible(), { timeout: 60_000 }).toBe(true);
    await expect
      .poll(() => en.locator("[id^=accountant-ready-]").first().textContent())
      .toMatch(/^6 invoices · \d+(\.\d)? KB$/);
    await expect.poll(() => en.getByText(/^PDFs the invoicing service did not give: 1\./).isVisible()).toBe(true);
    expect(await en.getByText("Ready", { exact: true }).isVisible()).toBe(true);
    await shot(en, "accountant-ready-en");
    const [file] = await Promise.all([en.waitForEvent("download"), download.click()]);
    // Asked from the Turkish page: the workbook's language, and the name, are Turkish.
    expect(file.suggestedFilename()).toMatch(/^muhasebe-\d{4}-\d{2}(-\d{2}_\d{4}-\d{2}-\d{2})?\.zip$/);
    const bytes = readFileSync((await file.path())!);
    expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
    const row = await db.accountantPackage.findFirstOrThrow({ where: { shopDomain: stack.shop } });
    expect(row).toMatchObject({ state: "ready", total: 6, pdfDone: 5, pdfFailed: 1 });
    expect(bytes.length).toBe(Number(row.fileSize));
    await closePage(en);

    const back = await openAdminPage(browser, stack, "/app/accountant", "tr", { height: 800 });
    await expect.poll(() => back.locator("[id^=accountant-ready-]").first().textContent()).toMatch(/^6 fatura · /);
    await expect.poll(() => back.getByText(/^Fatura servisinin vermediği PDF sayısı: 1\./).isVisible()).toBe(true);
    await shot(back, "accountant-ready-tr");
    await closePage(back);
  }, 240_000);
});
