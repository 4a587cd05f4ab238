// The past-orders page in a real browser against the production build, the invoicing sandbox and the Admin API
// stand-in: the dry run's answer, then a run with its progress bar, in Turkish and English.
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import { chromiumAvailable, closePage, openAdminPage, shot as screenshot } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";
import { paidOrder } from "../helpers/orders";

const SHOP = "gecmis-magaza.myshopify.com";
let stack: LocalStack;
let browser: Browser;

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name, { fullPage: true });
}

describe.skipIf(!chromiumAvailable())("the past-orders page in the browser", () => {
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
  withBrowserStack(
    {
      name: "past-orders",
      standin: {
        shop: SHOP,
        orders: [
          ...Array.from({ length: 12 }, (_, i) =>
            paidOrder({ created_at: day(3 + i), processed_at: day(3 + i), updated_at: day(2) }),
          ),
          paidOrder({
            created_at: day(5),
            processed_at: day(5),
            updated_at: day(2),
            line_items: [{ ...paidOrder().line_items[0], tax_lines: [{ rate: 0.13, price: "80.50", title: "KDV" }] }],
          }),
        ],
        sessionScopes: "read_orders",
      },
      stack: { formalizeDelayMs: 150, env: { RECONCILE_INTERVAL_MINUTES: "0" } },
      timeoutMs: 180_000,
    },
    (started) => ({ stack, browser } = started),
  );

  it("runs a dry run (Turkish), starts it and shows the progress (English)", async () => {
    const tr = await openAdminPage(browser, stack, "/app/past-orders", "tr", { shop: SHOP, height: 1300 });
    await expect
      .poll(() => tr.getByRole("heading", { name: "Geçmiş siparişleri faturala" }).first().isVisible())
      .toBe(true);
    await expect.poll(() => tr.locator("#past-range-limit").textContent()).toMatch(/son 60 günün/);
    await tr.locator("#past-dry-run").click();
    await expect.poll(() => tr.locator("#past-plan-title").isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => tr.getByText("13 siparişi faturalamaya başla").isVisible()).toBe(true);
    await expect.poll(() => tr.locator("#past-late").textContent()).toMatch(/7 gün içinde/);
    await shot(tr, "past-orders-dry-run-tr");
    await closePage(tr);

    const en = await openAdminPage(browser, stack, "/app/past-orders", "en", { shop: SHOP, height: 1300 });
    await expect.poll(() => en.getByText("Would need your attention").isVisible()).toBe(true);
    await shot(en, "past-orders-dry-run-en");
    await en.locator("#past-start").click();
    await expect.poll(() => en.locator("#past-progress").textContent(), { timeout: 60_000 }).toMatch(/^Of 13 orders: /);
    await expect
      .poll(() => en.locator("#past-progress").textContent(), { timeout: 90_000 })
      .toBe(
        "Of 13 orders: 12 invoiced · 0 need no invoice (gift cards only, or cancelled or refunded before invoicing) · 1 need attention · 0 failed",
      );
    await shot(en, "past-orders-progress-en");
    await closePage(en);

    const back = await openAdminPage(browser, stack, "/app/past-orders", "tr", { shop: SHOP, height: 1300 });
    await expect
      .poll(() => back.locator("#past-progress").textContent())
      .toBe(
        "13 siparişten: 12 faturalandı · 0 fatura gerektirmiyor (yalnızca hediye kartı, ya da faturalanmadan iptal veya iade edildi) · 1 ile ilgilenmeniz gerekiyor · 0 başarısız",
      );
    await shot(back, "past-orders-progress-tr");
    await closePage(back);
  }, 240_000);
});
