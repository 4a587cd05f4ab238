// What a step's result does to the row (the Outcome rules): apply a service record, count a failed attempt,
// reschedule on the backoff or give up, ask for the merchant's attention. Pure: the entry stores what they return.
import type { Prisma } from "#prisma/sqlite";
import type { logger } from "../logger.server";
import {
  AuthenticationError,
  BlockedError,
  InvoicingError,
  processingErrorsText,
  NotFoundError,
  RateLimitedError,
  ValidationError,
} from "../invoicing-service/errors";
import { documentKindOf, SERIAL_NUMBER, type InvoiceRecord } from "../invoicing-service/schemas";
import { safeLink } from "../invoicing-service/links";
import { linkOptions } from "../http/outbound-guard.server";
import { delayHonouringRetryAfter, RETRY, retryDelayMs, SYNC, syncDelayMs } from "../jobs/backoff";
import { problem, type Problem } from "../problems";
import { STATE, nextState, stateOf, targetOf, type InvoiceState } from "../invoice-state/transitions";
import { reasonOf, type FailureReason } from "./event-data";
import type { Outcome, ProcessDeps, Row } from "./process-types";

/** Problems and payloads are stored as JSON columns. */
export const json = (value: unknown) => value as Prisma.InputJsonValue;

export function applyRecord(row: Row, record: InvoiceRecord, deps: ProcessDeps): Outcome {
  let state = nextState(row.state as InvoiceState, "reported", { reported: stateOf(record) });
  const events: Outcome["events"] = [];
  const answered = record.serial_number ?? null;
  const badSerial = answered !== null && !SERIAL_NUMBER.test(answered);
  const serial = badSerial ? null : answered;
  const data: Prisma.InvoiceUpdateManyMutationInput = {
    workflowStatus: record.workflow_status ?? null,
    formalStatus: record.formal_status ?? null,
    ettn: record.ettn ?? null,
    serialNumber: serial,
    // Shown as a link in the admin: web addresses only, never javascript: or data: (app/invoicing-service/links.ts).
    pdfUrl: safeLink(record.pdf_url, linkOptions()),
    documentKind: documentKindOf(record) ?? row.documentKind,
    remoteTotals: json(pickTotals(record)),
    lastError: null,
  };
  if (state === STATE.failed) {
    data.problems = json([problem("service.formalisation_failed", { details: processingErrorsText(record.errors) })]);
  }
  // Cancelled in Shopify: while the invoice is still being formalised the next read may yet delete it
  // (afterSaleAtService); once formalised, only the merchant can act (the invoice page says how).
  if (row.cancelledInShop && state !== STATE.cancelled && state !== STATE.processing) {
    state = targetOf("cancel_formalised");
    data.problems = json([problem("invoice.cancelled_after_invoicing")]);
  }
  // An invoice number that is not one is never stored; the merchant checks the invoice in the panel.
  if (badSerial && state !== STATE.cancelled) {
    state = targetOf("needs_attention");
    data.problems = json([problem("service.serial_invalid", { details: JSON.stringify(answered.slice(0, 40)) })]);
  }
  data.state = state;
  data.nextAttemptAt =
    state === STATE.processing ? new Date(deps.now().getTime() + syncDelayMs(row.syncAttempts, deps.random)) : null;
  if (state !== row.state || serial !== row.serialNumber) {
    events.push({
      type: "status",
      message: `${record.workflow_status ?? "?"} / ${record.formal_status ?? "?"}${serial ? ` · ${serial}` : ""}`,
      data: {
        state,
        workflowStatus: record.workflow_status ?? null,
        formalStatus: record.formal_status ?? null,
        serialNumber: serial ?? null,
      },
    });
  }
  return { data, events, ...(record.team_id != null ? { teamId: record.team_id } : {}) };
}

function pickTotals(record: InvoiceRecord) {
  const { lines_total, discount_total, tax_total, extra_tax_total, grand_total } = record;
  return { lines_total, discount_total, tax_total, extra_tax_total, grand_total };
}

export function failedAttempt(
  row: Row,
  error: unknown,
  deps: ProcessDeps,
  log: typeof logger,
  notFound?: Problem,
): Outcome {
  if (error instanceof ValidationError) {
    const details = Object.entries(error.fieldErrors ?? {})
      .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
      .join("; ");
    return needsAttention([problem("service.rejected", { details: details || error.serviceMessage || error.message })]);
  }
  if (error instanceof AuthenticationError) return needsAttention([problem("settings.api_key_rejected")]);
  if (error instanceof BlockedError) return needsAttention([problem("settings.base_url_not_allowed")]);
  if (error instanceof NotFoundError)
    return needsAttention([notFound ?? problem("settings.not_found_at_service", { details: error.message })]);
  // Whatever else the client classes as never worth repeating (an unexpected 4xx, say) needs the merchant too.
  if (error instanceof InvoicingError && error.retry === "never") {
    return needsAttention([problem("service.rejected", { details: error.serviceMessage ?? error.message })]);
  }
  log.warn({ err: describe(error), attempts: row.attempts }, "posting failed; will retry");
  return reschedule(
    row,
    deps,
    row.attempts,
    describe(error),
    error instanceof RateLimitedError ? error.retryAfterMs : undefined,
    undefined,
    reasonOf(error),
  );
}

/** An unexpected failure counts as an attempt (of the post, or of the status read) and ends like any other. */
export function unexpectedFailure(row: Row, deps: ProcessDeps, error: unknown): Outcome {
  const reason = describe(error).slice(0, 500);
  if (row.remoteId !== null) {
    const syncAttempts = row.syncAttempts + 1;
    if (syncAttempts >= SYNC.maxAttempts)
      return needsAttention(
        [problem("invoice.unexpected_error", { attempts: syncAttempts, ...reasonParams({ kind: "unexpected" }) })],
        { syncAttempts, lastError: reason },
      );
    const nextAttemptAt = new Date(deps.now().getTime() + syncDelayMs(syncAttempts, deps.random));
    return {
      data: { syncAttempts, nextAttemptAt, lastError: reason },
      events: [
        {
          type: "retry",
          message: `${reason}; next try ${nextAttemptAt.toISOString()}`,
          data: { syncAttempts, nextAttemptAt: nextAttemptAt.toISOString(), reason: { kind: "unexpected" } },
        },
      ],
    };
  }
  // Absolute, not an increment: the pass may have counted itself already before it failed.
  const attempts = row.attempts + 1;
  const outcome = reschedule(row, deps, attempts, reason, undefined, "invoice.unexpected_error", {
    kind: "unexpected",
  });
  return { ...outcome, data: { ...outcome.data, attempts } };
}

function reschedule(
  row: Row,
  deps: ProcessDeps,
  attempts: number,
  reason: string,
  retryAfterMs?: number,
  giveUp: "service.unavailable" | "invoice.unexpected_error" = "service.unavailable",
  cause: FailureReason = { kind: "unexpected" },
): Outcome {
  if (row.remoteId === null && attempts >= RETRY.maxAttempts) {
    return {
      data: {
        state: targetOf("give_up"),
        nextAttemptAt: null,
        lastError: reason,
        problems: json([problem(giveUp, { attempts, ...reasonParams(cause) })]),
      },
      events: [
        {
          type: "error",
          message: `gave up after ${attempts} attempts: ${reason}`,
          data: { attempts, reason: json(cause) },
        },
      ],
    };
  }
  const delay = delayHonouringRetryAfter(retryDelayMs(Math.max(1, attempts), deps.random), retryAfterMs);
  const nextAttemptAt = new Date(deps.now().getTime() + delay);
  return {
    data: { state: row.remoteId === null ? targetOf("retry") : row.state, nextAttemptAt, lastError: reason },
    events: [
      {
        type: "retry",
        message: `${reason}; next try ${nextAttemptAt.toISOString()}`,
        data: { attempts, delayMs: delay, nextAttemptAt: nextAttemptAt.toISOString(), reason: json(cause) },
      },
    ],
  };
}

/** Why the tries failed, as a problem records it: the page says it in the merchant's language (problemText). */
function reasonParams(cause: FailureReason): { reasonKind: string; reasonStatus?: number } {
  return cause.status ? { reasonKind: cause.kind, reasonStatus: cause.status } : { reasonKind: cause.kind };
}

export function needsAttention(problems: Problem[], extra: Prisma.InvoiceUpdateManyMutationInput = {}): Outcome {
  return {
    data: { ...extra, state: targetOf("needs_attention"), nextAttemptAt: null, problems: json(problems) },
    events: [{ type: "needs_attention", message: problems.map((p) => p.code).join(", "), data: json({ problems }) }],
  };
}

export function describe(error: unknown): string {
  if (error instanceof InvoicingError)
    return `${error.kind}${error.status ? ` ${error.status}` : ""}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
