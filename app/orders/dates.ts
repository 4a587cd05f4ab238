// Dates of the invoice, always in a zone given as input (never the machine's).
import { DateTime, IANAZone } from "luxon";

export const TURKEY_ZONE = "Europe/Istanbul";

const knownZones = new Map<string, boolean>();

/** A usable IANA zone: the given one, or Turkey's when it is unknown to the runtime. */
export function zoneOrTurkey(zone: string | null | undefined): string {
  if (!zone) return TURKEY_ZONE;
  let valid = knownZones.get(zone);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(zone); // builds an Intl formatter: too slow to repeat per order
    knownZones.set(zone, valid);
  }
  return valid ? zone : TURKEY_ZONE;
}

// A zone's UTC offset asked from luxon costs an Intl formatToParts call; offsets only change at
// transitions on quarter-hour boundaries, so one answer per zone and quarter hour is exact.
const QUARTER_HOUR = 15 * 60 * 1000;
const offsets = new Map<string, number>();

function offsetMinutes(epochMs: number, zone: string): number {
  const key = `${zone}|${Math.floor(epochMs / QUARTER_HOUR)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    if (offsets.size > 50_000) offsets.clear();
    offset = DateTime.fromMillis(epochMs, { zone }).offset;
    offsets.set(key, offset);
  }
  return offset;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `Y-m-d` and `H:i` of an instant in `zone`. */
export function localParts(epochMs: number, zone: string): { date: string; time: string } {
  const local = new Date(epochMs + offsetMinutes(epochMs, zone) * 60_000); // read with UTC getters only
  return {
    date: `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`,
    time: `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`,
  };
}

function epochOf(iso: string): number | undefined {
  // An ISO 8601 date-time with an offset (Shopify's form) is parsed the same everywhere. Days 29-31 are left to
  // luxon, which refuses a day the month lacks: Date.parse reads 2026-02-30 as 2 March.
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(iso) && iso.slice(8, 10) <= "28")
    return Date.parse(iso);
  // Stryker disable next-line BooleanLiteral,ObjectLiteral: equivalent, toMillis() is the same instant whichever zone the parsed time is set to
  const parsed = DateTime.fromISO(iso, { setZone: true });
  return parsed.isValid ? parsed.toMillis() : undefined;
}

/** `Y-m-d` of an ISO timestamp (with its own offset) as seen in `zone`; undefined when unparsable. */
export function dateIn(iso: string | null | undefined, zone: string): string | undefined {
  if (!iso) return undefined;
  const epoch = epochOf(iso);
  return epoch === undefined || Number.isNaN(epoch) ? undefined : localParts(epoch, zone).date;
}

/**
 * Issue date and time: the invoicing moment in the shop's zone, but never a date after today in Turkey
 * (the service rejects future dates; a shop east of Turkey could be a day ahead). Then Turkey's clock is used.
 */
export function issueMoment(now: Date, zone: string): { date: string; time: string; clamped: boolean } {
  const local = localParts(now.getTime(), zone);
  const turkey = localParts(now.getTime(), TURKEY_ZONE);
  if (local.date > turkey.date) return { ...turkey, clamped: true };
  return { ...local, clamped: false };
}

/** The earlier of two `Y-m-d` dates. */
export function minDate(a: string, b: string): string {
  return a < b ? a : b;
}
