// The one way a webhook route receives a Shopify delivery: the body is read with a size limit (413 before
// reading further), then authenticate.webhook checks the signature (401) and the headers (400). A signed body
// that is not JSON is a malformed delivery: 400, not a crash. Every failure is thrown as the Response to send.
import { authenticate } from "../shopify.server";
import { BODY_LIMITS, bufferedRequest } from "../http/body-limit.server";

export type WebhookContext = Awaited<ReturnType<typeof authenticate.webhook>>;

export async function receiveWebhook(request: Request): Promise<WebhookContext> {
  const buffered = await bufferedRequest(request, BODY_LIMITS.webhook);
  try {
    return await authenticate.webhook(buffered);
  } catch (error) {
    // authenticate.webhook parses the body only after the signature checked out.
    if (error instanceof SyntaxError) throw jsonError(400, "body is not JSON");
    throw error;
  }
}

export function jsonError(status: number, error: string): Response {
  return new Response(JSON.stringify({ ok: false, error }), { status, headers: { "Content-Type": "application/json" } });
}
