// The accountant package end to end against the invoicing sandbox (SQLite and PostgreSQL): a month with mixed VAT rates,
// an exemption, a foreign-currency invoice and a refund becomes one ZIP whose workbook (read back with exceljs) adds up
// to the invoices' totals exactly as the service computed them; a PDF that cannot be read is named in the package; a
// build stopped midway goes on without reading its PDFs again; the signed link opens only its own shop's package, and
// only until it or the package expires; a package whose file is gone says so. They run with the configured package
// store (a directory on SQLite, the database on PostgreSQL); test/accountant/store.db.test.ts tests the database store
// on both.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import { clientFor, companyCustomer, waitFor } from "../contract/helpers";
import { issuedInvoice, unzip } from "../helpers/accountant";
import { sandboxForEachTest } from "../helpers/pipeline";
import { createInvoiceRow, prisma } from "../helpers/db";
import { APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";
import type { InvoiceRequest } from "../../app/invoicing-service/schemas";
import { Decimal } from "../../app/invoicing-service/money";
import { buildPackage, MAX_BUILD_ATTEMPTS } from "../../app/accountant/build.server";
import { nextDuePackage } from "../../app/accountant/packages.server";
import {
  expirePackages,
  keepNewestReady,
  listPackages,
  requestPackage,
  signDownload,
  sweepOrphanDirs,
  DOWNLOAD_LINK_TTL_MS,
  ORPHAN_GRACE_MS,
} from "../../app/accountant/packages.server";
import { directoryStore, packageDir, packageStore } from "../../app/accountant/store.server";
import { TEXT } from "../../app/accountant/texts";
import { loader as download } from "../../app/routes/accountant-package.$token";
import { redactCustomer } from "../../app/privacy/compliance.server";
import { callRoute } from "../helpers/routes";
import { startWorker } from "../../app/worker/worker.server";
import { closeInvoice } from "../../app/invoices/fixes.server";
import { todayIn } from "../../app/after-sale/invoice-view.server";

const sandbox = sandboxForEachTest({ formalizeDelayMs: 5, shops: [SHOP, OTHER_SHOP] });
const { requests } = sandbox;
const PERIOD = { from: "2026-10-01", to: "2026-10-31" };
/** Registered for e-invoice in the sandbox's default account. */
const VKN = "9876543217";

afterAll(async () => {
  for (const { id } of await prisma.accountantPackage.findMany({ select: { id: true } }))
    rmSync(packageDir(id), { recursive: true, force: true });
});

const issued = (
  shop: string,
  overrides: Partial<InvoiceRequest>,
  row: { createdAt?: string; postedInTestMode?: boolean } = {},
) => issuedInvoice(sandbox, shop, overrides, row);

/** The month: mixed rates, a 0 % exemption, a USD invoice; one invoice whose PDF always fails. */
async function october() {
  const mixed = await issued(SHOP, {
    issue_date: "2026-10-03",
    lines: [
      { id: "a", name: "Kazak", quantity: 3, unit: "C62", unit_price: 33.333, tax_rate: "20" },
      {
        id: "b",
        name: "Kitap",
        quantity: 2,
        unit: "C62",
        unit_price: 45.455,
        tax_rate: "10",
        discount_type: "amount",
        discount: 1.5,
      },
      { id: "c", name: "Ekmek", quantity: 7, unit: "C62", unit_price: 4.95, tax_rate: "1" },
    ],
  });
  const exempt = await issued(SHOP, {
    issue_date: "2026-10-09",
    customer: companyCustomer(VKN),
    lines: [
      {
        id: "d",
        name: "İhraç kalemi",
        quantity: 2,
        unit: "C62",
        unit_price: 150,
        tax_rate: "0",
        exemption_code: "301",
        exemption_reason: "11/1-a Mal İhracatı",
      },
      {
        id: "e",
        name: "Hizmet",
        quantity: 1,
        unit: "C62",
        unit_price: 99.99,
        tax_rate: "20",
        discount_type: "percentage",
        discount: 12.5,
      },
    ],
  });
  const usd = await issued(SHOP, {
    issue_date: "2026-10-17",
    currency: "USD",
    currency_rate: 34.2715,
    lines: [{ id: "f", name: "T-shirt", quantity: 1, unit: "C62", unit_price: 19.99, tax_rate: "20" }],
  });
  const failing = await issued(SHOP, {
    issue_date: "2026-10-30",
    lines: [{ id: "g", name: "Çorap", quantity: 4, unit: "C62", unit_price: 12.5, tax_rate: "20" }],
  });
  // Not in the package: issued in November, a test-mode invoice, another shop's.
  await issued(
    SHOP,
    {
      issue_date: "2026-11-01",
      lines: [{ id: "h", name: "Şapka", quantity: 1, unit: "C62", unit_price: 50, tax_rate: "20" }],
    },
    { createdAt: "2026-10-31T21:30:00Z" },
  );
  await issued(
    SHOP,
    {
      issue_date: "2026-10-12",
      lines: [{ id: "i", name: "Test", quantity: 1, unit: "C62", unit_price: 10, tax_rate: "20" }],
    },
    { postedInTestMode: true },
  );
  await issued(OTHER_SHOP, {
    issue_date: "2026-10-12",
    lines: [{ id: "j", name: "Başka", quantity: 1, unit: "C62", unit_price: 70, tax_rate: "20" }],
  });
  await prisma.refund.create({
    data: {
      shopDomain: SHOP,
      orderId: mixed.row.orderId,
      refundId: "r-1",
      refundedAt: new Date("2026-10-20T09:00:00Z"),
      currency: "TRY",
      lineItems: [
        {
          lineItemId: "1",
          name: "Kazak",
          sku: "KZ-1",
          quantity: 1,
          subtotal: "33.33",
          tax: "6.67",
          restockType: "return",
          giftCard: false,
        },
      ],
      hasLineItems: true,
      shipping: "0.00",
      amount: "40.00",
      restock: true,
      handling: "after_formalisation",
    },
  });
  sandbox.faults.failNext(100, { method: "GET", path: `/api/invoices/${failing.record.id}/formal-pdf`, status: 503 });
  return { mixed, exempt, usd, failing };
}

const dec = (value: ExcelJS.CellValue) =>
  new Decimal(value === null || value === undefined || value === "" ? 0 : String(value));

function sheetRows(sheet: ExcelJS.Worksheet): Array<Record<string, ExcelJS.CellValue>> {
  const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(String);
  const rows: Array<Record<string, ExcelJS.CellValue>> = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const values = (row.values as ExcelJS.CellValue[]).slice(1);
    rows.push(Object.fromEntries(header.map((name, i) => [name, values[i] ?? null])));
  });
  return rows;
}

async function downloadOf(shop: string) {
  const [view] = await listPackages(shop);
  expect(view.downloadPath).toMatch(/^\/accountant-package\/[\w-]+\.[\w-]+$/);
  const token = view.downloadPath!.split("/").pop()!;
  return callRoute(download, new Request(`${APP_ORIGIN}${view.downloadPath}`), { token });
}

describe("the accountant package", () => {
  it("builds one ZIP of the month whose workbook adds up to the invoices' totals exactly, and names the PDF it could not read", async () => {
    const month = await october();
    const asked = await requestPackage(SHOP, PERIOD, "tr");
    expect(asked.ok).toBe(true);
    const id = (asked as { id: string }).id;
    expect(await requestPackage(SHOP, PERIOD, "tr")).toEqual({ ok: false, reason: "busy" });
    expect(await buildPackage(id, { owner: "test", pdfAttempts: 3, pdfRetryBaseMs: 5, concurrency: 3 })).toBe(true);

    const row = await prisma.accountantPackage.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ state: "ready", total: 4, pdfDone: 3, pdfFailed: 1, lastError: null });
    // The failing PDF was asked for 3 times (backing off), then named; the others once each.
    expect(
      requests.filter((l) => l.startsWith(`GET /api/invoices/${month.failing.record.id}/formal-pdf`)),
    ).toHaveLength(3);
    expect(requests.filter((l) => l.includes("/formal-pdf")).length).toBe(6);

    const response = await downloadOf(SHOP);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="muhasebe-2026-10.zip"');
    const zipBytes = Buffer.from(await response.arrayBuffer());
    expect(zipBytes.length).toBe(Number(row.fileSize));
    const files = await unzip(zipBytes);

    // Every legal invoice's PDF but the failing one, named by issue date and serial number, as the service serves it.
    const pdfs = [...files.keys()].filter((name) => name.startsWith("faturalar/")).sort();
    expect(pdfs).toEqual(
      [month.mixed, month.exempt, month.usd].map((m) => `faturalar/${m.body.issue_date}_${m.record.serial_number}.pdf`),
    );
    const direct = Buffer.from(await clientFor(sandbox).getFormalPdf(month.exempt.record.id));
    expect(files.get(`faturalar/2026-10-09_${month.exempt.record.serial_number}.pdf`)!.equals(direct)).toBe(true);
    expect([...files.keys()].filter((name) => !name.startsWith("faturalar/")).sort()).toEqual([
      "EKSIK-PDF-LISTESI.txt",
      "eksik-pdf.csv",
      "faturalar.csv",
      "iadeler.csv",
      "muhasebe-2026-10.xlsx",
      "ozet.csv",
    ]);
    expect(files.get("EKSIK-PDF-LISTESI.txt")!.toString("utf8")).toContain(
      `${month.failing.record.serial_number}\t${month.failing.record.ettn}`,
    );

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(files.get("muhasebe-2026-10.xlsx")! as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Faturalar", "İadeler", "Özet", "Eksik PDF"]);

    // Invoices: the four of the period (the failing one too: it is legal, only its PDF is missing), per currency.
    const invoices = sheetRows(workbook.getWorksheet("Faturalar")!);
    const records = [month.mixed, month.exempt, month.usd, month.failing];
    expect(invoices.map((r) => r["Fatura no"])).toEqual(records.map((m) => m.record.serial_number));
    expect(invoices.map((r) => r["Belge"])).toEqual(["e-Arşiv", "e-Fatura", "e-Arşiv", "e-Arşiv"]);
    expect(invoices[1]).toMatchObject({
      "VKN/TCKN": VKN,
      İstisnalar: "301 11/1-a Mal İhracatı: 300.00",
      "Matrah %0": 300,
    });
    expect(invoices[2]).toMatchObject({ "Para birimi": "USD", Kur: "34.2715" });
    for (const [i, m] of records.entries())
      expect(dec(invoices[i]["Toplam"]).toFixed(2), m.record.serial_number!).toBe(m.record.grand_total);

    // Summary: per currency, the rate rows (net + VAT) add up to the currency's total, which is the invoices' grand totals.
    const summary = sheetRows(workbook.getWorksheet("Özet")!);
    for (const currency of ["TRY", "USD"]) {
      const mine = records.filter((m) => (m.body.currency ?? "TRY") === currency);
      const grand = mine.reduce((s, m) => s.add(m.record.grand_total!), new Decimal(0));
      const tax = mine.reduce((s, m) => s.add(m.record.tax_total!), new Decimal(0));
      const rateRows = summary.filter((r) => r["Bölüm"] === "KDV oranına göre" && r["Para birimi"] === currency);
      const byRates = rateRows.reduce((s, r) => s.add(dec(r["Matrah"])).add(dec(r["KDV"])), new Decimal(0));
      const vat = rateRows.reduce((s, r) => s.add(dec(r["KDV"])), new Decimal(0));
      const total = summary.find((r) => r["Bölüm"] === "Toplam" && r["Para birimi"] === currency)!;
      expect(byRates.toFixed(2), currency).toBe(grand.toFixed(2));
      expect(vat.toFixed(2), currency).toBe(tax.toFixed(2));
      expect(dec(total["Toplam"]).toFixed(2), currency).toBe(grand.toFixed(2));
      expect(Number(total["Fatura sayısı"])).toBe(mine.length);
    }
    expect(
      summary.filter((r) => r["Para birimi"] === "TRY" && r["Bölüm"] === "KDV oranına göre").map((r) => r["KDV oranı"]),
    ).toEqual(["%0", "%1", "%10", "%20"]);
    const usdTotal = summary.find((r) => r["Bölüm"] === "Toplam" && r["Para birimi"] === "USD")!;
    const tryAll = summary.find((r) => r["Bölüm"] === "Tüm faturalar (TRY karşılığı)")!;
    const tryInvoices = records
      .filter((m) => !m.body.currency || m.body.currency === "TRY")
      .reduce((s, m) => s.add(m.record.grand_total!), new Decimal(0));
    expect(dec(tryAll["Toplam"]).toFixed(2)).toBe(
      tryInvoices.add(dec(usdTotal["Toplam"]).mul("34.2715").toDecimalPlaces(2)).toFixed(2),
    );
    expect(
      summary.some((r) => String(r["Bölüm"]) === `PDF'i pakette olmayan fatura: ${month.failing.record.serial_number}`),
    ).toBe(true);

    // Returns: the month's refund, against its invoice.
    const returns = sheetRows(workbook.getWorksheet("İadeler")!);
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({
      // A day: a date in the workbook (shown as 20.10.2026 in a Turkish Excel).
      "İade tarihi": new Date("2026-10-20T00:00:00Z"),
      "Fatura no": month.mixed.record.serial_number,
      Ürün: "Kazak",
      "Ürün KDV": 6.67,
      "İade toplamı": 40,
    });

    // The missing PDF, named in the workbook and in its CSV.
    const failures = sheetRows(workbook.getWorksheet("Eksik PDF")!);
    expect(failures).toEqual([
      expect.objectContaining({
        "Fatura no": month.failing.record.serial_number,
        ETTN: month.failing.record.ettn,
        Deneme: "3",
        Neden: "Servis PDF'i veremedi (denemeler bitti)",
      }),
    ]);
    const failuresCsv = files.get("eksik-pdf.csv")!.toString("utf8");
    expect(failuresCsv.startsWith("\uFEFF")).toBe(true);
    expect(failuresCsv).toContain(`"${month.failing.record.serial_number}"`);

    // The CSV carries the same totals, as exact decimal strings: a Turkish package's with a decimal comma and its
    // days as 20.10.2026 (the language's own, unless asked otherwise).
    const csv = files
      .get("faturalar.csv")!
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n")
      .map((line) => line.slice(1, -1).split('";"'));
    const totalAt = csv[0].indexOf("Toplam");
    expect(csv.slice(1).map((fields) => fields[totalAt])).toEqual(
      records.map((m) => m.record.grand_total!.replace(".", ",")),
    );
    const dateAt = csv[0].indexOf("Fatura tarihi");
    expect(csv.slice(1).map((fields) => fields[dateAt])).toEqual(
      records.map((m) => m.body.issue_date!.split("-").reverse().join(".")),
    );
    expect(await listPackages(SHOP)).toMatchObject([{ id, builtBeforeEnd: false }]);

    // Housekeeping: past its time the file is deleted, the row expired and the link dead.
    expect(await expirePackages(new Date(Date.now() + 3_600_000))).toBe(0);
    expect(await expirePackages(new Date(row.expiresAt!.getTime() + 1))).toBe(1);
    expect(await prisma.accountantPackage.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "expired",
      fileSize: null,
    });
    expect((await listPackages(SHOP))[0]).toMatchObject({ state: "expired", downloadPath: null });
    const gone = await callRoute(download, new Request("https://x/accountant-package/t"), {
      token: signDownload(SHOP, id),
    });
    expect(gone.status).toBe(404);
  });

  it("names the invoices issued in the invoicing panel during the period, writes decimal points when asked, and says when the period is not over", async () => {
    await issued(SHOP, { issue_date: "2026-10-05" });
    // Closed by hand as issued in the panel on 12 October (Istanbul), and one on 2 November: only the first is October's.
    const inPeriod = await createInvoiceRow(SHOP);
    const later = await createInvoiceRow(SHOP);
    for (const row of [inPeriod, later])
      await prisma.invoice.update({ where: { id: row.id }, data: { state: "needs_attention" } });
    expect(
      await closeInvoice(
        SHOP,
        inPeriod.id,
        { as: "panel", serial: "gib2026000000123", reason: "e-posta ile" },
        new Date("2026-10-12T09:00:00Z"),
      ),
    ).toEqual({ ok: true });
    expect(
      await closeInvoice(SHOP, later.id, { as: "panel", serial: "GIB2026000000124" }, new Date("2026-11-02T09:00:00Z")),
    ).toEqual({ ok: true });
    const { id } = (await requestPackage(SHOP, { ...PERIOD, csvDecimal: "point" }, "tr")) as { id: string };
    expect(await buildPackage(id, { owner: "test" })).toBe(true);
    const files = await unzip(Buffer.from(await (await downloadOf(SHOP)).arrayBuffer()));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(files.get("muhasebe-2026-10.xlsx")! as unknown as ArrayBuffer);
    expect(sheetRows(workbook.getWorksheet("Panelde kesilen")!)).toEqual([
      {
        "Uygulamaya kaydedildiği gün": new Date("2026-10-12T00:00:00Z"),
        "Fatura no": "GIB2026000000123",
        Sipariş: inPeriod.orderName,
        Not: "e-posta ile",
      },
    ]);
    expect(files.get("panelde-kesilen.csv")!.toString("utf8")).toContain('"12.10.2026";"GIB2026000000123"');
    // Asked with decimal points: the Turkish package's CSVs have them.
    const total = (await prisma.invoice.findFirstOrThrow({ where: { shopDomain: SHOP, state: "completed" } }))
      .remoteTotals as { grand_total: string };
    expect(files.get("faturalar.csv")!.toString("utf8")).toContain(`"${total.grand_total}"`);

    // A package of this month, built today: the page and the workbook say the month is not over. Today as the shop
    // (Istanbul) has it, as the build does: from 21:00 UTC Istanbul is a day ahead.
    const today = todayIn("Europe/Istanbul");
    const current = (await requestPackage(SHOP, { from: `${today.slice(0, 7)}-01`, to: today }, "en")) as {
      id: string;
    };
    expect(await buildPackage(current.id, { owner: "test" })).toBe(true);
    expect((await listPackages(SHOP))[0]).toMatchObject({ id: current.id, builtBeforeEnd: true });
  });

  it("never opens one shop's package with another shop's link, a forged one or an expired one", async () => {
    await issued(SHOP, { issue_date: "2026-10-05" });
    await issued(OTHER_SHOP, { issue_date: "2026-10-05" });
    const mine = (await requestPackage(SHOP, PERIOD, "en")) as { id: string };
    const theirs = (await requestPackage(OTHER_SHOP, PERIOD, "tr")) as { id: string };
    await buildPackage(mine.id, { owner: "test" });
    await buildPackage(theirs.id, { owner: "test" });
    expect((await listPackages(SHOP)).map((p) => p.id)).toEqual([mine.id]);
    expect((await listPackages(OTHER_SHOP)).map((p) => p.id)).toEqual([theirs.id]);
    const get = (token: string) => callRoute(download, new Request(`https://x/accountant-package/${token}`), { token });
    expect((await get(signDownload(SHOP, mine.id))).status).toBe(200);
    expect((await get(signDownload(OTHER_SHOP, theirs.id))).headers.get("content-disposition")).toBe(
      'attachment; filename="muhasebe-2026-10.zip"',
    );
    // Signed for the other shop, naming this shop's package: nothing.
    expect((await get(signDownload(OTHER_SHOP, mine.id))).status).toBe(404);
    expect((await get(signDownload(SHOP, theirs.id))).status).toBe(404);
    const [payload, signature] = signDownload(SHOP, mine.id).split(".");
    const other = JSON.parse(Buffer.from(payload, "base64url").toString()) as object;
    const forged = Buffer.from(JSON.stringify({ ...other, p: theirs.id })).toString("base64url");
    expect((await get(`${forged}.${signature}`)).status).toBe(404);
    expect((await get(signDownload(SHOP, mine.id, Date.now() - DOWNLOAD_LINK_TTL_MS - 1))).status).toBe(404);
    // Its file (or its chunks, in the database store) gone by hand while the row says ready: a 404 that says so, not
    // a broken download.
    await packageStore().remove(mine.id);
    const missing = await get(signDownload(SHOP, mine.id));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe(TEXT.en.fileMissing);
  });

  it("goes on after a stop without reading its PDFs again", async () => {
    await issued(SHOP, { issue_date: "2026-10-05" });
    await issued(SHOP, { issue_date: "2026-10-06" });
    const { id } = (await requestPackage(SHOP, PERIOD, "tr")) as { id: string };
    let stopping = false;
    await buildPackage(id, { owner: "first", stopping: () => stopping, afterPdfs: async () => void (stopping = true) });
    expect(await prisma.accountantPackage.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "building",
      pdfDone: 2,
      attempts: 0,
      leaseOwner: null,
    });
    expect(requests.filter((l) => l.includes("/formal-pdf"))).toHaveLength(2);
    requests.length = 0;
    await buildPackage(id, { owner: "second" });
    expect(await prisma.accountantPackage.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "ready",
      pdfDone: 2,
      pdfFailed: 0,
    });
    expect(requests.filter((l) => l.includes("/formal-pdf"))).toEqual([]);
    // Two PDFs, the workbook and four CSV files; no list of missing PDFs when none is missing.
    expect((await unzip(Buffer.from(await (await downloadOf(SHOP)).arrayBuffer()))).size).toBe(2 + 5);
  });

  it("is built by the worker in the background once asked for", async () => {
    await issued(SHOP, { issue_date: "2026-10-05" });
    const worker = await startWorker({
      appUrl: "http://127.0.0.1:9",
      pollMs: 50,
      checkAccounts: false,
      deadlineReminders: false,
    });
    try {
      const { id } = (await requestPackage(SHOP, PERIOD, "en")) as { id: string };
      const done = await waitFor(
        async () => {
          const row = await prisma.accountantPackage.findUniqueOrThrow({ where: { id } });
          return row.state === "ready" && row;
        },
        15_000,
        "the worker's package",
      );
      expect(done).toMatchObject({ total: 1, pdfDone: 1, pdfFailed: 0, attempts: 1, leaseOwner: null });
      expect((await listPackages(SHOP))[0].downloadPath).not.toBeNull();
    } finally {
      await worker.stop();
    }
  });

  it("tries a failing build again later, backing off, and fails it for good after the last attempt", async () => {
    await issued(SHOP, { issue_date: "2026-10-05" });
    await prisma.shopSettings.update({ where: { shopDomain: SHOP }, data: { apiKeyEncrypted: null } });
    const { id } = (await requestPackage(SHOP, PERIOD, "tr")) as { id: string };
    const delays: number[] = [];
    for (let attempt = 1; attempt <= MAX_BUILD_ATTEMPTS; attempt++) {
      const at = Date.now();
      expect(await buildPackage(id, { owner: "test", random: () => 0 })).toBe(true);
      const row = await prisma.accountantPackage.findUniqueOrThrow({ where: { id } });
      expect(row.attempts).toBe(attempt);
      expect(row.lastError).toMatch(/no invoicing API key/);
      if (attempt < MAX_BUILD_ATTEMPTS) {
        expect(row.state).toBe("building");
        delays.push(row.nextAttemptAt!.getTime() - at);
        // Not due before its time.
        expect(await nextDuePackage(new Date(at))).toBeNull();
      } else expect(row).toMatchObject({ state: "failed", nextAttemptAt: null, leaseOwner: null });
    }
    // Equal jitter with random 0: half of 5 s doubling (2.5, 5, 10, 20 s).
    expect(delays.map((ms) => Math.round(ms / 500) * 500)).toEqual([2_500, 5_000, 10_000, 20_000]);
    expect(await nextDuePackage(new Date(Date.now() + 3_600_000))).toBeNull();
  });

  it("sweeps the directories whose package row is gone, once they are a day old, and no other", async () => {
    // A root of its own: the tests' shared directory holds other test files' packages (rows in other databases).
    const root = mkdtempSync(path.join(tmpdir(), "accountant-sweep-"));
    try {
      const { id } = (await requestPackage(SHOP, PERIOD, "tr")) as { id: string };
      for (const dir of [packageDir(id, root), packageDir("cmorphan0000test", root)]) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, "muhasebe-2026-10.zip"), "PK");
      }
      // Times from the folders' own mtime, which the file system gives (under libfaketime Node's stat is not faked).
      const made = statSync(packageDir(id, root)).mtimeMs;
      const later = new Date(made + ORPHAN_GRACE_MS + 60_000);
      expect(await sweepOrphanDirs(new Date(made + 60_000), directoryStore(root))).toBe(0);
      expect(await sweepOrphanDirs(later, directoryStore(root))).toBe(1);
      expect(readdirSync(root)).toEqual([id]);
      // The shop's data deleted (uninstall, redact): its package's directory goes at the next sweep.
      await prisma.shop.delete({ where: { domain: SHOP } });
      expect(await sweepOrphanDirs(later, directoryStore(root))).toBe(1);
      expect(readdirSync(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("keeps a shop's twelve newest ready packages: an older one's file goes, another shop's stay (issue 35, point 11)", async () => {
    const made = async (shop: string, month: number) => {
      const row = await prisma.accountantPackage.create({
        data: {
          shopDomain: shop,
          fromDate: `2025-${String(month).padStart(2, "0")}-01`,
          toDate: `2025-${String(month).padStart(2, "0")}-28`,
          state: "ready",
          fileSize: BigInt(1),
          finishedAt: new Date(Date.UTC(2026, 0, month)),
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      });
      mkdirSync(packageDir(row.id), { recursive: true });
      writeFileSync(path.join(packageDir(row.id), "p.zip"), "zip");
      return row.id;
    };
    const mine = [];
    for (let month = 1; month <= 14; month++) mine.push(await made(SHOP, month));
    const theirs = await made(OTHER_SHOP, 1);
    expect(await keepNewestReady(SHOP)).toBe(2);
    const states = await prisma.accountantPackage.findMany({
      where: { id: { in: mine } },
      orderBy: { finishedAt: "asc" },
    });
    expect(states.map((p) => p.state)).toEqual([...Array(2).fill("expired"), ...Array(12).fill("ready")]);
    expect(readdirSync(path.dirname(packageDir(mine[0])))).not.toContain(mine[0]);
    expect((await prisma.accountantPackage.findUniqueOrThrow({ where: { id: theirs } })).state).toBe("ready");
  });

  it("refuses a period in the future, reversed or longer than a year", async () => {
    expect(await requestPackage(SHOP, { from: "2026-10-31", to: "2026-10-01" }, "tr")).toEqual({
      ok: false,
      reason: "order",
    });
    expect(await requestPackage(SHOP, { from: "2099-01-01", to: "2099-01-31" }, "tr")).toEqual({
      ok: false,
      reason: "future",
    });
    expect(await requestPackage(SHOP, { from: "2024-01-01", to: "2026-01-01" }, "tr")).toEqual({
      ok: false,
      reason: "too_long",
    });
    expect(await requestPackage(SHOP, { from: "2026-13-01", to: "2026-10-01" }, "tr")).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await prisma.accountantPackage.count()).toBe(0);
  });

  it("keeps every invoice and total after a buyer's data is erased, says the buyer was erased, and builds a finished package again", async () => {
    const month = await october();
    const asked = await requestPackage(SHOP, PERIOD, "tr");
    const id = (asked as { id: string }).id;
    await buildPackage(id, { owner: "test", pdfAttempts: 1, pdfRetryBaseMs: 5, concurrency: 3 });
    const workbookRows = async () => {
      const files = await unzip(Buffer.from(await (await downloadOf(SHOP)).arrayBuffer()));
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(files.get("muhasebe-2026-10.xlsx")! as unknown as ArrayBuffer);
      return {
        invoices: sheetRows(workbook.getWorksheet("Faturalar")!),
        summary: sheetRows(workbook.getWorksheet("Özet")!),
        csv: files.get("faturalar.csv")!.toString("utf8"),
      };
    };
    const before = await workbookRows();
    expect(before.csv).toContain("Yılmaz");

    // Ayşe Yılmaz (a person) asks to be erased: the invoices of three orders were hers; the company's stays named.
    const hers = [month.mixed, month.usd, month.failing].map((m) => m.row.orderId);
    const redacted = await redactCustomer(SHOP, {
      shop_domain: SHOP,
      customer: { id: 424242 },
      orders_to_redact: hers.map(Number),
    });
    expect(redacted).toMatchObject({ invoices: 3, packages: 1 });
    // The finished package's file went at once, and it is built again.
    expect(await prisma.accountantPackage.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "queued",
      fileSize: null,
    });
    expect((await listPackages(SHOP))[0].downloadPath).toBeNull();
    await buildPackage(id, { owner: "test", pdfAttempts: 1, pdfRetryBaseMs: 5, concurrency: 3 });
    const after = await workbookRows();

    // The same invoices, serials and amounts to the kuruş; the person is gone from the package.
    const money = (rows: typeof before.invoices) =>
      rows.map((r) => [r["Fatura no"], r["Fatura tarihi"], dec(r["Toplam"]).toFixed(2)]);
    expect(after.invoices).toHaveLength(before.invoices.length);
    expect(money(after.invoices)).toEqual(money(before.invoices));
    expect(after.summary).toEqual(before.summary);
    expect(after.csv).not.toContain("Yılmaz");
    expect(after.csv).not.toContain("11111111111");
    const bySerial = new Map(after.invoices.map((r) => [r["Fatura no"], r]));
    expect(bySerial.get(month.mixed.record.serial_number)!["Alıcı"]).toBe(
      "Kişi (müşterinin isteğiyle kişisel verileri silindi)",
    );
    expect(bySerial.get(month.exempt.record.serial_number)!["VKN/TCKN"]).toBe(VKN);
  });
});
