// The app's pages in a real browser: Debian's Chromium through playwright-core, the local admin of a local
// stack (scripts/lib/local-stack.ts), Shopify's CDN answered locally, page errors collected.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";

// Debian's chromium-headless-shell first: the same Blink as its chromium (one source package, one version), without
// the full browser's windows and WebUI, and what Playwright itself runs headless; half the CPU per page on 2 cores
// (docs/decisions/0048-browser-tests-on-the-headless-shell.md). Debian's chromium when only it is installed.
const CHROMIUM_BINARIES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? CHROMIUM_BINARIES.find((binary) => existsSync(binary)) ?? CHROMIUM_BINARIES[0];
export const SHOTS = path.resolve("test-results/screenshots");
// Shopify's session-token library refuses bot user agents (HeadlessChrome) with 410 Gone; a person's browser is not one.
export const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/**
 * Whether the browser tests can run. Without Chromium they are skipped, and say so loudly; in CI (CI=true) a
 * missing Chromium fails the test file instead, so a green run never hides untested pages.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const what = `Chromium not found at ${CHROMIUM} (install chromium-headless-shell or chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(`${what}: the browser tests cannot run in CI.`);
  console.warn(`\n!!! ${what}: the browser tests of this file are SKIPPED. !!!\n`);
  return false;
}

const pageErrors = new WeakMap<Page, string[]>();

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Opens a page of the app as the Shopify admin would (local admin), in a fresh browser context. */
export async function openAdminPage(
  browser: Browser,
  stack: LocalStack,
  pathInApp: string,
  locale: "tr" | "en",
  options: { shop?: string; height?: number } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: options.height ?? 1100 },
    userAgent: USER_AGENT,
    locale: locale === "tr" ? "tr-TR" : "en-US",
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  pageErrors.set(page, errors);
  // Shopify's CDN (Inter font styles, the App Bridge preload) is not reachable offline: answer it here.
  await page.route("https://cdn.shopify.com/**", (route) =>
    route.fulfill({
      status: 200,
      body: "",
      contentType: route.request().url().endsWith(".css") ? "text/css" : "application/javascript",
    }),
  );
  const search = new URLSearchParams({ shop: options.shop ?? stack.shop, locale, path: pathInApp });
  await page.goto(`${stack.appUrl}/local-admin?${search}`);
  await page.waitForFunction(() => Boolean((window as unknown as { shopify?: unknown }).shopify));
  return page;
}

export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: options.fullPage ?? false });
}

/** Closes the page's context; the page must not have thrown (hydration errors included). */
/**
 * Clicks one of a Polaris page's header actions by its name, opening the "More actions" menu first when Polaris has
 * rolled the action into it: Polaris measures whether the title and the actions fit, which depends on the fonts
 * and on when it measures, so on a busy machine the same page can show its actions either way.
 */
export async function clickPageAction(page: Page, name: string, moreActions: string): Promise<void> {
  const button = page.getByRole("button", { name, exact: true });
  if (await button.isVisible()) return button.click();
  await page.getByRole("button", { name: moreActions }).click();
  await page
    .getByRole("menuitem", { name, exact: true })
    .or(page.getByRole("button", { name, exact: true }))
    .first()
    .click();
}

/**
 * The invoice list's search field, opened: the "Search and filter results" button shows it, but a click that lands
 * while the list re-renders (a tab just changed, on a busy machine) can be lost, so click until the field is there.
 */
export async function openListSearch(page: Page) {
  const field = page.getByPlaceholder(/Search by order|Sipariş, fatura no/);
  const button = page.getByRole("button", { name: /Search and filter results|Arama ve sonuçları filtreleme/ });
  await expect
    .poll(
      async () => {
        if (await field.isVisible()) return true;
        if (await button.isVisible()) await button.click();
        return field.isVisible();
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return field;
}

export async function closePage(page: Page) {
  const errors = pageErrors.get(page) ?? [];
  await page.context().close();
  expect(errors).toEqual([]);
}

/** Polls `read` until `done` holds (outside a test too, where expect.poll is not available), or throws after the timeout. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    value = await read();
  }
  return value;
}
