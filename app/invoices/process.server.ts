// One claimed row's work: post it (map, create, settle unknown outcomes) or read its status again.
// Every write at the end is conditional on still holding the lease, so a worker that stalled past its
// lease cannot overwrite the work of the worker that took the row over.
// The steps live beside it: ./post.server.ts (with ./order-source.server.ts, ./waybill-source.server.ts and
// ./shopify-reads.server.ts), ./sync.server.ts (with ./after-sale-at-service.server.ts), and ./outcome.ts.
import type { Prisma } from "#prisma/sqlite";
import { hot } from "../db.server";
import { logger } from "../logger.server";
import { connectionFrom, type Connection, type ConnectionProblem } from "../settings/settings.server";
import { InvoicingClient } from "../invoicing-service/client";
import { orderSnapshot } from "../orders/order";
import { customerNameOf, parseEnvelope } from "../shopify/webhook-envelope";
import { problem, type Problem } from "../problems";
import type { ClaimedRow } from "./claim.server";
import { signalWork } from "../jobs/signal.server";
import { STATE } from "../invoice-state/transitions";
import { writeBackStart, writesBack } from "./write-back-due.server";
import { describe, json, needsAttention, unexpectedFailure } from "./outcome";
import { post } from "./post.server";
import { sync } from "./sync.server";
import { readOrderFromShopify } from "./shopify-reads.server";
import type { Facts, Outcome, ProcessDeps, Row } from "./process-types";

// What the worker and the tests import from here.
export type { ProcessDeps } from "./process-types";
export { callbackUrlFor, serviceOrderId } from "./post-source";

const defaultClientFor = (connection: Connection) =>
  new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey });

export async function processClaimedRow(claim: ClaimedRow, deps: ProcessDeps): Promise<void> {
  // One prepared read of the row, its shop and settings, and whether the order has refunds or unread edits.
  const read = await hot().jobRow(claim.id);
  if (!read || read.row.leaseOwner !== claim.leaseOwner) return;
  const { row, ...facts } = read;
  const log = logger.child({ shop: row.shopDomain, orderId: row.orderId, order: row.orderName, invoice: row.id });
  const startedAt = deps.now();
  let outcome: Outcome;
  try {
    outcome = await work(row, facts, deps, log);
  } catch (error) {
    // A bug or an unexpected failure: keep the row, try again on the same backoff, and give up after the same
    // limit. The attempt is counted here, so even a failure before the post counted it cannot loop forever.
    log.error({ err: error }, "invoice work failed unexpectedly");
    outcome = unexpectedFailure(row, deps, error);
  }
  await finish(row, claim, outcome, startedAt, log);
}

async function work(row: Row, facts: Facts, deps: ProcessDeps, log: typeof logger): Promise<Outcome> {
  const connection = connectionFrom(row.shopDomain, row.shop.settings, { forceTestMode: row.isTest });
  if (!connection.ok) return needsAttention(connection.missing.map(missingSettingProblem));
  const client = (deps.clientFor ?? defaultClientFor)(connection.connection);
  if (row.remoteId !== null) return sync(row, facts, client, deps);
  const refreshed = await refreshOrder(row, deps);
  if (refreshed === "lease_lost") return { data: {}, events: [] };
  const outcome = await post(refreshed?.row ?? row, facts, client, connection.connection, deps, log);
  return refreshed ? { ...outcome, events: [refreshed.event, ...outcome.events] } : outcome;
}

/**
 * A row marked to read its order again (its order changed while it needed attention, or Retry could not read it):
 * the order as it stands in Shopify now replaces the snapshot before the post. When Shopify cannot be read the stored
 * copy is posted, and the history says so. Either way the mark is cleared: one read per retry.
 */
async function refreshOrder(
  row: Row,
  deps: ProcessDeps,
): Promise<{ row: Row; event: Outcome["events"][number] } | "lease_lost" | null> {
  if (!row.refreshOrder || row.waybillId !== null || row.isTest) return null;
  let fresh: unknown;
  let reason: string | null = null;
  try {
    fresh = await (deps.readOrder ?? readOrderFromShopify)(row.shopDomain, row.orderId);
    const parsed = parseEnvelope(fresh);
    if (!parsed.ok || String(parsed.envelope.id) !== row.orderId) reason = "the order read is not this order";
  } catch (error) {
    reason = describe(error).slice(0, 300);
  }
  if (reason !== null) {
    if (!(await hot().updateLeased(row.id, row.leaseOwner!, { refreshOrder: false }))) return "lease_lost";
    return { row, event: { type: "order_read_failed", message: reason, data: json({ from: "snapshot" }) } };
  }
  const snapshot = orderSnapshot(fresh);
  const envelope = parseEnvelope(fresh);
  const customerName = envelope.ok ? customerNameOf(envelope.envelope) : row.customerName;
  if (
    !(await hot().updateLeased(row.id, row.leaseOwner!, { orderSnapshot: snapshot, customerName, refreshOrder: false }))
  )
    return "lease_lost";
  return {
    row: { ...row, orderSnapshot: snapshot as Prisma.JsonValue, customerName },
    event: { type: "order_read", data: json({ from: "shopify" }) },
  };
}

function missingSettingProblem(missing: ConnectionProblem): Problem {
  return problem(`settings.missing_${missing}` as const);
}

async function finish(row: Row, claim: ClaimedRow, outcome: Outcome, startedAt: Date, log: typeof logger) {
  // The row, its audit trail, the refunds handled, the order's write-back and the team learned change together, and
  // only while this worker still holds the lease: one transaction of prepared statements (app/db/hot.server.ts).
  const nextState = outcome.data.state as string | undefined;
  const changed =
    nextState !== row.state ||
    (outcome.data.serialNumber !== undefined && outcome.data.serialNumber !== row.serialNumber);
  const at = new Date();
  const { stored, rereadNow } = await hot().finishJob({
    id: row.id,
    owner: claim.leaseOwner,
    shopDomain: row.shopDomain,
    values: outcome.data,
    events: outcome.events.map((event) => ({
      type: event.type,
      at,
      message: event.message ?? null,
      // Which worker reached the service: the audit trail of a multi-process deployment.
      data:
        event.type === "posted" || event.type === "settled"
          ? { ...(event.data as object), worker: claim.leaseOwner }
          : event.data,
    })),
    refunds: outcome.refunds ?? [],
    // The order carries the invoice's state (tags, metafields, Flow): a step of its own, due now, which can fail and
    // retry without ever touching this row (app/write-back/run.server.ts); it waits while write_orders is missing.
    writeBack: writesBack(row, nextState, changed) ? (scopes) => writeBackStart(scopes, at) : null,
    // The first record that names the shop's team teaches it; callbacks must then carry it. A new key clears it.
    teamId:
      outcome.teamId !== undefined && row.shop.settings && row.shop.settings.teamId === null ? outcome.teamId : null,
    // A callback that came while this worker was busy (before the remote id was stored) asks for a read now.
    callbacksSince: outcome.data.state === STATE.processing ? startedAt : null,
  });
  if (!stored) {
    log.warn("lease lost before the work was stored; the row's new owner decides");
    return;
  }
  if (rereadNow) await signalWork();
  log.info({ state: outcome.data.state ?? row.state }, "invoice work done");
}
