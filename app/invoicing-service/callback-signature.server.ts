// The per-invoice callback (spec "Events"): the service POSTs {invoice_id, team_id, time, hash} where
// hash = lowercase hex HMAC-SHA512 of String(invoice_id) + String(team_id) + time, keyed with the API key.
// The payload carries no status; after verifying it the receiver reads GET /invoices/{invoice_id}.
import { createHmac, timingSafeEqual } from "node:crypto";
import { CallbackPayloadSchema, type CallbackPayload } from "./schemas";

/** The payload, or null when a field is missing, of the wrong type, or the hash is not 128 hex characters. */
export function parseCallback(body: unknown): CallbackPayload | null {
  const result = CallbackPayloadSchema.safeParse(body);
  return result.success ? result.data : null;
}

export function callbackSignature(
  payload: Pick<CallbackPayload, "invoice_id" | "team_id" | "time">,
  apiKey: string,
): string {
  return createHmac("sha512", apiKey)
    .update(String(payload.invoice_id) + String(payload.team_id) + payload.time, "utf8")
    .digest("hex");
}

/** True when `hash` is the signature of the other fields under `apiKey`; compared in constant time. */
export function verifyCallback(payload: CallbackPayload, apiKey: string): boolean {
  if (!apiKey || typeof payload.hash !== "string" || !/^[0-9a-fA-F]*$/.test(payload.hash)) return false;
  const expected = Buffer.from(callbackSignature(payload, apiKey), "hex");
  const received = Buffer.from(payload.hash, "hex");
  // timingSafeEqual throws on different lengths; the length of a signature is no secret.
  if (received.length !== expected.length) return false;
  return timingSafeEqual(received, expected);
}
