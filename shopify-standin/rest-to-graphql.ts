// A webhook-shaped (REST) order → the order as Shopify's Admin GraphQL API holds it: GIDs, money bags with
// `shopMoney`/`presentmentMoney`, UTC timestamps, amounts as Shopify's Decimal prints them ("249.9", "10.0"),
// enums in capitals. The stand-in serves orders given in the REST shape (fixtures, demo data) through this.
// Fields the REST payload lacks get the value Shopify would show (a line's current quantity is its quantity …).
import DecimalJs from "decimal.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- the input is arbitrary webhook JSON, checked field by field */
type Rest = Record<string, any>;

export interface GqlMoney {
  amount: string;
  currencyCode: string;
}
export interface GqlMoneyBag {
  shopMoney: GqlMoney;
  presentmentMoney: GqlMoney;
}

/** A stored order: the GraphQL Order's fields, with the connections as plain arrays (resolvers page them). */
export type StoredOrder = Record<string, any> & {
  id: string;
  legacyResourceId: string;
  createdAt: string;
  updatedAt: string;
  processedAt: string;
};

export const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`;

/** Shopify's Decimal scalar: shortest form, at least one decimal ("249.90" → "249.9", "10" → "10.0"). */
export function shopifyDecimal(value: string | number): string {
  const text = new DecimalJs(value).toFixed();
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, ".0") : `${text}.0`;
}

/** Shopify prints DateTime in UTC without fractions: 2026-11-20T11:05:11Z. */
export function utc(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`not a date: ${value}`);
  return date.toISOString().replace(/\.000Z$/, "Z");
}

function money(amount: unknown, currencyCode: string): GqlMoney {
  return {
    amount: shopifyDecimal(amount === null || amount === undefined || amount === "" ? "0" : (amount as string)),
    currencyCode,
  };
}

function bag(set: Rest | null | undefined, amount: unknown, shop: string, presentment: string): GqlMoneyBag {
  if (set?.shop_money && set?.presentment_money) {
    return {
      shopMoney: money(set.shop_money.amount, set.shop_money.currency_code),
      presentmentMoney: money(set.presentment_money.amount, set.presentment_money.currency_code),
    };
  }
  // Without a set, the amount is in the shop's currency and presentment is the same (no conversion known).
  return { shopMoney: money(amount, shop), presentmentMoney: money(amount, shop === presentment ? presentment : shop) };
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

function taxLines(lines: Rest[] | null | undefined, shop: string, presentment: string) {
  return (lines ?? []).map((t) => {
    const rate = t.rate === null || t.rate === undefined ? null : Number(t.rate);
    return {
      title: t.title ?? "",
      priceSet: bag(t.price_set, t.price, shop, presentment),
      rate,
      ratePercentage: rate === null ? null : Number(new DecimalJs(rate).times(100).toFixed()),
      channelLiable: orNull(t.channel_liable),
      source: null,
    };
  });
}

const APPLICATION_TYPES: Record<string, string> = {
  discount_code: "DiscountCodeApplication",
  automatic: "AutomaticDiscountApplication",
  manual: "ManualDiscountApplication",
  script: "ScriptDiscountApplication",
};

function discountApplication(order: Rest, index: number) {
  const app: Rest = (order.discount_applications ?? [])[index] ?? {};
  return {
    __typename: APPLICATION_TYPES[app.type] ?? "ManualDiscountApplication",
    index,
    code: app.code ?? app.title ?? "",
    title: app.title ?? app.code ?? "",
    description: app.description ?? null,
  };
}

function allocations(list: Rest[] | null | undefined, order: Rest, shop: string, presentment: string) {
  return (list ?? []).map((a) => ({
    allocatedAmountSet: bag(a.amount_set, a.amount, shop, presentment),
    discountApplication: discountApplication(order, a.discount_application_index ?? 0),
  }));
}

function address(a: Rest | null | undefined, key: string) {
  if (!a) return null;
  return {
    id: `${gid("MailingAddress", key)}?model_name=Address`,
    firstName: orNull(a.first_name),
    lastName: orNull(a.last_name),
    name: a.name ?? ([a.first_name, a.last_name].filter(Boolean).join(" ") || null),
    company: orNull(a.company),
    address1: orNull(a.address1),
    address2: orNull(a.address2),
    city: orNull(a.city),
    province: orNull(a.province),
    provinceCode: orNull(a.province_code),
    zip: orNull(a.zip),
    country: orNull(a.country),
    countryCodeV2: orNull(a.country_code),
    phone: orNull(a.phone),
  };
}

function lineItem(item: Rest, order: Rest, shop: string, presentment: string) {
  return {
    id: gid("LineItem", item.id),
    name: item.name ?? item.title,
    title: item.title,
    variantTitle: orNull(item.variant_title),
    sku: orNull(item.sku),
    quantity: item.quantity,
    currentQuantity: item.current_quantity ?? item.quantity,
    originalUnitPriceSet: bag(item.price_set, item.price, shop, presentment),
    totalDiscountSet: bag(item.total_discount_set, item.total_discount ?? "0", shop, presentment),
    discountAllocations: allocations(item.discount_allocations, order, shop, presentment),
    taxLines: taxLines(item.tax_lines, shop, presentment),
    taxable: item.taxable ?? true,
    requiresShipping: item.requires_shipping ?? true,
    isGiftCard: item.gift_card ?? false,
    product: item.product_id
      ? { id: gid("Product", item.product_id), legacyResourceId: String(item.product_id) }
      : null,
    variant: item.variant_id
      ? { id: gid("ProductVariant", item.variant_id), legacyResourceId: String(item.variant_id) }
      : null,
  };
}

/** The REST order (a webhook body) as the stand-in stores it. */
export function restToGraphqlOrder(order: Rest): StoredOrder {
  if (typeof order !== "object" || order === null || order.id === undefined) throw new Error("an order needs an id");
  const shop: string = order.currency;
  const presentment: string = order.presentment_currency ?? order.currency;
  const id = String(order.id);
  const createdAt = utc(order.created_at);
  const lineItems = (order.line_items ?? []).map((item: Rest) => lineItem(item, order, shop, presentment));
  const byId = new Map(lineItems.map((item: Rest) => [item.id, item]));
  return {
    id: gid("Order", id),
    legacyResourceId: id,
    name: order.name,
    number: order.order_number ?? order.number ?? 0,
    createdAt,
    updatedAt: order.updated_at ? utc(order.updated_at) : createdAt,
    processedAt: order.processed_at ? utc(order.processed_at) : createdAt,
    cancelledAt: order.cancelled_at ? utc(order.cancelled_at) : null,
    test: order.test ?? false,
    sourceName: orNull(order.source_name),
    currencyCode: shop,
    presentmentCurrencyCode: presentment,
    taxesIncluded: order.taxes_included ?? false,
    totalPriceSet: bag(order.total_price_set, order.total_price, shop, presentment),
    currentTotalPriceSet: bag(
      order.current_total_price_set,
      order.current_total_price ?? order.total_price,
      shop,
      presentment,
    ),
    subtotalPriceSet:
      order.subtotal_price_set || order.subtotal_price !== undefined
        ? bag(order.subtotal_price_set, order.subtotal_price, shop, presentment)
        : null,
    totalTaxSet:
      order.total_tax_set || order.total_tax !== undefined
        ? bag(order.total_tax_set, order.total_tax, shop, presentment)
        : null,
    totalDiscountsSet:
      order.total_discounts_set || order.total_discounts !== undefined
        ? bag(order.total_discounts_set, order.total_discounts, shop, presentment)
        : null,
    totalTipReceivedSet: bag(null, order.total_tip_received ?? "0", shop, shop),
    email: orNull(order.email),
    phone: orNull(order.phone),
    note: orNull(order.note),
    tags:
      typeof order.tags === "string"
        ? order.tags
            .split(",")
            .map((t: string) => t.trim())
            .filter(Boolean)
        : [],
    customer: order.customer
      ? {
          id: gid("Customer", order.customer.id),
          legacyResourceId: String(order.customer.id),
          firstName: orNull(order.customer.first_name),
          lastName: orNull(order.customer.last_name),
          displayName:
            [order.customer.first_name, order.customer.last_name].filter(Boolean).join(" ") ||
            order.customer.email ||
            "",
          email: orNull(order.customer.email),
          phone: orNull(order.customer.phone),
          defaultEmailAddress: order.customer.email ? { emailAddress: order.customer.email } : null,
          defaultPhoneNumber: order.customer.phone ? { phoneNumber: order.customer.phone } : null,
        }
      : null,
    billingAddress: address(order.billing_address, `${id}1`),
    shippingAddress: address(order.shipping_address, `${id}2`),
    customAttributes: (order.note_attributes ?? []).map((a: Rest) => ({
      key: String(a.name),
      value: a.value === null || a.value === undefined ? null : String(a.value),
    })),
    paymentGatewayNames: order.payment_gateway_names ?? (order.gateway ? [order.gateway] : []),
    displayFinancialStatus: order.financial_status ? String(order.financial_status).toUpperCase() : null,
    lineItems,
    shippingLines: (order.shipping_lines ?? []).map((s: Rest, index: number) => ({
      id: s.id ? gid("ShippingLine", s.id) : null,
      title: s.title ?? s.code ?? "",
      code: orNull(s.code),
      source: orNull(s.source),
      carrierIdentifier: orNull(s.carrier_identifier),
      isRemoved: s.is_removed ?? false,
      originalPriceSet: bag(s.price_set, s.price, shop, presentment),
      discountedPriceSet: bag(s.discounted_price_set, s.discounted_price ?? s.price, shop, presentment),
      taxLines: taxLines(s.tax_lines, shop, presentment),
      discountAllocations: allocations(s.discount_allocations, order, shop, presentment),
      _index: index,
    })),
    fulfillments: (order.fulfillments ?? []).map((f: Rest, index: number) => {
      const numbers: string[] = f.tracking_numbers?.length
        ? f.tracking_numbers
        : f.tracking_number
          ? [f.tracking_number]
          : [];
      const urls: string[] = f.tracking_urls ?? (f.tracking_url ? [f.tracking_url] : []);
      const trackingInfo = numbers.length
        ? numbers.map((number, i) => ({ company: orNull(f.tracking_company), number, url: urls[i] ?? null }))
        : f.tracking_company
          ? [{ company: f.tracking_company, number: null, url: null }]
          : [];
      return {
        id: gid("Fulfillment", f.id ?? `${id}${index}`),
        legacyResourceId: String(f.id ?? `${id}${index}`),
        name: f.name ?? `${order.name}.${index + 1}`,
        status: String(f.status ?? "success").toUpperCase(),
        createdAt: utc(f.created_at ?? order.created_at),
        trackingInfo,
      };
    }),
    refunds: (order.refunds ?? []).map((r: Rest, index: number) => ({
      id: gid("Refund", r.id ?? `${id}${index}`),
      legacyResourceId: String(r.id ?? `${id}${index}`),
      createdAt: r.created_at ? utc(r.created_at) : null,
      refundLineItems: (r.refund_line_items ?? []).map((rl: Rest) => ({
        id: rl.id ? gid("RefundLineItem", rl.id) : null,
        lineItem:
          byId.get(gid("LineItem", rl.line_item_id)) ??
          lineItem(
            rl.line_item ?? { id: rl.line_item_id, title: "", quantity: rl.quantity, price: "0" },
            order,
            shop,
            presentment,
          ),
        quantity: rl.quantity,
      })),
      orderAdjustments: (r.order_adjustments ?? []).map((a: Rest, i: number) => ({
        id: gid("OrderAdjustment", a.id ?? `${id}${index}${i}`),
        amountSet: bag(a.amount_set, a.amount, shop, presentment),
        taxAmountSet: bag(a.tax_amount_set, a.tax_amount ?? "0", shop, presentment),
        reason: a.kind === "refund_discrepancy" ? "REFUND_DISCREPANCY" : null,
      })),
    })),
    metafields: [],
    // A B2B order's buyer (the REST order's `company`): resolved against the stand-in's companies when read.
    companyRef:
      order.company?.id && order.company?.location_id
        ? { companyId: gid("Company", order.company.id), locationId: gid("CompanyLocation", order.company.location_id) }
        : null,
  };
}

/** A B2B company as tests and the demo give it to the stand-in (Shopify's Company and CompanyLocation, plain). */
export interface StandinCompany {
  id: number | string;
  name: string;
  metafields?: Array<{ namespace: string; key: string; value: string; type?: string }>;
  locations: Array<{
    id: number | string;
    name: string;
    taxRegistrationId?: string | null;
    taxExempt?: boolean;
    billingAddress?: {
      address1: string;
      address2?: string | null;
      city?: string | null;
      province?: string | null;
      zoneCode?: string | null;
      zip?: string | null;
      country?: string | null;
      countryCode: string;
      companyName?: string | null;
      firstName?: string | null;
      lastName?: string | null;
      phone?: string | null;
    } | null;
    metafields?: Array<{ namespace: string; key: string; value: string; type?: string }>;
  }>;
}

const storedMetafields = (list: StandinCompany["metafields"], owner: string) =>
  (list ?? []).map((m, i) => {
    const stamp = "2026-01-01T00:00:00Z";
    return {
      id: gid("Metafield", `${owner.replace(/\D/g, "")}${i + 1}`),
      namespace: m.namespace,
      key: m.key,
      value: m.value,
      type: m.type ?? "single_line_text_field",
      compareDigest: String(i),
      createdAt: stamp,
      updatedAt: stamp,
    };
  });

/** A company in the GraphQL shape: the company and each of its locations, keyed by GID. */
export function storedCompany(company: StandinCompany): { company: Rest; locations: Rest[] } {
  const stored: Rest = {
    id: gid("Company", company.id),
    name: company.name,
    metafields: storedMetafields(company.metafields, String(company.id)),
  };
  const locations = company.locations.map((l) => ({
    id: gid("CompanyLocation", l.id),
    name: l.name,
    company: stored,
    taxSettings: { taxExempt: l.taxExempt ?? false, taxRegistrationId: l.taxRegistrationId ?? null },
    billingAddress: l.billingAddress
      ? {
          id: gid("CompanyAddress", l.id),
          address1: l.billingAddress.address1,
          address2: orNull(l.billingAddress.address2),
          city: orNull(l.billingAddress.city),
          province: orNull(l.billingAddress.province),
          zoneCode: orNull(l.billingAddress.zoneCode),
          zip: orNull(l.billingAddress.zip),
          country: orNull(l.billingAddress.country),
          countryCode: l.billingAddress.countryCode,
          companyName: l.billingAddress.companyName ?? company.name,
          firstName: orNull(l.billingAddress.firstName),
          lastName: orNull(l.billingAddress.lastName),
          phone: orNull(l.billingAddress.phone),
        }
      : null,
    metafields: storedMetafields(l.metafields, String(l.id)),
  }));
  return { company: stored, locations };
}
