// Writing invoices back to Shopify orders, as the merchant sees it in a real browser: the invoice page's
// "Shopify order" card (written ✓, or why not) and Settings' "Shopify orders" section (permission and tags).
// The app runs against the invoicing sandbox and the Admin API stand-in (the shop granted write_orders).
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import type { Db } from "../../app/db/client";
import type { Standin } from "../../shopify-standin/server";
import { chromiumAvailable, closePage, openAdminPage, shot, waitFor } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";

const SHOP = "demo-magaza.myshopify.com";
const order = JSON.parse(readFileSync("test/fixtures/orders/01-single-item-citizen.json", "utf8")) as { id: number };

let standin: Standin;
let stack: LocalStack;
let browser: Browser;
let db: Db;

/** The whole "Shopify orders" section (Polaris puts the id on its heading). */
const section = (page: import("playwright-core").Page) =>
  page.locator(".Polaris-Layout__AnnotatedSection", { has: page.locator("#write-back") });

describe.skipIf(!chromiumAvailable())("write-back in the admin", () => {
  // The fixture has a fixed date: without read_all_orders the stand-in, as Shopify, hides orders older than 60 days.
  withBrowserStack(
    {
      name: "write-back",
      standin: {
        shop: SHOP,
        orders: [order],
        scopes: ["read_orders", "write_orders", "read_all_orders"],
        sessionScopes: "read_orders,write_orders",
      },
      stack: { formalizeDelayMs: 150 },
      timeoutMs: 120_000,
    },
    async (started) => {
      ({ standin, stack, db, browser } = started as Required<typeof started>);
      expect((await stack.deliver("orders/paid", order)).status).toBe(200);
      await waitFor(
        "the write-back",
        () => db.orderWriteBack.findMany(),
        (rows) => rows.length === 1 && rows[0].status === "written",
      );
    },
  );

  it("the invoice page says the invoice was written to Shopify (Turkish), and Settings shows the permission and tags (English)", async () => {
    const invoice = await db.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    const page = await openAdminPage(browser, stack, `/app/invoices/${invoice.id}`, "tr");
    await expect.poll(() => page.locator("#write-back-status").innerText()).toContain("Shopify'a yazıldı ✓");
    await shot(page, "write-back-written-tr");
    await closePage(page);

    const settings = await openAdminPage(browser, stack, "/app/settings", "en", { height: 900 });
    await section(settings).scrollIntoViewIfNeeded();
    await expect.poll(() => section(settings).innerText()).toContain("Writing to orders is allowed.");
    expect(await settings.locator("#orderTag").inputValue()).toBe("e-fatura");
    await section(settings).screenshot({ path: "test-results/screenshots/settings-write-back-en.png" });
    await closePage(settings);
    expect((await standin.mutations()).map((m) => m.field)).toEqual(["metafieldsSet", "tagsAdd", "flowTriggerReceive"]);
  });

  it("without write_orders: the invoice page and Settings say why nothing is written (Turkish)", async () => {
    await db.session.update({ where: { id: `offline_${SHOP}` }, data: { scope: "read_orders" } });
    const invoice = await db.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    const page = await openAdminPage(browser, stack, `/app/invoices/${invoice.id}`, "tr");
    await expect
      .poll(() => page.locator("#write-back-status").innerText())
      .toContain("uygulamanın siparişleri düzenleme izni yok");
    // The permission in words the merchant meets in Shopify, not the scope's technical name.
    expect(await page.locator("#write-back-status").innerText()).not.toContain("write_orders");
    await shot(page, "write-back-no-scope-tr");
    await closePage(page);
    const settings = await openAdminPage(browser, stack, "/app/settings", "tr", { height: 900 });
    await section(settings).scrollIntoViewIfNeeded();
    await expect.poll(() => section(settings).innerText()).toContain("Faturalar siparişlerinize yazılmıyor");
    expect(await section(settings).innerText()).not.toContain("write_orders");
    await section(settings).screenshot({ path: "test-results/screenshots/settings-write-back-no-scope-tr.png" });
    await closePage(settings);
  });
});
