// The settings form as a merchant meets it (production build, sandbox, local admin with its App Bridge save bar):
// the save bar appears with the first change and goes with Discard (asked first); leaving with unsaved changes
// asks; an invalid value far down the page is scrolled to and focused when Save is pressed (issue 22, point 4).
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import type { Db } from "../../app/db/client";
import { chromiumAvailable, closePage, openAdminPage, shot } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";

let stack: LocalStack;
let browser: Browser;
let db: Db;

const saveBar = (page: Page) => page.locator("ui-save-bar#settings-save-bar");
const showing = (page: Page) => saveBar(page).evaluate((bar) => (bar as HTMLElement & { showing: boolean }).showing);
/** Whether the element is inside the visible part of the window. */
const onScreen = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

describe.skipIf(!chromiumAvailable())("settings: save bar, discard, leave warning, invalid fields", () => {
  withBrowserStack(
    { name: "settings", stack: { formalizeDelayMs: 150, testMode: true }, timeoutMs: 120_000 },
    (started) => ({ stack, db, browser } = started),
  );

  it("shows the save bar on the first change; Discard asks, then restores the saved values (English)", async () => {
    const page = await openAdminPage(browser, stack, "/app/settings", "en");
    await page.locator("#exemptionCode").waitFor();
    const before = await page.locator("#exemptionCode").inputValue();
    expect(await showing(page)).toBe(false);
    await page.locator("#exemptionCode").fill("302");
    await expect.poll(() => showing(page)).toBe(true);
    await shot(page, "settings-save-bar-en");

    await page.locator("#discard-settings").click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Continue editing" }).click();
    expect(await page.locator("#exemptionCode").inputValue()).toBe("302");
    await page.locator("#discard-settings").click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Discard changes" }).click();
    await expect.poll(() => page.locator("#exemptionCode").inputValue()).toBe(before);
    await expect.poll(() => showing(page)).toBe(false);
    await closePage(page);
  }, 60_000);

  it("asks before leaving with unsaved changes; Stay keeps them, Leave goes (Turkish)", async () => {
    const page = await openAdminPage(browser, stack, "/app/settings", "tr");
    await page.locator("#exemptionReason").waitFor();
    // Nothing changed: leaving asks nothing.
    await page.locator("ui-nav-menu").getByRole("link", { name: "İadeler" }).click();
    await expect.poll(() => page.url()).toContain("/app/returns");
    await page.goBack();
    await page.locator("#exemptionReason").fill("Değişti");
    await page.locator("ui-nav-menu").getByRole("link", { name: "Faturalar" }).click();
    const dialog = page.getByRole("dialog", { name: "Sayfadan çıkılsın mı?" });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await shot(page, "settings-leave-tr");
    await dialog.getByRole("button", { name: "Sayfada kal" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/app/settings");
    expect(await page.locator("#exemptionReason").inputValue()).toBe("Değişti");

    await page.locator("ui-nav-menu").getByRole("link", { name: "Faturalar" }).click();
    await page
      .getByRole("dialog", { name: "Sayfadan çıkılsın mı?" })
      .getByRole("button", { name: "Kaydetmeden çık" })
      .click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/app");
    await closePage(page);
  }, 60_000);

  it("an invalid value far down the page is scrolled to and focused on Save, and nothing is saved (English, Turkish at 390 px)", async () => {
    const before = await db.shopSettings.findUniqueOrThrow({ where: { shopDomain: stack.shop } });
    for (const [locale, width] of [
      ["en", 1280],
      ["tr", 390],
    ] as const) {
      const page = await openAdminPage(browser, stack, "/app/settings", locale);
      await page.setViewportSize({ width, height: 900 });
      await page.locator("#defaultCarrierTaxNumber").fill("123");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator("#save-settings").click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("defaultCarrierTaxNumber");
      expect(await onScreen(page, "#defaultCarrierTaxNumber")).toBe(true);
      await expect.poll(() => page.locator("#defaultCarrierTaxNumberError").isVisible()).toBe(true);
      await shot(page, `settings-invalid-focused-${locale}`);
      await closePage(page);
    }
    expect((await db.shopSettings.findUniqueOrThrow({ where: { shopDomain: stack.shop } })).mapping).toEqual(
      before.mapping,
    );
  }, 60_000);

  it("saves from the save bar and the bar goes away (English)", async () => {
    const page = await openAdminPage(browser, stack, "/app/settings", "en");
    await page.locator("#exemptionCode").fill("301");
    await page.locator("#exemptionReason").fill("11/1-a Mal İhracatı");
    await page.locator("#save-settings").click();
    await expect.poll(() => page.locator("[data-local-toast]").allTextContents()).toContain("Settings saved");
    await expect.poll(() => showing(page)).toBe(false);
    const mapping = (await db.shopSettings.findUniqueOrThrow({ where: { shopDomain: stack.shop } })).mapping as {
      exemptionCode?: string;
    };
    expect(mapping.exemptionCode).toBe("301");
    // Saved: leaving asks nothing.
    await page.locator("ui-nav-menu").getByRole("link", { name: "Invoices" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/app");
    await closePage(page);
  }, 60_000);
});
