// The 7-day invoice deadline (VUK 231/5: an invoice is made out within seven days of the goods' delivery; one made out
// later counts as not made out, with a penalty). The guard names every invoice the app has not issued yet before it
// crosses that line. Its clock starts at the order's date: delivery (and payment) can come no earlier, so the
// deadline the app shows is never later than the legal one (docs/decisions/0032-deadline-guard.md). Pure.
import type { InvoiceState } from "../invoice-state/transitions";
import { STATE } from "../invoice-state/transitions";
import { dateIn } from "../orders/dates";

export const DEADLINE_DAYS = 7;
/** Within this many hours of its deadline an invoice is "near": the list's badge, the home banner, Flow's first call. */
const NEAR_HOURS = 48;
/** Flow is told once at each of these many hours before the deadline. */
const FLOW_HOURS = [48, 24] as const;

const HOUR_MS = 3_600_000;

/**
 * States in which nothing legal exists yet and the app is to issue it: the clock runs. `processing` has been issued
 * (its date is set, the service is formalising it); `waiting` runs only where the merchant issues by hand, since a
 * wait for payment or fulfilment is a wait for the sale or the delivery the 7 days count from.
 */
const OPEN_STATES: InvoiceState[] = [STATE.queued, STATE.sending, STATE.needs_attention, STATE.failed];

/** The states whose clock runs for a shop with this trigger. */
export function runningStates(trigger: string): InvoiceState[] {
  return trigger === "manual" ? [...OPEN_STATES, STATE.waiting] : OPEN_STATES;
}

interface DeadlineRow {
  state: string;
  orderCreatedAt: Date;
  /** The onboarding's sample invoice: no sale behind it. */
  isTest: boolean;
}

export function deadlineOf(orderCreatedAt: Date): Date {
  return new Date(orderCreatedAt.getTime() + DEADLINE_DAYS * 24 * HOUR_MS);
}

/** The row's deadline while its clock runs, else null (issued, cancelled, closed by hand, a sample). */
export function runningDeadline(row: DeadlineRow, trigger: string): Date | null {
  if (row.isTest || !(runningStates(trigger) as string[]).includes(row.state)) return null;
  return deadlineOf(row.orderCreatedAt);
}

const DAY_MS = 24 * HOUR_MS;

/**
 * How many days after its deadline's day an invoice dated `issueDay` (YYYY-MM-DD, its own date in the shop's zone)
 * was issued; 0 when in time. Kept once the invoice is issued: the detail page and the accountant's workbook say it.
 */
export function daysLate(orderCreatedAt: Date, issueDay: string, zone: string): number {
  const deadlineDay = dateIn(deadlineOf(orderCreatedAt).toISOString(), zone);
  const issued = Date.parse(`${issueDay}T00:00:00Z`);
  if (!deadlineDay || Number.isNaN(issued)) return 0;
  return Math.max(0, Math.round((issued - Date.parse(`${deadlineDay}T00:00:00Z`)) / DAY_MS));
}

export type DeadlineStatus = "passed" | "near" | "running";

export function deadlineStatus(deadline: Date, now: Date): DeadlineStatus {
  const left = deadline.getTime() - now.getTime();
  if (left <= 0) return "passed";
  return left <= NEAR_HOURS * HOUR_MS ? "near" : "running";
}

/** Orders placed before this instant have a deadline within NEAR_HOURS of `now` (or past): the filter's bound. */
export function nearBefore(now: Date): Date {
  return new Date(now.getTime() + NEAR_HOURS * HOUR_MS - DEADLINE_DAYS * 24 * HOUR_MS);
}

/**
 * The Flow call due for a deadline at `now`: the most urgent threshold crossed (48 h, then 24 h before), keyed so each
 * is sent once. An invoice first seen inside 24 h gets the 24 h call only; none once the deadline has passed (the
 * banner and the list say it then; a trigger after the fact helps nobody).
 */
export function flowCallDue(deadline: Date, now: Date): { key: string; hours: number } | null {
  const left = deadline.getTime() - now.getTime();
  if (left <= 0) return null;
  const crossed = FLOW_HOURS.filter((hours) => left <= hours * HOUR_MS);
  const hours = crossed[crossed.length - 1];
  return hours === undefined ? null : { key: `deadline:${hours}h`, hours };
}
