// Public endpoint for the invoicing service's per-invoice callbacks (no Shopify session: the HMAC of the
// shop's API key is the authentication).
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { answerCallback } from "../invoices/callback.server";
import { BODY_LIMITS, readTextLimited } from "../http/body-limit.server";

export const loader = () => json({ error: "method not allowed" }, { status: 405 });

export const action = async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return json({ error: "method not allowed" }, { status: 405 });
  // The production server answers these itself, before Remix (app/invoices/callback-transport.server.ts).
  const outcome = await answerCallback(params.id ?? "", await readTextLimited(request, BODY_LIMITS.callback));
  return json(outcome.body, { status: outcome.status });
};
