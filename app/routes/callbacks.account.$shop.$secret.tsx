// Public endpoint for the invoicing service's account-level webhook (no Shopify session: the per-shop
// secret in the path is the authentication). Content is never trusted: see app/invoices/account-hint.server.ts.
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { receiveAccountWebhook } from "../invoices/account-hint.server";

export const loader = () => json({ error: "method not allowed" }, { status: 405 });

/** Wrong addresses are counted per caller: the peer address the production server passes (server/app-server.ts). */
const callerOf = (context: ActionFunctionArgs["context"]) =>
  typeof context.clientAddress === "string" ? context.clientAddress : undefined;

export const action = async ({ request, params, context }: ActionFunctionArgs) => {
  if (request.method !== "POST") return json({ error: "method not allowed" }, { status: 405 });
  const outcome = await receiveAccountWebhook(
    params.shop ?? "",
    params.secret ?? "",
    request,
    new Date(),
    callerOf(context),
  );
  return json(outcome.body, {
    status: outcome.status,
    headers: outcome.retryAfter ? { "Retry-After": String(outcome.retryAfter) } : undefined,
  });
};
