// The accountant package's rows and totals (app/accountant/workbook.ts), pure: per VAT rate as the service computes each
// line, exemptions, foreign currency, and totals that add up to the invoices' to the kuruş.
import { describe, expect, it } from "vitest";
import { computeTotals } from "../../app/invoicing-service/totals";
import { Decimal } from "../../app/invoicing-service/money";
import {
  failuresTable,
  invoiceFacts,
  invoicesTable,
  packageBaseName,
  packageContent,
  packageTables,
  panelTable,
  summaryTable,
  type Cell,
  type PackageInvoice,
} from "../../app/accountant/workbook";

const person = { id: "c1", type: "person", tax_number: "11111111111", name: "Ayşe", surname: "Yılmaz" };
const company = {
  id: "c2",
  type: "company",
  tax_number: "1234567890",
  title: "Deniz Ltd. Şti.",
  tax_office: "Kadıköy",
};

function invoice(id: string, body: Record<string, unknown>, extra: Partial<PackageInvoice> = {}): PackageInvoice {
  const requestBody = { issue_date: "2026-10-05", currency: "TRY", currency_rate: "1", customer: person, ...body };
  const lines = (requestBody as { lines?: Parameters<typeof computeTotals>[0] }).lines ?? [];
  return {
    id,
    orderName: `#${id}`,
    serialNumber: `ARS20260000000${id}`,
    ettn: `ettn-${id}`,
    documentKind: "e_archive",
    remoteId: Number(id),
    requestBody,
    remoteTotals: computeTotals(lines),
    ...extra,
  };
}

const invoices = [
  invoice("11", {
    lines: [
      { quantity: 3, unit_price: "33.333", tax_rate: "20" },
      { quantity: 1, unit_price: "10.005", tax_rate: "10", discount_type: "amount", discount: "1.00" },
    ],
  }),
  invoice(
    "12",
    {
      issue_date: "2026-10-02",
      customer: company,
      lines: [
        {
          quantity: 2,
          unit_price: "150.00",
          tax_rate: "0",
          exemption_code: "301",
          exemption_reason: "11/1-a Mal İhracatı",
        },
        { quantity: 1, unit_price: "99.99", tax_rate: "20", discount_type: "percentage", discount: "12.5" },
      ],
    },
    { documentKind: "e_invoice" },
  ),
  invoice("13", {
    currency: "USD",
    currency_rate: "34.2715",
    lines: [
      { quantity: 1, unit_price: "19.99", tax_rate: "20" },
      { quantity: 7, unit_price: "0.333", tax_rate: "1" },
    ],
  }),
  invoice("14", {
    lines: [
      { quantity: 1, unit_price: "40.00", tax_rate: "0", exemption_code: "351", exemption_reason: "Diğer istisnalar" },
    ],
  }),
];

const amount = (cell: Cell | undefined) => {
  if (!cell || typeof cell === "string" || !("amount" in cell))
    throw new Error(`not an amount: ${JSON.stringify(cell)}`);
  return new Decimal(cell.amount);
};

describe("the accountant package's content", () => {
  const content = packageContent(invoices, [], []);

  it("splits each invoice per VAT rate as the service computes its lines, in issue-date order", () => {
    expect(content.invoices.map((f) => f.id)).toEqual(["12", "11", "13", "14"]);
    expect(content.rates).toEqual(["0", "1", "10", "20"]);
    const first = content.invoices.find((f) => f.id === "11")!;
    // 3 × 33.333 = 99.999 → 100.00, VAT 20.00; 10.005 → 10.01 less 1.00 = 9.01, VAT 0.90
    expect(first.rates.get("20")!.net.toFixed(2)).toBe("100.00");
    expect(first.rates.get("20")!.vat.toFixed(2)).toBe("20.00");
    expect(first.rates.get("10")!.net.toFixed(2)).toBe("9.01");
    expect(first.rates.get("10")!.vat.toFixed(2)).toBe("0.90");
    expect(first.total.toFixed(2)).toBe("129.91");
    expect(first.serviceTotal).toBeNull();
  });

  it("keeps exemptions by code, and the buyer's title and tax number", () => {
    const exempt = content.invoices.find((f) => f.id === "12")!;
    expect([...exempt.exemptions.entries()].map(([code, e]) => [code, e.reason, e.net.toFixed(2)])).toEqual([
      ["301", "11/1-a Mal İhracatı", "300.00"],
    ]);
    expect(exempt.buyer).toBe("Deniz Ltd. Şti.");
    expect(exempt.taxNumber).toBe("1234567890");
    expect(exempt.kind).toBe("e_invoice");
    expect(content.invoices.find((f) => f.id === "11")!.buyer).toBe("Ayşe Yılmaz");
  });

  it("gives a foreign-currency invoice its own summary, and its TRY equivalent at the invoice's rate", () => {
    const usd = content.invoices.find((f) => f.id === "13")!;
    expect(usd.currency).toBe("USD");
    // 19.99 + 3.998→4.00 VAT; 7 × 0.333 = 2.331 → 2.33, VAT 0.02: 26.34 USD
    expect(usd.total.toFixed(2)).toBe("26.34");
    expect(usd.totalTry!.toFixed(2)).toBe(new Decimal("26.34").mul("34.2715").toDecimalPlaces(2).toFixed(2));
    expect(content.summary.map((s) => s.currency)).toEqual(["TRY", "USD"]);
  });

  it("has summary totals per currency that add up, rate by rate, to the invoices' grand totals exactly", () => {
    for (const summary of content.summary) {
      const mine = invoices.filter(
        (i) => ((i.requestBody as { currency: string }).currency ?? "TRY") === summary.currency,
      );
      const grand = mine.reduce(
        (s, i) => s.add((i.remoteTotals as { grand_total: string }).grand_total),
        new Decimal(0),
      );
      const byRates = summary.rates.reduce((s, r) => s.add(r.net).add(r.vat), new Decimal(0));
      expect(byRates.toFixed(2), summary.currency).toBe(grand.toFixed(2));
      expect(summary.total.toFixed(2)).toBe(grand.toFixed(2));
      expect(summary.invoices).toBe(mine.length);
    }
    const tryRow = content.summary[0];
    expect(tryRow.exemptions.map((e) => [e.code, e.net.toFixed(2)])).toEqual([
      ["301", "300.00"],
      ["351", "40.00"],
    ]);
    expect(tryRow.rates.find((r) => r.rate === "0")!.net.toFixed(2)).toBe("340.00");
  });

  it("writes the invoices table with one net and one VAT column per rate, and a total column that sums to the summary", () => {
    for (const locale of ["tr", "en"] as const) {
      const table = invoicesTable(content, locale);
      const totalAt = table.header.indexOf(locale === "tr" ? "Toplam" : "Total");
      const currencyAt = table.header.indexOf(locale === "tr" ? "Para birimi" : "Currency");
      expect(table.header.slice(7, 15)).toEqual(
        locale === "tr"
          ? ["Matrah %0", "KDV %0", "Matrah %1", "KDV %1", "Matrah %10", "KDV %10", "Matrah %20", "KDV %20"]
          : ["Net 0 %", "VAT 0 %", "Net 1 %", "VAT 1 %", "Net 10 %", "VAT 10 %", "Net 20 %", "VAT 20 %"],
      );
      const tryTotal = table.rows
        .filter((r) => r[currencyAt] === "TRY")
        .reduce((s, r) => s.add(amount(r[totalAt])), new Decimal(0));
      expect(tryTotal.toFixed(2)).toBe(content.summary[0].total.toFixed(2));
      const summary = summaryTable(content, locale);
      const totalRow = summary.rows.find((r) => r[0] === (locale === "tr" ? "Toplam" : "Total") && r[1] === "TRY")!;
      expect(amount(totalRow[7]).toFixed(2)).toBe(tryTotal.toFixed(2));
    }
  });

  it("names an invoice whose service total differs from its lines, and one whose body cannot be read", () => {
    const odd = invoice(
      "21",
      { lines: [{ quantity: 1, unit_price: "10.00", tax_rate: "20" }] },
      { remoteTotals: { grand_total: "12.01" } },
    );
    const broken = invoice("22", {}, { requestBody: { issue_date: "2026-10-03", lines: [] } });
    const withOdd = packageContent([odd, broken], [], []);
    expect(withOdd.invoices[0].serviceTotal).toBe("12.01");
    expect(invoicesTable(withOdd, "en").rows[0].at(-1)).toBe("The service's total 12.01 differs from the lines' total");
    expect(withOdd.unreadable).toEqual([
      { id: "22", orderName: "#22", serialNumber: "ARS2026000000022", reason: "unreadable_body" },
    ]);
    expect(failuresTable(withOdd, "tr").rows).toEqual([
      ["", "ARS2026000000022", "", "#22", "Faturanın kayıtlı gövdesi okunamadı", ""],
    ]);
    expect(summaryTable(withOdd, "en").rows.at(-1)![0]).toBe(
      "Invoice that could not be read (its amounts are not in the summary): ARS2026000000022",
    );
  });

  it("keeps an invoice issued after its 7-day deadline as late: its days in the invoices table, a count in the summary", () => {
    // Ordered 1 October 10:00 Istanbul: the deadline is 8 October; issued on the 5th (in time) and on the 11th (3 days).
    const ordered = { orderCreatedAt: new Date("2026-10-01T07:00:00Z") };
    const inTime = invoice("41", { lines: [{ quantity: 1, unit_price: "10.00", tax_rate: "20" }] }, ordered);
    const late = invoice(
      "42",
      { issue_date: "2026-10-11", lines: [{ quantity: 1, unit_price: "10.00", tax_rate: "20" }] },
      ordered,
    );
    const withLate = packageContent([inTime, late], [], []);
    expect(withLate.invoices.map((f) => [f.id, f.daysLate])).toEqual([
      ["41", 0],
      ["42", 3],
    ]);
    for (const locale of ["tr", "en"] as const) {
      const table = invoicesTable(withLate, locale);
      const at = table.header.indexOf(locale === "tr" ? "Gecikme (gün)" : "Days late");
      expect(table.rows.map((r) => r[at])).toEqual(["", "3"]);
      const count = summaryTable(withLate, locale).rows.find(
        (r) => r[0] === (locale === "tr" ? "7 günlük süreden sonra kesilen" : "Issued after the 7-day deadline"),
      );
      expect(count?.[3]).toBe("1");
    }
    // The deadline's day is the shop's: 7 October 22:30 UTC is the 8th in Istanbul, so the 8th is in time there.
    const evening = invoice(
      "43",
      { issue_date: "2026-10-08", lines: [{ quantity: 1, unit_price: "1.00", tax_rate: "20" }] },
      { orderCreatedAt: new Date("2026-09-30T22:30:00Z") },
    );
    const facts = (zone: string) => {
      const result = invoiceFacts(evening, zone);
      if (!result.ok) throw new Error("unreadable");
      return result.facts.daysLate;
    };
    expect(facts("Europe/Istanbul")).toBe(0);
    expect(facts("UTC")).toBe(1);
  });

  it("lists the invoices issued in the invoicing panel on their own sheet, counted in the summary", () => {
    const content = packageContent([], [], [], {
      panel: [
        { id: "b", orderName: "#1002", serialNumber: "GIB2026000000002", recordedOn: "2026-10-09", note: "" },
        { id: "a", orderName: "#1001", serialNumber: "GIB2026000000001", recordedOn: "2026-10-03", note: "el ile" },
      ],
    });
    const tables = packageTables(content, "tr", "Europe/Istanbul", () => "");
    expect(tables.map((t) => t.sheet)).toEqual(["Faturalar", "İadeler", "Özet", "Eksik PDF", "Panelde kesilen"]);
    const panel = panelTable(content, "en");
    expect(panel.header).toEqual(["Recorded in the app on", "Invoice number", "Order", "Note"]);
    expect(panel.rows).toEqual([
      [{ date: "2026-10-03" }, "GIB2026000000001", "#1001", "el ile"],
      [{ date: "2026-10-09" }, "GIB2026000000002", "#1002", ""],
    ]);
    expect(summaryTable(content, "en").rows).toContainEqual([
      "Issued in the invoicing panel (their amounts and PDFs are not in this package)",
      "",
      "",
      "2",
      "",
      "",
      "",
      "",
    ]);
    // No panel invoice: no such sheet.
    expect(packageTables(packageContent([], [], []), "tr", "UTC", () => "").map((t) => t.sheet)).not.toContain(
      "Panelde kesilen",
    );
  });

  it("says first in the summary when the package was built before its period ended", () => {
    const early = packageContent([], [], [], { period: { to: "2026-10-31", builtOn: "2026-10-20" } });
    expect(early.builtBeforeEnd).toEqual({ builtOn: "2026-10-20", periodEnd: "2026-10-31" });
    expect(summaryTable(early, "tr").rows[0][0]).toBe(
      "Dönem bitmeden hazırlandı (20.10.2026; dönem 31.10.2026 tarihinde bitiyor): sonraki faturalar bu pakette yok",
    );
    expect(summaryTable(early, "en").rows[0][0]).toContain("on 2026-10-20; the period ends 2026-10-31");
    // On the period's last day it is not over either; the day after, it is.
    expect(packageContent([], [], [], { period: { to: "2026-10-31", builtOn: "2026-10-31" } }).builtBeforeEnd).not.toBe(
      null,
    );
    const after = packageContent([], [], [], { period: { to: "2026-10-31", builtOn: "2026-11-01" } });
    expect(after.builtBeforeEnd).toBeNull();
    expect(summaryTable(after, "tr").rows).toEqual([]);
  });

  it("names the package after the month, or the range", () => {
    expect(packageBaseName("2026-10-01", "2026-10-31", "tr")).toBe("muhasebe-2026-10");
    expect(packageBaseName("2026-02-01", "2026-02-28", "en")).toBe("accountant-2026-02");
    expect(packageBaseName("2026-10-01", "2026-10-30", "tr")).toBe("muhasebe-2026-10-01_2026-10-30");
  });
});

describe("the accountant package's files", () => {
  it("defuses a buyer name that a spreadsheet would run as a formula, in the CSV, and keeps it as text in the workbook", async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const ExcelJS = (await import("exceljs")).default;
    const { writeCsv, writeWorkbook } = await import("../../app/accountant/files.server");
    const evil = invoice("31", {
      customer: { ...company, title: '=HYPERLINK("http://x","tıkla")' },
      lines: [{ quantity: 1, unit_price: "10.00", tax_rate: "20" }],
    });
    const content = packageContent([evil], [], []);
    const table = invoicesTable(content, "tr");
    const dir = mkdtempSync(path.join(tmpdir(), "accountant-files-"));
    try {
      await writeCsv(path.join(dir, "faturalar.csv"), table, { locale: "tr", decimal: "comma" });
      const csv = readFileSync(path.join(dir, "faturalar.csv"), "utf8");
      expect(csv.startsWith("\uFEFF")).toBe(true);
      expect(csv).toContain(`"'=HYPERLINK(""http://x"",""tıkla"")"`);
      expect(csv).not.toMatch(/(^|;)"=/m);
      await writeWorkbook(path.join(dir, "book.xlsx"), [table]);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(path.join(dir, "book.xlsx"));
      const cell = book.worksheets[0].getRow(2).getCell(table.header.indexOf("Alıcı") + 1);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.value).toBe('=HYPERLINK("http://x","tıkla")');
      const total = book.worksheets[0].getRow(2).getCell(table.header.indexOf("Toplam") + 1);
      expect(total.type).toBe(ExcelJS.ValueType.Number);
      expect(total.numFmt).toBe("#,##0.00");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes days and amounts as the package's language does: 05.10.2026 and 12,00 in Turkish (or a point, when chosen), ISO days in English; dates in the workbook", async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const ExcelJS = (await import("exceljs")).default;
    const { parse } = await import("csv-parse/sync");
    const { writeCsv, writeWorkbook } = await import("../../app/accountant/files.server");
    const one = invoice("32", { lines: [{ quantity: 1, unit_price: "10.00", tax_rate: "20" }] });
    const content = packageContent([one], [], []);
    const dir = mkdtempSync(path.join(tmpdir(), "accountant-formats-"));
    const csvOf = async (locale: "tr" | "en", decimal: "comma" | "point") => {
      const table = invoicesTable(content, locale);
      const file = path.join(dir, `${locale}-${decimal}.csv`);
      await writeCsv(file, table, { locale, decimal });
      const [header, row] = parse(readFileSync(file, "utf8"), { bom: true, delimiter: ";" }) as string[][];
      const at = (name: string) => row[header.indexOf(name)];
      return locale === "tr" ? [at("Fatura tarihi"), at("Toplam")] : [at("Invoice date"), at("Total")];
    };
    try {
      expect(await csvOf("tr", "comma")).toEqual(["05.10.2026", "12,00"]);
      expect(await csvOf("tr", "point")).toEqual(["05.10.2026", "12.00"]);
      expect(await csvOf("en", "point")).toEqual(["2026-10-05", "12.00"]);
      expect(await csvOf("en", "comma")).toEqual(["2026-10-05", "12,00"]);
      for (const [locale, format] of [
        ["tr", "dd.mm.yyyy"],
        ["en", "yyyy-mm-dd"],
      ] as const) {
        const file = path.join(dir, `${locale}.xlsx`);
        await writeWorkbook(file, [invoicesTable(content, locale)], locale);
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile(file);
        const cell = book.worksheets[0].getRow(2).getCell(1);
        expect(cell.type).toBe(ExcelJS.ValueType.Date);
        expect((cell.value as Date).toISOString()).toBe("2026-10-05T00:00:00.000Z");
        expect(cell.numFmt).toBe(format);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
