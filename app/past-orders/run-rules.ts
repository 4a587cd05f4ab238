// The rules of a past-orders run that need no database: its limits, its states, and which ranges Shopify serves.
import { STATE } from "../invoice-state/transitions";
/** Without the read_all_orders scope, Shopify serves only the last 60 days of orders. */
export const DAYS_WITHOUT_ALL_ORDERS = 60;
export const DAY_MS = 24 * 3_600_000;
export const LEASE_MS = 2 * 60_000;
/**
 * A running run reads no further page while this many of its invoices wait in the queue: the queue stays short
 * (a pause holds few rows; a shop's later settings change applies to the rest) and reading Shopify never races
 * far ahead of what the invoicing service can take.
 */
export const BACKLOG_MAX = 200;
/**
 * A run read in bulk has every order in hand already: it records them BULK_STEP at a time, one step after the other
 * (no reading to pace), while fewer than BULK_BACKLOG_MAX wait. Recorded rows are queued with the past-orders
 * priority, which live orders always go ahead of, and the mapping reads the shop's settings when each is posted; a
 * pause holds them all in one statement. With 200 the worker idled whenever it drained the queue within the
 * scheduler's second, and 10,000 orders took 50 steps (bench/results/backfill.md).
 */
export const BULK_STEP = 1_000;
export const BULK_BACKLOG_MAX = 20_000;

export const ACTIVE_STATES = ["counting", "ready", "running", "paused"] as const;
export type RunState = (typeof ACTIVE_STATES)[number] | "done" | "failed" | "cancelled";

export type RangeProblem = "invalid" | "order" | "future" | "needs_read_all_orders";

/** Whether Shopify will serve the range to this app: past 60 days it needs read_all_orders. */
export function rangeProblem(from: Date, to: Date, now: Date, scopes: string[]): RangeProblem | null {
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return "invalid";
  if (from >= to) return "order";
  if (from > now) return "future";
  if (now.getTime() - from.getTime() > DAYS_WITHOUT_ALL_ORDERS * DAY_MS && !scopes.includes("read_all_orders"))
    return "needs_read_all_orders";
  return null;
}

/** A run's rows still in the queue: the run is not done while any is left. */
export const UNFINISHED = [STATE.queued, STATE.sending, STATE.processing];
