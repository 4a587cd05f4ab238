// What can go wrong when the app talks to Shopify's Admin API, as one error type with a `kind` callers branch on.
// Access denied (a scope the merchant did not grant, e.g. write_orders) is its own class: callers that write back
// skip the write instead of failing the invoice.

export type AdminApiErrorKind =
  /** The shop has no offline session (never installed, or uninstalled). */
  | "no_session"
  /** 401: the access token is invalid or revoked (the app was uninstalled). */
  | "unauthorized"
  /** Shopify refused to renew the offline token (revoked, expired): only the merchant opening the app reconnects it. */
  | "reconnect"
  /** ACCESS_DENIED (or 403): the app lacks a scope, e.g. write_orders or read_all_orders. */
  | "access_denied"
  /** Still THROTTLED after the bounded retries. */
  | "throttled"
  /** 5xx, 429 or a network failure, still failing after the bounded retries. */
  | "unavailable"
  /** The outbound guard refused the address. */
  | "blocked"
  /** Other GraphQL errors (invalid query, MAX_COST_EXCEEDED, …) or a 4xx answer. */
  | "graphql"
  /** The answer did not have the expected shape. */
  | "invalid_response";

export class AdminApiError extends Error {
  constructor(
    readonly kind: AdminApiErrorKind,
    message: string,
    readonly details: { status?: number; codes?: string[]; attempts?: number } = {},
  ) {
    super(message);
    this.name = "AdminApiError";
  }

  /** Worth trying again later (a later pass, another worker run); the others need a person or a reinstall. */
  get transient(): boolean {
    return this.kind === "throttled" || this.kind === "unavailable";
  }
}

export class AdminAccessDeniedError extends AdminApiError {
  constructor(
    message: string,
    /** Shopify's `requiredAccess` text, e.g. "`write_orders` access scope." */
    readonly requiredAccess: string | null,
    details: { status?: number; codes?: string[] } = {},
  ) {
    super("access_denied", message, details);
    this.name = "AdminAccessDeniedError";
  }
}

export function isAccessDenied(error: unknown): error is AdminAccessDeniedError {
  return error instanceof AdminAccessDeniedError;
}
