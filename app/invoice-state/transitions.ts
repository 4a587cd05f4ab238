import type { InvoiceRecord } from "../invoicing-service/schemas";

// The Invoice row is the job, and this module owns its state: every change of Invoice.state is an entry of TRANSITIONS
// below (from, event → to, the columns it writes), and no other file names a state but through STATE. Pure: callers
// write the row (Prisma, or app/db/hot.server.ts's prepared statements); this module says what they may write. It is a
// folder of its own, below every feature and db/, because folders import one way (docs/decisions/0042): db/,
// after-sale/, waybills/, shops/ and pdf/ are imported by invoices/, so they could not import a module inside it.
//
// The states, as the admin shows them:
//   waiting          recorded, but the shop's trigger has not fired yet (on fulfilment, or manual)
//   queued           due to be posted at nextAttemptAt
//   sending          leased by a worker that is posting it (an expired lease makes it due again)
//   processing       created at the service; waiting for formalisation (callback or status sync)
//   completed        formalised: serial number, ETTN and PDF are known
//   failed           the service could not formalise it, or every retry was spent
//   needs_attention  the merchant must fix something (settings, order data), then retry
//   cancelled        the order was cancelled before it was invoiced
//   closed           the merchant closed it by hand from the invoice page: issued in the invoicing panel (with its
//                    serial number) or no invoice needed (with a reason); no work, not counted as needing attention or
//                    late; reopening returns it to the state it was closed from (Invoice.closure, app/invoices/fixes.server.ts)
// A row is due for work when nextAttemptAt <= now and its lease is free: without a remote id the work is a post, with
// one it is a status read. Rows that need no work have nextAttemptAt = null. A needs_attention or waiting row whose
// order changed in Shopify gets refreshOrder: the worker reads the order again before its next post.
//
// The transitions ("new" is a row not yet written; "*" any state; "=" the state stays; "closure.from" the state the
// row was closed from), rendered from TRANSITIONS by renderTransitions(); test/invoice-state/transitions.test.ts
// fails when this block and the table differ.
// <transitions>
//   record              new → queued                                           nextAttemptAt=now
//   record_waiting      new → waiting                                          nextAttemptAt=null
//   record_cancelled    new → cancelled                                        nextAttemptAt=null
//   trigger             waiting → queued                                       nextAttemptAt=now, orderSnapshot
//   cancel              waiting|queued|needs_attention|failed → cancelled      nextAttemptAt=null, cancelledInShop
//   cancel_ask_service  waiting|queued|needs_attention|failed → queued         nextAttemptAt=now, cancelledInShop
//   cancel_formalised   * → needs_attention                                    cancelledInShop, problems
//   claim               queued → sending                                       leaseOwner, leaseUntil
//   uninstalled         sending → queued                                       nextAttemptAt=null
//   shopify_lost        sending → queued                                       nextAttemptAt=null, lastError, problems
//   resume              queued → =                                             nextAttemptAt=now
//   cancelled_unposted  sending → cancelled                                    nextAttemptAt=null
//   retry               sending → queued                                       attempts, nextAttemptAt=later, lastError, problems
//   give_up             sending → failed                                       nextAttemptAt=null, lastError, problems
//   reported            * → processing|completed|failed|cancelled              nextAttemptAt, remote columns, problems
//   needs_attention     * → needs_attention                                    nextAttemptAt=null, problems
//   read_now            processing → =                                         nextAttemptAt=now
//   withdraw            * → cancelled                                          nextAttemptAt=null, remote columns cleared
//   reissue             * → queued                                             attempts=0, nextAttemptAt=now, remote columns cleared
//   merchant_retry      needs_attention|failed → queued                        nextAttemptAt=now, attempts≤1, problems=[], lastError=null
//   order_updated       needs_attention → queued                               nextAttemptAt=soon, attempts≤1, problems=[], lastError=null, refreshOrder
//   issue_for_real      completed|failed → queued                              nextAttemptAt=now, attempts=0, remote columns cleared
//   panel_cancelled     * → cancelled                                          nextAttemptAt=null, problems=[], panelCancelConfirmedAt
//   close               needs_attention|failed|waiting → closed                nextAttemptAt=null, closure
//   reopen              closed → closure.from                                  nextAttemptAt=null, closure=null
// </transitions>

export const INVOICE_STATES = [
  "waiting",
  "queued",
  "sending",
  "processing",
  "completed",
  "failed",
  "needs_attention",
  "cancelled",
  "closed",
] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/** Each state by name, for the code that reads or filters rows: `STATE.queued`, never `"queued"`. */
export const STATE = Object.fromEntries(INVOICE_STATES.map((state) => [state, state])) as {
  readonly [S in InvoiceState]: S;
};

export function isInvoiceState(value: unknown): value is InvoiceState {
  return typeof value === "string" && (INVOICE_STATES as readonly string[]).includes(value);
}

/** States in which the service is still working and the invoice may still change by itself. */
export const IN_FLIGHT_STATES: InvoiceState[] = [STATE.queued, STATE.sending, STATE.processing];

export function isInFlight(state: string): boolean {
  return (IN_FLIGHT_STATES as string[]).includes(state);
}

/** States the pipeline has finished with: only the merchant, a refund or a cancellation moves the row on. */
export const SETTLED_STATES: InvoiceState[] = [STATE.completed, STATE.failed, STATE.needs_attention, STATE.cancelled];

/** States the merchant may retry from, once they fixed what stopped the invoice. */
export const RETRYABLE_STATES: InvoiceState[] = [STATE.needs_attention, STATE.failed];

/** States the merchant may close by hand ("issued in the panel", "no invoice needed"): nothing of it is at work. */
export const CLOSABLE_STATES: InvoiceState[] = [STATE.needs_attention, STATE.failed, STATE.waiting];

/** States an order cancelled in Shopify cancels (or sends to the service to ask) while the row has no remote id. */
export const CANCELLABLE_STATES: InvoiceState[] = [STATE.waiting, STATE.queued, STATE.needs_attention, STATE.failed];

/** States the service's answer can put a row in. */
export const REPORTED_STATES: InvoiceState[] = [STATE.processing, STATE.completed, STATE.failed, STATE.cancelled];

type From = InvoiceState | "new" | "*";
type To = InvoiceState | "=" | "closure.from" | "reported";

interface Entry {
  readonly from: readonly From[];
  readonly to: To;
  /** The columns the transition writes besides state (documentation; the caller supplies the values). */
  readonly writes: string;
}

/** Every change of an invoice's state: from, event → to, and the columns written with it. */
export const TRANSITIONS = {
  record: { from: ["new"], to: STATE.queued, writes: "nextAttemptAt=now" },
  record_waiting: { from: ["new"], to: STATE.waiting, writes: "nextAttemptAt=null" },
  record_cancelled: { from: ["new"], to: STATE.cancelled, writes: "nextAttemptAt=null" },
  trigger: { from: [STATE.waiting], to: STATE.queued, writes: "nextAttemptAt=now, orderSnapshot" },
  cancel: { from: CANCELLABLE_STATES, to: STATE.cancelled, writes: "nextAttemptAt=null, cancelledInShop" },
  cancel_ask_service: { from: CANCELLABLE_STATES, to: STATE.queued, writes: "nextAttemptAt=now, cancelledInShop" },
  cancel_formalised: { from: ["*"], to: STATE.needs_attention, writes: "cancelledInShop, problems" },
  claim: { from: [STATE.queued], to: STATE.sending, writes: "leaseOwner, leaseUntil" },
  uninstalled: { from: [STATE.sending], to: STATE.queued, writes: "nextAttemptAt=null" },
  shopify_lost: { from: [STATE.sending], to: STATE.queued, writes: "nextAttemptAt=null, lastError, problems" },
  resume: { from: [STATE.queued], to: "=", writes: "nextAttemptAt=now" },
  cancelled_unposted: { from: [STATE.sending], to: STATE.cancelled, writes: "nextAttemptAt=null" },
  retry: { from: [STATE.sending], to: STATE.queued, writes: "attempts, nextAttemptAt=later, lastError, problems" },
  give_up: { from: [STATE.sending], to: STATE.failed, writes: "nextAttemptAt=null, lastError, problems" },
  reported: { from: ["*"], to: "reported", writes: "nextAttemptAt, remote columns, problems" },
  needs_attention: { from: ["*"], to: STATE.needs_attention, writes: "nextAttemptAt=null, problems" },
  read_now: { from: [STATE.processing], to: "=", writes: "nextAttemptAt=now" },
  withdraw: { from: ["*"], to: STATE.cancelled, writes: "nextAttemptAt=null, remote columns cleared" },
  reissue: { from: ["*"], to: STATE.queued, writes: "attempts=0, nextAttemptAt=now, remote columns cleared" },
  merchant_retry: {
    from: RETRYABLE_STATES,
    to: STATE.queued,
    writes: "nextAttemptAt=now, attempts≤1, problems=[], lastError=null",
  },
  order_updated: {
    from: [STATE.needs_attention],
    to: STATE.queued,
    writes: "nextAttemptAt=soon, attempts≤1, problems=[], lastError=null, refreshOrder",
  },
  issue_for_real: {
    from: [STATE.completed, STATE.failed],
    to: STATE.queued,
    writes: "nextAttemptAt=now, attempts=0, remote columns cleared",
  },
  panel_cancelled: {
    from: ["*"],
    to: STATE.cancelled,
    writes: "nextAttemptAt=null, problems=[], panelCancelConfirmedAt",
  },
  close: { from: CLOSABLE_STATES, to: STATE.closed, writes: "nextAttemptAt=null, closure" },
  reopen: { from: [STATE.closed], to: "closure.from", writes: "nextAttemptAt=null, closure=null" },
} as const satisfies Record<string, Entry>;

export type Transition = keyof typeof TRANSITIONS;
export const TRANSITION_EVENTS = Object.keys(TRANSITIONS) as Transition[];

/** What a transition needs to know beyond the row's state: the service's answer, or the state a row was closed from. */
export interface TransitionContext {
  reported?: InvoiceState;
  closedFrom?: InvoiceState;
}

export type TransitionResult =
  | { ok: true; to: InvoiceState; writes: string }
  | { ok: false; reason: "not_allowed"; from: InvoiceState | "new"; event: Transition };

/** The one way to a new state: `from` (a row's state, or "new" for a row not yet written) and an event. */
export function transition(
  from: InvoiceState | "new",
  event: Transition,
  context: TransitionContext = {},
): TransitionResult {
  const entry: Entry = TRANSITIONS[event];
  const allowed = entry.from.includes(from) || (from !== "new" && entry.from.includes("*"));
  if (!allowed) return { ok: false, reason: "not_allowed", from, event };
  const to = resolve(from, entry.to, context);
  if (to === null) return { ok: false, reason: "not_allowed", from, event };
  return { ok: true, to, writes: entry.writes };
}

function resolve(from: InvoiceState | "new", to: To, context: TransitionContext): InvoiceState | null {
  if (to === "=") return from === "new" ? null : from;
  if (to === "reported")
    return context.reported && REPORTED_STATES.includes(context.reported) ? context.reported : null;
  // A closure that names no state a row can be closed from reopens as needing attention (it was written by hand).
  if (to === "closure.from")
    return context.closedFrom && CLOSABLE_STATES.includes(context.closedFrom)
      ? context.closedFrom
      : STATE.needs_attention;
  return to;
}

/** The state `event` leads to; throws on a transition the table refuses (a bug in the caller, never a merchant's act). */
export function nextState(
  from: InvoiceState | "new",
  event: Transition,
  context: TransitionContext = {},
): InvoiceState {
  const result = transition(from, event, context);
  if (!result.ok) throw new Error(`invoice state: ${event} is not allowed from ${from}`);
  return result.to;
}

/** The target of an event whose target does not depend on the row (for writes that filter rows by fromStates). */
export function targetOf<E extends Transition>(event: E): Extract<(typeof TRANSITIONS)[E]["to"], InvoiceState> {
  const to: To = TRANSITIONS[event].to;
  if (!isInvoiceState(to)) throw new Error(`invoice state: ${event} has no fixed target`);
  return to as Extract<(typeof TRANSITIONS)[E]["to"], InvoiceState>;
}

/** The states `event` may leave, for a write's where clause (events that apply to any state have none). */
export function fromStates(event: Transition): InvoiceState[] {
  const from: readonly From[] = TRANSITIONS[event].from;
  if (from.includes("*")) throw new Error(`invoice state: ${event} applies to any state`);
  return from.filter(isInvoiceState);
}

/** The invoice's state as the service reports it (the "reported" transition's target). */
export function stateOf(record: Pick<InvoiceRecord, "workflow_status" | "formal_status">): InvoiceState {
  const formal = record.formal_status ?? "";
  const workflow = record.workflow_status ?? "";
  if (formal === "failed" || workflow === "failed") return STATE.failed;
  if (formal === "canceled" || formal === "cancelled") return STATE.cancelled;
  if (formal === "completed" || (formal === "not_required" && workflow === "completed")) return STATE.completed;
  return STATE.processing;
}

/** The table as the header comment shows it, one line per transition. */
export function renderTransitions(): string[] {
  return TRANSITION_EVENTS.map((event) => {
    const entry: Entry = TRANSITIONS[event];
    const to = entry.to === "reported" ? REPORTED_STATES.join("|") : entry.to;
    return `  ${event.padEnd(20)}${`${entry.from.join("|")} → ${to}`.padEnd(55)}${entry.writes}`.trimEnd();
  });
}
