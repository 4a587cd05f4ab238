// The invoice page's after-sale view, its "cancelled in the panel" confirmation, the Returns page and its CSV:
// refunds recorded through the real webhook route against formalised invoices, read by the session's shop only.
import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { action as detailAction, loader as detailLoader } from "../../app/routes/app.invoices.$id";
import { loader as returnsLoader } from "../../app/routes/app.returns";
import { loader as csvLoader } from "../../app/routes/app.returns.csv";
import { todayIn } from "../../app/after-sale/invoice-view.server";
import { callRoute } from "../helpers/routes";
import { adminDocumentRequest, adminFetchRequest, APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { freshShopsForEachTest, prisma } from "../helpers/db";
import { deliver, scenario } from "../helpers/after-sale";

/** A formalised invoice of the scenario's order, as the worker leaves it (issued today, Istanbul). */
async function formalised(o: ReturnType<typeof scenario>, documentKind: "e_archive" | "e_invoice", shop = SHOP) {
  return prisma.invoice.create({
    data: {
      shopDomain: shop,
      orderId: o.id,
      orderName: o.order.name,
      orderCreatedAt: new Date(o.order.created_at),
      customerName: "Ayşe Yılmaz",
      orderTotal: o.order.total_price,
      currency: "TRY",
      orderSnapshot: o.order,
      state: "completed",
      remoteId: 4242,
      formalStatus: "completed",
      workflowStatus: "completed",
      documentKind,
      serialNumber: documentKind === "e_archive" ? "ARS2026000000007" : "EFT2026000000007",
      ettn: "0b6c2f55-8d0e-4c3a-9a57-1a1f3c9d2e10",
      requestBody: {
        issue_date: todayIn("Europe/Istanbul"),
        customer: { name: "Ayşe", surname: "Yılmaz", tax_number: "12345678950" },
      },
      remoteTotals: {
        lines_total: "458.08",
        discount_total: "0.00",
        tax_total: "91.62",
        grand_total: o.order.total_price,
      },
    },
  });
}

const detail = async (id: string, shop = SHOP) =>
  (await callRoute(detailLoader, await adminDocumentRequest(`/app/invoices/${id}`, shop), { id })).json();
const act = async (id: string, intent: string, shop = SHOP) =>
  callRoute(
    detailAction,
    await adminFetchRequest(`/app/invoices/${id}`, shop, { method: "POST", body: new URLSearchParams({ intent }) }),
    { id },
  );

describe("after-sale pages", () => {
  freshShopsForEachTest();

  it("a partial return of an e-Arşiv invoice: the refund with its items, and the consumer-return path", async () => {
    const o = scenario("01-single-item-citizen");
    const row = await formalised(o, "e_archive");
    await deliver("refunds/create", o.fixture("refund-partial-lines"));
    const { invoice } = await detail(row.id);
    expect(invoice.afterSale.path).toEqual({ kind: "consumer_return" });
    expect(invoice.afterSale.refunds).toEqual([
      expect.objectContaining({
        amount: "249.90",
        handling: "after_formalisation",
        restock: true,
        lines: [expect.objectContaining({ name: "Seramik Kupa", quantity: 1, subtotal: "249.90", tax: "41.65" })],
      }),
    ]);
    // The invoice was issued before the refund: the totals match what was paid then.
    expect(invoice.reconciliation).toMatchObject({ difference: "0.00", reconciled: true });
  });

  it("e-Arşiv cancelled within the window: cancel in the panel, then 'done' ends the row cancelled (this shop only)", async () => {
    const o = scenario("01-single-item-citizen");
    const row = await formalised(o, "e_archive");
    await deliver("orders/cancelled", o.fixture("cancelled-1001"));
    const { invoice } = await detail(row.id);
    expect(invoice.afterSale.path).toMatchObject({ kind: "cancel", via: "panel" });
    expect((await act(row.id, "confirm_panel_cancel", OTHER_SHOP)).status).toBe(404);
    const confirmed = await act(row.id, "confirm_panel_cancel");
    expect(confirmed.status).toBe(200);
    const after = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.state).toBe("cancelled");
    expect(after.panelCancelConfirmedAt).toBeInstanceOf(Date);
    expect((await detail(row.id)).invoice.afterSale.path.kind).toBe("cancelled_confirmed");
    expect((await act(row.id, "confirm_panel_cancel")).status).toBe(409);
  });

  it("an e-Fatura buyer's return: expect the buyer's İADE invoice; 'done' is refused", async () => {
    const o = scenario("09-company-buyer");
    const row = await formalised(o, "e_invoice");
    await deliver("orders/cancelled", {
      ...o.order,
      cancelled_at: "2026-11-21T10:00:00+03:00",
      financial_status: "refunded",
    });
    expect((await detail(row.id)).invoice.afterSale.path).toEqual({ kind: "buyer_return_invoice" });
    expect((await act(row.id, "confirm_panel_cancel")).status).toBe(409);
  });

  it("the Returns page lists the shop's refunds with their path; the CSV is the same list, Excel-friendly", async () => {
    const o = scenario("01-single-item-citizen");
    await formalised(o, "e_archive");
    await deliver("refunds/create", o.fixture("refund-partial-lines"));
    const other = scenario("02-mixed-rates-free-shipping");
    await deliver("refunds/create", other.fixture("refund-amount-only"), { shop: OTHER_SHOP });

    const page = await (await callRoute(returnsLoader, await adminDocumentRequest("/app/returns", SHOP))).json();
    expect(page.rows).toEqual([
      expect.objectContaining({
        orderName: "#1001",
        serialNumber: "ARS2026000000007",
        buyerName: "Ayşe Yılmaz",
        buyerTaxNumber: "12345678950",
        amount: "249.90",
        path: { kind: "consumer_return" },
      }),
    ]);

    const csv = await callRoute(csvLoader, await adminFetchRequest("/app/returns/csv?decimal=comma&locale=tr", SHOP));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // Named by the shop's day (Istanbul), as its rows are dated: not UTC's, a day behind from 21:00 UTC.
    expect(csv.headers.get("content-disposition")).toBe(
      `attachment; filename="iadeler-${todayIn("Europe/Istanbul")}.csv"`,
    );
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await csv.arrayBuffer());
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = parse(text, { bom: true, delimiter: ";" }) as string[][];
    expect(lines).toHaveLength(2);
    expect(lines[1][2]).toBe("ARS2026000000007");
    expect(lines[1].slice(10)).toEqual([
      "1",
      "249,90",
      "41,65",
      "0,00",
      "249,90",
      "evet",
      "Tüketici iadesini kayda alın (gider pusulası)",
    ]);
    // Unauthenticated: no CSV.
    const anonymous = await callRoute(csvLoader, new Request(`${APP_ORIGIN}/app/returns/csv`));
    expect(anonymous.status).not.toBe(200);
  });
});
