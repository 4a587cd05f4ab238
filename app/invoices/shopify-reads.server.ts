// What a post reads from Shopify first (an edited order as it stands, a B2B order's company) and what happens
// when Shopify cannot be read: the row waits on the backoff, or for the shop to reconnect.
import type { ReadOrder } from "../after-sale/before-posting.server";
import { foldForSearch } from "../i18n/search-fold";
import { RETRY, retryDelayMs } from "../jobs/backoff";
import { problem } from "../problems";
import { targetOf } from "../invoice-state/transitions";
import { json, needsAttention } from "./outcome";
import type { Outcome, ProcessDeps, Row } from "./process-types";

/** The Admin API (app/shopify, the shop's offline session), loaded when an edited order first needs it. */
export const readOrderFromShopify: ReadOrder = async (shop, orderId) => {
  const { readOrder } = await import("../shopify/orders.server");
  const order = await readOrder(shop, orderId);
  if (!order) throw new Error(`Shopify has no order ${orderId} for this shop`);
  return order;
};

/** "Acme A.Ş. (Ayşe Yılmaz)", as the list shows a billing address's company and name; the contact kept. */
export function companyListName(
  company: string,
  contact: string | null,
): { customerName: string; customerSearch: string } {
  const customerName = contact?.includes(company) ? contact : contact ? `${company} (${contact})` : company;
  return { customerName, customerSearch: foldForSearch(customerName) };
}

/**
 * What Shopify must say before the post (an edited order as it stands, a B2B order's company) could not be read: the
 * invoice waits, on the ordinary backoff, and says why; after the last try it needs attention.
 */
export function shopifyReadWaits(
  row: Row,
  deps: ProcessDeps,
  code: "order.edited_unread" | "customer.company_unread",
  kind: string,
  message: string,
  reason: string,
  reconnect: boolean,
): Outcome {
  // Shopify refused the shop's token: only the merchant opening the app brings it back, so the row waits for that
  // (app/shops/connection.server.ts resumes it) without spending an attempt.
  if (reconnect)
    return {
      data: {
        state: targetOf("shopify_lost"),
        nextAttemptAt: null,
        lastError: message,
        problems: json([problem("shopify.reconnect", undefined, "warning")]),
      },
      events: [
        { type: "waiting", message: `${message}; waits until the shop reconnects`, data: { note: "reconnect" } },
      ],
    };
  const attempts = row.attempts + 1;
  if (attempts >= RETRY.maxAttempts) return needsAttention([problem(code, { details: reason })]);
  const nextAttemptAt = new Date(deps.now().getTime() + retryDelayMs(attempts, deps.random));
  return {
    data: {
      state: targetOf("retry"),
      attempts,
      nextAttemptAt,
      lastError: message,
      problems: json([problem(code, { details: reason }, "warning")]),
    },
    events: [
      {
        type: "retry",
        message: `${message}; next try ${nextAttemptAt.toISOString()}`,
        data: { attempts, nextAttemptAt: nextAttemptAt.toISOString(), reason: { kind } },
      },
    ],
  };
}
