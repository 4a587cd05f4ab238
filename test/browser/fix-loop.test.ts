// Issue 22, points 1-3 and 9 in a real browser: an invoice needing attention is fixed from its page (the order
// corrected in Shopify's Admin API stand-in, then Retry reads it again; or the buyer set by hand; or closed by hand and
// reopened); test and live accounts cannot be swapped (the selects, the save, the post); the demo's admin outlives
// App Bridge's token refresh. Screenshots of the invoice page's new actions in Turkish and English, 1280 and 390 px.
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import type { Db } from "../../app/db/client";
import type { Standin } from "../../shopify-standin/server";
import { chromiumAvailable, closePage, openAdminPage, shot, waitFor } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";
import { paidOrder } from "../helpers/orders";

const SHOP = "duzeltme-magaza.myshopify.com";
const BAD_VKN = "1234567891";
const GOOD_VKN = "1234567890";
const company = (vkn: string) => [
  { name: "Vergi Numarası", value: vkn },
  { name: "Vergi Dairesi", value: "Kadıköy" },
  { name: "Şirket Unvanı", value: "Yılmaz Ticaret Ltd. Şti." },
];

let standin: Standin;
let stack: LocalStack;
let browser: Browser;
let db: Db;

const invoiceOf = (order: { id: number }) =>
  db.invoice.findUniqueOrThrow({ where: { shopDomain_orderId: { shopDomain: SHOP, orderId: String(order.id) } } });
const stateOf = async (order: { id: number }) => (await invoiceOf(order)).state;

/**
 * A paid order whose invoice needs attention before anything is posted: by default one whose tax number is wrong.
 */
async function needingAttention(
  order: ReturnType<typeof paidOrder> = paidOrder({ note_attributes: company(BAD_VKN) }),
) {
  standin.upsertOrders([order]);
  expect((await stack.deliver("orders/paid", order)).status).toBe(200);
  await waitFor(
    "needs attention",
    () => stateOf(order),
    (state) => state === "needs_attention",
  );
  return order;
}

const toasts = (page: Page) => page.locator("[data-local-toast]").allTextContents();

describe.skipIf(!chromiumAvailable())("fixing an invoice from its page", () => {
  // The fixtures' dates are fixed: without read_all_orders the stand-in, as Shopify, hides orders older than 60 days.
  withBrowserStack(
    {
      name: "fix-loop",
      standin: {
        shop: SHOP,
        orders: [],
        scopes: ["read_orders", "write_orders", "read_all_orders"],
        sessionScopes: "read_orders,write_orders",
      },
      stack: { formalizeDelayMs: 150 },
      timeoutMs: 180_000,
    },
    (started) => ({ standin, stack, db, browser } = started as Required<typeof started>),
  );

  it(
    "the order corrected in Shopify, Retry reads it again and the invoice completes (Turkish, 1280 and 390 px)",
    { timeout: 120_000 },
    async () => {
      const order = await needingAttention();
      const invoice = await invoiceOf(order);
      const page = await openAdminPage(browser, stack, `/app/invoices/${invoice.id}`, "tr");
      await expect.poll(() => page.getByRole("heading", { name: "Burada düzeltin" }).count()).toBe(1);
      await expect.poll(() => page.locator("body").innerText()).toContain(BAD_VKN);
      // A problem invoice's write-back is not a green tick.
      await expect.poll(() => page.locator("#write-back-status").innerText()).toContain("durum: İlgi");
      await shot(page, "fix-loop-needs-attention-tr", { fullPage: true });
      await page.setViewportSize({ width: 390, height: 900 });
      await shot(page, "fix-loop-needs-attention-tr-390", { fullPage: true });
      await page.setViewportSize({ width: 1280, height: 1100 });

      // The merchant corrects the tax number on the order in Shopify, then retries: the order is read again.
      standin.upsertOrders([{ ...order, note_attributes: company(GOOD_VKN) }]);
      await page.getByRole("button", { name: "Yeniden dene" }).first().click();
      await expect.poll(() => toasts(page)).toContain("Sipariş Shopify'daki son haliyle yeniden sıraya alındı");
      await waitFor(
        "completed",
        () => stateOf(order),
        (state) => state === "completed",
      );
      const done = await invoiceOf(order);
      expect((done.requestBody as { customer: { tax_number: string } }).customer.tax_number).toBe(GOOD_VKN);
      expect(stack.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(1);
      await page.reload();
      await expect.poll(() => page.locator("#write-back-status").innerText()).toContain("Shopify'a yazıldı ✓");
      await expect.poll(() => page.getByRole("heading", { name: "Burada düzeltin" }).count()).toBe(0);
      await closePage(page);
    },
  );

  it(
    "the buyer set by hand: a wrong number refused in the form, a right one issues the invoice (English, 1280 and 390 px)",
    { timeout: 120_000 },
    async () => {
      const order = await needingAttention();
      const invoice = await invoiceOf(order);
      const page = await openAdminPage(browser, stack, `/app/invoices/${invoice.id}`, "en");
      // The problem names its fix: the buyer form, offered beside it and in the card below.
      await expect.poll(() => page.locator('[data-problem="customer.invalid_tax_number"]').count()).toBe(1);
      expect(await page.locator("body").innerText()).toContain(
        "Enter the right buyer: the form starts from what the order has; saving retries the invoice.",
      );
      await page.locator("#fix-buyer").click();
      const dialog = page.getByRole("dialog");
      await expect.poll(() => dialog.getByText("Set the buyer").count()).toBeGreaterThan(0);
      // It starts from the order's buyer: the number the buyer typed (to correct), the title and the tax office.
      expect(await dialog.getByLabel("Tax number (VKN) or T.C. identity number").inputValue()).toBe(BAD_VKN);
      expect(await dialog.getByLabel("Company title").inputValue()).toBe("Yılmaz Ticaret Ltd. Şti.");
      expect(await dialog.getByLabel("Tax office").inputValue()).toBe("Kadıköy");
      await dialog.getByLabel("Tax number (VKN) or T.C. identity number").fill(BAD_VKN);
      await dialog.getByLabel("Company title").fill("Yurtiçi Kargo Servisi A.Ş.");
      await dialog.getByLabel("Tax office").fill("Büyük Mükellefler");
      await dialog
        .getByLabel("Why (kept in the invoice's history)")
        .fill("The customer gave the right number by phone");
      await page.getByRole("button", { name: "Save and retry" }).click();
      await expect.poll(() => dialog.innerText()).toContain("The check digits do not match: check the number.");
      await shot(page, "fix-loop-buyer-en");
      await page.setViewportSize({ width: 390, height: 900 });
      await shot(page, "fix-loop-buyer-en-390");
      await page.setViewportSize({ width: 1280, height: 1100 });
      expect(await stateOf(order)).toBe("needs_attention");

      await dialog.getByLabel("Tax number (VKN) or T.C. identity number").fill("9860008925");
      await page.getByRole("button", { name: "Save and retry" }).click();
      await expect.poll(() => toasts(page)).toContain("Buyer saved; the invoice is sent again");
      await waitFor(
        "completed",
        () => stateOf(order),
        (state) => state === "completed",
      );
      const done = await invoiceOf(order);
      expect((done.requestBody as { customer: Record<string, string> }).customer).toMatchObject({
        type: "company",
        tax_number: "9860008925",
        title: "Yurtiçi Kargo Servisi A.Ş.",
        tax_office: "Büyük Mükellefler",
      });
      await page.reload();
      await expect.poll(() => page.locator("body").innerText()).toContain("Buyer set by hand");
      await closePage(page);
    },
  );

  it(
    "closed by hand as issued in the panel, then reopened; closed as needing no invoice (English and Turkish)",
    { timeout: 120_000 },
    async () => {
      const order = await needingAttention();
      const invoice = await invoiceOf(order);
      const page = await openAdminPage(browser, stack, `/app/invoices/${invoice.id}`, "en");
      await shot(page, "fix-loop-actions-en");
      await page.setViewportSize({ width: 390, height: 900 });
      await shot(page, "fix-loop-actions-en-390", { fullPage: true });
      await page.setViewportSize({ width: 1280, height: 1100 });
      await page.getByRole("button", { name: "Issued in the panel…" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Serial number").fill("ABC2026");
      await page.getByRole("button", { name: "Close as issued" }).click();
      await expect.poll(() => dialog.innerText()).toContain("A serial number is 3 letters or digits and 13 digits");
      await dialog.getByLabel("Serial number").fill("abc2026000000042");
      await page.getByRole("button", { name: "Close as issued" }).click();
      await expect.poll(() => toasts(page)).toContain("Invoice closed");
      await expect
        .poll(() => page.locator("body").innerText())
        .toContain("Issued in the invoicing panel: ABC2026000000042");
      expect(await stateOf(order)).toBe("closed");
      await shot(page, "fix-loop-closed-en");
      await page.getByRole("button", { name: "Reopen" }).click();
      await expect.poll(() => stateOf(order)).toBe("needs_attention");
      await closePage(page);

      const tr = await openAdminPage(browser, stack, `/app/invoices/${invoice.id}`, "tr");
      await tr.getByRole("button", { name: "Fatura gerekmiyor…" }).click();
      await tr.getByRole("dialog").getByLabel("Neden").fill("Numune gönderimi, satış değil");
      await tr.getByRole("button", { name: "Faturasız kapat" }).click();
      await expect.poll(() => toasts(tr)).toContain("Fatura kapatıldı");
      await expect.poll(() => tr.locator("#closure").count()).toBe(1);
      expect(await stateOf(order)).toBe("closed");
      await shot(tr, "fix-loop-closed-tr");
      await tr.setViewportSize({ width: 390, height: 900 });
      await shot(tr, "fix-loop-closed-tr-390", { fullPage: true });
      await closePage(tr);
      expect(stack.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(0);
    },
  );

  it(
    "a line with 5 % VAT: the page names its fix (the order in Shopify, issued in the panel), offers no buyer form and no Retry; the panel's serial is then found in the list and the search (Turkish, English)",
    { timeout: 120_000 },
    async () => {
      const base = paidOrder();
      const order = await needingAttention({
        ...base,
        line_items: base.line_items.map((line, i) =>
          i === 0 ? { ...line, tax_lines: [{ rate: 0.05, price: "33.33", title: "KDV" }] } : line,
        ),
      });
      const invoice = await invoiceOf(order);
      const page = await openAdminPage(browser, stack, `/app/invoices/${invoice.id}`, "tr");
      const problem = page.locator("li", { has: page.locator('[data-problem="line.unsupported_tax_rate"]') });
      await expect.poll(() => problem.innerText()).toContain("faturasını fatura panelinde doğru oranla kesin");
      expect(await problem.getByRole("link", { name: "Siparişi Shopify'da aç" }).getAttribute("href")).toContain(
        `orders/${order.id}`,
      );
      // The buyer is not the problem: no buyer form, here or in the card below. Nor a Retry, which could only give
      // the same error again: this order keeps its rate.
      expect(await page.getByRole("button", { name: "Alıcıyı gir…" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Yeniden dene" }).count()).toBe(0);
      await shot(page, "fix-loop-vat-rate-tr", { fullPage: true });

      // Issued in the panel with the right rate: its serial is recorded, and is the invoice's serial from then on.
      await problem.getByRole("button", { name: "Panelde kestim…" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Fatura numarası").fill("GIB2026000000777");
      await page.locator("#fix-close-panel-confirm").click();
      await expect.poll(() => page.locator("#serial-number").innerText()).toBe("GIB2026000000777");
      await expect.poll(() => page.locator("body").innerText()).toContain("uygulama dışında, fatura panelinde kesildi");
      await closePage(page);

      const list = await openAdminPage(browser, stack, "/app?q=GIB2026000000777", "en");
      await expect.poll(() => list.locator("tbody tr").count()).toBe(1);
      const row = await list.locator("tbody tr").innerText();
      expect(row).toContain("GIB2026000000777");
      expect(row).toContain("Issued in the panel");
      await shot(list, "list-issued-in-panel-en");
      await closePage(list);
    },
  );

  it(
    "test and live accounts: the live select offers no test account, a swapped save is refused, a swapped post never happens (Turkish)",
    { timeout: 120_000 },
    async () => {
      const account = stack.sandbox.account;
      const page = await openAdminPage(browser, stack, "/app/settings", "tr", { height: 1400 });
      const options = (id: string) => page.locator(`#${id} option`).allTextContents();
      await expect.poll(() => options("invoiceIntegrationId")).not.toHaveLength(0);
      expect(
        (await options("invoiceIntegrationId")).some((label) => label.includes(`#${account.dummyIntegrationId}`)),
      ).toBe(false);
      expect(
        (await options("dummyIntegrationId")).some((label) => label.includes(`#${account.invoiceIntegrationId}`)),
      ).toBe(false);
      await closePage(page);

      // Settings stored swapped (before the check existed): the page shows them as they are, and saving is refused.
      await db.shopSettings.update({
        where: { shopDomain: SHOP },
        data: {
          invoiceIntegrationId: account.dummyIntegrationId,
          dummyIntegrationId: account.invoiceIntegrationId,
          testMode: false,
        },
      });
      const swapped = await openAdminPage(browser, stack, "/app/settings", "tr", { height: 1400 });
      await expect
        .poll(() => swapped.locator("#invoiceIntegrationId option:checked").innerText())
        .toContain("test hesabı");
      // Any edit opens the save bar; the save is refused for the accounts, whatever else changed.
      await swapped.locator("#orderTag").fill("e-fatura-kesildi");
      await swapped.locator("#save-settings").click();
      await expect.poll(() => swapped.locator("body").innerText()).toContain("Bu, fatura servisinde bir test hesabı");
      await swapped.locator("#invoiceIntegrationId").scrollIntoViewIfNeeded();
      await shot(swapped, "settings-accounts-swapped-tr");
      await closePage(swapped);
      expect(await db.shopSettings.findUniqueOrThrow({ where: { shopDomain: SHOP } })).toMatchObject({
        invoiceIntegrationId: account.dummyIntegrationId,
      });

      // The worker refuses the post, and the home page says why.
      const order = paidOrder();
      standin.upsertOrders([order]);
      await stack.deliver("orders/paid", order);
      await waitFor(
        "needs attention",
        () => stateOf(order),
        (state) => state === "needs_attention",
      );
      expect(stack.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(0);
      const home = await openAdminPage(browser, stack, "/app", "tr");
      await expect
        .poll(() => home.locator("#account-problem").innerText())
        .toContain("Canlı faturalar için seçilen fatura hesabı");
      await shot(home, "home-accounts-swapped-tr");
      await closePage(home);
      await db.shopSettings.update({
        where: { shopDomain: SHOP },
        data: {
          invoiceIntegrationId: account.invoiceIntegrationId,
          dummyIntegrationId: account.dummyIntegrationId,
          accountProblem: null,
        },
      });
    },
  );

  it("the demo's admin outlives App Bridge's token refresh a minute after opening (issue 22, point 3)", async () => {
    const page = await openAdminPage(browser, stack, "/app", "en");
    await expect.poll(() => page.getByRole("heading", { name: "Invoices" }).count()).toBeGreaterThan(0);
    // Drive the stand-in's clock past its token's minute instead of waiting: its next request asks for a new token.
    await page.evaluate(() => {
      const real = Date.now.bind(Date);
      Date.now = () => real() + 61_000;
    });
    const refreshed = await page.evaluate(async () => {
      const shopify = (window as unknown as { shopify: { idToken(): Promise<string> } }).shopify;
      return shopify.idToken();
    });
    expect(refreshed.split(".")).toHaveLength(3);
    expect(stack.process.exitCode).toBeNull();
    expect((await fetch(`${stack.appUrl}/healthz`)).status).toBe(200);
    // And the page goes on working with the new token: a client-side navigation loads its data.
    await page.getByRole("link", { name: "Settings" }).first().click();
    await expect.poll(() => page.locator("#invoiceIntegrationId").count()).toBe(1);
    await closePage(page);
  });
});
