// Pure parts of the admin: URL parameters, cursors, search shapes, panel links, money display.
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, parseListParams, searchWhere } from "../../app/invoices/list.server";
import { foldForSearch } from "../../app/i18n/search-fold";
import { panelInvoiceUrl, totalsView } from "../../app/invoices/detail.server";
import { formatMoney } from "../../app/ui/format";

describe("invoice list parameters", () => {
  it("keeps valid filters and drops malformed ones instead of failing", () => {
    const cursor = encodeCursor({ orderCreatedAt: new Date("2026-11-20T10:00:00.123Z"), id: "cabc123" });
    expect(
      parseListParams(
        new URLSearchParams(`state=failed&from=2026-11-01&to=2026-11-30&q=%20Ayşe%20&deadline=near&after=${cursor}`),
      ),
    ).toEqual({
      state: "failed",
      from: "2026-11-01",
      to: "2026-11-30",
      q: "Ayşe",
      deadline: "near",
      after: cursor,
      before: null,
    });
    expect(
      parseListParams(
        new URLSearchParams("state=drop_table&from=2026-13-45&to=yesterday&after=%27%3B--&q=&deadline=all"),
      ),
    ).toEqual({
      state: null,
      from: null,
      to: null,
      q: null,
      deadline: null,
      after: null,
      before: null,
    });
  });

  it("round-trips a cursor and refuses a forged one", () => {
    const row = { orderCreatedAt: new Date("2026-01-02T03:04:05.678Z"), id: "cmwreqtq90000gp7d1huwtw9m" };
    expect(decodeCursor(encodeCursor(row))).toEqual(row);
    expect(decodeCursor(Buffer.from("not a date|x").toString("base64url"))).toBeNull();
    expect(decodeCursor(Buffer.from("2026-01-01T00:00:00Z|id' OR 1=1").toString("base64url"))).toBeNull();
  });

  it("searches order numbers and serial numbers by prefix range, anything else as a customer name", () => {
    expect(searchWhere("#1001")).toEqual({
      OR: [{ orderName: { gte: "#1001", lt: "#1001\uffff" } }, { orderName: { gte: "1001", lt: "1001\uffff" } }],
    });
    expect(searchWhere("ars2026")).toEqual({ serialNumber: { gte: "ARS2026", lt: "ARS2026\uffff" } });
    expect(searchWhere("Yılmaz")).toMatchObject({
      OR: [
        { customerSearch: { contains: "yilmaz" } },
        { orderName: { gte: "Yılmaz" } },
        { serialNumber: { gte: "YILMAZ" } },
      ],
    });
  });

  it("never lets LIKE's wildcards reach a name search: % and _ fold away, and what folds to nothing matches no name", () => {
    expect(searchWhere("%")).toEqual({
      OR: [{ orderName: { gte: "%", lt: "%\uffff" } }, { serialNumber: { gte: "%", lt: "%\uffff" } }],
    });
    expect((searchWhere("a_b%c") as { OR: unknown[] }).OR[0]).toEqual({ customerSearch: { contains: "a b c" } });
  });

  it("takes a date range given the wrong way round as the same days", () => {
    expect(parseListParams(new URLSearchParams("from=2026-11-30&to=2026-11-01"))).toMatchObject({
      from: "2026-11-01",
      to: "2026-11-30",
    });
  });
});

describe("search folding", () => {
  it("folds case and Turkish letters, both dotted and dotless i, and punctuation", () => {
    for (const typed of ["Ayşe", "ayse", "AYŞE", "aYsE", "AYSE"]) expect(foldForSearch(typed)).toBe("ayse");
    expect(foldForSearch("YILMAZ")).toBe("yilmaz");
    expect(foldForSearch("Yılmaz")).toBe("yilmaz");
    expect(foldForSearch("İSTANBUL ıspanak")).toBe("istanbul ispanak");
    expect(foldForSearch("Çağrı Öztürk Güneş")).toBe("cagri ozturk gunes");
    expect(foldForSearch("Anadolu Tekstil A.Ş.")).toBe("anadolu tekstil a s");
    expect(foldForSearch("Hans Müller")).toBe("hans muller");
    expect(foldForSearch("Demir Bilişim Ltd. Şti. - 6080712084")).toBe("demir bilisim ltd sti 6080712084");
    expect(foldForSearch("%_%")).toBe("");
    expect(foldForSearch(null)).toBe("");
  });
});

describe("detail helpers", () => {
  it("derives the panel address from the API base URL", () => {
    expect(panelInvoiceUrl("https://app.faturaentegrator.com/api", 77)).toBe(
      "https://app.faturaentegrator.com/invoice/77",
    );
    expect(panelInvoiceUrl("https://staging.faturaentegrator.com/api/", 5)).toBe(
      "https://staging.faturaentegrator.com/invoice/5",
    );
  });

  it("compares the service's grand total with the order total in exact decimals", () => {
    expect(totalsView("0.30", "TRY", { grand_total: "0.1" }).difference).toBe("-0.20");
    expect(totalsView("100.10", "TRY", { grand_total: "100.30" }).difference).toBe("0.20");
    expect(totalsView("100.10", "TRY", null)).toMatchObject({ remote: null, difference: null });
  });

  it("formats decimal-string amounts without going through floats", () => {
    // As a float this would be 12,345,678,901,234,568.00.
    expect(formatMoney("12345678901234567.89", "TRY", "en").replace(/\s/g, " ")).toBe("TRY 12,345,678,901,234,567.89");
    expect(formatMoney("1234.5", "TRY", "tr")).toBe("₺1.234,50");
    expect(formatMoney("oops", "TRY", "tr")).toBe("oops TRY");
  });
});
