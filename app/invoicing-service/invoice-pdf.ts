// The formal PDF of an invoice (GET /invoices/{id}/formal-pdf), handed on as a stream: checked to be a PDF by its
// first bytes and cut off past a size limit.
import { NetworkError, ResponseFormatError, TimeoutError } from "./errors";
import { header, idSegment, type InvoicingTransport } from "./transport";

/** A formal PDF larger than this is refused: it is not an invoice page. */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;

/**
 * The formal PDF as a stream, to pass on without holding it in memory. Resolves once its first bytes
 * are read and are a PDF's (a JSON or HTML answer with a 2xx status is not handed on as one); the rest
 * flows under the same deadline, and a body over `maxBytes` ends the stream with an error.
 */
export async function openFormalPdf(
  transport: InvoicingTransport,
  id: number,
  options: { maxBytes?: number } = {},
): Promise<{ body: ReadableStream<Uint8Array>; length: number | null }> {
  const request = { method: "GET", path: `/invoices/${idSegment(id)}/formal-pdf`, create: false };
  const maxBytes = options.maxBytes ?? MAX_PDF_BYTES;
  const signal = AbortSignal.timeout(transport.timeoutMs);
  const answer = await transport.exchange(request, {}, signal);
  const status = answer.statusCode;
  if (status < 200 || status >= 300)
    throw transport.errorFromResponse(request, answer, await transport.readRest(answer, signal, request));
  const declared = header(answer, "content-length")?.trim();
  const length = declared && /^\d{1,15}$/.test(declared) ? Number(declared) : null;
  // Destroying an unfinished body emits an abort error: nobody reads it any more.
  const cancel = () => void answer.body.on("error", () => undefined).destroy();
  if (length !== null && length > maxBytes) {
    cancel();
    throw new ResponseFormatError(request, `PDF larger than ${maxBytes} bytes`, { status });
  }
  const chunks: AsyncIterator<Buffer> = answer.body[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let received = 0;
  const read = async () => {
    try {
      return await chunks.next();
    } catch (error) {
      throw signal.aborted
        ? new TimeoutError(request, transport.timeoutMs, { cause: error })
        : new NetworkError(request, true, { cause: transport.redact(error) });
    }
  };
  // Enough bytes to recognise a PDF (chunks can be as small as one byte).
  while (received < 5) {
    const { done, value } = await read();
    if (done) break;
    head.push(value);
    received += value.length;
  }
  if (!startsWith(concat(head), "%PDF-")) {
    cancel();
    throw new ResponseFormatError(request, "body is not a PDF", { status });
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await read();
      if (done) return controller.close();
      received += value.length;
      if (received > maxBytes) {
        cancel();
        return controller.error(new ResponseFormatError(request, `PDF larger than ${maxBytes} bytes`, { status }));
      }
      controller.enqueue(value);
    },
    cancel,
  });
  return { body, length };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function startsWith(bytes: Uint8Array, prefix: string): boolean {
  return new TextDecoder().decode(bytes.subarray(0, prefix.length)) === prefix;
}
