// The accountant package's rows and totals (app/accountant/workbook.ts), pure: per VAT rate as the service computes each
// line, exemptions, foreign currency, and totals that add up to the invoices' to the kuruş.
import { describe, expect, it } from "vitest";
import { computeTotals } from "../../app/invoicing-service/totals";
import { Decimal } from "../../app/invoicing-service/money";
import {
  failuresTable,
  invoicesTable,
  packageBaseName,
  packageContent,
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
  if (!cell || typeof cell === "string") throw new Error(`not an amount: ${JSON.stringify(cell)}`);
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
      await writeCsv(path.join(dir, "faturalar.csv"), table);
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
});
