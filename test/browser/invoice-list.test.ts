// The invoice list as a merchant uses it (production build, sandbox, real webhooks): the search folds case and
// Turkish letters and treats % and _ as themselves (point 10), a phone shows each invoice's state, total, serial
// and PDF without scrolling sideways (point 5), the dates are order dates (point 11), and the tabs say what they
// hold (point 16). Issue 22.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/lib/local-stack";
import type { Db } from "../../app/db/client";
import { chromiumAvailable, closePage, openAdminPage, openListSearch, shot, waitFor } from "../helpers/browser";
import { withBrowserStack } from "../helpers/browser-stack";

const fixture = (name: string) =>
  JSON.parse(readFileSync(`test/fixtures/orders/${name}.json`, "utf8")) as Record<string, unknown>;
const FINAL = ["completed", "failed", "needs_attention", "cancelled"];
// Ayşe Yılmaz ordered #1001, #1004 and #1015; Mehmet Demir #1002 and #1008; the company #1009.
const ORDERS = [
  "01-single-item-citizen",
  "04-line-discount",
  "15-bank-transfer",
  "02-mixed-rates-free-shipping",
  "09-company-buyer",
  "08-zero-rate-without-exemption",
];

let stack: LocalStack;
let browser: Browser;
let db: Db;

const rows = (page: Page) => page.locator("tbody tr");

async function search(page: Page, text: string) {
  const field = await openListSearch(page);
  await field.fill(text);
  // The search reaches the URL (after the field's delay) before the rows are read: two searches with the same rows
  // would otherwise pass on the earlier one's.
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(text.trim() || null);
}

describe.skipIf(!chromiumAvailable())("the invoice list: search, phone layout, dates and tabs", () => {
  withBrowserStack(
    { name: "invoice-list", stack: { formalizeDelayMs: 150, testMode: true }, timeoutMs: 180_000 },
    async (started) => {
      ({ stack, db, browser } = started);
      for (const name of ORDERS) expect((await stack.deliver("orders/paid", fixture(name))).status).toBe(200);
      await waitFor(
        "final invoices",
        () => db.invoice.findMany({ where: { shopDomain: stack.shop } }),
        (found) => found.length === ORDERS.length && found.every((row) => FINAL.includes(row.state)),
      );
    },
  );

  it("finds Ayşe Yılmaz however her name is typed, and % or _ match nothing (Turkish)", async () => {
    const page = await openAdminPage(browser, stack, "/app", "tr");
    await expect.poll(() => rows(page).count()).toBe(ORDERS.length);
    for (const typed of ["Ayşe", "ayse", "AYŞE", "AYSE", "yılmaz", "YILMAZ", "Yilmaz", "ayşe yılmaz"]) {
      await search(page, typed);
      await expect
        .poll(
          async () =>
            (await rows(page).allTextContents())
              .map((text) => text.match(/#\d{4}/)?.[0])
              .sort()
              .join(","),
          { message: typed },
        )
        .toBe("#1001,#1004,#1015");
    }
    await shot(page, "invoices-search-tr");
    for (const typed of ["%", "_", "%%", "a%e"]) {
      await search(page, typed);
      await expect.poll(() => page.getByText("Fatura bulunamadı").isVisible(), { message: typed }).toBe(true);
    }
    await closePage(page);
  }, 90_000);

  it("what the merchant types on while an earlier search is loading stays in the field and is searched", async () => {
    const page = await openAdminPage(browser, stack, "/app", "tr");
    await expect.poll(() => rows(page).count()).toBe(ORDERS.length);
    // The list's data for the first search answers after 2 s (as on a busy server).
    const slow = /[?&]q=Ay%C5%9Fe(&|$)/;
    await page.route(slow, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.continue().catch(() => undefined);
    });
    const field = await openListSearch(page);
    const asked = page.waitForRequest(slow);
    await field.fill("Ayşe");
    await asked;
    // Typed on just before that answer arrives, inside the field's search delay: the answer must not put "Ayşe" back.
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    await field.fill("Ayşe Yılmazx");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await field.inputValue()).toBe("Ayşe Yılmazx");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("Ayşe Yılmazx");
    await expect.poll(() => page.getByText("Fatura bulunamadı").isVisible()).toBe(true);
    await closePage(page);
  }, 90_000);

  it("at 390 px each invoice shows its state, total, serial number and PDF without sideways scrolling (Turkish, English)", async () => {
    for (const locale of ["tr", "en"] as const) {
      const page = await openAdminPage(browser, stack, "/app", locale);
      await page.setViewportSize({ width: 390, height: 844 });
      const completed = await db.invoice.findFirstOrThrow({ where: { shopDomain: stack.shop, orderName: "#1009" } });
      const row = page.locator(".Polaris-IndexTable__TableRow, li", { hasText: completed.serialNumber! }).first();
      await expect.poll(() => row.isVisible()).toBe(true);
      // Polaris switches to the condensed table after the resize has rendered: read the layout until it has.
      for (const text of [
        completed.serialNumber!,
        locale === "tr" ? "Tamamlandı" : "Completed",
        "PDF",
        locale === "tr" ? "₺" : "TRY",
      ]) {
        const inside = async () => {
          const box = await row.getByText(text, { exact: false }).first().boundingBox();
          return box !== null && box.x >= 0 && box.x + box.width <= 390;
        };
        await expect.poll(inside, { message: `${text} lies within 390 px` }).toBe(true);
      }
      await shot(page, `invoices-phone-${locale}`, { fullPage: true });
      // The page does not scroll sideways.
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await closePage(page);
    }
  }, 60_000);

  it("calls the dates order dates, filters by them, and the first tab is All; an empty tab says it is empty (Turkish)", async () => {
    const page = await openAdminPage(browser, stack, "/app", "tr");
    await expect.poll(() => page.getByRole("columnheader", { name: "Sipariş tarihi" }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("tab", { name: "Tümü" }).isVisible()).toBe(true);
    await page.getByRole("tab", { name: "Bekliyor" }).click();
    await expect.poll(() => page.getByText("Şu anda bu durumda fatura yok.").isVisible()).toBe(true);
    expect(await page.getByText("Filtreleri veya arama terimini değiştirmeyi deneyin.").count()).toBe(0);
    await shot(page, "invoices-empty-tab-tr");
    await closePage(page);

    // The fixtures' orders were placed in 2026 (their created_at), whatever day the app received them.
    const first = await db.invoice.findFirstOrThrow({ where: { shopDomain: stack.shop, orderName: "#1001" } });
    const day = first.orderCreatedAt.toISOString().slice(0, 10);
    const filtered = await openAdminPage(browser, stack, `/app?from=${day}&to=${day}`, "en");
    await expect
      .poll(async () =>
        (await rows(filtered).allTextContents())
          .map((text) => text.match(/#\d{4}/)?.[0])
          .sort()
          .join(","),
      )
      .toBe("#1001,#1002");
    await closePage(filtered);
  }, 60_000);

  it("writes every date one way per language on the list and an invoice's page: '21 Kas 2026 14:05' in Turkish, 'Nov 21, 2026' in English, never ISO or dotted days (issue 36, point 6)", async () => {
    const invoice = await db.invoice.findFirstOrThrow({
      where: { shopDomain: stack.shop, orderName: "#1001", state: "completed" },
    });
    // What the page says to the merchant: its text without the request body (the service's own JSON, ISO dates).
    const pageText = (page: Page) =>
      page.evaluate(() => {
        const json = (document.querySelector("#request-body") as HTMLElement | null)?.innerText ?? "";
        return document.body.innerText.replace(json, "");
      });
    const month = {
      tr: "(Oca|Şub|Mar|Nis|May|Haz|Tem|Ağu|Eyl|Eki|Kas|Ara)",
      en: "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)",
    };
    const shapes = {
      tr: new RegExp(`\\b\\d{1,2} ${month.tr} \\d{4}( \\d{2}:\\d{2})?`),
      en: new RegExp(`\\b${month.en} \\d{1,2}, \\d{4}(, \\d{1,2}:\\d{2} [AP]M)?`),
    };
    for (const locale of ["tr", "en"] as const)
      for (const where of ["/app", `/app/invoices/${invoice.id}`]) {
        const page = await openAdminPage(browser, stack, where, locale);
        await expect.poll(() => pageText(page)).toMatch(shapes[locale]);
        const text = await pageText(page);
        expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
        expect(text).not.toMatch(/\b\d{1,2}[./]\d{1,2}[./]\d{4}\b/);
        expect(text).not.toMatch(shapes[locale === "tr" ? "en" : "tr"]);
        await closePage(page);
      }
  }, 90_000);

  it("a post the service answers with 503 says the app retries by itself and when, in words and local time (Turkish, English)", async () => {
    stack.sandbox.faults.failNext(50, { status: 503, method: "POST", path: "/api/invoices" });
    expect((await stack.deliver("orders/paid", fixture("12-anonymous-consumer"))).status).toBe(200);
    const row = await waitFor(
      "a failed try",
      () => db.invoice.findFirst({ where: { shopDomain: stack.shop, orderName: "#1012" } }),
      (found) => Boolean(found && found.attempts > 0 && found.lastError && found.state === "queued"),
    );
    const page = await openAdminPage(browser, stack, `/app/invoices/${row!.id}`, "tr");
    await expect
      .poll(() => page.locator("#retrying").textContent())
      .toMatch(
        /^Fatura servisi hata verdi \(HTTP 503\)\. Sonraki deneme \d{1,2} (Oca|Şub|Mar|Nis|May|Haz|Tem|Ağu|Eyl|Eki|Kas|Ara) \d{4} \d{2}:\d{2} tarihinde \(2\/12\. deneme\)/,
      );
    await expect.poll(() => page.getByText("Yeniden denenecek").first().isVisible()).toBe(true);
    const body = await page.locator("body").innerText();
    expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(body).not.toMatch(/next try|server 503|at the service|Sırada/);
    await shot(page, "detail-retrying-tr", { fullPage: true });
    await closePage(page);
    const en = await openAdminPage(browser, stack, `/app/invoices/${row!.id}`, "en");
    await expect
      .poll(() => en.locator("#retrying").textContent())
      .toMatch(/^The invoicing service had an error \(HTTP 503\)\. Next try on /);
    await closePage(en);
    stack.sandbox.faults.reset();
  }, 90_000);

  it("the 7-day deadline: a banner counts the invoices near or past it, its action lists them, each with its badge (Turkish, English)", async () => {
    // Two orders the app cannot invoice by itself (no tax office; an invalid tax number), dated here rather than by the
    // day the suite runs: one placed 6 days ago (a day left), one 9 days ago (passed).
    for (const name of ["10-company-without-tax-office", "32-invalid-tax-number"])
      expect((await stack.deliver("orders/paid", fixture(name))).status).toBe(200);
    const stopped = await waitFor(
      "two invoices needing attention",
      () => db.invoice.findMany({ where: { shopDomain: stack.shop, orderName: { in: ["#1010", "#1032"] } } }),
      (found) => found.length === 2 && found.every((row) => row.state === "needs_attention"),
    );
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3_600_000);
    await db.invoice.update({
      where: { id: stopped.find((row) => row.orderName === "#1010")!.id },
      data: { orderCreatedAt: daysAgo(6) },
    });
    await db.invoice.update({
      where: { id: stopped.find((row) => row.orderName === "#1032")!.id },
      data: { orderCreatedAt: daysAgo(9) },
    });

    for (const locale of ["tr", "en"] as const) {
      const page = await openAdminPage(browser, stack, "/app", locale);
      const banner = page.locator(".Polaris-Banner", { has: page.locator("#deadline-banner") });
      await expect
        .poll(() => banner.innerText())
        .toContain(
          locale === "tr"
            ? "faturanın 7 günlük yasal süresi dolmak üzere veya doldu"
            : "close to or past their 7-day deadline",
        );
      await banner
        .getByRole("button", { name: locale === "tr" ? "Süresi dolanları göster" : "Show late invoices" })
        .click();
      await expect.poll(() => new URL(page.url()).searchParams.get("deadline")).toBe("near");
      // Only invoices whose clock runs and is near its end (other fixture orders may be near it too, by the day).
      const badge = locale === "tr" ? /Son: |Süre geçti/ : /Due by |Deadline passed/;
      const listed = async () => {
        const texts = await rows(page).allTextContents();
        return texts.every((text) => badge.test(text)) ? texts.map((text) => text.match(/#\d{4}/)?.[0]) : [];
      };
      await expect.poll(listed).toEqual(expect.arrayContaining(["#1010", "#1032"]));
      const texts = await rows(page).allTextContents();
      expect(texts.find((text) => text.includes("#1010"))).toContain(locale === "tr" ? "Son: " : "Due by ");
      expect(texts.find((text) => text.includes("#1032"))).toContain(
        locale === "tr" ? "Süre geçti" : "Deadline passed",
      );
      // The filter shows as applied, and can be removed like any other.
      await expect
        .poll(() =>
          page
            .getByText(
              locale === "tr" ? "Yasal süre: 48 saatten az kalan veya geçmiş" : "Deadline within 48 hours or passed",
            )
            .first()
            .isVisible(),
        )
        .toBe(true);
      await expect
        .poll(() =>
          page
            .getByText(/fatura yükleniyor|Loading invoices/)
            .first()
            .isVisible(),
        )
        .toBe(false);
      await shot(page, `invoices-deadline-${locale}`);
      await closePage(page);
    }

    // The invoice's own page says it too, with the deadline among the order's dates.
    const late = stopped.find((row) => row.orderName === "#1032")!;
    const detail = await openAdminPage(browser, stack, `/app/invoices/${late.id}`, "tr");
    await expect
      .poll(() => detail.getByText(/Bu faturanın 7 günlük yasal süresi .* tarihinde doldu/).isVisible())
      .toBe(true);
    await expect.poll(() => detail.locator("#deadline").textContent()).toMatch(/^\d{1,2} \S+ \d{4} \d{2}:\d{2}$/);
    await shot(detail, "detail-deadline-tr", { fullPage: true });
    await closePage(detail);
  }, 90_000);
});
