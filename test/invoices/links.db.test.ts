// Links from the invoicing service are shown only when they are web addresses: https (http for local runs).
import { beforeEach, describe, expect, it } from "vitest";
import { safeLink } from "../../app/invoicing-service/links";
import { loader as orderBlock } from "../../app/routes/api.orders.$orderId.invoice";
import { listInvoices, parseListParams } from "../../app/invoices/list.server";
import { getInvoiceDetail } from "../../app/invoices/detail.server";
import { callRoute } from "../helpers/routes";
import { adminFetchRequest, SHOP } from "../helpers/shopify";
import { installShop, prisma } from "../helpers/db";
import { seedInvoice } from "../helpers/seed";

const HOSTILE = [
  "javascript:alert(document.cookie)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:x",
  "file:///etc/passwd",
  "https://user:pw@pdf.example/x.pdf",
  "//evil.example/x.pdf",
  "not a url",
];

describe("safeLink", () => {
  it.each(HOSTILE)("drops %s", (value) => {
    expect(safeLink(value, { allowHttp: true })).toBeNull();
  });

  it("keeps https, and http only for local runs", () => {
    expect(safeLink("https://app.faturaentegrator.com/pdf/1.pdf", { allowHttp: false })).toBe(
      "https://app.faturaentegrator.com/pdf/1.pdf",
    );
    expect(safeLink("http://127.0.0.1:4010/pdf/1.pdf", { allowHttp: false })).toBeNull();
    expect(safeLink("http://127.0.0.1:4010/pdf/1.pdf", { allowHttp: true })).toBe("http://127.0.0.1:4010/pdf/1.pdf");
    expect(safeLink(null, { allowHttp: true })).toBeNull();
    expect(safeLink(`https://x.example/${"a".repeat(3000)}`, { allowHttp: true })).toBeNull();
  });
});

describe("PDF links stored before they were checked", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await prisma.session.deleteMany();
    await installShop(SHOP);
  });

  it("are not given to the list, the detail page or the order block", async () => {
    const row = await seedInvoice(SHOP, {
      pdfUrl: "javascript:alert(document.cookie)",
      serialNumber: "ARS2026000000001",
    });
    const good = await seedInvoice(SHOP, { pdfUrl: "https://app.faturaentegrator.com/pdf/2.pdf" });
    const page = await listInvoices(SHOP, parseListParams(new URLSearchParams()), "Europe/Istanbul");
    expect(page.rows.find((r) => r.id === row.id)!.pdfUrl).toBeNull();
    expect(page.rows.find((r) => r.id === good.id)!.pdfUrl).toBe("https://app.faturaentegrator.com/pdf/2.pdf");
    expect((await getInvoiceDetail(SHOP, row.id))!.pdfUrl).toBeNull();
    const response = await callRoute(orderBlock, await adminFetchRequest(`/api/orders/${row.orderId}/invoice`, SHOP), {
      orderId: row.orderId,
    });
    expect((await response.json()).invoice.pdfUrl).toBeNull();
  });
});
