// One formal PDF of an accountant package, read from the invoicing service with the shop's key and streamed to its own
// file (never held whole in memory), retried with backoff while a retry can help; what stopped it is named, not hidden.
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { InvoicingClient } from "../invoicing-service/client";
import {
  AuthenticationError,
  InvoicingError,
  NotFoundError,
  RateLimitedError,
  ResponseFormatError,
} from "../invoicing-service/errors";
import { delayHonouringRetryAfter, retryDelayMs } from "../jobs/backoff";

export type PdfOpener = (connection: { baseUrl: string; apiKey: string }) => Pick<InvoicingClient, "openFormalPdf">;

export const PDF_ATTEMPTS = 4;
export const PDF_RETRY_BASE_MS = 1_000;
const PDF_RETRY_CAP_MS = 30_000;
const PDF_TIMEOUT_MS = 60_000;

export const defaultClientFor: PdfOpener = (connection) =>
  new InvoicingClient({ ...connection, timeoutMs: PDF_TIMEOUT_MS });

type PdfOutcome = { ok: true } | { ok: false; reason: string; attempts: number };

/** One PDF to `${file}.pdf` (through `${file}.part`), retried with backoff while a retry can help. */
export async function readPdf(
  client: ReturnType<PdfOpener>,
  remoteId: number,
  file: string,
  attempts: number,
  baseMs: number,
  random?: () => number,
): Promise<PdfOutcome> {
  let reason = "service";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const { body } = await client.openFormalPdf(remoteId);
      await pipeline(
        Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>),
        createWriteStream(`${file}.part`),
      );
      await rename(`${file}.part`, `${file}.pdf`);
      return { ok: true };
    } catch (error) {
      await rm(`${file}.part`, { force: true }).catch(() => undefined);
      if (error instanceof NotFoundError) return { ok: false, reason: "not_ready", attempts: attempt };
      if (error instanceof AuthenticationError) return { ok: false, reason: "authentication", attempts: attempt };
      reason = error instanceof ResponseFormatError ? "not_pdf" : "service";
      // Refusals a repeat would not change end at once; transient failures (5xx, 429, network, timeout) back off.
      if (error instanceof InvoicingError && error.retry === "never") return { ok: false, reason, attempts: attempt };
      if (attempt === attempts) return { ok: false, reason, attempts: attempt };
      const backoff = Math.min(PDF_RETRY_CAP_MS, retryDelayMs(attempt, random, baseMs, PDF_RETRY_CAP_MS));
      const wait =
        error instanceof RateLimitedError
          ? Math.min(PDF_RETRY_CAP_MS, delayHonouringRetryAfter(backoff, error.retryAfterMs))
          : backoff;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return { ok: false, reason, attempts };
}
