// The after-sale rules as the pages state them (pure), and the Returns export's format.
import { describe, expect, it } from "vitest";
import {
  addDays,
  afterSalePath,
  E_ARCHIVE_CANCEL_DAYS,
  reconcile,
  refundView,
  type AfterSaleInput,
  type RefundInput,
} from "../../app/after-sale/rules";
import { csvDate, csvField, defaultDecimal, returnPathText, returnsCsv } from "../../app/after-sale/returns-csv";
import type { ReturnRow } from "../../app/after-sale/returns.server";
import { orderFixture } from "../helpers/after-sale";
import { parse, type Options } from "csv-parse/sync";

const refund = (over: Partial<RefundInput> = {}): RefundInput => ({
  refundId: "1",
  refundedAt: new Date("2026-11-21T10:00:00Z"),
  lineItems: [
    {
      lineItemId: "11",
      name: "Kupa",
      sku: "K-1",
      quantity: 1,
      subtotal: "249.90",
      tax: "41.65",
      restockType: "return",
      giftCard: false,
    },
  ],
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
    expect(afterSalePath(input({ documentKind: "e_invoice", cancelledInShop: true }), "2026-11-21").path).toEqual({
      kind: "buyer_return_invoice",
    });
    expect(afterSalePath(input({ documentKind: "e_invoice" }), "2026-12-30").path).toEqual({
      kind: "buyer_return_invoice",
    });
  });

  it("refunds dealt with before formalisation need nothing; a confirmed panel cancellation is shown as such", () => {
    expect(afterSalePath(input({ refunds: [refund({ handling: "before_invoice" })] }), "2026-11-21").path).toBeNull();
    expect(
      afterSalePath(input({ formalised: false, refunds: [refund({ handling: "reissued" })] }), "2026-11-21").path,
    ).toBeNull();
    const at = new Date("2026-11-22T09:00:00Z");
    expect(afterSalePath(input({ cancelledInShop: true, panelCancelConfirmedAt: at }), "2026-11-22").path).toEqual({
      kind: "cancelled_confirmed",
      at: at.toISOString(),
    });
  });

  it("an unknown document kind is not guessed", () => {
    expect(afterSalePath(input({ documentKind: null }), "2026-11-21").path).toEqual({ kind: "unknown_document" });
  });
});

describe("money reconciliation", () => {
  it("a gift card sold on the order explains the difference", () => {
    const order = orderFixture("17-gift-card-with-item");
    const result = reconcile(order.total_price, "427.90", order, []);
    expect(result).toEqual({
      difference: "-500.00",
      reasons: [{ kind: "gift_cards", amount: "500.00" }],
      unexplained: "0.00",
      reconciled: true,
    });
  });

  it("a refund before invoicing explains what was left off", () => {
    const order = orderFixture("01-single-item-citizen");
    const r = refund({ handling: "before_invoice", amount: "249.90" });
    expect(reconcile(order.total_price, "299.80", order, [r])).toMatchObject({
      reasons: [{ kind: "refunds_before_invoice", amount: "249.90" }],
      reconciled: true,
    });
  });

  it("a refund already on the order when it was paid (no transactions in the webhook) explains what was left off", () => {
    // #1019: 1,413.63 paid, one unit refunded before the app invoiced it; Shopify's current total is 602.72.
    const order = orderFixture("19-partial-refund");
    expect(reconcile(order.total_price, "602.72", order, [])).toMatchObject({
      difference: "-810.91",
      reasons: [{ kind: "refunds_before_invoice", amount: "810.91" }],
      unexplained: "0.00",
      reconciled: true,
    });
    // The same refund stored from refunds/create as well counts once.
    const stored = refund({ refundId: String(order.refunds[0].id), handling: "before_invoice", amount: "810.91" });
    expect(reconcile(order.total_price, "602.72", order, [stored])).toMatchObject({
      reasons: [{ kind: "refunds_before_invoice", amount: "810.91" }],
      reconciled: true,
    });
  });

  it("a tip explains the difference; anything else is left unexplained, in figures", () => {
    const order = { ...orderFixture("01-single-item-citizen"), total_tip_received: "20.00" };
    expect(reconcile("569.70", "549.70", order, [])).toMatchObject({
      reasons: [{ kind: "tip", amount: "20.00" }],
      reconciled: true,
    });
    expect(reconcile("569.70", "500.00", order, [])).toMatchObject({
      difference: "-69.70",
      unexplained: "-49.70",
      reconciled: false,
    });
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
    buyerName: 'Ayşe; "Yılmaz"',
    buyerTaxNumber: "12345678950",
    lines: [
      {
        lineItemId: "11",
        name: "=Kupa",
        sku: null,
        quantity: 1,
        subtotal: "249.90",
        tax: "41.65",
        restockType: "return",
        giftCard: false,
      },
    ],
    hasLineItems: true,
    shipping: "0.00",
    amount: "1249.90",
    currency: "TRY",
    restock: true,
    handling: "after_formalisation",
    path: { kind: "consumer_return" },
  };

  const parsed = (csv: string, delimiter: ";" | ",") =>
    parse(csv, { bom: true, delimiter, record_delimiter: "\r\n" }) as string[][];

  it("is UTF-8 with a BOM, `;`-separated, CRLF, every field quoted, formulas defused", () => {
    const csv = returnsCsv([row], { locale: "tr", decimal: "point" }, (r) => returnPathText(r, "tr"));
    expect(csv.startsWith('\uFEFF"İade tarihi";"Sipariş";')).toBe(true);
    expect(csv.endsWith("\r\n")).toBe(true);
    const [header, line] = parsed(csv, ";");
    expect(header).toHaveLength(17);
    expect(line).toEqual([
      "20.11.2026",
      "#1001",
      "ARS2026000000001",
      "19.11.2026",
      "e5c1",
      "e-Arşiv",
      'Ayşe; "Yılmaz"',
      "12345678950",
      "'=Kupa",
      "",
      "1",
      "249.90",
      "41.65",
      "0.00",
      "1249.90",
      "evet",
      "Tüketici iadesini kayda alın (gider pusulası)",
    ]);
    expect(csvField("-12.50")).toBe('"-12.50"');
    expect(csvField("-12,50")).toBe('"-12,50"');
    // A negative whole number is a number too, not a formula; text after it is not.
    expect(csvField("-12")).toBe('"-12"');
    expect(csvField("-12.5x")).toBe(`"'-12.5x"`);
  });

  it("heads its columns as the accountant's sheet reads them, in this order, in both languages", () => {
    // The header row is what a spreadsheet's formulas and an accountant's import refer to: a renamed or moved column
    // breaks them, so every name is held here.
    const [tr] = parsed(
      returnsCsv([], { locale: "tr", decimal: "point" }, () => ""),
      ";",
    );
    expect(tr).toEqual([
      "İade tarihi",
      "Sipariş",
      "Fatura no",
      "Fatura tarihi",
      "ETTN",
      "Belge",
      "Alıcı",
      "Alıcı VKN/TCKN",
      "Ürün",
      "Stok kodu",
      "Adet",
      "Ürün tutarı",
      "Ürün KDV",
      "İade edilen kargo",
      "İade toplamı",
      "Stoka alındı",
      "Yapılacak",
    ]);
    const [en] = parsed(
      returnsCsv([], { locale: "en", decimal: "comma" }, () => ""),
      ";",
    );
    expect(en).toEqual([
      "Refund date",
      "Order",
      "Invoice number",
      "Invoice date",
      "ETTN",
      "Document",
      "Buyer",
      "Buyer tax number",
      "Item",
      "SKU",
      "Quantity",
      "Item amount",
      "Item VAT",
      "Shipping refunded",
      "Refund total",
      "Restocked",
      "What applies",
    ]);
    // No refunds: the header row only.
    expect(returnsCsv([], { locale: "en", decimal: "point" }, () => "")).toBe(
      '\uFEFF"Refund date";"Order";"Invoice number";"Invoice date";"ETTN";"Document";"Buyer";"Buyer tax number";"Item";"SKU";"Quantity";"Item amount";"Item VAT";"Shipping refunded";"Refund total";"Restocked";"What applies"\r\n',
    );
  });

  it("dates a refund by its day in the shop's zone, written as the export's language writes dates", () => {
    // 22:30 UTC on the 20th is already the 21st in Istanbul; a shop in New York still has the 20th.
    const late = { ...row, refundedAt: "2026-11-20T22:30:00.000Z" };
    const [, tr] = parsed(
      returnsCsv([late], { locale: "tr", decimal: "comma" }, () => ""),
      ";",
    );
    expect([tr[0], tr[3]]).toEqual(["21.11.2026", "19.11.2026"]);
    const [, en] = parsed(
      returnsCsv([late], { locale: "en", decimal: "point", zone: "America/New_York" }, () => ""),
      ";",
    );
    expect([en[0], en[3]]).toEqual(["2026-11-20", "2026-11-19"]);
    expect(csvDate("2026-02-03", "tr")).toBe("03.02.2026");
    expect(csvDate("2026-02-03", "en")).toBe("2026-02-03");
    expect(csvDate("not a day", "tr")).toBe("not a day");
    expect([defaultDecimal("tr"), defaultDecimal("en")]).toEqual(["comma", "point"]);
  });

  it("takes Turkish decimal commas as an option, in English too", () => {
    const csv = returnsCsv([row], { locale: "en", decimal: "comma" }, (r) => returnPathText(r, "en"));
    const [header, line] = parsed(csv, ";");
    expect(header.slice(0, 3)).toEqual(["Refund date", "Order", "Invoice number"]);
    expect(line.slice(10)).toEqual([
      "1",
      "249,90",
      "41,65",
      "0,00",
      "1249,90",
      "yes",
      "Record the consumer's return (gider pusulası)",
    ]);
  });

  it("fields the invoice lacks are empty; the document kind, restock and what applies in the export's language", () => {
    const bare = {
      ...row,
      serialNumber: null,
      issueDate: null,
      ettn: null,
      buyerName: null,
      buyerTaxNumber: null,
      documentKind: "e_invoice",
      restock: false,
      path: { kind: "buyer_return_invoice" as const },
    };
    const [, tr] = parsed(
      returnsCsv([bare], { locale: "tr", decimal: "point" }, (r) => returnPathText(r, "tr")),
      ";",
    );
    expect(tr.slice(0, 8)).toEqual(["20.11.2026", "#1001", "", "", "", "e-Fatura", "", ""]);
    expect(tr.slice(15)).toEqual(["hayır", "Alıcının İADE faturasını bekleyin"]);
    const [, en] = parsed(
      returnsCsv([{ ...bare, documentKind: null }], { locale: "en", decimal: "point" }, (r) => returnPathText(r, "en")),
      ";",
    );
    expect(en[5]).toBe("");
    expect(en.slice(15)).toEqual(["no", "Expect the buyer's İADE invoice"]);
    const [, yes] = parsed(
      returnsCsv([{ ...bare, restock: true, documentKind: "e_archive" }], { locale: "en", decimal: "point" }, (r) =>
        returnPathText(r, "en"),
      ),
      ";",
    );
    expect([yes[5], yes[15]]).toEqual(["e-Arşiv", "yes"]);
    // Only the decimal point becomes a comma.
    const [, comma] = parsed(
      returnsCsv([{ ...row, amount: "1249.90" }], { locale: "tr", decimal: "comma" }, () => ""),
      ";",
    );
    expect(comma.slice(11, 15)).toEqual(["249,90", "41,65", "0,00", "1249,90"]);
  });

  it("what applies, in words: the cancellation's deadline as the page shows days, each path in both languages", () => {
    const cancel = { path: { kind: "cancel" as const, deadline: "2026-11-28", via: "panel" as const } };
    expect(returnPathText(cancel, "en")).toBe("Cancel the e-Arşiv invoice (by 2026-11-28)");
    expect(returnPathText(cancel, "tr", (d) => d.split("-").reverse().join("."))).toBe(
      "e-Arşiv faturayı iptal edin (28.11.2026 tarihine kadar)",
    );
    expect(returnPathText({ path: null }, "tr")).toBe("Yapılacak bir şey yok (resmileşmeden önce işlendi)");
    expect(returnPathText({ path: { kind: "consumer_return" } }, "en")).toBe(
      "Record the consumer's return (gider pusulası)",
    );
    expect(returnPathText({ path: { kind: "unknown_document" } }, "tr")).toBe("Muhasebecinize sorun");
  });

  it("an amount-only refund is one row without an item", () => {
    const amountOnly = {
      ...row,
      buyerName: "Ayşe Yılmaz",
      lines: [],
      hasLineItems: false,
      amount: "100.00",
      path: null,
    };
    const [, line] = parsed(
      returnsCsv([amountOnly], { locale: "en", decimal: "point" }, (r) => returnPathText(r, "en")),
      ";",
    );
    expect(line.slice(8, 13)).toEqual(["", "", "", "", ""]);
    expect(line[16]).toBe("Nothing to do (handled before formalisation)");
  });

  // A spreadsheet set to `,` (the decimal-point export's readers) or one that ignores quotes cuts the file elsewhere
  // than at our `;`: no cell of any of those readings may start a formula.
  const hostile = [
    'Yilmaz,=HYPERLINK("http://x"),x',
    '"a";=1+1',
    "a;+1",
    "b, -2+3",
    "c,@SUM(A1)",
    'd," =1"',
    "e\r\n=1",
    "\t=1",
    "\rx",
    "f;\tx",
    "-1+2",
    "=1",
    "@x",
    "g\n@x",
    "h,\r=1",
    "i;;=1",
    "j,,+1",
  ];
  const readings: [string, Options][] = [
    ["`;` with quotes", { delimiter: ";" }],
    ["`,` with quotes", { delimiter: ",", relax_quotes: true }],
    ["`,` ignoring quotes", { delimiter: ",", quote: false }],
    ["`;` ignoring quotes", { delimiter: ";", quote: false }],
  ];
  const risky = (cell: string) =>
    /^[\t\r]/.test(cell) || (/^[\s"]*[=+\-@]/.test(cell) && !/^[\s"]*-?\d+([.,]\d+)?"*$/.test(cell));

  for (const decimal of ["point", "comma"] as const) {
    it.each(readings)(`no cell starts a formula when the ${decimal} export is read with %s`, (_, options) => {
      const rows = hostile.map((value, i): ReturnRow => ({
        ...row,
        refundId: String(i),
        orderName: value,
        buyerName: value,
        buyerTaxNumber: value,
        amount: "-12.50",
        lines: [{ ...row.lines[0], name: value, sku: value }],
      }));
      const csv = returnsCsv(rows, { locale: "en", decimal }, () => "x");
      const cells = (parse(csv, { bom: true, relax_column_count: true, ...options }) as string[][]).flat();
      expect(cells.length).toBeGreaterThan(hostile.length * 2);
      expect(cells.filter(risky)).toEqual([]);
      // Read as written, every value comes back whole, only apostrophes added (none of the values holds one).
      const exact = parse(csv, { bom: true, delimiter: ";" }) as string[][];
      expect(exact.slice(1).map((r) => r[6].replaceAll("'", ""))).toEqual(hostile);
    });
  }
});

// The boundaries of the rules (docs/decisions/0016-after-sale-rules.md); mutation testing (issue 28) found them untested.
describe("after-sale rules: boundaries", () => {
  it("the e-Arşiv cancellation window is 8 calendar days, across month and year ends and leap days", () => {
    expect(E_ARCHIVE_CANCEL_DAYS).toBe(8);
    expect(addDays("2026-12-28", 8)).toBe("2027-01-05");
    expect(addDays("2028-02-25", 8)).toBe("2028-03-04");
    expect(addDays("2026-02-25", 8)).toBe("2026-03-05");
  });

  it("refunds within a kuruş of the invoice are a whole undo; a kuruş more short is a partial return", () => {
    const whole = afterSalePath(input({ refunds: [refund({ amount: "549.69" })] }), "2026-11-21");
    expect(whole).toMatchObject({ wholeUndo: true, path: { kind: "cancel", deadline: "2026-11-28", via: "panel" } });
    const partial = afterSalePath(
      input({ refunds: [refund({ amount: "300.00" }), refund({ refundId: "2", amount: "249.68" })] }),
      "2026-11-21",
    );
    expect(partial).toMatchObject({ wholeUndo: false, path: { kind: "consumer_return" } });
    // Two refunds that together reach the invoice are a whole undo.
    const together = afterSalePath(
      input({ refunds: [refund({ amount: "300.00" }), refund({ refundId: "2", amount: "249.70" })] }),
      "2026-11-21",
    );
    expect(together).toMatchObject({ wholeUndo: true, path: { kind: "cancel" } });
  });

  it("only refunds after formalisation count towards a whole undo; nothing refunded is never one", () => {
    const before = afterSalePath(
      input({
        refunds: [refund({ amount: "549.70", handling: "before_invoice" }), refund({ refundId: "2", amount: "10.00" })],
      }),
      "2026-11-21",
    );
    expect(before).toMatchObject({ wholeUndo: false, path: { kind: "consumer_return" } });
    // A zero invoice with nothing refunded after it: nothing undone, nothing to do.
    expect(afterSalePath(input({ invoicedTotal: "0.00", refunds: [] }), "2026-11-21")).toMatchObject({
      wholeUndo: false,
      path: null,
    });
    expect(
      afterSalePath(input({ invoicedTotal: "0.00", refunds: [refund({ amount: "0.00" })] }), "2026-11-21"),
    ).toMatchObject({ wholeUndo: false, path: { kind: "consumer_return" } });
    // Without the invoiced total only a cancellation in the shop is a whole undo.
    expect(
      afterSalePath(input({ invoicedTotal: null, refunds: [refund({ amount: "549.70" })] }), "2026-11-21"),
    ).toMatchObject({ wholeUndo: false, path: { kind: "consumer_return" } });
    expect(
      afterSalePath(input({ invoicedTotal: null, refunds: [], cancelledInShop: true }), "2026-11-21"),
    ).toMatchObject({ wholeUndo: true, path: { kind: "cancel" } });
  });

  it("an unformalised invoice needs nothing; a whole undo without an issue date is recorded as a return", () => {
    expect(afterSalePath(input({ formalised: false, cancelledInShop: true }), "2026-11-21")).toMatchObject({
      wholeUndo: true,
      path: null,
    });
    expect(afterSalePath(input({ refunds: [], cancelledInShop: false }), "2026-11-21").path).toBeNull();
    expect(afterSalePath(input({ cancelledInShop: true, issueDate: null }), "2026-11-21").path).toEqual({
      kind: "consumer_return",
    });
    // A confirmed panel cancellation is shown even before formalisation was recorded.
    const at = new Date("2026-11-22T09:00:00Z");
    expect(
      afterSalePath(input({ formalised: false, refunds: [], panelCancelConfirmedAt: at }), "2026-11-22"),
    ).toMatchObject({ wholeUndo: false, path: { kind: "cancelled_confirmed", at: "2026-11-22T09:00:00.000Z" } });
  });

  it("each refund is shown with its lines and its date as ISO; a refund without lines shows none", () => {
    const r = refund({ handling: null });
    expect(refundView(r)).toEqual({
      refundId: "1",
      refundedAt: "2026-11-21T10:00:00.000Z",
      lines: r.lineItems,
      hasLineItems: true,
      shipping: "0.00",
      amount: "249.90",
      giftCardAmount: "0.00",
      restock: true,
      handling: null,
    });
    expect(refundView(refund({ lineItems: null, hasLineItems: false })).lines).toEqual([]);
    expect(afterSalePath(input(), "2026-11-21").refunds).toEqual([refundView(refund())]);
  });
});

describe("money reconciliation: boundaries", () => {
  const giftOrder = (over: Record<string, unknown> = {}) => ({
    ...orderFixture("01-single-item-citizen"),
    refunds: [],
    current_total_price: null,
    line_items: [
      {
        id: 21,
        title: "Hediye kartı",
        quantity: 2,
        price: "50.00",
        gift_card: true,
        discount_allocations: [{ amount: "10.00" }],
        ...over,
      },
    ],
  });

  it("a gift card partly refunded explains only the units left, with their share of its discount", () => {
    // 2 × 50.00 − 10.00 = 90.00 sold; one unit refunded: 50.00 − 10.00 × 1/2 = 45.00.
    expect(reconcile("90.00", "0.00", giftOrder(), [])).toMatchObject({
      reasons: [{ kind: "gift_cards", amount: "90.00" }],
      unexplained: "0.00",
      reconciled: true,
    });
    const oneBack = refund({
      lineItems: [
        {
          lineItemId: "21",
          name: "Hediye kartı",
          sku: null,
          quantity: 1,
          subtotal: "45.00",
          tax: "0.00",
          restockType: "no_restock",
          giftCard: true,
        },
      ],
      handling: "after_formalisation",
      amount: "45.00",
    });
    expect(reconcile("90.00", "0.00", giftOrder(), [oneBack])).toMatchObject({
      difference: "-90.00",
      reasons: [{ kind: "gift_cards", amount: "45.00" }],
      unexplained: "-45.00",
      reconciled: false,
    });
    // Shopify's current_quantity already says one unit is gone.
    expect(reconcile("90.00", "0.00", giftOrder({ current_quantity: 1 }), []).reasons).toEqual([
      { kind: "gift_cards", amount: "45.00" },
    ]);
    // A gift card refunded whole explains nothing.
    expect(reconcile("90.00", "0.00", giftOrder({ current_quantity: 0 }), []).reasons).toEqual([]);
  });

  it("within a kuruş the totals reconcile, beyond it they do not", () => {
    const order = orderFixture("01-single-item-citizen");
    expect(reconcile("549.70", "549.69", order, [])).toMatchObject({
      difference: "-0.01",
      unexplained: "-0.01",
      reconciled: true,
    });
    expect(reconcile("549.70", "549.71", order, [])).toMatchObject({
      difference: "0.01",
      unexplained: "0.01",
      reconciled: true,
    });
    expect(reconcile("549.70", "549.72", order, [])).toMatchObject({
      difference: "0.02",
      unexplained: "0.02",
      reconciled: false,
    });
    expect(reconcile("549.70", "549.68", order, [])).toMatchObject({ reasons: [], reconciled: false });
  });

  it("refunds reissued or before the invoice explain it, refunds after it do not; a snapshot that is not an order explains only refunds", () => {
    const order = orderFixture("01-single-item-citizen");
    const refunds = [
      refund({ handling: "reissued", amount: "100.00" }),
      refund({ refundId: "2", handling: "before_invoice", amount: "49.70" }),
      refund({ refundId: "3", handling: "after_formalisation", amount: "500.00" }),
    ];
    expect(reconcile("549.70", "400.00", order, refunds)).toMatchObject({
      reasons: [{ kind: "refunds_before_invoice", amount: "149.70" }],
      unexplained: "0.00",
      reconciled: true,
    });
    expect(reconcile("549.70", "400.00", { not: "an order" }, refunds)).toMatchObject({
      reasons: [{ kind: "refunds_before_invoice", amount: "149.70" }],
      reconciled: true,
    });
    expect(
      reconcile("549.70", "549.70", order, [refund({ handling: "before_invoice", amount: "0.00" })]).reasons,
    ).toEqual([]);
  });
});
