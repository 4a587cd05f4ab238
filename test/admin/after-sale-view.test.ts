// The after-sale rules as the pages state them (pure), and the Returns export's format.
import { describe, expect, it } from "vitest";
import { addDays, afterSalePath, reconcile, type AfterSaleInput, type RefundInput } from "../../app/admin/after-sale";
import { csvField, returnPathText, returnsCsv } from "../../app/admin/returns-csv";
import type { ReturnRow } from "../../app/admin/returns.server";
import { orderFixture } from "../helpers/after-sale";

const refund = (over: Partial<RefundInput> = {}): RefundInput => ({
  refundId: "1",
  refundedAt: new Date("2026-11-21T10:00:00Z"),
  lineItems: [{ lineItemId: "11", name: "Kupa", sku: "K-1", quantity: 1, subtotal: "249.90", tax: "41.65", restockType: "return", giftCard: false }],
  hasLineItems: true,
  shipping: "0.00",
  amount: "249.90",
  giftCardAmount: "0.00",
  restock: true,
  handling: "after_formalisation",
  ...over,
});
const input = (over: Partial<AfterSaleInput> = {}): AfterSaleInput => ({
  state: "completed",
  documentKind: "e_archive",
  issueDate: "2026-11-20",
  formalised: true,
  cancelledInShop: false,
  panelCancelConfirmedAt: null,
  refunds: [refund()],
  invoicedTotal: "549.70",
  ...over,
});

describe("the path after formalisation", () => {
  it("e-Arşiv, whole sale undone, within 8 days: cancel in the panel by the deadline", () => {
    expect(addDays("2026-11-20", 8)).toBe("2026-11-28");
    const view = afterSalePath(input({ cancelledInShop: true }), "2026-11-28");
    expect(view.path).toEqual({ kind: "cancel", deadline: "2026-11-28", via: "panel" });
    // Refunds that reach the invoiced total are a whole undo too.
    expect(afterSalePath(input({ refunds: [refund({ amount: "549.70" })] }), "2026-11-21").path?.kind).toBe("cancel");
  });

  it("e-Arşiv, whole undo after the window: the consumer's return is recorded instead", () => {
    expect(afterSalePath(input({ cancelledInShop: true }), "2026-11-29").path).toEqual({ kind: "consumer_return" });
  });

  it("e-Arşiv, partial return: the seller records the consumer's return", () => {
    expect(afterSalePath(input(), "2026-11-21").path).toEqual({ kind: "consumer_return" });
  });

  it("e-Fatura: the buyer issues its own return invoice, whatever the timing", () => {
    expect(afterSalePath(input({ documentKind: "e_invoice", cancelledInShop: true }), "2026-11-21").path).toEqual({ kind: "buyer_return_invoice" });
    expect(afterSalePath(input({ documentKind: "e_invoice" }), "2026-12-30").path).toEqual({ kind: "buyer_return_invoice" });
  });

  it("refunds dealt with before formalisation need nothing; a confirmed panel cancellation is shown as such", () => {
    expect(afterSalePath(input({ refunds: [refund({ handling: "before_invoice" })] }), "2026-11-21").path).toBeNull();
    expect(afterSalePath(input({ formalised: false, refunds: [refund({ handling: "reissued" })] }), "2026-11-21").path).toBeNull();
    const at = new Date("2026-11-22T09:00:00Z");
    expect(afterSalePath(input({ cancelledInShop: true, panelCancelConfirmedAt: at }), "2026-11-22").path).toEqual({ kind: "cancelled_confirmed", at: at.toISOString() });
  });

  it("an unknown document kind is not guessed", () => {
    expect(afterSalePath(input({ documentKind: null }), "2026-11-21").path).toEqual({ kind: "unknown_document" });
  });
});

describe("money reconciliation", () => {
  it("a gift card sold on the order explains the difference", () => {
    const order = orderFixture("17-gift-card-with-item");
    const result = reconcile(order.total_price, "427.90", order, []);
    expect(result).toEqual({ difference: "-500.00", reasons: [{ kind: "gift_cards", amount: "500.00" }], unexplained: "0.00", reconciled: true });
  });

  it("a refund before invoicing explains what was left off", () => {
    const order = orderFixture("01-single-item-citizen");
    const r = refund({ handling: "before_invoice", amount: "249.90" });
    expect(reconcile(order.total_price, "299.80", order, [r])).toMatchObject({ reasons: [{ kind: "refunds_before_invoice", amount: "249.90" }], reconciled: true });
  });

  it("a tip explains the difference; anything else is left unexplained, in figures", () => {
    const order = { ...orderFixture("01-single-item-citizen"), total_tip_received: "20.00" };
    expect(reconcile("569.70", "549.70", order, [])).toMatchObject({ reasons: [{ kind: "tip", amount: "20.00" }], reconciled: true });
    expect(reconcile("569.70", "500.00", order, [])).toMatchObject({ difference: "-69.70", unexplained: "-49.70", reconciled: false });
  });
});

describe("the Returns export", () => {
  const row: ReturnRow = {
    refundId: "9100000001",
    refundedAt: "2026-11-20T12:00:00.000Z",
    orderId: "5810000001",
    orderName: "#1001",
    invoiceId: "inv",
    serialNumber: "ARS2026000000001",
    issueDate: "2026-11-19",
    ettn: "e5c1",
    documentKind: "e_archive",
    buyerName: "Ayşe; \"Yılmaz\"",
    buyerTaxNumber: "12345678950",
    lines: [{ lineItemId: "11", name: "=Kupa", sku: null, quantity: 1, subtotal: "249.90", tax: "41.65", restockType: "return", giftCard: false }],
    hasLineItems: true,
    shipping: "0.00",
    amount: "1249.90",
    currency: "TRY",
    restock: true,
    handling: "after_formalisation",
    path: { kind: "consumer_return" },
  };

  it("is UTF-8 with a BOM, `;`-separated, CRLF, quoted where needed, formulas defused", () => {
    const csv = returnsCsv([row], { locale: "tr", decimal: "point" }, (r) => returnPathText(r, "tr"));
    expect(csv.startsWith("\uFEFFİade tarihi;Sipariş;")).toBe(true);
    const [, line] = csv.split("\r\n");
    expect(line).toBe(
      '2026-11-20;#1001;ARS2026000000001;2026-11-19;e5c1;e-Arşiv;"Ayşe; ""Yılmaz""";12345678950;\'=Kupa;;1;249.90;41.65;0.00;1249.90;evet;Tüketici iadesini kayda alın (gider pusulası)',
    );
    expect(csvField("-12.50")).toBe("-12.50");
  });

  it("takes Turkish decimal commas as an option, in English too", () => {
    const csv = returnsCsv([row], { locale: "en", decimal: "comma" }, (r) => returnPathText(r, "en"));
    expect(csv.split("\r\n")[0]).toContain("\uFEFFRefund date;Order;Invoice number");
    expect(csv.split("\r\n")[1]).toContain(";1;249,90;41,65;0,00;1249,90;yes;Record the consumer's return (gider pusulası)");
  });

  it("an amount-only refund is one row without an item", () => {
    const amountOnly = { ...row, buyerName: "Ayşe Yılmaz", lines: [], hasLineItems: false, amount: "100.00", path: null };
    const line = returnsCsv([amountOnly], { locale: "en", decimal: "point" }, (r) => returnPathText(r, "en")).split("\r\n")[1];
    expect(line.split(";").slice(8, 13)).toEqual(["", "", "", "", ""]);
    expect(line.endsWith("Nothing to do (handled before formalisation)")).toBe(true);
  });
});
