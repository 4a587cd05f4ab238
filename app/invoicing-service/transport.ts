// The shared transport of the invoicing service's client (client.ts): one guarded HTTP exchange per call, with the
// Authorization header, the deadline, the `{data: ...}` unwrapping and validation, and the typed error of a failure
// (errors.ts; how an error answer is read is in failures.ts). It never repeats a request and never logs.
import type { z } from "zod";
import {
  checkOutboundUrl,
  guardedRequest,
  outboundPolicy,
  outboundRefusalOf,
  type GuardedRequest,
  type OutboundAnswer,
  type OutboundPolicy,
} from "../http/outbound-guard.server";
import {
  AuthenticationError,
  BlockedError,
  DuplicateOrderError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  RejectedError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  ValidationError,
  parseRetryAfter,
  type InvoicingError,
  type RequestContext,
} from "./errors";
import { failedBeforeSending, isDuplicateAnswer, isObject, readErrorBody } from "./failures";

export const DEFAULT_TIMEOUT_MS = 15_000;

export interface InvoicingClientOptions {
  /** Service address including the /api prefix, e.g. https://app.faturaentegrator.com/api. */
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  /** Where calls may go (app/http/outbound-guard.server.ts); the process's configuration by default. */
  policy?: OutboundPolicy;
  /** Replaces the guarded request (tests); the static address check still applies. */
  request?: GuardedRequest;
}

export interface CallOptions {
  /** Sent as JSON; a RawJson is sent as it is. */
  body?: unknown;
  /** Non-idempotent: a repeat could create a second invoice. */
  create?: boolean;
}

/** A request body already written as JSON text. */
export class RawJson {
  constructor(readonly text: string) {}
}

export class InvoicingTransport {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  readonly timeoutMs: number;
  private readonly requestImpl: GuardedRequest;
  private readonly policy: OutboundPolicy;

  constructor(options: InvoicingClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = options.policy ?? outboundPolicy();
    // Every call carries the API key: only the guarded request may send it.
    this.requestImpl = options.request ?? guardedRequest(this.policy);
  }

  /** Sends, then unwraps `{data: ...}` and validates it. */
  async json<S extends z.ZodType>(request: RequestContext, schema: S, options: CallOptions = {}): Promise<z.output<S>> {
    const { bytes, status } = await this.send(request, options);
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new ResponseFormatError(request, "body is not JSON", { status });
    }
    const data = isObject(parsed) && "data" in parsed ? parsed.data : parsed;
    const result = schema.safeParse(data);
    if (!result.success) {
      const where = result.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join(".") || "(root)"} ${issue.message}`)
        .join("; ");
      throw new ResponseFormatError(request, where, { status, cause: result.error });
    }
    return result.data;
  }

  /** One HTTP exchange; resolves with the body of a 2xx, throws a typed error otherwise. */
  async send(request: RequestContext, options: CallOptions): Promise<{ bytes: Uint8Array; status: number }> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const answer = await this.exchange(request, options, signal);
    // The body is read under the same deadline: a stalled body is a timeout too.
    const bytes = await this.readRest(answer, signal, request);
    if (answer.statusCode >= 200 && answer.statusCode < 300) return { bytes, status: answer.statusCode };
    throw this.errorFromResponse(request, answer, bytes);
  }

  /** Sends the request; resolves with the response once its headers are in (any status), body unread. */
  async exchange(request: RequestContext, options: CallOptions, signal: AbortSignal): Promise<OutboundAnswer> {
    const check = checkOutboundUrl(this.baseUrl + request.path, this.policy);
    if (!check.ok) throw new BlockedError(request, check.reason);
    const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${this.apiKey}` };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    try {
      // Never follows a redirect (it would turn a POST into a GET; a redirect means a wrong base URL).
      return await this.requestImpl(this.baseUrl + request.path, {
        method: request.method,
        headers,
        body:
          options.body === undefined
            ? undefined
            : options.body instanceof RawJson
              ? options.body.text
              : JSON.stringify(options.body),
        signal,
      });
    } catch (error) {
      const refused = outboundRefusalOf(error);
      if (refused) throw new BlockedError(request, refused.reason, { cause: refused });
      if (signal.aborted) throw new TimeoutError(request, this.timeoutMs, { cause: error });
      throw new NetworkError(request, !failedBeforeSending(error), { cause: this.redact(error) });
    }
  }

  async readRest(answer: OutboundAnswer, signal: AbortSignal, request: RequestContext): Promise<Uint8Array> {
    try {
      return await answer.body.bytes();
    } catch (error) {
      if (signal.aborted) throw new TimeoutError(request, this.timeoutMs, { cause: error });
      throw new NetworkError(request, true, { cause: this.redact(error) });
    }
  }

  errorFromResponse(request: RequestContext, answer: OutboundAnswer, bytes: Uint8Array): InvoicingError {
    const status = answer.statusCode;
    const body = readErrorBody(bytes);
    const init = { status, serviceMessage: body.message === undefined ? undefined : this.redactText(body.message) };
    if (status === 401 || status === 403) return new AuthenticationError(request, init);
    if (status === 404) return new NotFoundError(request, init);
    if (status === 429) return new RateLimitedError(request, parseRetryAfter(header(answer, "retry-after")), init);
    if (request.create && isDuplicateAnswer(status, body))
      return new DuplicateOrderError(request, body.fieldErrors, init);
    if (status === 422 || (status === 400 && Object.keys(body.fieldErrors).length > 0)) {
      return new ValidationError(request, body.fieldErrors, init);
    }
    if (status >= 500) return new ServerError(request, init);
    // A redirect means a wrong address; where it points is not the service's message and is not shown.
    if (status >= 300 && status < 400) return new RejectedError(request, { status });
    return new RejectedError(request, init);
  }

  private redactText(text: string): string {
    return this.apiKey ? text.split(this.apiKey).join("[api key]") : text;
  }

  /** The error, or a copy of its message without the API key when it names it. */
  redact(error: unknown): unknown {
    if (error instanceof Error && this.apiKey && error.message.includes(this.apiKey))
      return new Error(this.redactText(error.message));
    return error;
  }
}

/** An id as a path segment; anything but a positive safe integer is refused before any request. */
export function idSegment(id: number): string {
  if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError(`invalid id: ${id}`);
  return String(id);
}

/** A header of the answer (names are lower case); a repeated one is joined as fetch's Headers join it. */
export function header(answer: OutboundAnswer, name: string): string | null {
  const value = answer.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
}
