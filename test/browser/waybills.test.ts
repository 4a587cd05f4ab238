// The "Invoice from a waybill" page in a real browser (Debian's Chromium through playwright-core), against the
// production build and the sandbox's seeded waybills (31 completed, 32 draft, 33 incoming, 34 invoiced):
// refusals in words, the prefilled invoice, field errors, the issued invoice and its PDF through the app.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import type { Db } from "../../app/db/client";
import { chromiumAvailable, clickPageAction, closePage, openAdminPage, shot as screenshot } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";

let stack: LocalStack;
let browser: Browser;
let db: Db;

const open = (pathInApp: string, locale: "tr" | "en") =>
  openAdminPage(browser, stack, pathInApp, locale, { height: 1400 });

/** The whole page, from its top. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name, { fullPage: true });
}

async function readWaybill(page: Page, id: number) {
  await page.locator("#waybillId").fill(String(id));
  await page.locator("#read-waybill").click();
}

describe.skipIf(!chromiumAvailable())("invoice from a waybill in the browser", () => {
  withBrowserStack(
    { name: "waybills", stack: { formalizeDelayMs: 150, testMode: true }, timeoutMs: 120_000 },
    (started) => ({ stack, db, browser } = started),
  );

  it("reads a waybill into a prefilled invoice and explains a refused one (English)", async () => {
    const ids = stack.sandbox.account.waybillIds;
    const page = await open("/app/waybills", "en");
    await expect
      .poll(() => page.getByRole("heading", { name: "Invoice from a waybill" }).first().isVisible())
      .toBe(true);
    await readWaybill(page, ids.draft);
    await expect
      .poll(() => page.locator("#waybill-refusal").textContent())
      .toMatch(/is not completed yet \(status: draft\)/);
    await readWaybill(page, ids.incoming);
    await expect.poll(() => page.locator("#waybill-refusal").textContent()).toMatch(/is an incoming waybill/);
    await shot(page, "waybill-refused-en");
    await readWaybill(page, ids.completed);
    await expect.poll(() => page.locator("#customer-title").inputValue()).toBe("Anadolu Yapı Market Ltd. Şti.");
    expect(await page.locator("#customer-taxNumber").inputValue()).toBe("1234567890");
    expect(await page.locator("#waybill-refusal").count()).toBe(0);
    // 100 × 1.25 + 12.5 × 18.40 = 355.00 net, 71.00 VAT
    await expect.poll(() => page.locator("#waybill-grand-total").textContent()).toMatch(/^TRY\s426\.00$/);
    await shot(page, "waybill-en");
    await closePage(page);
  }, 60_000);

  it("refuses a wrong field in Turkish, then issues the corrected invoice and downloads its PDF through the app", async () => {
    const ids = stack.sandbox.account.waybillIds;
    const page = await open("/app/waybills", "tr");
    await readWaybill(page, ids.invoiced);
    await expect.poll(() => page.locator("#waybill-refusal").textContent()).toMatch(/zaten faturalanmış/);
    await readWaybill(page, ids.completed);
    await expect.poll(() => page.locator("#customer-taxOffice").inputValue()).toBe("Çankaya");
    await page.locator("#customer-taxNumber").fill("1234567891");
    await page.locator("#create-waybill-invoice").click();
    await expect
      .poll(() => page.getByText("Hiçbir şey gönderilmedi. İşaretli alanları düzeltin.").isVisible())
      .toBe(true);
    await expect.poll(() => page.getByText(/geçerli bir vergi numarası değil/).isVisible()).toBe(true);
    expect(await db.invoice.count({ where: { shopDomain: stack.shop } })).toBe(0);
    // The merchant's corrections stay on the form after a refused submit.
    expect(await page.locator("#customer-taxNumber").inputValue()).toBe("1234567891");
    await shot(page, "waybill-error-tr");

    await page.locator("#customer-taxNumber").fill("1234567890");
    await page.locator("#customer-email").fill("muhasebe@anadoluyapi.example");
    await page.locator("#create-waybill-invoice").click();
    // The invoice's page follows it until the service has formalised it.
    await expect.poll(() => page.locator("#serial-number").textContent(), { timeout: 20_000 }).toMatch(/^ARS\d{13}$/);
    const row = await db.invoice.findFirstOrThrow({ where: { shopDomain: stack.shop, waybillId: ids.completed } });
    expect(row).toMatchObject({ state: "completed", orderId: `waybill-${ids.completed}`, isTest: false });
    await expect
      .poll(() =>
        page
          .getByRole("heading", { name: /numaralı irsaliyenin faturası/ })
          .first()
          .isVisible(),
      )
      .toBe(true);
    await expect.poll(() => page.getByText("Servisteki irsaliye kimliği").isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/Bu irsaliye test modu açıkken/).isVisible()).toBe(true);
    await shot(page, "waybill-invoice-tr");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      clickPageAction(page, "PDF'i indir", "Diğer işlemler"),
    ]);
    expect(download.suggestedFilename()).toBe(`${row.serialNumber}.pdf`);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.toString("latin1")).toContain(row.serialNumber!);

    // The invoices list marks it as from a waybill.
    await page.getByRole("link", { name: "Faturalar" }).first().click();
    const listed = page.locator("tbody tr", { hasText: row.orderName });
    await expect.poll(() => listed.textContent()).toContain("İrsaliye");
    // Its badge and the company's long title leave the PDF column on a desktop screen (issue 22, point 16).
    const width = page.viewportSize()!.width;
    const pdfInside = async () => {
      const box = await listed.getByText("PDF", { exact: true }).first().boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= width;
    };
    await expect.poll(pdfInside, { message: `the waybill row's PDF lies within ${width} px` }).toBe(true);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, "invoices-waybill-tr");
    await closePage(page);
  }, 90_000);
});
