// What the "Create invoices" action sends and says. Pure, so it is unit tested
// (test/extensions/invoice-orders-action.test.ts).

/** At most this many orders per request (the app refuses more). */
export const MAX_ORDERS = 50;

/** The request body for the selected orders (their GraphQL ids), or null when nothing usable is selected. */
export function invoiceRequest(selected, max = MAX_ORDERS) {
  const ids = (Array.isArray(selected) ? selected : [])
    .map((item) => item && item.id)
    .filter((id) => typeof id === "string" && /^gid:\/\/shopify\/Order\/\d+$/.test(id));
  const unique = [...new Set(ids)];
  if (!unique.length) return null;
  return { body: { orderIds: unique.slice(0, max) }, skipped: Math.max(0, unique.length - max) };
}

const name = (result) => result.name || `#${result.orderId}`;

/**
 * The app's answer as lines to show: counts, then each refused order with its reason's text key
 * (`refused.<reason>`), and the orders already invoiced with their state's key.
 */
export function invoiceSummary(answer) {
  const results = answer && Array.isArray(answer.results) ? answer.results : [];
  return {
    queued: results.filter((r) => r.result === "queued").length,
    already: results.filter((r) => r.result === "already").map((r) => ({ order: name(r), state: `state.${r.state}` })),
    refused: results
      .filter((r) => r.result === "refused")
      .map((r) => ({ order: name(r), reason: `refused.${r.reason}` })),
  };
}
