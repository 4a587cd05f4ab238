// The order snapshot the app stores keeps only the fields the mapping reads: listed here, so that a field added
// to the snapshot (personal data the app would then hold) is a deliberate change of this list.
import { describe, expect, it } from "vitest";
import { orderSnapshot, parseShopifyOrder } from "../../app/orders/order";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { fixtureContext, fixtureNames, fixtureOrder } from "./fixture-loader";

const ADDRESS = [
  "address1",
  "address2",
  "city",
  "company",
  "country",
  "country_code",
  "first_name",
  "last_name",
  "name",
  "phone",
  "province",
  "province_code",
  "zip",
];
const MONEY_SET = { shop_money: ["amount", "currency_code"], presentment_money: ["amount", "currency_code"] };
const TAX_LINE = { title: true, price: true, price_set: MONEY_SET, rate: true };
const ALLOCATION = { amount: true, amount_set: MONEY_SET, discount_application_index: true };

/** Every field the snapshot keeps. */
const KEPT = {
  id: true,
  admin_graphql_api_id: true,
  name: true,
  order_number: true,
  created_at: true,
  processed_at: true,
  source_name: true,
  test: true,
  currency: true,
  presentment_currency: true,
  taxes_included: true,
  total_price: true,
  total_price_set: MONEY_SET,
  current_total_price: true,
  current_total_price_set: MONEY_SET,
  subtotal_price: true,
  total_tax: true,
  total_discounts: true,
  total_tip_received: true,
  email: true,
  phone: true,
  customer: ["id", "email", "first_name", "last_name", "phone"],
  billing_address: ADDRESS,
  shipping_address: ADDRESS,
  line_items: {
    id: true,
    product_id: true,
    variant_id: true,
    title: true,
    variant_title: true,
    name: true,
    sku: true,
    quantity: true,
    current_quantity: true,
    price: true,
    price_set: MONEY_SET,
    total_discount: true,
    discount_allocations: ALLOCATION,
    tax_lines: TAX_LINE,
    taxable: true,
    requires_shipping: true,
    gift_card: true,
  },
  shipping_lines: {
    id: true,
    title: true,
    code: true,
    price: true,
    price_set: MONEY_SET,
    discounted_price: true,
    tax_lines: TAX_LINE,
    discount_allocations: ALLOCATION,
  },
  note_attributes: ["name", "value"],
  gateway: true,
  payment_gateway_names: true,
  financial_status: true,
  fulfillments: ["id", "status", "created_at", "tracking_company", "tracking_number"],
  refunds: {
    id: true,
    created_at: true,
    refund_line_items: ["line_item_id", "quantity"],
    order_adjustments: ["kind", "amount"],
  },
};

type Spec = true | string[] | { [key: string]: Spec };

/** Every key path in `value` that `spec` does not allow. */
function extraPaths(value: unknown, spec: Spec, path = ""): string[] {
  if (spec === true || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => extraPaths(item, spec, `${path}[${index}]`));
  const allowed: Record<string, Spec> = Array.isArray(spec)
    ? Object.fromEntries(spec.map((key) => [key, true as const]))
    : spec;
  return Object.entries(value).flatMap(([key, item]) =>
    key in allowed ? extraPaths(item, allowed[key], `${path}.${key}`) : [`${path}.${key}`],
  );
}

const fullOrder = (): Record<string, unknown> => ({
  ...(fixtureOrder("09-company-buyer") as Record<string, unknown>),
  browser_ip: "203.0.113.7",
  client_details: {
    browser_ip: "203.0.113.7",
    user_agent: "Mozilla/5.0",
    accept_language: "tr-TR",
    session_hash: "abc",
  },
  landing_site: "/?utm_source=x",
  referring_site: "https://search.example/?q=ayse",
  buyer_accepts_marketing: true,
  contact_email: "ayse@example.com",
  customer_locale: "tr",
  note: "kapıya bırakın, komşu Ayşe Hanım",
  tags: "vip",
  token: "secret-cart-token",
  cart_token: "c1",
  checkout_token: "c2",
  payment_details: { credit_card_bin: "454360", credit_card_number: "•••• 4242" },
});

describe("orderSnapshot", () => {
  it("keeps exactly the listed fields, at every depth, and drops the rest", () => {
    const order = fullOrder();
    const snapshot = orderSnapshot(order);
    expect(extraPaths(snapshot, KEPT as Spec)).toEqual([]);
    const text = JSON.stringify(snapshot);
    for (const gone of [
      "203.0.113.7",
      "Mozilla",
      "utm_source",
      "search.example",
      "secret-cart-token",
      "454360",
      "komşu",
      "session_hash",
    ])
      expect(text).not.toContain(gone);
    // What it keeps, it keeps as received (the address without its map coordinates).
    const { latitude: _lat, longitude: _lng, ...address } = order.billing_address as Record<string, unknown>;
    expect((snapshot as { billing_address: unknown }).billing_address).toEqual(address);
  });

  it.each(fixtureNames())("maps %s exactly as the full payload does", (name) => {
    const full = parseShopifyOrder(fixtureOrder(name));
    const kept = parseShopifyOrder(orderSnapshot(fixtureOrder(name)));
    expect(kept.ok).toBe(full.ok);
    if (!full.ok || !kept.ok) return;
    expect(mapOrderToInvoice(kept.order, fixtureContext(name))).toEqual(
      mapOrderToInvoice(full.order, fixtureContext(name)),
    );
  });
});
