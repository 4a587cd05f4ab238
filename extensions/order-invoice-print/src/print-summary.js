// What the print action says about the selected orders, from the app's answer (/api/print/invoices). Pure, so it
// is unit tested.

/** The app's question for the selected orders (their GraphQL ids), at most `max` of them. */
export function printQuery(selected, max = 50) {
  const ids = (Array.isArray(selected) ? selected : [])
    .map((item) => item && item.id)
    .filter((id) => typeof id === "string");
  return ids.length ? `/api/print/invoices?orders=${encodeURIComponent(ids.slice(0, max).join(","))}` : null;
}

/**
 * { ready, waiting, without, url }: how many invoices print, the orders whose invoice is not completed yet, and
 * the orders without one (their names, or "#id" when the app has none).
 */
export function printSummary(answer) {
  const orders = answer && Array.isArray(answer.orders) ? answer.orders : [];
  const name = (order) => order.orderName || `#${order.orderId}`;
  return {
    ready: orders.filter((order) => order.status === "ready").length,
    waiting: orders.filter((order) => order.status === "not_yet").map(name),
    without: orders.filter((order) => order.status === "none").map(name),
    url: answer && typeof answer.url === "string" && /^https?:\/\//.test(answer.url) ? answer.url : null,
  };
}
