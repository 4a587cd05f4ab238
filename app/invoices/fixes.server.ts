// What a merchant can do on the invoice page when the app cannot finish an invoice by itself (issue 22, point 1),
// besides Retry: set the buyer by hand (over the order's data, with a reason), or close the invoice by hand, as
// issued in the invoicing panel (with its serial number) or as needing no invoice (with a reason). Both closes are
// reversible (reopen) and leave every count of unfinished or late invoices. Every change is written only while the
// row is still in a state that allows it and no worker holds it, and is recorded in the invoice's history. Scoped
// by the session's shop: an id of another shop finds nothing.
import type { Prisma } from "#prisma/sqlite";
import prisma, { dbNull } from "../db.server";
import { SERIAL_NUMBER } from "../invoicing-service/schemas";
import { buyerOverrideFrom, checkBuyerOverride, type BuyerOverrideErrors } from "../orders/buyer-override";
import { signalWork } from "../jobs/signal.server";
import { closureFrom, type Closure } from "./closure";
import { CLOSABLE_STATES, STATE, nextState, transition, type InvoiceState } from "../invoice-state/transitions";
import { scheduleWriteBack, writesBack } from "./write-back-due.server";

export type FixResult<E = never> =
  | { ok: true; retried?: boolean }
  | { ok: false; reason: "not_found" | "not_allowed" }
  | { ok: false; reason: "invalid"; errors: E };

type Row = {
  state: string;
  remoteId: number | null;
  cancelledInShop: boolean;
  waybillId: number | null;
  isTest: boolean;
  leaseUntil: Date | null;
};

const free = (now: Date) => ({ OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] });

/** Closing by hand: nothing of it at work, and not an invoice formalised for an order cancelled since (its own path). */
export function mayClose(row: Row): boolean {
  return (CLOSABLE_STATES as string[]).includes(row.state) && !(row.cancelledInShop && row.remoteId !== null);
}

/** Setting the buyer: only while nothing was created at the service, for a Shopify order's invoice. */
export function mayOverrideBuyer(row: Row): boolean {
  return (
    row.remoteId === null &&
    row.waybillId === null &&
    !row.isTest &&
    !row.cancelledInShop &&
    (CLOSABLE_STATES as string[]).includes(row.state)
  );
}

/** The Shopify order carries the invoice's state (app/write-back): a close or a reopen is written to it too. */
async function orderCarries(
  row: { id: string; shopDomain: string; orderId: string; state: string; isTest: boolean; waybillId: number | null },
  state: string,
  now: Date,
) {
  if (!writesBack(row, state, true)) return;
  await scheduleWriteBack(prisma, row.id, row.shopDomain, now);
  await signalWork();
}

async function rowOf(shop: string, id: string) {
  return prisma.invoice.findFirst({ where: { id, shopDomain: shop } });
}

/**
 * The buyer as the merchant sets it (person or company, T.C. number or VKN with their check digits, name or title,
 * tax office, and why). An invoice needing attention is retried at once with it, from the order as it stands in
 * Shopify (read again before the post); a waiting one keeps waiting for its trigger.
 */
export async function setBuyerOverride(
  shop: string,
  id: string,
  form: Record<string, unknown>,
  now = new Date(),
): Promise<FixResult<BuyerOverrideErrors>> {
  const row = await rowOf(shop, id);
  if (!row) return { ok: false, reason: "not_found" };
  if (!mayOverrideBuyer(row)) return { ok: false, reason: "not_allowed" };
  const checked = checkBuyerOverride(form, now);
  if (!checked.ok) return { ok: false, reason: "invalid", errors: checked.errors };
  const retry = row.state !== STATE.waiting;
  const updated = await prisma.invoice.updateMany({
    where: { id, shopDomain: shop, state: row.state, remoteId: null, ...free(now) },
    data: {
      buyerOverride: checked.override as unknown as Prisma.InputJsonValue,
      ...(retry
        ? {
            state: nextState(row.state as InvoiceState, "merchant_retry"),
            nextAttemptAt: now,
            problems: [],
            lastError: null,
            attempts: Math.min(row.attempts, 1),
            refreshOrder: true,
          }
        : {}),
    },
  });
  if (updated.count !== 1) return { ok: false, reason: "not_allowed" };
  const { reason, at: _at, ...buyer } = checked.override;
  await prisma.invoiceEvent.create({
    data: { invoiceId: id, type: "buyer_override", at: now, message: reason, data: { buyer, retried: retry, reason } },
  });
  if (retry) await signalWork();
  return { ok: true, retried: retry };
}

/** The buyer from the order again; the invoice stays as it is (the merchant retries it). */
export async function removeBuyerOverride(shop: string, id: string, now = new Date()): Promise<FixResult> {
  const row = await rowOf(shop, id);
  if (!row) return { ok: false, reason: "not_found" };
  if (!mayOverrideBuyer(row) || !buyerOverrideFrom(row.buyerOverride)) return { ok: false, reason: "not_allowed" };
  const updated = await prisma.invoice.updateMany({
    where: { id, shopDomain: shop, state: row.state, remoteId: null, ...free(now) },
    data: { buyerOverride: dbNull() },
  });
  if (updated.count !== 1) return { ok: false, reason: "not_allowed" };
  await prisma.invoiceEvent.create({ data: { invoiceId: id, type: "buyer_override_removed", at: now } });
  return { ok: true };
}

export type CloseErrors = Partial<Record<"serial" | "reason", "required" | "serial_format" | "too_long">>;

/** The close as the form posts it: "panel" with the serial number GİB gave it, "not_needed" with a reason. */
export function checkClose(
  form: Record<string, unknown>,
): { ok: true; as: Closure["as"]; serial?: string; reason?: string } | { ok: false; errors: CloseErrors } | null {
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string).trim() : "");
  if (form.as === "panel") {
    const serial = text("serial").toUpperCase().replace(/\s+/g, "");
    if (!serial) return { ok: false, errors: { serial: "required" } };
    if (!SERIAL_NUMBER.test(serial)) return { ok: false, errors: { serial: "serial_format" } };
    const reason = text("reason");
    if (reason.length > 500) return { ok: false, errors: { reason: "too_long" } };
    return { ok: true, as: "panel", serial, ...(reason ? { reason } : {}) };
  }
  if (form.as === "not_needed") {
    const reason = text("reason");
    if (!reason) return { ok: false, errors: { reason: "required" } };
    if (reason.length > 500) return { ok: false, errors: { reason: "too_long" } };
    return { ok: true, as: "not_needed", reason };
  }
  return null;
}

/** Closes the invoice by hand; the app does nothing more for it until it is reopened. */
export async function closeInvoice(
  shop: string,
  id: string,
  form: Record<string, unknown>,
  now = new Date(),
): Promise<FixResult<CloseErrors>> {
  const row = await rowOf(shop, id);
  if (!row) return { ok: false, reason: "not_found" };
  if (!mayClose(row)) return { ok: false, reason: "not_allowed" };
  const checked = checkClose(form);
  if (!checked) return { ok: false, reason: "not_allowed" };
  if (!checked.ok) return { ok: false, reason: "invalid", errors: checked.errors };
  const closed = nextState(row.state as InvoiceState, "close");
  const closure: Closure = {
    as: checked.as,
    from: row.state as InvoiceState,
    at: now.toISOString(),
    ...(checked.serial ? { serial: checked.serial } : {}),
    ...(checked.reason ? { reason: checked.reason } : {}),
    ...(checked.serial && !row.serialNumber ? { serialWritten: true } : {}),
  };
  const updated = await prisma.invoice.updateMany({
    where: { id, shopDomain: shop, state: row.state, ...free(now) },
    data: {
      state: closed,
      nextAttemptAt: null,
      closure: closure as unknown as Prisma.InputJsonValue,
      // Issued in the panel: its serial is the invoice's serial wherever one is shown or searched (list, detail,
      // order, metafield, package); the closure says it was issued outside the app.
      ...(closure.serialWritten ? { serialNumber: checked.serial } : {}),
    },
  });
  if (updated.count !== 1) return { ok: false, reason: "not_allowed" };
  await orderCarries(row, closed, now);
  await prisma.invoiceEvent.create({
    data: {
      invoiceId: id,
      type: "closed",
      at: now,
      message: checked.reason ?? null,
      data: {
        as: checked.as,
        ...(checked.serial ? { serial: checked.serial } : {}),
        ...(checked.reason ? { reason: checked.reason } : {}),
      },
    },
  });
  return { ok: true };
}

/** Undoes a close: the invoice is back in the state it was closed from, with its problems, as the merchant left it. */
export async function reopenInvoice(shop: string, id: string, now = new Date()): Promise<FixResult> {
  const row = await rowOf(shop, id);
  if (!row) return { ok: false, reason: "not_found" };
  const closure = closureFrom(row.closure);
  const reopened = transition(row.state as InvoiceState, "reopen", { closedFrom: closure?.from });
  if (!reopened.ok || !closure) return { ok: false, reason: "not_allowed" };
  const back = reopened.to;
  const updated = await prisma.invoice.updateMany({
    where: { id, shopDomain: shop, state: row.state },
    data: {
      state: back,
      nextAttemptAt: null,
      closure: dbNull(),
      // The panel's serial goes with the close that wrote it.
      ...(closure.serialWritten ? { serialNumber: null } : {}),
    },
  });
  if (updated.count !== 1) return { ok: false, reason: "not_allowed" };
  await orderCarries(row, back, now);
  await prisma.invoiceEvent.create({
    data: { invoiceId: id, type: "reopened", at: now, data: { state: back, was: closure.as } },
  });
  return { ok: true };
}
