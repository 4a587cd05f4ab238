// Pure parts of the admin: URL parameters, cursors, search shapes, panel links, money display.
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, parseListParams, searchWhere } from "../../app/admin/invoices.server";
import { panelInvoiceUrl, totalsView } from "../../app/admin/invoice-detail.server";
import { formatMoney } from "../../app/components/format";

describe("invoice list parameters", () => {
  it("keeps valid filters and drops malformed ones instead of failing", () => {
    const cursor = encodeCursor({ createdAt: new Date("2026-11-20T10:00:00.123Z"), id: "cabc123" });
    expect(parseListParams(new URLSearchParams(`state=failed&from=2026-11-01&to=2026-11-30&q=%20Ayşe%20&after=${cursor}`))).toEqual({
      state: "failed",
      from: "2026-11-01",
      to: "2026-11-30",
      q: "Ayşe",
      after: cursor,
      before: null,
    });
    expect(parseListParams(new URLSearchParams("state=drop_table&from=2026-13-45&to=yesterday&after=%27%3B--&q="))).toEqual({
      state: null,
      from: null,
      to: null,
      q: null,
      after: null,
      before: null,
    });
  });

  it("round-trips a cursor and refuses a forged one", () => {
    const row = { createdAt: new Date("2026-01-02T03:04:05.678Z"), id: "cmwreqtq90000gp7d1huwtw9m" };
    expect(decodeCursor(encodeCursor(row))).toEqual(row);
    expect(decodeCursor(Buffer.from("not a date|x").toString("base64url"))).toBeNull();
    expect(decodeCursor(Buffer.from("2026-01-01T00:00:00Z|id' OR 1=1").toString("base64url"))).toBeNull();
  });

  it("searches order numbers and serial numbers by prefix range, anything else as a customer name", () => {
    expect(searchWhere("#1001")).toEqual({ OR: [{ orderName: { gte: "#1001", lt: "#1001\uffff" } }, { orderName: { gte: "1001", lt: "1001\uffff" } }] });
    expect(searchWhere("ars2026")).toEqual({ serialNumber: { gte: "ARS2026", lt: "ARS2026\uffff" } });
    expect(searchWhere("Yılmaz")).toMatchObject({ OR: [{ customerName: { contains: "Yılmaz" } }, { orderName: { gte: "Yılmaz" } }, { serialNumber: { gte: "YILMAZ" } }] });
  });
});

describe("detail helpers", () => {
  it("derives the panel address from the API base URL", () => {
    expect(panelInvoiceUrl("https://app.faturaentegrator.com/api", 77)).toBe("https://app.faturaentegrator.com/invoice/77");
    expect(panelInvoiceUrl("https://staging.faturaentegrator.com/api/", 5)).toBe("https://staging.faturaentegrator.com/invoice/5");
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
