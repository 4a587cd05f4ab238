// The cart block (extensions/invoice-details) in a real browser: its Liquid rendered by liquidjs inside a minimal
// cart page served by the storefront stand-in (sandbox/storefront), the block's own script checking numbers and
// saving cart attributes through the stand-in's /cart/update.js, and checking out turning them into the order's
// note attributes, which the app's mapping then reads. Turkish and English, with screenshots.
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { startStorefront, type StandInOrder, type Storefront } from "../../sandbox/storefront/server";
import { fixtureContext, fixtureOrder } from "../orders/fixture-loader";
import { chromiumAvailable, launchBrowser, SHOTS } from "../helpers/browser";

let browser: Browser;
let storefront: Storefront;
let context: BrowserContext | undefined;
const foreign: string[] = [];

async function open(locale: "tr" | "en"): Promise<Page> {
  context = await browser.newContext({
    viewport: { width: 1100, height: 1000 },
    locale: locale === "tr" ? "tr-TR" : "en-US",
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  pageErrors.set(page, errors);
  // Light and private: every request the block makes goes to the shop's own origin.
  page.on("request", (request) => {
    if (!request.url().startsWith(storefront.url)) foreign.push(request.url());
  });
  await page.goto(`${storefront.url}${locale === "tr" ? "/cart" : "/en/cart"}`);
  await page.waitForFunction(() => Boolean(window.customElements.get("efatura-invoice-details")));
  return page;
}
const pageErrors = new WeakMap<Page, string[]>();

/** The order the stand-in made at checkout, mapped by the app exactly as a webhook's order would be. */
function mapped(order: StandInOrder) {
  const json = structuredClone(fixtureOrder("12-anonymous-consumer")) as Record<string, unknown>;
  json.note_attributes = order.note_attributes;
  const parsed = parseShopifyOrder(json);
  if (!parsed.ok) throw new Error("fixture does not parse");
  return mapOrderToInvoice(parsed.order, fixtureContext("12-anonymous-consumer"));
}

const savedAttributes = () => storefront.cart().attributes;

/** The error text tied to a field (its aria-describedby names the element). */
async function errorOf(page: Page, input: Locator): Promise<string | null> {
  return page.locator(`#${await input.getAttribute("id")}-error`).textContent();
}

describe.skipIf(!chromiumAvailable())("cart block: invoice details at the cart", () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);

  afterEach(async () => {
    if (context) {
      const pages = context.pages();
      await context.close();
      context = undefined;
      for (const page of pages) expect(pageErrors.get(page) ?? []).toEqual([]);
    }
    await storefront?.stop();
    expect(foreign).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("a company buyer in Turkish: keyboard only, checked as typed, saved as cart attributes, back after a reload, on the order at checkout", async () => {
    storefront = await startStorefront();
    const page = await open("tr");
    // Collapsed until the buyer opens it: a buyer who needs no invoice details sees one line.
    const fields = page.getByRole("group", { name: "Fatura türü" });
    expect(await fields.isVisible()).toBe(false);
    await page.locator("summary", { hasText: "Fatura bilgileri" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => fields.isVisible()).toBe(true);
    expect(await page.getByRole("radio", { name: "Bireysel" }).isChecked()).toBe(true);

    // Arrow keys move between the radio buttons, as in any native radio group.
    await page.getByRole("radio", { name: "Bireysel" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("radio", { name: "Kurumsal" }).isChecked()).toBe(true);
    const title = page.getByLabel("Şirket unvanı");
    const vkn = page.getByLabel("Vergi numarası (VKN)");
    const office = page.getByLabel("Vergi dairesi");
    await expect.poll(() => vkn.isVisible()).toBe(true);
    expect(await page.getByLabel("T.C. kimlik numarası").isVisible()).toBe(false);

    await title.fill("Anadolu Tekstil San. ve Tic. A.Ş.");
    // A mistyped tax number: the check digit fails, the buyer is told in Turkish, the field is marked.
    await vkn.fill("0720039667");
    await vkn.press("Tab");
    await expect
      .poll(() => errorOf(page, vkn))
      .toBe("Bu geçerli bir vergi numarası değil. Lütfen rakamları kontrol edin.");
    expect(await vkn.getAttribute("aria-invalid")).toBe("true");
    expect((await vkn.getAttribute("aria-describedby"))?.split(" ")).toContain(`${await vkn.getAttribute("id")}-error`);
    // Office empty while the company invoice is under way: asked for, not required to check out.
    await office.focus();
    await office.press("Tab");
    await expect.poll(() => errorOf(page, office)).toBe("Kurumsal fatura için gerekli.");

    // Corrected: the message goes away; the searchable list of offices was loaded on first focus.
    await vkn.fill("072 003 9666");
    await vkn.press("Tab");
    await expect.poll(() => vkn.getAttribute("aria-invalid")).toBeNull();
    await expect.poll(() => page.locator("datalist option").count()).toBeGreaterThan(1000);
    expect(await page.locator('datalist option[value="Nilüfer"]').getAttribute("label")).toBe(
      "Nilüfer Vergi Dairesi · Bursa",
    );
    await office.fill("Nilüfer");
    await office.press("Tab");
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Fatura bilgileri kaydedildi.");
    await expect.poll(savedAttributes).toEqual({
      "Şirket Unvanı": "Anadolu Tekstil San. ve Tic. A.Ş.",
      "Vergi Numarası": "0720039666",
      "Vergi Dairesi": "Nilüfer",
    });
    // Enter in a field saves; it does not submit the cart form (which would go to checkout).
    await vkn.press("Enter");
    expect(storefront.orders).toHaveLength(0);
    await page.screenshot({ path: path.join(SHOTS, "cart-block-tr.png") });

    // The cart attributes come back into the block on the next page view (rendered by Liquid from the cart).
    await page.reload();
    expect(await page.getByRole("radio", { name: "Kurumsal" }).isChecked()).toBe(true);
    expect(await page.getByLabel("Vergi numarası (VKN)").inputValue()).toBe("0720039666");
    expect(await page.getByLabel("Vergi dairesi").inputValue()).toBe("Nilüfer");
    expect(await page.getByRole("group", { name: "Fatura türü" }).isVisible()).toBe(true);

    // Checkout: the order carries the attributes as note attributes, and the app invoices the company.
    await page.getByRole("button", { name: "Ödeme adımına geç" }).click();
    await page.locator("#order").waitFor();
    const result = mapped(storefront.orders[0]);
    expect(result.ok && result.body.customer).toMatchObject({
      type: "company",
      tax_number: "0720039666",
      tax_office: "Nilüfer",
      title: "Anadolu Tekstil San. ve Tic. A.Ş.",
    });
  }, 60_000);

  it("in English under the shop's /en/ route: a wrong number is explained, never saved nor called saved, and checkout still goes through (issue 22, point 12)", async () => {
    storefront = await startStorefront();
    storefront.setBlockSettings({ collapsed: false });
    const page = await open("en");
    await page.getByRole("radio", { name: "Company" }).check();
    await page.getByLabel("Company title").fill("Moda Kitabevi Ltd. Şti.");
    await page.getByLabel("Tax number (VKN)").fill("1234567891");
    await page.getByLabel("Tax number (VKN)").press("Tab");
    await expect
      .poll(() => page.getByText("This is not a valid tax number. Please check the digits.").isVisible())
      .toBe(true);
    await page.getByLabel("Tax office").fill("Kadıköy");
    await page.getByLabel("Tax office").press("Tab");
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toMatch(/^Invoice details not saved: correct the marked field\./);
    expect(await page.getByText("Invoice details saved.").count()).toBe(0);
    // Nothing of the company is in the cart: not the wrong number, not the title or office without it.
    await expect.poll(savedAttributes).toEqual({});
    // The theme's locale root is respected: the English storefront saves through /en/cart/update.js.
    expect(storefront.requests).toContain("POST /en/cart/update.js");
    await page.screenshot({ path: path.join(SHOTS, "cart-block-en.png") });

    // The block never stands between the buyer and checkout: the order goes through without the wrong number, so the
    // invoice does not stop on it (it is made for the buyer as a consumer).
    await page.getByRole("button", { name: "Check out" }).click();
    await page.locator("#order").waitFor();
    const result = mapped(storefront.orders[0]);
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result.ok && result.body.customer)).not.toContain("1234567891");
  }, 60_000);

  it("an individual's number, then a switch to company and back: the other kind's attributes are removed", async () => {
    storefront = await startStorefront();
    storefront.setBlockSettings({ collapsed: false });
    const page = await open("tr");
    const tckn = page.getByLabel("T.C. kimlik numarası");
    await tckn.fill("01234567890");
    await tckn.press("Tab");
    await expect.poll(() => page.getByText("T.C. kimlik numarası 0 ile başlamaz.").isVisible()).toBe(true);
    await tckn.fill("10000000146");
    await tckn.press("Tab");
    await expect.poll(savedAttributes).toEqual({ "TC Kimlik No": "10000000146" });

    await page.getByRole("radio", { name: "Kurumsal" }).check();
    await page.getByLabel("Vergi numarası (VKN)").fill("9860008925");
    await page.getByLabel("Vergi numarası (VKN)").press("Tab");
    // Half a company (no title, no office) is never in the cart.
    await expect.poll(savedAttributes).toEqual({});
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Fatura bilgileri kaydedilmedi/);
    await page.getByLabel("Şirket unvanı").fill("Moda Kitabevi Ltd. Şti.");
    await page.getByLabel("Vergi dairesi").fill("Kadıköy");
    await page.getByLabel("Vergi dairesi").press("Tab");
    await expect.poll(savedAttributes).toEqual({
      "Vergi Numarası": "9860008925",
      "Şirket Unvanı": "Moda Kitabevi Ltd. Şti.",
      "Vergi Dairesi": "Kadıköy",
    });

    await page.getByRole("radio", { name: "Bireysel" }).check();
    await expect.poll(savedAttributes).toEqual({ "TC Kimlik No": "10000000146" });
    await page.getByRole("button", { name: "Ödeme adımına geç" }).click();
    await page.locator("#order").waitFor();
    const result = mapped(storefront.orders[0]);
    expect(result.ok && result.body.customer).toMatchObject({ type: "person", tax_number: "10000000146" });
  }, 60_000);

  it("a buyer who leaves it empty checks out as the anonymous final consumer", async () => {
    storefront = await startStorefront();
    const page = await open("tr");
    await page.getByRole("button", { name: "Ödeme adımına geç" }).click();
    await page.locator("#order").waitFor();
    expect(storefront.orders[0].note_attributes).toEqual([]);
    expect(storefront.requests.filter((r) => r.includes("update.js"))).toEqual([]);
    const result = mapped(storefront.orders[0]);
    expect(result.ok && result.body.customer).toMatchObject({ type: "person", tax_number: "11111111111" });
  }, 60_000);
});
