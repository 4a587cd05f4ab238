// Does a signed body fit the topic it was sent as? The signature covers the body only, never X-Shopify-Topic or
// X-Shopify-Shop-Domain, so a captured orders/paid body re-sent as orders/cancelled (or a customers/redact body as
// shop/redact) passes the signature. Each topic's body has features no other topic's body has (Shopify's REST payload
// shapes, /work/shared/spec/shopify-facts.md): an order for the order topics, with `cancelled_at` set for a
// cancellation; a refund (`order_id`, `refund_line_items`); `order_edit`; the shop resource for app/uninstalled; the
// privacy topics' own fields and the shop's domain. A few property reads on every delivery, no schema parse: the
// topic's handler parses what it uses. Pure.

/** Why `payload` is not a body of this topic, or null when it fits. `shop` is the delivery's shop domain. */
export type PayloadShape = (payload: unknown, shop: string) => string | null;

type Body = Record<string, unknown>;

const isBody = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);
const isDate = (value: unknown) => typeof value === "string" && value !== "" && !Number.isNaN(Date.parse(value));
const sameShop = (value: unknown, shop: string) =>
  typeof value === "string" && value.toLowerCase() === shop.toLowerCase();

function objectOf(shape: (body: Body, shop: string) => string | null): PayloadShape {
  return (payload, shop) => (isBody(payload) ? shape(payload, shop) : "the body is not an object");
}

function notAnOrder(body: Body): string | null {
  if (!Array.isArray(body.line_items)) return "an order has line_items";
  if ("order_id" in body || "order_edit" in body) return "an order has no order_id or order_edit";
  const gid = body.admin_graphql_api_id;
  if (gid !== undefined && (typeof gid !== "string" || !gid.startsWith("gid://shopify/Order/")))
    return "admin_graphql_api_id is not an order's";
  return null;
}

/** An order: any order topic without a rule of its own. */
export const orderShape: PayloadShape = objectOf(notAnOrder);

// Financial statuses of an order not (yet) paid: never in an orders/paid body, which is the order as it was paid.
const NOT_PAID = new Set(["pending", "authorized", "partially_paid", "voided", "expired"]);

/** orders/paid: an order paid, not cancelled. */
export const paidShape: PayloadShape = objectOf((body) => {
  const misfit = notAnOrder(body);
  if (misfit !== null) return misfit;
  if (body.cancelled_at != null) return "a paid order's cancelled_at is null";
  return typeof body.financial_status === "string" && NOT_PAID.has(body.financial_status)
    ? "a paid order is paid"
    : null;
});

/** orders/cancelled: an order with the time it was cancelled. */
export const cancelledShape: PayloadShape = objectOf(
  (body) => notAnOrder(body) ?? (isDate(body.cancelled_at) ? null : "a cancelled order has cancelled_at"),
);

/** orders/fulfilled: an order fulfilled, not cancelled (partial fulfilments have a topic of their own). */
export const fulfilledShape: PayloadShape = objectOf((body) => {
  const misfit = notAnOrder(body);
  if (misfit !== null) return misfit;
  if (body.cancelled_at != null) return "a fulfilled order's cancelled_at is null";
  return body.fulfillment_status === "fulfilled" ? null : "a fulfilled order's fulfillment_status is fulfilled";
});

/** refunds/create: a refund, never an order (an order carries its refunds too). */
export const refundShape: PayloadShape = objectOf((body) =>
  body.order_id != null && Array.isArray(body.refund_line_items) && !("line_items" in body)
    ? null
    : "a refund has order_id and refund_line_items",
);

/** orders/edited: the order edit. */
export const orderEditShape: PayloadShape = objectOf((body) =>
  isBody(body.order_edit) && body.order_edit.order_id != null ? null : "an order edit has order_edit.order_id",
);

/** app/uninstalled: the shop resource, this shop's. */
export const shopShape: PayloadShape = objectOf((body, shop) => {
  if (!sameShop(body.myshopify_domain, shop)) return "the shop's myshopify_domain is the delivery's shop";
  return "line_items" in body || "order_id" in body || "shop_domain" in body ? "the body is not a shop" : null;
});

/** customers/data_request, customers/redact: this shop's request about one customer. */
export function customerRequestShape(ordersField: "orders_requested" | "orders_to_redact"): PayloadShape {
  return objectOf((body, shop) => {
    if (!sameShop(body.shop_domain, shop)) return "shop_domain is the delivery's shop";
    return isBody(body.customer) && Array.isArray(body[ordersField])
      ? null
      : `the request has customer and ${ordersField}`;
  });
}

/** shop/redact: this shop's domain and nothing about a customer (a customers/redact body would erase the shop). */
export const shopRedactShape: PayloadShape = objectOf((body, shop) => {
  if (!sameShop(body.shop_domain, shop)) return "shop_domain is the delivery's shop";
  return "customer" in body || "orders_to_redact" in body || "orders_requested" in body
    ? "a shop redaction names no customer"
    : null;
});

/** bulk_operations/finish: the end of a bulk operation (its GID and status), nothing else's. */
export const bulkFinishShape: PayloadShape = objectOf((body) => {
  const gid = body.admin_graphql_api_id;
  if (typeof gid !== "string" || !gid.startsWith("gid://shopify/BulkOperation/"))
    return "admin_graphql_api_id is a bulk operation's";
  return typeof body.status === "string" && !("line_items" in body) ? null : "a bulk operation's end has a status";
});
