// The production server's direct path for Shopify's deliveries (server/app-server.ts takes it from the build's
// entry, app/entry.server.tsx): POST /webhooks/{topic} is answered from node's own request and response, without
// the Fetch Request, the route matching and the streamed Response of Remix in between, which were most of a
// delivery's CPU (docs/decisions/0021, bench/results/pipeline.md Run 6). What is done with a delivery is the same
// code as the Remix routes' (app/webhooks/receive.server.ts); `shopify app dev` uses those routes.
import type { IncomingMessage, ServerResponse } from "node:http";
import { BODY_LIMITS } from "../http/body-limit.server";
import { bodyWithin, sendJson, serveDirect } from "../http/direct.server";
import { answerDelivery } from "./receive.server";
import { topicAt } from "./topics.server";

function headerOf(request: IncomingMessage) {
  return (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
}

/** Connect/express middleware: a POST to a topic's address is answered here, any other request passed on. */
export function webhookMiddleware(
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
): void {
  const topic = request.method === "POST" ? topicAt((request.url ?? "").split("?")[0]) : undefined;
  if (!topic) return next();
  serveDirect(
    request,
    response,
    async () => {
      const body = await bodyWithin(request, response, BODY_LIMITS.webhook);
      if (!body) return;
      const answer = await answerDelivery({ header: headerOf(request), rawBody: body }, topic);
      sendJson(response, answer.status, answer.body);
    },
    // Not acted on (the delivery record was undone): Shopify retries it.
    {
      log: { topic },
      message: "webhook delivery failed",
      error: "the delivery could not be recorded; Shopify will retry it",
    },
  );
}
