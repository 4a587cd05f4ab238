// Public endpoint for the invoicing service's per-invoice callbacks (no Shopify session: the HMAC of the
// shop's API key is the authentication).
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { receiveCallback } from "../pipeline/callback.server";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";

export const loader = () => json({ error: "method not allowed" }, { status: 405 });

export const action = async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return json({ error: "method not allowed" }, { status: 405 });
  const text = await readTextLimited(request, BODY_LIMITS.callback);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json({ ok: false, error: "body must be JSON" }, { status: 400 });
  }
  const outcome = await receiveCallback(params.id ?? "", body);
  return json(outcome.body, { status: outcome.status });
};
