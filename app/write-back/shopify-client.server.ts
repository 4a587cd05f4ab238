// The write-back's Admin API access: the shop's offline session through the app's Admin API client
// (app/shopify, which already waits out THROTTLED and retries 5xx within bounds), and how its errors end
// the step: a missing scope or session parks it, an outage retries it later, anything else fails it.
import { AdminAccessDeniedError, AdminApiError } from "../shopify/errors";
import type { WriteFailure } from "./errors";
import type { WriteBackDeps } from "./run.server";

export function classifyAdminError(error: unknown): WriteFailure {
  if (error instanceof AdminAccessDeniedError) return "no_scope";
  if (error instanceof AdminApiError) {
    if (error.kind === "no_session" || error.kind === "unauthorized") return "no_scope";
    if (error.kind === "reconnect") return "reconnect";
    return error.transient ? "transient" : "refused";
  }
  // A network failure or a bug outside the client: try again later (bounded by the step's attempts).
  return "transient";
}

export function defaultWriteBackDeps(): Omit<WriteBackDeps, "now"> {
  // The Admin API client (and the Shopify library with its session storage) is loaded by the first write-back, not
  // at a worker's start.
  return {
    adminFor: async (shop) => (await import("../shopify/admin.server")).adminGraphql(shop),
    classify: classifyAdminError,
  };
}
