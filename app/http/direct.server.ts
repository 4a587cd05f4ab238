// What the production server's direct paths share (Shopify's deliveries, app/webhooks/node-transport.server.ts, and
// the service's callbacks, app/invoices/callback-transport.server.ts): node's own request and response, a body read
// within its limit, a JSON answer with its length, and a failure answered 500 and logged.
import type { IncomingMessage, ServerResponse } from "node:http";
import { logger } from "../logger.server";
import { readNodeBodyLimited, tooLargeError } from "./body-limit.server";

/** A JSON answer with its length. `close` after a 413: the rest of the upload is not read, so the connection cannot carry another request. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  { contentType = "application/json", close = false } = {},
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(text),
    ...(close ? { Connection: "close" } : {}),
  });
  response.end(text);
}

/** The body within `limit`, or undefined once the 413 is sent. */
export async function bodyWithin(
  request: IncomingMessage,
  response: ServerResponse,
  limit: number,
): Promise<Buffer | undefined> {
  const body = await readNodeBodyLimited(request, limit);
  if (body === undefined) sendJson(response, 413, { ok: false, error: tooLargeError(limit) }, { close: true });
  return body;
}

/** Runs `serve`; if it fails, logs `what` and answers 500 with `error` (nothing for a sender that went away mid-body). */
export function serveDirect(
  request: IncomingMessage,
  response: ServerResponse,
  serve: () => Promise<void>,
  what: { log: object; message: string; error: string },
) {
  serve().catch((error: unknown) => {
    if (request.destroyed && !request.complete) return; // the sender went away mid-body: nothing was done
    logger.error({ err: error, ...what.log }, what.message);
    if (!response.headersSent) sendJson(response, 500, { ok: false, error: what.error }, { close: true });
    else response.destroy();
  });
}
