// How a failed exchange is read for transport.ts: the service's error answer (read tolerantly, never shown raw),
// its undocumented duplicate answer, and whether a network failure happened before any byte was sent. The error
// classes themselves are in errors.ts.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface ErrorBody {
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
export function readErrorBody(bytes: Uint8Array): ErrorBody {
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
export function isDuplicateAnswer(status: number, body: ErrorBody): boolean {
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
export function failedBeforeSending(error: unknown, depth = 0): boolean {
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
