// The production server's direct path for the invoicing service's callbacks (server/app-server.ts takes it from the
// build's entry, app/entry.server.tsx, as it takes the webhooks' path): POST /callbacks/invoices/{id} is answered
// from node's own request and response, without express's chain, the Fetch Request, the route matching and the
// streamed Response of Remix, which were most of a callback's CPU in the web process (docs/decisions/0021). What is
// done with a callback is the Remix route's own code (answerCallback); `shopify app dev` uses that route.
import type { IncomingMessage, ServerResponse } from "node:http";
import { BODY_LIMITS, readNodeBodyLimited, tooLargeError } from "../http/body-limit.server";
import { logger } from "../logger.server";
import { answerCallback, type CallbackOutcome } from "./callback.server";

// Row ids are letters and digits (app/db/hot.server.ts newId, Prisma's cuid); any other address, one with a trailing
// slash or an escaped character among them, is left to the Remix route, which decodes it.
const CALLBACK_PATH = /^\/callbacks\/invoices\/([A-Za-z0-9_-]+)$/;

type Answer = CallbackOutcome | { status: 413 | 500; body: { ok: false; error: string } };

/** The route's answers are Remix's json() (UTF-8 named); the 413 is body-limit.server.ts's payloadTooLarge. */
function send(response: ServerResponse, { status, body }: Answer, close = false) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": status === 413 ? "application/json" : "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    // After a 413 the rest of the upload is not read: the connection cannot carry another request.
    ...(close ? { Connection: "close" } : {}),
  });
  response.end(text);
}

async function serve(request: IncomingMessage, response: ServerResponse, id: string) {
  const body = await readNodeBodyLimited(request, BODY_LIMITS.callback);
  if (body === undefined) return send(response, { status: 413, body: { ok: false, error: tooLargeError(BODY_LIMITS.callback) } }, true);
  // TextDecoder as the route's readTextLimited: invalid UTF-8 replaced, a leading BOM dropped.
  send(response, await answerCallback(id, new TextDecoder().decode(body)));
}

/** Connect/express middleware: a POST to an invoice's callback address is answered here, any other request passed on. */
export function callbackMiddleware(request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void): void {
  const id = request.method === "POST" ? CALLBACK_PATH.exec((request.url ?? "").split("?")[0])?.[1] : undefined;
  if (!id) return next();
  serve(request, response, id).catch((error: unknown) => {
    if (request.destroyed && !request.complete) return; // the sender went away mid-body: nothing was done
    // A 500, as Remix answers an error thrown by the route; the status sync reads the invoice anyway.
    logger.error({ err: error, invoice: id }, "callback failed");
    if (!response.headersSent) send(response, { status: 500, body: { ok: false, error: "the callback could not be recorded" } }, true);
    else response.destroy();
  });
}
