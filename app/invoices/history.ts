// An invoice's history and its last failure in the merchant's words (issue 22, point 7): each event's title and
// detail come from the catalogues (`event.*`, `history.*`, `reason.*`), filled from what the event recorded
// (app/invoices/event-data.ts), with times in the shop's zone and amounts in its currency. Never the operator's
// English line (`message`), nor a raw state: an old event whose data says nothing more shows its title only,
// its stored line only on an English page.
import { translate, translateKey, type Locale, type MessageKey } from "../i18n/i18n";
import { formatDateTime, formatMoney } from "../ui/format";
import { reasonText } from "../problems";

export interface HistoryEvent {
  type: string;
  at: string;
  message: string | null;
  data: Record<string, unknown> | null;
}

export interface HistoryContext {
  locale: Locale;
  timezone: string;
  currency: string;
  /** The invoice came from a waybill (its "received" reads differently). */
  waybill: boolean;
}

const text = (value: unknown) => (typeof value === "string" && value ? value : null);
const number = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** The event that closed a row because its order sold gift cards only (app/invoices/post.server.ts). */
function isGiftCardSaleEvent(event: { type: string; data: unknown }): boolean {
  return (
    event.type === "cancelled" &&
    typeof event.data === "object" &&
    event.data !== null &&
    (event.data as { note?: unknown }).note === "gift_card_sale"
  );
}

/**
 * A cancelled row closed because its order sold gift cards only: no invoice was ever due (a gift card is invoiced when
 * it is spent), so the list and the page say so instead of "Cancelled" (issue 36, point 1).
 */
export function isGiftCardSale(state: string, events: ReadonlyArray<{ type: string; data: unknown }>): boolean {
  return state === "cancelled" && events.some(isGiftCardSaleEvent);
}

export function historyTitle(event: HistoryEvent, ctx: HistoryContext): string {
  if (ctx.waybill && event.type === "received") return translate(ctx.locale, "event.receivedWaybill");
  // Closed because the order sold gift cards only: nothing was cancelled, no invoice was due.
  if (isGiftCardSaleEvent(event)) return translate(ctx.locale, "event.giftCardSale");
  return translateKey(ctx.locale, `event.${event.type}`, translate(ctx.locale, "event.other"));
}

/** The event's detail line, or null when there is nothing more to say than its title. */
export function historyDetail(event: HistoryEvent, ctx: HistoryContext): string | null {
  const { locale } = ctx;
  const data = event.data ?? {};
  const t = (key: MessageKey, params: Record<string, string | number> = {}) => translate(locale, key, params);
  const when = (iso: unknown) =>
    text(iso) && !Number.isNaN(Date.parse(iso as string)) ? formatDateTime(iso as string, locale, ctx.timezone) : null;
  const note = text(data.note);
  if (note) {
    const noted = translateKey(locale, `history.note.${note}`, "");
    if (noted) {
      const remoteId = number(data.remoteId) ?? number(data.testInvoice);
      return noted
        .replace("{remoteId}", remoteId === null ? "—" : String(remoteId))
        .replace("{serial}", text(data.testSerial) ?? "—");
    }
  }
  switch (event.type) {
    case "posted":
    case "settled":
      return number(data.remoteId) !== null ? t("history.atService", { remoteId: number(data.remoteId)! }) : null;
    case "withdrawn":
      return number(data.remoteId) !== null ? t("history.withdrawn", { remoteId: number(data.remoteId)! }) : null;
    case "status": {
      const state = text(data.state);
      if (!state) break;
      const label = translateKey(locale, `state.${state}`, state);
      const serial = text(data.serialNumber);
      return serial ? t("history.statusSerial", { state: label, serial }) : t("history.status", { state: label });
    }
    case "retry": {
      const reason = reasonText(data.reason, locale);
      const next = when(data.nextAttemptAt);
      if (reason && next) return t("history.retry", { reason, at: next });
      if (next) return t("history.retryAt", { at: next });
      break;
    }
    case "error": {
      const reason = reasonText(data.reason, locale);
      const attempts = number(data.attempts);
      if (reason && attempts !== null) return t("history.gaveUp", { reason, attempts });
      break;
    }
    case "refund": {
      const amount = text(data.amount);
      return amount ? t("history.refund", { amount: formatMoney(amount, ctx.currency, locale) }) : null;
    }
    case "reissue":
      return t("history.reissue");
    // The merchant's own words (a fix by hand): shown as they typed them, in either language.
    case "buyer_override":
    case "closed": {
      const reason = text(data.reason) ?? event.message;
      const serial = text(data.serial);
      const parts = [
        serial ? t("history.closedSerial", { serial }) : null,
        reason ? t("fix.buyer.reason", { reason }) : null,
      ].filter(Boolean);
      return parts.length ? parts.join(" · ") : null;
    }
    case "callback":
      return t("history.callback");
    case "received": {
      const source = text(data.source);
      if (source) return translateKey(locale, `history.source.${source}`, "") || null;
      return text(data.topic) ? t("history.webhook") : null;
    }
  }
  // An event written before events said more than their type: its stored line, on an English page only.
  return locale === "en" ? event.message : null;
}
