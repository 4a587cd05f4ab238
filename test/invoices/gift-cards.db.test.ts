// An order of gift cards only (issue 36, point 1): a gift card is a means of payment, invoiced when it is spent, not
// when sold. The app records the order, makes no invoice, and says why in words that are true: no "fully refunded",
// since nothing was. A past-orders run counts it as needing no invoice, not as invoiced.
import { describe, expect, it } from "vitest";
import { translateKey } from "../../app/i18n/i18n";
import { giftCardsOnly } from "../../app/orders/refunds";
import { parseShopifyOrder } from "../../app/orders/order";
import { addToPlan, emptyPlan } from "../../app/past-orders/plan";
import { connectShop, waitForInvoices, withTestPipeline } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";

const pipeline = withTestPipeline();

/** 500 TRY of gift cards, no shipping: what a shop's gift card sale looks like. */
function giftCardOrder() {
  const order = paidOrder();
  const [card] = order.line_items;
  return {
    ...order,
    total_price: "500.00",
    subtotal_price: "500.00",
    total_tax: "0.00",
    line_items: [
      {
        ...card,
        title: "Hediye Kartı",
        name: "Hediye Kartı - 500 TL",
        sku: null,
        quantity: 1,
        current_quantity: 1,
        price: "500.00",
        tax_lines: [],
        taxable: false,
        requires_shipping: false,
        gift_card: true,
      },
    ],
    shipping_lines: [],
  };
}

describe("a gift card sale", () => {
  it("is told apart from an order with goods, or one with a gift card and goods", () => {
    const only = parseShopifyOrder(giftCardOrder());
    const mixed = parseShopifyOrder({
      ...paidOrder(),
      line_items: [...paidOrder().line_items, ...giftCardOrder().line_items],
    });
    expect(only.ok && giftCardsOnly(only.order)).toBe(true);
    expect(mixed.ok && giftCardsOnly(mixed.order)).toBe(false);
    const goods = parseShopifyOrder(paidOrder());
    expect(goods.ok && giftCardsOnly(goods.order)).toBe(false);
  });

  it("is recorded without an invoice, and its history says it sold gift cards only, not that it was refunded", async () => {
    await connectShop(pipeline.sandbox);
    await pipeline.startWorker();
    const order = giftCardOrder();
    expect((await pipeline.deliverPaid(order)).status).toBe(200);
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "cancelled");
    expect(row.remoteId).toBeNull();
    expect(pipeline.posts()).toBe(0);
    const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: row.id, type: "cancelled" } });
    expect(events.map((e) => (e.data as { note?: string }).note)).toEqual(["gift_card_sale"]);
    expect(translateKey("tr", "history.note.gift_card_sale", "")).toContain("hediye kartı");
    expect(translateKey("en", "history.note.gift_card_sale", "")).not.toMatch(/refund/i);
  });

  it("is counted in a dry run as a gift card sale, never as an order to invoice", () => {
    const context = { missingSettings: [], settings: undefined as never, shop: undefined as never, now: new Date() };
    const plan = addToPlan(emptyPlan(false), giftCardOrder(), null, context as never);
    expect(plan).toMatchObject({ orders: 1, toInvoice: 0, giftCardSales: 1, quota: 0 });
  });
});
