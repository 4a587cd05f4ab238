// The paid order the benchmarks send: one line, prices with 20 % VAT included, a citizen buyer. `i` makes it unique.
export function benchOrder(i: number, idBase = 7_000_000_000_000, prefix = "B") {
  const id = idBase + i;
  return {
    id,
    name: `#${prefix}${i}`,
    created_at: "2026-11-21T14:03:11+03:00",
    processed_at: "2026-11-21T14:03:11+03:00",
    currency: "TRY",
    presentment_currency: "TRY",
    taxes_included: true,
    financial_status: "paid",
    source_name: "web",
    total_price: "349.90",
    payment_gateway_names: ["iyzico"],
    note_attributes: [{ name: "TC Kimlik No", value: "10000000146" }],
    customer: { id: 7_300_000_000 + i, first_name: "Ayşe", last_name: "Yılmaz", email: "ayse@example.com" },
    billing_address: { first_name: "Ayşe", last_name: "Yılmaz", address1: "Bağdat Cad. No: 1", city: "Kadıköy", province: "İstanbul", zip: "34728", country: "Turkey", country_code: "TR" },
    shipping_address: null,
    line_items: [
      { id: 1, product_id: 11, variant_id: 111, title: "Tişört", variant_title: "M", sku: "T-M", quantity: 1, current_quantity: 1, price: "349.90", total_discount: "0.00", discount_allocations: [], tax_lines: [{ rate: 0.2, price: "58.32", title: "KDV" }], taxable: true, requires_shipping: false, gift_card: false },
    ],
    shipping_lines: [],
    fulfillments: [],
    refunds: [],
  };
}
