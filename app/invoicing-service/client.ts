// Typed client of the invoicing service's REST API (docs/spec/invoicing-service.md and -facts.md).
// It sends exactly one HTTP request per call and never repeats a create on its own: what may be repeated
// is stated by each error's `retry` (errors.ts). It does not log; the API key appears only in the
// Authorization header, never in an error.
import { z } from "zod";
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
import { dec } from "./money";
import { cleanDocumentText } from "./text";
import {
  InvoiceIntegrationSchema,
  InvoiceRecordSchema,
  InvoiceRequestSchema,
  SaleChannelSchema,
  WaybillRecordSchema,
  type InvoiceIntegration,
  type InvoiceRecord,
  type InvoiceRequest,
  type SaleChannel,
  type WaybillRecord,
  LIVE_BASE_URL,
} from "./schemas";

export { LIVE_BASE_URL };
export const DEFAULT_TIMEOUT_MS = 15_000;
/** A formal PDF larger than this is refused: it is not an invoice page. */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;
/** How many invoices one order lookup asks for; duplicate protection allows one per sale channel. */
const ORDER_LOOKUP_LIMIT = 50;

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

interface CallOptions {
  /** Sent as JSON; a RawJson is sent as it is. */
  body?: unknown;
  /** Non-idempotent: a repeat could create a second invoice. */
  create?: boolean;
}

export class InvoicingClient {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
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

  /**
   * POST /invoices. Every string of the body is cleaned of invisible characters first (text.ts). On an "unknown" or
   * duplicate failure, call settleUnknownCreate before posting again.
   */
  async createInvoice(body: InvoiceRequest): Promise<InvoiceRecord> {
    const request = { method: "POST", path: "/invoices", create: true };
    const clean = cleanDocumentText(body);
    checkRequest(request, clean);
    return this.json(request, InvoiceRecordSchema, { body: invoiceBodyJson(clean), create: true });
  }

  /** POST /waybills/{id}/invoice: same body and rules as createInvoice. */
  async createInvoiceFromWaybill(waybillId: number, body: InvoiceRequest): Promise<InvoiceRecord> {
    const request = { method: "POST", path: `/waybills/${idSegment(waybillId)}/invoice`, create: true };
    const clean = cleanDocumentText(body);
    checkRequest(request, clean);
    return this.json(request, InvoiceRecordSchema, { body: invoiceBodyJson(clean), create: true });
  }

  async getInvoice(id: number): Promise<InvoiceRecord> {
    return this.json({ method: "GET", path: `/invoices/${idSegment(id)}`, create: false }, InvoiceRecordSchema);
  }

  /** Invoices whose order_id is `orderId`, of any sale channel of the account. */
  async findInvoicesByOrderId(orderId: string, limit: number = ORDER_LOOKUP_LIMIT): Promise<InvoiceRecord[]> {
    const query = new URLSearchParams({ limit: String(limit), "filters[$or][0][order_id][$eq]": orderId });
    return this.json({ method: "GET", path: `/invoices?${query}`, create: false }, z.array(InvoiceRecordSchema));
  }

  async getWaybill(id: number): Promise<WaybillRecord> {
    return this.json({ method: "GET", path: `/waybills/${idSegment(id)}`, create: false }, WaybillRecordSchema);
  }

  /** The formal PDF's bytes (GET /invoices/{id}/formal-pdf). */
  async getFormalPdf(id: number): Promise<Uint8Array> {
    const { body } = await this.openFormalPdf(id);
    return new Uint8Array(await new Response(body).arrayBuffer());
  }

  /**
   * The formal PDF as a stream, to pass on without holding it in memory. Resolves once its first bytes
   * are read and are a PDF's (a JSON or HTML answer with a 2xx status is not handed on as one); the rest
   * flows under the same deadline, and a body over `maxBytes` ends the stream with an error.
   */
  async openFormalPdf(
    id: number,
    options: { maxBytes?: number } = {},
  ): Promise<{ body: ReadableStream<Uint8Array>; length: number | null }> {
    const request = { method: "GET", path: `/invoices/${idSegment(id)}/formal-pdf`, create: false };
    const maxBytes = options.maxBytes ?? MAX_PDF_BYTES;
    const signal = AbortSignal.timeout(this.timeoutMs);
    const answer = await this.exchange(request, {}, signal);
    const status = answer.statusCode;
    if (status < 200 || status >= 300)
      throw this.errorFromResponse(request, answer, await this.readRest(answer, signal, request));
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
          ? new TimeoutError(request, this.timeoutMs, { cause: error })
          : new NetworkError(request, true, { cause: this.redact(error) });
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

  async deleteInvoice(id: number): Promise<void> {
    await this.send({ method: "DELETE", path: `/invoices/${idSegment(id)}`, create: false }, {});
  }

  /** Resolves when the API key works; a rejected key throws AuthenticationError. */
  async checkAuth(): Promise<void> {
    await this.send({ method: "POST", path: "/check/auth", create: false }, {});
  }

  async listInvoiceIntegrations(): Promise<InvoiceIntegration[]> {
    return this.json(
      { method: "GET", path: "/integrations/invoice", create: false },
      z.array(InvoiceIntegrationSchema),
    );
  }

  async listSaleChannels(): Promise<SaleChannel[]> {
    return this.json({ method: "GET", path: "/integrations/sale-channel", create: false }, z.array(SaleChannelSchema));
  }

  /**
   * POST /integrations/sale-channel: a Shopify sales channel for the shop `domain`. Not idempotent (a lost answer
   * may leave a channel behind): callers list the channels first and reuse one for the same domain.
   */
  async createSaleChannel(domain: string): Promise<SaleChannel> {
    const body = { sale_channel: "shopify", settings: { domain } };
    return this.json({ method: "POST", path: "/integrations/sale-channel", create: false }, SaleChannelSchema, {
      body,
    });
  }

  /** Account-level webhook (update-or-create keyed on the URL, so repeating it is harmless). The body may be empty. */
  async saveAccountWebhook(url: string): Promise<void> {
    await this.send(
      { method: "POST", path: "/helpers/settings-webhook", create: false },
      { body: { webhook_url: url } },
    );
  }

  // -------------------------------------------------------------------------------------------------

  /** Sends, then unwraps `{data: ...}` and validates it. */
  private async json<S extends z.ZodType>(
    request: RequestContext,
    schema: S,
    options: CallOptions = {},
  ): Promise<z.output<S>> {
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
  private async send(request: RequestContext, options: CallOptions): Promise<{ bytes: Uint8Array; status: number }> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const answer = await this.exchange(request, options, signal);
    // The body is read under the same deadline: a stalled body is a timeout too.
    const bytes = await this.readRest(answer, signal, request);
    if (answer.statusCode >= 200 && answer.statusCode < 300) return { bytes, status: answer.statusCode };
    throw this.errorFromResponse(request, answer, bytes);
  }

  /** Sends the request; resolves with the response once its headers are in (any status), body unread. */
  private async exchange(request: RequestContext, options: CallOptions, signal: AbortSignal): Promise<OutboundAnswer> {
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

  private async readRest(answer: OutboundAnswer, signal: AbortSignal, request: RequestContext): Promise<Uint8Array> {
    try {
      return await answer.body.bytes();
    } catch (error) {
      if (signal.aborted) throw new TimeoutError(request, this.timeoutMs, { cause: error });
      throw new NetworkError(request, true, { cause: this.redact(error) });
    }
  }

  private errorFromResponse(request: RequestContext, answer: OutboundAnswer, bytes: Uint8Array): InvoicingError {
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

  private redact(error: unknown): unknown {
    if (error instanceof Error && this.apiKey && error.message.includes(this.apiKey))
      return new Error(this.redactText(error.message));
    return error;
  }
}

/** What a create was posted with: the lookup asks for exactly this. */
export interface PostedWith {
  saleChannelId: number;
  /** The integration posted to; null when unknown (then any integration of the channel matches). */
  invoiceIntegrationId?: number | null;
  /** The order id as sent to the service. */
  orderId: string;
  /** The callback address the create carried: it tells a record that does not say its order_id. */
  callbackUrl?: string;
}

/**
 * After a create whose outcome is unknown (error.retry === "unknown") or a DuplicateOrderError: the invoice
 * of this sale channel, integration and order, or null when none exists, which means posting again is safe.
 * Pass what the create was posted with, not the current settings: they may have changed since.
 */
export async function settleUnknownCreate(
  client: Pick<InvoicingClient, "findInvoicesByOrderId">,
  { saleChannelId, invoiceIntegrationId, orderId, callbackUrl }: PostedWith,
): Promise<InvoiceRecord | null> {
  const found = await client.findInvoicesByOrderId(orderId);
  const matches = found.filter(
    (invoice) =>
      invoice.sale_channel_id === saleChannelId &&
      // A test invoice (dummy integration) of the same order is not the live one, and the other way round.
      (invoiceIntegrationId == null ||
        invoice.invoice_integration_id == null ||
        invoice.invoice_integration_id === invoiceIntegrationId) &&
      // The spec's record has no order_id. When the record says it, it must match (the service may ignore the
      // filter); when not, the record is this order's only if it echoes our callback address ("as sent"), or a
      // service that ignored the filter would hand us another order's invoice.
      (invoice.order_id != null
        ? invoice.order_id === orderId
        : callbackUrl !== undefined && invoice.callback_url?.trim() === callbackUrl),
  );
  // Duplicate protection allows one; should there be more, the oldest is the one that counts.
  matches.sort((a, b) => a.id - b.id);
  return matches[0] ?? null;
}

/**
 * After an unknown outcome or a refusal of POST /waybills/{id}/invoice: the waybill's `invoice_id` says
 * whether an invoice was made from it (spec: set when the waybill is invoiced). It is this caller's only if
 * it carries the caller's `callbackUrl` (records echo it "as sent") and, when both are known, the integration
 * it was posted to (a test invoice is not the live one); otherwise `takenBy` is its id.
 */
export async function settleWaybillCreate(
  client: Pick<InvoicingClient, "getWaybill" | "getInvoice">,
  {
    waybillId,
    callbackUrl,
    invoiceIntegrationId,
  }: { waybillId: number; callbackUrl: string; invoiceIntegrationId?: number | null },
): Promise<{ record: InvoiceRecord | null; takenBy?: number }> {
  const waybill = await client.getWaybill(waybillId);
  if (waybill.invoice_id == null) return { record: null };
  const record = await client.getInvoice(waybill.invoice_id);
  const sameIntegration =
    invoiceIntegrationId == null ||
    record.invoice_integration_id == null ||
    record.invoice_integration_id === invoiceIntegrationId;
  return record.callback_url?.trim() === callbackUrl && sameIntegration
    ? { record }
    : { record: null, takenBy: record.id };
}

// ---------------------------------------------------------------------------------------------------

/** A request body already written as JSON text. */
class RawJson {
  constructor(readonly text: string) {}
}

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

/**
 * The invoice body as JSON text. The spec types quantity, unit_price, discount and currency_rate as numbers
 * (a strict service refuses "12.50"), while the app holds amounts as exact decimal strings (0003). Each is
 * written as a JSON number with the decimal's own digits ("27.775" → 27.775), so no amount passes through a
 * binary float on our side; extra_taxes' tax_rate, whose type the spec does not show, is left as it is.
 */
export function invoiceBodyJson(body: InvoiceRequest): RawJson {
  const numbers: string[] = [];
  const marker = `\u0000num${Math.random().toString(36).slice(2)}:`;
  const asNumber = (value: unknown) => {
    if (typeof value !== "string" || !DECIMAL_TEXT.test(value)) return value;
    numbers.push(dec(value).toFixed());
    return `${marker}${numbers.length - 1}`;
  };
  const marked = {
    ...body,
    ...(body.currency_rate !== undefined ? { currency_rate: asNumber(body.currency_rate) } : {}),
    lines: body.lines.map((line) => ({
      ...line,
      quantity: asNumber(line.quantity),
      unit_price: asNumber(line.unit_price),
      ...(line.discount !== undefined ? { discount: asNumber(line.discount) } : {}),
    })),
  };
  const text = JSON.stringify(marked);
  // The marker has a random part and a NUL (written \u0000), so no text of the body is taken for it.
  const escaped = JSON.stringify(marker)
    .slice(1, -1)
    .replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
  return new RawJson(text.replace(new RegExp(`"${escaped}(\\d+)"`, "g"), (_, i: string) => numbers[Number(i)]));
}

function checkRequest(request: RequestContext, body: InvoiceRequest): void {
  const result = InvoiceRequestSchema.safeParse(body);
  if (result.success) return;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "(root)";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  throw new ValidationError(request, fieldErrors);
}

function idSegment(id: number): string {
  if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError(`invalid id: ${id}`);
  return String(id);
}

/** A header of the answer (names are lower case); a repeated one is joined as fetch's Headers join it. */
function header(answer: OutboundAnswer, name: string): string | null {
  const value = answer.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

interface ErrorBody {
  message?: string;
  fieldErrors: Record<string, string[]>;
}

/** Longest service message kept, and longest single field message; they are shown to the merchant. */
const MESSAGE_MAX = 500;
const FIELD_MESSAGE_MAX = 300;

/**
 * Laravel's `{message, errors: {field: [..]}}`, read tolerantly. Only those JSON fields are kept: a body that is
 * not JSON (an HTML error page, a proxy's answer) gives no message at all, so no raw body reaches the merchant.
 */
function readErrorBody(bytes: Uint8Array): ErrorBody {
  const text = new TextDecoder().decode(bytes).trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { fieldErrors: {} };
  }
  if (!isObject(parsed)) return { fieldErrors: {} };
  const fieldErrors: Record<string, string[]> = {};
  if (isObject(parsed.errors)) {
    for (const [field, messages] of Object.entries(parsed.errors)) {
      const list = Array.isArray(messages) ? messages : [messages];
      fieldErrors[field.slice(0, 100)] = list
        .filter((m) => typeof m === "string" || typeof m === "number")
        .map((m) => String(m).slice(0, FIELD_MESSAGE_MAX));
    }
  }
  const message =
    typeof parsed.message === "string" ? parsed.message : typeof parsed.error === "string" ? parsed.error : undefined;
  return { message: message?.slice(0, MESSAGE_MAX), fieldErrors };
}

// "mevcut değil" means "does not exist" and must not count as "already exists".
const DUPLICATE_WORDS = /duplicate|already|zaten|mevcut(?!\s*de[ğg]il)|daha önce/iu;

/**
 * The duplicate answer is not documented: a 409; a 400/422 with an `order_id` field error; or a 400/422
 * whose message says "already exists" in English or Turkish while no other field is blamed.
 */
function isDuplicateAnswer(status: number, body: ErrorBody): boolean {
  if (status === 409) return true;
  if (status !== 422 && status !== 400) return false;
  const fields = Object.keys(body.fieldErrors);
  if (fields.includes("order_id")) return true;
  return fields.length === 0 && DUPLICATE_WORDS.test(body.message ?? "");
}

/** Error codes of failures that happen before a connection exists, so no byte of the request was sent. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_NONAME",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_INVALID_URL",
]);

/** Walks the cause chain (a wrapper such as fetch's "fetch failed" may hold the socket error; happy eyeballs an AggregateError). */
function failedBeforeSending(error: unknown, depth = 0): boolean {
  if (!isObjectLike(error) || depth > 5) return false;
  if (typeof error.code === "string" && NOT_SENT_CODES.has(error.code)) return true;
  if (
    Array.isArray(error.errors) &&
    error.errors.length > 0 &&
    error.errors.every((e) => failedBeforeSending(e, depth + 1))
  )
    return true;
  return failedBeforeSending(error.cause, depth + 1);
}

function isObjectLike(value: unknown): value is { code?: unknown; errors?: unknown; cause?: unknown } {
  return typeof value === "object" && value !== null;
}
