/** What a webhook did: 200 with a short result word, or 400 naming the malformed field. */
export type DeliveryOutcome = { status: 200; result: string } | { status: 400; error: string };

/** 200 with what happened, or 400 naming the malformed field (Shopify shows the body in its delivery log). */
export function webhookResponse(outcome: DeliveryOutcome): Response {
  const body = outcome.status === 200 ? { ok: true, result: outcome.result } : { ok: false, error: outcome.error };
  return new Response(JSON.stringify(body), { status: outcome.status, headers: { "Content-Type": "application/json" } });
}
