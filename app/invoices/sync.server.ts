// Reading a posted invoice's status again: apply what the service says, on the status read's own backoff, after
// the after-sale check (./after-sale-at-service.server.ts) has had its say.
import { AuthenticationError, BlockedError, NotFoundError, RateLimitedError } from "../invoicing-service/errors";
import { delayHonouringRetryAfter, SYNC, syncDelayMs } from "../jobs/backoff";
import { problem } from "../problems";
import { STATE } from "../invoice-state/transitions";
import { reasonOf } from "./event-data";
import { applyRecord, describe, json, needsAttention } from "./outcome";
import { afterSaleAtService } from "./after-sale-at-service.server";
import type { Client, Facts, Outcome, ProcessDeps, Row } from "./process-types";

export async function sync(row: Row, facts: Facts, client: Client, deps: ProcessDeps): Promise<Outcome> {
  try {
    const record = await client.getInvoice(row.remoteId!);
    const undone = await afterSaleAtService(row, facts, record, client, deps);
    if (undone) return undone;
    const applied = applyRecord(row, record, deps);
    if (applied.data.state === STATE.processing) {
      const syncAttempts = row.syncAttempts + 1;
      if (syncAttempts >= SYNC.maxAttempts) return needsAttention([problem("invoice.status_unknown")], applied.data);
      return {
        data: {
          ...applied.data,
          syncAttempts,
          nextAttemptAt: new Date(deps.now().getTime() + syncDelayMs(syncAttempts, deps.random)),
        },
        events: applied.events,
        teamId: applied.teamId,
      };
    }
    return applied;
  } catch (error) {
    if (error instanceof NotFoundError) return needsAttention([problem("invoice.missing_at_service")]);
    if (error instanceof AuthenticationError) return needsAttention([problem("settings.api_key_rejected")]);
    if (error instanceof BlockedError) return needsAttention([problem("settings.base_url_not_allowed")]);
    const syncAttempts = row.syncAttempts + 1;
    if (syncAttempts >= SYNC.maxAttempts) return needsAttention([problem("invoice.status_unknown")]);
    const retryAfterMs = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
    const delay = delayHonouringRetryAfter(syncDelayMs(syncAttempts, deps.random), retryAfterMs);
    return {
      data: { syncAttempts, nextAttemptAt: new Date(deps.now().getTime() + delay), lastError: describe(error) },
      events: [
        {
          type: "retry",
          message: `status read failed: ${describe(error)}`,
          data: {
            syncAttempts,
            delayMs: delay,
            nextAttemptAt: new Date(deps.now().getTime() + delay).toISOString(),
            reason: json(reasonOf(error)),
          },
        },
      ],
    };
  }
}
