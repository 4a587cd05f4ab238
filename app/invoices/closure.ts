// How a merchant closed an invoice by hand (app/invoices/fixes.server.ts): issued in the invoicing panel, with the
// serial number GİB gave it, or needing no invoice, with a reason. Stored as JSON on the row; read defensively.
import type { InvoiceState } from "../invoice-state/transitions";

export interface Closure {
  as: "panel" | "not_needed";
  serial?: string;
  reason?: string;
  /** The close wrote `serial` into the row's serial number (it had none): a reopen takes it out again. */
  serialWritten?: boolean;
  /** The state a reopen returns to. */
  from: InvoiceState;
  at: string;
}

export function closureFrom(value: unknown): Closure | null {
  if (!value || typeof value !== "object") return null;
  const c = value as Record<string, unknown>;
  if ((c.as !== "panel" && c.as !== "not_needed") || typeof c.from !== "string" || typeof c.at !== "string")
    return null;
  return {
    as: c.as,
    from: c.from as InvoiceState,
    at: c.at,
    ...(typeof c.serial === "string" ? { serial: c.serial } : {}),
    ...(typeof c.reason === "string" ? { reason: c.reason } : {}),
    ...(c.serialWritten === true ? { serialWritten: true } : {}),
  };
}
