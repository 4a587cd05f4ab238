// Typed failures of calls to the invoicing service. Every error says what went wrong (`kind`) and,
// as a visible property, whether the same request may be sent again (`retry`):
//
//   "safe"    sending it again cannot do harm: the request had no effect (never sent, rate limited) or
//             the operation is idempotent (GET, DELETE, the update-or-create webhook setting);
//   "never"   the service answered with a decision that a repeat would not change (422, 401, 404, duplicate);
//   "unknown" a create (POST /invoices, POST /waybills/{id}/invoice) may have reached the service and its
//             outcome is unknown (timeout, connection lost after sending, 5xx, unreadable 2xx). Posting again
//             could issue a second legal invoice and deduct quota twice; the caller must first look the
//             invoice up by order_id (settleUnknownCreate in client.ts).
//
// | kind             | status    | idempotent request | create    |
// |------------------|-----------|--------------------|-----------|
// | validation       | 422 (400) | never              | never     |
// | authentication   | 401, 403  | never              | never     |
// | not_found        | 404       | never              | never     |
// | duplicate_order  | 409, 422  | -                  | never     |
// | rejected         | other 4xx | never              | never     |
// | rate_limited     | 429       | safe               | safe      |
// | server           | 5xx       | safe               | unknown   |
// | network (unsent) | -         | safe               | safe      |
// | network (sent)   | -         | safe               | unknown   |
// | timeout          | -         | safe               | unknown   |
// | response_format  | 2xx       | safe               | unknown   |
// | blocked          | -         | never              | never     |  (not sent: the outbound guard refused the address)

export type RetryClass = "safe" | "never" | "unknown";

export type InvoicingErrorKind =
  | "validation"
  | "authentication"
  | "not_found"
  | "duplicate_order"
  | "rejected"
  | "rate_limited"
  | "server"
  | "network"
  | "timeout"
  | "response_format"
  | "blocked";

/** The request an error belongs to. `create` marks the non-idempotent operations. */
export interface RequestContext {
  method: string;
  /** Path below the base URL, e.g. "/invoices/5". Never contains the API key. */
  path: string;
  create: boolean;
}

interface ErrorInit {
  status?: number;
  serviceMessage?: string;
  cause?: unknown;
}

/** Transient failures: safe to repeat an idempotent request, outcome unknown for a create. */
const transient = (request: RequestContext): RetryClass => (request.create ? "unknown" : "safe");

export abstract class InvoicingError extends Error {
  abstract readonly kind: InvoicingErrorKind;
  readonly retry: RetryClass;
  readonly status?: number;
  readonly serviceMessage?: string;
  readonly method: string;
  readonly path: string;

  protected constructor(summary: string, request: RequestContext, retry: RetryClass, init: ErrorInit = {}) {
    const status = init.status !== undefined ? ` (HTTP ${init.status})` : "";
    const said = init.serviceMessage ? `: ${init.serviceMessage}` : "";
    super(
      `${request.method} ${request.path}${status}: ${summary}${said}`,
      init.cause !== undefined ? { cause: init.cause } : undefined,
    );
    this.name = new.target.name;
    this.retry = retry;
    this.status = init.status;
    this.serviceMessage = init.serviceMessage;
    this.method = request.method;
    this.path = request.path;
  }
}

/** The body was rejected by validation (Laravel 422 `{message, errors}`), or by our own check before sending (no status). */
export class ValidationError extends InvoicingError {
  readonly kind = "validation";
  constructor(
    request: RequestContext,
    readonly fieldErrors: Record<string, string[]>,
    init: ErrorInit = {},
  ) {
    super(init.status === undefined ? "request body invalid, not sent" : "validation failed", request, "never", init);
  }
}

export class AuthenticationError extends InvoicingError {
  readonly kind = "authentication";
  constructor(request: RequestContext, init: ErrorInit = {}) {
    super("API key rejected", request, "never", init);
  }
}

export class NotFoundError extends InvoicingError {
  readonly kind = "not_found";
  constructor(request: RequestContext, init: ErrorInit = {}) {
    super("not found", request, "never", init);
  }
}

/** An invoice already exists for this sale_channel_id + order_id. Resolve by lookup, never by posting again. */
export class DuplicateOrderError extends InvoicingError {
  readonly kind = "duplicate_order";
  constructor(
    request: RequestContext,
    readonly fieldErrors: Record<string, string[]>,
    init: ErrorInit = {},
  ) {
    super("an invoice already exists for this order", request, "never", init);
  }
}

/** Any other 4xx (or an unexpected redirect): the service refused the request as it is. */
export class RejectedError extends InvoicingError {
  readonly kind = "rejected";
  constructor(request: RequestContext, init: ErrorInit = {}) {
    super("request rejected", request, "never", init);
  }
}

/** 429: the request was refused before processing, so repeating it is safe after `retryAfterMs`. */
export class RateLimitedError extends InvoicingError {
  readonly kind = "rate_limited";
  constructor(
    request: RequestContext,
    readonly retryAfterMs: number | undefined,
    init: ErrorInit = {},
  ) {
    super("rate limited", request, "safe", init);
  }
}

export class ServerError extends InvoicingError {
  readonly kind = "server";
  constructor(request: RequestContext, init: ErrorInit = {}) {
    super("server error", request, transient(request), init);
  }
}

/**
 * The connection failed. `sent` is false only when it failed before any byte could reach the service
 * (connection refused, DNS failure); then even a create may be repeated.
 */
export class NetworkError extends InvoicingError {
  readonly kind = "network";
  constructor(
    request: RequestContext,
    readonly sent: boolean,
    init: ErrorInit = {},
  ) {
    super(sent ? "connection lost" : "could not connect", request, sent ? transient(request) : "safe", init);
  }
}

export class TimeoutError extends InvoicingError {
  readonly kind = "timeout";
  constructor(
    request: RequestContext,
    readonly timeoutMs: number,
    init: ErrorInit = {},
  ) {
    super(`no complete answer within ${timeoutMs} ms`, request, transient(request), init);
  }
}

/** A 2xx whose body is not what the schema expects. After a create the invoice may exist. */
export class ResponseFormatError extends InvoicingError {
  readonly kind = "response_format";
  constructor(request: RequestContext, summary: string, init: ErrorInit = {}) {
    super(`unexpected response: ${summary}`, request, transient(request), init);
  }
}

/**
 * Not sent: the service address is not one the operator allows (https, a host on INVOICING_ALLOWED_HOSTS, a public
 * address; app/http/outbound-guard.server.ts). Repeating cannot help; the settings must change.
 */
export class BlockedError extends InvoicingError {
  readonly kind = "blocked";
  constructor(
    request: RequestContext,
    readonly reason: string,
    init: ErrorInit = {},
  ) {
    super(`address not allowed (${reason})`, request, "never", init);
  }
}

export function isInvoicingError(e: unknown): e is InvoicingError {
  return e instanceof InvoicingError;
}

/** True when the same request may be sent again as is. "unknown" is not retryable: settle it first. */
export function isRetryable(e: unknown): boolean {
  return isInvoicingError(e) && e.retry === "safe";
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The `errors[]` of an invoice record (asynchronous processing) as one line for the merchant. The spec does not
 * show an element's fields: a string is taken as it is, an object by its string `message`, anything else
 * (null, numbers, other shapes) as its JSON, so no element can break the status read.
 */
export function processingErrorsText(errors: unknown): string {
  if (!Array.isArray(errors) || errors.length === 0) return "-";
  return errors
    .map((e) => {
      if (typeof e === "string") return e;
      const message = typeof e === "object" && e !== null ? (e as { message?: unknown }).message : undefined;
      return typeof message === "string" ? message : (JSON.stringify(e) ?? String(e));
    })
    .join("; ")
    .slice(0, 1000);
}
