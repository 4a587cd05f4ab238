import type { WebhookOutcome } from "./enqueue.server";

/** 200 with what happened, or 400 naming the malformed field (Shopify shows the body in its delivery log). */
export function webhookResponse(outcome: WebhookOutcome): Response {
  const body = outcome.status === 200 ? { ok: true, result: outcome.result } : { ok: false, error: outcome.error };
  return new Response(JSON.stringify(body), { status: outcome.status, headers: { "Content-Type": "application/json" } });
}
