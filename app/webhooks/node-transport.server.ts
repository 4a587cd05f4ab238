// The production server's direct path for Shopify's deliveries (server/app-server.ts takes it from the build's
// entry, app/entry.server.tsx): POST /webhooks/{topic} is answered from node's own request and response, without
// the Fetch Request, the route matching and the streamed Response of Remix in between, which were most of a
// delivery's CPU (docs/decisions/0021, bench/results/pipeline.md Run 6). What is done with a delivery is the same
// code as the Remix routes' (app/webhooks/receive.server.ts); `shopify app dev` uses those routes.
import type { IncomingMessage, ServerResponse } from "node:http";
import { BODY_LIMITS, readNodeBodyLimited, tooLargeError } from "../http/body-limit.server";
import { logger } from "../logger.server";
import { failure, type WebhookAnswer } from "../pipeline/webhook-response";
import { answerDelivery } from "./receive.server";
import { topicAt, type WebhookTopic } from "./topics.server";

function send(response: ServerResponse, answer: WebhookAnswer, close = false) {
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    // After a 413 the rest of the upload is not read: the connection cannot carry another request.
    ...(close ? { Connection: "close" } : {}),
  });
  response.end(text);
}

function headerOf(request: IncomingMessage) {
  return (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
}

async function serve(request: IncomingMessage, response: ServerResponse, topic: WebhookTopic) {
  const body = await readNodeBodyLimited(request, BODY_LIMITS.webhook);
  if (body === undefined) return send(response, failure(413, tooLargeError(BODY_LIMITS.webhook)), true);
  send(response, await answerDelivery({ header: headerOf(request), rawBody: body }, topic));
}

/** Connect/express middleware: a POST to a topic's address is answered here, any other request passed on. */
export function webhookMiddleware(request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void): void {
  const topic = request.method === "POST" ? topicAt((request.url ?? "").split("?")[0]) : undefined;
  if (!topic) return next();
  serve(request, response, topic).catch((error: unknown) => {
    if (request.destroyed && !request.complete) return; // the sender went away mid-body: nothing was done
    // Not acted on (the delivery record was undone): Shopify retries it.
    logger.error({ err: error, topic }, "webhook delivery failed");
    if (!response.headersSent) send(response, failure(500, "the delivery could not be recorded; Shopify will retry it"), true);
    else response.destroy();
  });
}
