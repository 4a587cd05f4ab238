// Dates of the invoice, always in a zone given as input (never the machine's).
import { DateTime } from "luxon";

export const TURKEY_ZONE = "Europe/Istanbul";

/** A usable IANA zone: the given one, or Turkey's when it is unknown to the runtime. */
export function zoneOrTurkey(zone: string | null | undefined): string {
  return zone && DateTime.now().setZone(zone).isValid ? zone : TURKEY_ZONE;
}

/** `Y-m-d` of an ISO timestamp (with its own offset) as seen in `zone`; undefined when unparsable. */
export function dateIn(iso: string | null | undefined, zone: string): string | undefined {
  if (!iso) return undefined;
  const parsed = DateTime.fromISO(iso, { setZone: true });
  return parsed.isValid ? parsed.setZone(zone).toFormat("yyyy-MM-dd") : undefined;
}

/**
 * Issue date and time: the invoicing moment in the shop's zone, but never a date after today in Turkey
 * (the service rejects future dates; a shop east of Turkey could be a day ahead). Then Turkey's clock is used.
 */
export function issueMoment(now: Date, zone: string): { date: string; time: string; clamped: boolean } {
  const local = DateTime.fromJSDate(now, { zone });
  const turkey = DateTime.fromJSDate(now, { zone: TURKEY_ZONE });
  const localDate = local.toFormat("yyyy-MM-dd");
  const turkeyDate = turkey.toFormat("yyyy-MM-dd");
  if (localDate > turkeyDate) return { date: turkeyDate, time: turkey.toFormat("HH:mm"), clamped: true };
  return { date: localDate, time: local.toFormat("HH:mm"), clamped: false };
}

/** The earlier of two `Y-m-d` dates. */
export function minDate(a: string, b: string): string {
  return a < b ? a : b;
}
