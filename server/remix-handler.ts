// Remix's request handler on express, as @remix-run/express's createRequestHandler does it, except how a response body
// is written: that adapter (2.17) writes each chunk without waiting when the socket's buffer is full, so a body is read
// from its source as fast as the source gives it, and whatever the client has not taken yet is held in this process.
// An accountant package downloaded by a slow client was read from the database (or the object store) whole into memory.
// Here the next chunk is read when the client has taken what the socket buffered, and a client that goes away cancels
// the body's source.
import {
  createReadableStreamFromReadable,
  createRequestHandler as createRemixRequestHandler,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { logger } from "../app/logger.server";

export interface RemixHandlerOptions {
  build: ServerBuild;
  mode?: string;
  getLoadContext?: (req: ExpressRequest) => AppLoadContext;
}

export function createRemixHandler({ build, mode = process.env.NODE_ENV, getLoadContext }: RemixHandlerOptions) {
  const handle = createRemixRequestHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      await sendResponse(res, await handle(remixRequest(req, res), getLoadContext?.(req)));
    } catch (error) {
      if (!res.headersSent) return next(error);
      // The body failed mid-way (its source, or the client went away): nothing more can be said to this client.
      if (!res.destroyed) logger.warn({ err: error, url: req.path }, "a response body stopped before its end");
      res.destroy();
    }
  };
}

/** The Fetch API request Remix handles, from express's: its full URL, headers, body, and a signal for a client gone. */
function remixRequest(req: ExpressRequest, res: ExpressResponse): Request {
  // req.hostname follows express's "trust proxy"; the port comes from X-Forwarded-Host, else Host.
  const port = [req.get("X-Forwarded-Host"), req.get("host")]
    .map((host) => Number.parseInt(host?.split(":")[1] ?? "", 10))
    .find((value) => Number.isSafeInteger(value));
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    for (const value of values === undefined ? [] : [values].flat()) headers.append(key, value);
  }
  // Loaders and actions are aborted when the response can no longer be sent (closed before it finished).
  const controller = new AbortController();
  res.on("close", () => res.writableFinished || controller.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** Writes a Fetch API response to express's, its body with back-pressure. */
export async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) return void res.end();
  // Read by hand, not through Readable.fromWeb: installGlobals gives Remix's own ReadableStream, which node:stream
  // does not take.
  const reader = response.body.getReader();
  let gone = false;
  const onClose = () => (gone = !res.writableFinished);
  res.once("close", onClose);
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (gone) break;
      // Compression holds what it is given until flushed: a streamed page's parts go out as they come (as the adapter).
      const full = !res.write(next.value);
      (res as { flush?: () => void }).flush?.();
      if (full) await drainedOrGone(res);
    }
    if (gone) await reader.cancel();
    else res.end();
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    res.off("close", onClose);
  }
}

/** Resolves when what the response buffered has been taken by the client, or the client has gone. */
function drainedOrGone(res: ExpressResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
