// Size-limited request bodies for every route that reads one. A body over the route's limit is answered with
// 413 and read no further: a Content-Length over the limit is refused before any byte is read, and a body
// without one (chunked) is read until it passes the limit, then its stream is cancelled. The 413 closes the
// connection, so the server does not drain the rest. Limits and why: docs/decisions/0008-body-limits.md.
//
// Webhooks are read through here before the library's signature check (app/webhooks/receive.server.ts), which
// takes the text read.
import type { IncomingMessage } from "node:http";

/** The largest body each kind of route accepts, in bytes. */
export const BODY_LIMITS = {
  /** Shopify webhooks: an order with hundreds of lines is a few hundred KB; 5 MiB leaves room and bounds memory. */
  webhook: 5 * 1024 * 1024,
  /** The invoicing service's callback is four short fields (about 250 bytes). */
  callback: 8 * 1024,
  /** The invoicing service's account-level webhook: an undocumented payload, only ever a hint (decision 0014). */
  accountWebhook: 16 * 1024,
  /** Forms and JSON posted by the embedded admin (the settings form is the largest, a few KB). */
  adminAction: 256 * 1024,
} as const;

export const tooLargeError = (limit: number) => `body larger than ${limit} bytes`;

/** A Content-Length header that already says the body is over `limit`. */
const declaredOver = (declared: string | null | undefined, limit: number) =>
  declared != null && /^\d+$/.test(declared.trim()) && Number(declared) > limit;

/** The 413 answer. `Connection: close` stops the server from reading (draining) the rest of the upload. */
export function payloadTooLarge(limit: number): Response {
  return new Response(JSON.stringify({ ok: false, error: tooLargeError(limit) }), {
    status: 413,
    headers: { "Content-Type": "application/json", Connection: "close" },
  });
}

/** The body's bytes, at most `limit` of them; throws the 413 Response (Remix sends a thrown Response as is). */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (declaredOver(request.headers.get("content-length"), limit)) {
    await request.body?.cancel().catch(() => undefined);
    throw payloadTooLarge(limit);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The body as UTF-8 text, size-limited. */
export async function readTextLimited(request: Request, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBodyLimited(request, limit));
}

/**
 * A copy of `request` whose body is already read (size-limited), for code that reads the body itself:
 * request.formData(), request.json().
 */
export async function bufferedRequest(request: Request, limit: number): Promise<Request> {
  const bytes = await readBodyLimited(request, limit);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? bytes : undefined,
    signal: request.signal,
  });
}

/**
 * The same for node's own request (the production server's direct webhook path): the body, or undefined when it is
 * over `limit`. The rest of an oversized body is left unread; the caller answers 413 and closes the connection.
 */
export function readNodeBodyLimited(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (declaredOver(request.headers["content-length"], limit)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stop = () => {
      request.off("data", onData).off("end", onEnd).off("error", reject).off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total <= limit) return void chunks.push(chunk);
      stop();
      request.pause();
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, total));
    };
    const onClose = () => {
      stop();
      reject(new Error("the client closed the connection before the body ended"));
    };
    request.on("data", onData).on("end", onEnd).on("error", reject).on("close", onClose);
  });
}
