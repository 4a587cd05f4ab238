// B2B orders as the merchant sees them in a real browser: a Shopify B2B order's invoice page says the buyer is the
// company (its number and address taken from Shopify), and Settings' "B2B companies" section shows whether the app
// may read companies, with the grant button when it may not, and the tax office metafield. The app runs against the
// invoicing sandbox and the Admin API stand-in, which serves the company.
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import type { Db } from "../../app/db/client";
import type { Standin } from "../../shopify-standin/server";
import { chromiumAvailable, closePage, openAdminPage, shot, waitFor } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";
import { paidOrder } from "../helpers/orders";

const SHOP = "demo-magaza.myshopify.com";
const order = paidOrder({ company: { id: 9001, location_id: 9101 } });

let stack: LocalStack;
let browser: Browser;
let db: Db;
let standin: Standin;

/** The whole "B2B companies" section (Polaris puts the id on its heading). */
const section = (page: import("playwright-core").Page) =>
  page.locator(".Polaris-Layout__AnnotatedSection", { has: page.locator("#b2b") });

describe.skipIf(!chromiumAvailable())("B2B orders in the admin", () => {
  withBrowserStack(
    {
      name: "b2b",
      standin: {
        shop: SHOP,
        orders: [order],
        scopes: ["read_orders", "read_companies", "read_all_orders"],
        companies: [
          {
            id: 9001,
            name: "Acme Makine A.Ş.",
            locations: [
              {
                id: 9101,
                name: "Ankara Merkez",
                taxRegistrationId: "9860008925",
                billingAddress: {
                  address1: "Atatürk Bulv. 100",
                  city: "Çankaya",
                  province: "Ankara",
                  zip: "06420",
                  country: "Turkey",
                  countryCode: "TR",
                  companyName: "Acme Makine A.Ş.",
                },
                metafields: [{ namespace: "custom", key: "tax_office", value: "Çankaya" }],
              },
            ],
          },
        ],
        sessionScopes: "read_orders,read_companies",
      },
      stack: { formalizeDelayMs: 150 },
      timeoutMs: 120_000,
    },
    async (started) => {
      ({ stack, db, browser } = started);
      standin = started.standin!;
      expect((await stack.deliver("orders/paid", order)).status).toBe(200);
      await waitFor(
        "the invoice",
        () => db.invoice.findMany(),
        (rows) => rows.length === 1 && rows[0].state === "completed",
      );
    },
  );

  it("the invoice page names the B2B company as the buyer (Turkish); Settings shows the permission and the metafield (English)", async () => {
    const invoice = await db.invoice.findFirstOrThrow({ where: { shopDomain: SHOP } });
    expect(invoice.requestBody).toMatchObject({
      customer: { type: "company", tax_number: "9860008925", title: "Acme Makine A.Ş.", tax_office: "Çankaya" },
    });
    const page = await openAdminPage(browser, stack, `/app/invoices/${invoice.id}`, "tr");
    await expect
      .poll(() => page.locator("body").innerText())
      .toContain("Alıcı B2B şirketi Acme Makine A.Ş. (Ankara Merkez konumu)");
    await shot(page, "b2b-invoice-tr");
    await closePage(page);

    const settings = await openAdminPage(browser, stack, "/app/settings", "en", { height: 900 });
    await section(settings).scrollIntoViewIfNeeded();
    await expect.poll(() => section(settings).innerText()).toContain("The app may read companies (read_companies).");
    expect(await settings.locator("#companyTaxOfficeMetafield").inputValue()).toBe("custom.tax_office");
    await section(settings).screenshot({ path: "test-results/screenshots/settings-b2b-en.png" });
    await closePage(settings);
  });

  it("without read_companies: Settings says B2B orders are invoiced from their notes and offers the permission (Turkish)", async () => {
    await db.session.update({ where: { id: `offline_${SHOP}` }, data: { scope: "read_orders" } });
    const settings = await openAdminPage(browser, stack, "/app/settings", "tr", { height: 900 });
    await section(settings).scrollIntoViewIfNeeded();
    await expect
      .poll(() => section(settings).innerText())
      .toContain("B2B siparişleri sipariş notlarından faturalanıyor");
    expect(await settings.locator("#grant-read-companies").innerText()).toBe("Şirketleri okumaya izin ver");
    await section(settings).screenshot({ path: "test-results/screenshots/settings-b2b-no-scope-tr.png" });
    await closePage(settings);
  });

  it("a refused token loses the Shopify connection; opening the app reconnects it, and the dashboard says what happened (Turkish, English)", async () => {
    // The merchant took the app's access back (or its refresh token ran out): Shopify refuses every token.
    await fetch(`${standin.url}/__standin/tokens`, { method: "POST", body: JSON.stringify({ revoke: true }) });
    // With read_companies again (the test before took it away), and a token that has run out.
    await db.session.update({
      where: { id: `offline_${SHOP}` },
      data: { scope: "read_orders,read_companies", expires: new Date(Date.now() - 1000) },
    });
    // A B2B order needs its company read from Shopify: the refresh is refused, the shop is marked, the invoice waits.
    const next = paidOrder({ company: { id: 9001, location_id: 9101 } });
    standin.upsertOrders([next]);
    expect((await stack.deliver("orders/paid", next)).status).toBe(200);
    const lost = await waitFor(
      "the lost connection",
      () => db.shop.findUniqueOrThrow({ where: { domain: SHOP } }),
      (shop) => shop.shopifyConnectionLostAt !== null,
    );
    expect(lost.shopifyConnectionLostReason).toBe("invalid_grant");
    const waiting = await waitFor(
      "the waiting invoice",
      () => db.invoice.findFirstOrThrow({ where: { shopDomain: SHOP, orderId: String(next.id) } }),
      (row) => row.nextAttemptAt === null && row.state === "queued",
    );
    expect(JSON.stringify(waiting.problems)).toContain("shopify.reconnect");

    // The merchant opens the app: the library exchanges the page's session token, the work goes on.
    const page = await openAdminPage(browser, stack, "/app", "tr");
    await expect.poll(() => page.locator("#connection-banner").innerText()).toContain("yeniden bağladı");
    expect(await page.locator("#connection-banner").innerText()).toContain("yenileme anahtarı iptal edilmiş");
    await shot(page, "home-connection-restored-tr");
    await closePage(page);
    await waitFor(
      "the invoice, issued after the reconnection",
      () => db.invoice.findFirstOrThrow({ where: { id: waiting.id } }),
      (row) => row.state === "completed",
      60_000,
    );
    const english = await openAdminPage(browser, stack, "/app", "en");
    await expect.poll(() => english.locator("#connection-banner").innerText()).toContain("reconnected it");
    await shot(english, "home-connection-restored-en");
    await closePage(english);
    expect((await db.shop.findUniqueOrThrow({ where: { domain: SHOP } })).shopifyConnectionLostAt).toBeNull();
  }, 150_000);
});
