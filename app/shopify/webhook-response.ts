/** What a webhook did: 200 with a short result word, or 400 naming the malformed field. */
export type DeliveryOutcome = { status: 200; result: string } | { status: 400; error: string };

/** The answer to a delivery, whichever server sends it (a Remix Response or node's own response). */
export interface WebhookAnswer {
  status: number;
  /** Sent as JSON: Shopify shows it in the shop's delivery log. */
  body: { ok: true; result: string } | { ok: false; error: string };
}

export function answerOf(outcome: DeliveryOutcome): WebhookAnswer {
  return outcome.status === 200
    ? { status: 200, body: { ok: true, result: outcome.result } }
    : { status: 400, body: { ok: false, error: outcome.error } };
}

export const failure = (status: number, error: string): WebhookAnswer => ({ status, body: { ok: false, error } });

/** What an order webhook did with its order (the invoices and after-sale features answer with it). */
export type WebhookOutcome =
  | {
      status: 200;
      result: "queued" | "waiting" | "duplicate" | "cancelled" | "updated" | "ignored" | "marked" | "unknown_shop";
    }
  | { status: 400; error: string };

/** The delivery an order webhook came in: its topic and Shopify's webhook id (for de-duplication). */
export interface DeliveryMeta {
  topic: string;
  webhookId?: string | null;
}
