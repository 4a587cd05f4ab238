// How a failed write to Shopify is handled: later again (throttled, outage), never without the merchant
// (the scope is missing, access denied), when the merchant reconnects the app (Shopify refused its token), or not
// again (Shopify refused the values).
export type WriteFailure = "no_scope" | "transient" | "reconnect" | "refused";

/** Shopify answered the mutation with userErrors: the values were refused; repeating them changes nothing. */
export class WriteRefusedError extends Error {
  constructor(
    readonly mutation: string,
    readonly userErrors: Array<{ field?: string[] | null; message: string; code?: string | null }>,
  ) {
    super(
      `${mutation} refused: ${userErrors.map((e) => `${(e.field ?? []).join(".") || "-"}: ${e.message}`).join("; ")}`,
    );
    this.name = "WriteRefusedError";
  }
}
