// The production server's direct path for the invoicing service's callbacks (server/app-server.ts takes it from the
// build's entry, app/entry.server.tsx, as it takes the webhooks' path): POST /callbacks/invoices/{id} is answered
// from node's own request and response, without express's chain, the Fetch Request, the route matching and the
// streamed Response of Remix, which were most of a callback's CPU in the web process (docs/decisions/0021). What is
// done with a callback is the Remix route's own code (answerCallback); `shopify app dev` uses that route.
import type { IncomingMessage, ServerResponse } from "node:http";
import { BODY_LIMITS } from "../http/body-limit.server";
import { bodyWithin, sendJson, serveDirect } from "../http/direct.server";
import { answerCallback } from "./callback.server";

// Row ids are letters and digits (app/db/hot.server.ts newId, Prisma's cuid); any other address, one with a trailing
// slash or an escaped character among them, is left to the Remix route, which decodes it.
const CALLBACK_PATH = /^\/callbacks\/invoices\/([A-Za-z0-9_-]+)$/;

/** Connect/express middleware: a POST to an invoice's callback address is answered here, any other request passed on. */
export function callbackMiddleware(
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
): void {
  const id = request.method === "POST" ? CALLBACK_PATH.exec((request.url ?? "").split("?")[0])?.[1] : undefined;
  if (!id) return next();
  serveDirect(
    request,
    response,
    async () => {
      const body = await bodyWithin(request, response, BODY_LIMITS.callback);
      if (!body) return;
      // TextDecoder as the route's readTextLimited: invalid UTF-8 replaced, a leading BOM dropped.
      const { status, body: answer } = await answerCallback(id, new TextDecoder().decode(body));
      // The route's answers are Remix's json(), which names UTF-8.
      sendJson(response, status, answer, { contentType: "application/json; charset=utf-8" });
    },
    // A 500, as Remix answers an error thrown by the route; the status sync reads the invoice anyway.
    { log: { invoice: id }, message: "callback failed", error: "the callback could not be recorded" },
  );
}
