import { describe, expect, it } from "vitest";
import { action as detailAction, loader as detailLoader } from "../../app/routes/app.invoices.$id";
import { saveConnection } from "../../app/settings/settings.server";
import { callRoute } from "../helpers/routes";
import { adminDocumentRequest, adminFetchRequest, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { seedInvoice } from "../helpers/seed";

async function detail(id: string, shop = SHOP) {
  return callRoute(detailLoader, await adminDocumentRequest(`/app/invoices/${id}`, shop), { id });
}

async function act(id: string, intent: string, shop = SHOP) {
  const request = await adminFetchRequest(`/app/invoices/${id}`, shop, {
    method: "POST",
    body: new URLSearchParams({ intent }),
  });
  return callRoute(detailAction, request, { id });
}

describe("invoice detail", () => {
  freshShopsForEachTest();

  it("shows the order, the body sent, the service's totals against the order total, problems and the audit trail", async () => {
    await saveConnection(SHOP, { baseUrl: "https://app.faturaentegrator.com/api", apiKey: "a-working-key-123" });
    const row = await seedInvoice(SHOP, {
      orderName: "#1042",
      state: "completed",
      orderTotal: "100.10",
      remoteId: 77,
      serialNumber: "EFA2026000000042",
      pdfUrl: "https://files.example/42.pdf",
      requestBody: { order_id: "1042", lines: [{ name: "Çay", price: "50.05" }] },
      remoteTotals: { lines_total: "83.42", discount_total: "0.00", tax_total: "16.68", grand_total: "100.30" },
      problems: [{ code: "invoice.total_mismatch", params: { remote: "100.30", paid: "100.10" }, severity: "warning" }],
    });
    await prisma.invoiceEvent.createMany({
      data: [
        { invoiceId: row.id, type: "received", at: new Date("2026-11-20T10:00:00Z") },
        {
          invoiceId: row.id,
          type: "posted",
          at: new Date("2026-11-20T10:00:01Z"),
          message: "invoice 77 at the service",
        },
        {
          invoiceId: row.id,
          type: "needs_attention",
          at: new Date("2026-11-20T10:00:02Z"),
          message: "line.zero_rate_without_exemption",
          data: {
            problems: [{ code: "line.zero_rate_without_exemption", params: { line: "Çay" }, severity: "error" }],
          },
        },
      ],
    });
    const response = await detail(row.id);
    expect(response.status).toBe(200);
    const { invoice } = (await response.json()) as {
      invoice: Record<string, unknown> & {
        totals: Record<string, unknown>;
        events: Array<{ type: string; problems: unknown[] }>;
      };
    };
    expect(invoice).toMatchObject({
      orderName: "#1042",
      serialNumber: "EFA2026000000042",
      pdfUrl: "https://files.example/42.pdf",
      requestBody: { order_id: "1042", lines: [{ name: "Çay", price: "50.05" }] },
      panelUrl: "https://app.faturaentegrator.com/invoice/77",
      errors: [],
      warnings: [{ code: "invoice.total_mismatch", severity: "warning" }],
      canRetry: false,
      canInvoiceNow: false,
      inFlight: false,
    });
    // Exact decimal difference: 100.30 - 100.10 is 0.20, not 0.20000000000000284.
    expect(invoice.totals).toMatchObject({
      orderTotal: "100.10",
      difference: "0.20",
      matches: false,
      remote: { grandTotal: "100.3", taxTotal: "16.68" },
    });
    expect(invoice.events.map((event) => event.type)).toEqual(["received", "posted", "needs_attention"]);
    // The trail keeps the problem with its parameters, so the page can say it in words.
    expect(invoice.events[2]).toMatchObject({
      problems: [{ code: "line.zero_rate_without_exemption", params: { line: "Çay" } }],
    });
  });

  it("answers 404 for another shop's invoice id, and for an unknown id", async () => {
    const theirs = await seedInvoice(OTHER_SHOP, { orderName: "#SECRET" });
    const response = await detail(theirs.id, SHOP);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("#SECRET");
    expect((await detail("does-not-exist")).status).toBe(404);
    expect((await detail(theirs.id, OTHER_SHOP)).status).toBe(200);
  });

  it("retries the shop's own invoice that needs attention, and never another shop's", async () => {
    const mine = await seedInvoice(SHOP, {
      state: "needs_attention",
      problems: [{ code: "settings.missing_api_key", severity: "error" }],
    });
    const theirs = await seedInvoice(OTHER_SHOP, { state: "needs_attention" });
    // The page offers the retry because the loader says so, with the same rule the action checks.
    expect(((await (await detail(mine.id)).json()) as { invoice: unknown }).invoice).toMatchObject({
      canRetry: true,
      errors: [{ code: "settings.missing_api_key", severity: "error" }],
      warnings: [],
    });

    const refused = await act(theirs.id, "retry", SHOP);
    expect(refused.status).toBe(404);
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: theirs.id } })).state).toBe("needs_attention");
    expect(await prisma.invoiceEvent.count({ where: { invoiceId: theirs.id } })).toBe(0);

    const done = await act(mine.id, "retry", SHOP);
    expect(done.status).toBe(200);
    const after = await prisma.invoice.findUniqueOrThrow({ where: { id: mine.id } });
    expect(after.state).toBe("queued");
    expect(await prisma.invoiceEvent.count({ where: { invoiceId: mine.id, type: "merchant_retry" } })).toBe(1);
  });

  it("refuses a retry of a completed invoice (409) and invoices a waiting order now", async () => {
    const completed = await seedInvoice(SHOP, { state: "completed" });
    expect((await act(completed.id, "retry")).status).toBe(409);
    const waiting = await seedInvoice(SHOP, { state: "waiting" });
    const theirsWaiting = await seedInvoice(OTHER_SHOP, { state: "waiting" });
    const offered = async (id: string) =>
      ((await (await detail(id)).json()) as { invoice: { canRetry: boolean; canInvoiceNow: boolean } }).invoice;
    expect(await offered(completed.id)).toMatchObject({ canRetry: false, canInvoiceNow: false });
    expect(await offered(waiting.id)).toMatchObject({ canRetry: false, canInvoiceNow: true });
    // An order cancelled in Shopify before the service had its invoice is not offered a retry the action would refuse.
    const cancelledFirst = await seedInvoice(SHOP, { state: "needs_attention" });
    await prisma.invoice.update({ where: { id: cancelledFirst.id }, data: { cancelledInShop: true } });
    expect(await offered(cancelledFirst.id)).toMatchObject({ canRetry: false });
    expect((await act(cancelledFirst.id, "retry")).status).toBe(409);
    expect((await act(theirsWaiting.id, "invoice_now", SHOP)).status).toBe(404);
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: theirsWaiting.id } })).state).toBe("waiting");
    expect((await act(waiting.id, "invoice_now")).status).toBe(200);
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: waiting.id } })).state).toBe("queued");
    expect((await act(waiting.id, "bogus")).status).toBe(400);
  });
});
