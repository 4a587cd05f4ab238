// The order behind a test invoice: one 100 TRY (incl. 20 % VAT) digital item to an anonymous buyer.
// Its id is numeric like a Shopify order id, far above the range Shopify uses (about 10^13), so it
// can never collide with a real order of the shop at the service's duplicate protection.
export const TEST_ORDER_ID_BASE = 9_000_000_000_000_000;

export function sampleTestOrder(now: Date) {
  const id = TEST_ORDER_ID_BASE + now.getTime();
  const iso = now.toISOString();
  return {
    id,
    name: `TEST-${now.getTime().toString().slice(-6)}`,
    created_at: iso,
    processed_at: iso,
    currency: "TRY",
    presentment_currency: "TRY",
    taxes_included: true,
    financial_status: "paid",
    source_name: "web",
    total_price: "100.00",
    subtotal_price: "100.00",
    total_tax: "16.67",
    total_discounts: "0.00",
    payment_gateway_names: ["shopify_payments"],
    customer: null,
    billing_address: {
      first_name: "Test",
      last_name: "Alıcı",
      company: null,
      address1: "Test Caddesi No: 1",
      address2: null,
      city: "Kadıköy",
      province: "İstanbul",
      province_code: "TR-34",
      zip: "34710",
      country: "Turkey",
      country_code: "TR",
      phone: null,
    },
    shipping_address: null,
    note_attributes: [],
    line_items: [
      {
        id: 1,
        product_id: 1,
        variant_id: 1,
        title: "Test ürünü / Test product",
        variant_title: null,
        name: "Test ürünü / Test product",
        sku: "TEST",
        quantity: 1,
        current_quantity: 1,
        price: "100.00",
        total_discount: "0.00",
        discount_allocations: [],
        tax_lines: [{ rate: 0.2, price: "16.67", title: "KDV" }],
        taxable: true,
        requires_shipping: false,
        gift_card: false,
      },
    ],
    shipping_lines: [],
    fulfillments: [],
    refunds: [],
  };
}
