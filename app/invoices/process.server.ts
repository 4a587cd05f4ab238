// One claimed row's work: post it (map, create, settle unknown outcomes) or read its status again.
// Every write at the end is conditional on still holding the lease, so a worker that stalled past its
// lease cannot overwrite the work of the worker that took the row over.
import { Prisma } from "#prisma/sqlite";
import { hot } from "../db.server";
import type { JobInvoice, JobRow } from "../db/hot.server";
import { logger } from "../logger.server";
import { connectionFrom, type Connection, type ConnectionProblem } from "../settings/settings.server";
import {
  InvoicingClient,
  settleUnknownCreate,
  settleWaybillCreate,
  type PostedWith,
} from "../invoicing-service/client";
import {
  AuthenticationError,
  BlockedError,
  DuplicateOrderError,
  InvoicingError,
  processingErrorsText,
  NotFoundError,
  RateLimitedError,
  ValidationError,
} from "../invoicing-service/errors";
import { documentKindOf, SERIAL_NUMBER, type InvoiceRecord, type InvoiceRequest } from "../invoicing-service/schemas";
import { dec } from "../invoicing-service/money";
import { safeLink } from "../invoicing-service/links";
import { linkOptions } from "../http/outbound-guard.server";
import { mapOrderToInvoice } from "../orders/map-order";
import { orderSnapshot, parseShopifyOrder, type ShopifyOrder } from "../orders/order";
import { buyerOverrideFrom } from "../orders/buyer-override";
import { customerNameOf, parseEnvelope } from "../shopify/webhook-envelope";
import { waybillSnapshotOf } from "../waybills/snapshot";
import { waybillInvoiceBody } from "../waybills/waybill-invoice";
import { delayHonouringRetryAfter, RETRY, retryDelayMs, SYNC, syncDelayMs } from "../jobs/backoff";
import { problem, type Problem } from "../problems";
import type { ClaimedRow } from "./claim.server";
import { signalWork } from "../jobs/signal.server";
import type { EventType } from "./states";
import { STATE, nextState, stateOf, targetOf, type InvoiceState } from "../invoice-state/transitions";
import {
  changesInvoice,
  handlingWithoutChange,
  refreshEditedOrder,
  refundsOf,
  standing,
  storedRefunds,
  type ReadOrder,
  type RefundRow,
} from "../after-sale/before-posting.server";
import { giftCardsOnly, orderAsItStands } from "../orders/refunds";
import { writeBackStart, writesBack } from "./write-back-due.server";
import { reasonOf, type FailureReason } from "./event-data";
import { postAccountRefusal } from "../settings/accounts.server";
import { foldForSearch } from "../i18n/search-fold";
import { buyerCompany, type CompanyRead, type ReadCompany } from "./company.server";
import { AdminApiError } from "../shopify/errors";
import { fiscalRecordOf } from "../invoicing-service/fiscal-record";

export interface ProcessDeps {
  now: () => Date;
  /** The app's public address; callbacks go to {appUrl}/callbacks/invoices/{invoice id}. */
  appUrl: string;
  clientFor?: (
    connection: Connection,
  ) => Pick<
    InvoicingClient,
    "createInvoice" | "getInvoice" | "findInvoicesByOrderId" | "createInvoiceFromWaybill" | "getWaybill"
  > &
    Partial<Pick<InvoicingClient, "deleteInvoice" | "listInvoiceIntegrations">>;
  random?: () => number;
  /** Reads an edited order again before it is invoiced; default: the Admin API (app/shopify readOrder). */
  readOrder?: ReadOrder;
  /** Reads a B2B order's company; default: the Admin API (./company.server.ts). */
  readCompany?: ReadCompany;
}

/** Problems and payloads are stored as JSON columns. */
const json = (value: unknown) => value as Prisma.InputJsonValue;

type Row = JobInvoice;

/** What the row's read also said: the order's edits are read only when there are any unread. */
type Facts = Omit<JobRow, "row">;

interface Outcome {
  data: Prisma.InvoiceUpdateManyMutationInput;
  events: Array<{ type: EventType; message?: string; data?: Prisma.InputJsonValue }>;
  /** The service's team (account) of the shop's key, as its invoice records say: callbacks must carry it. */
  teamId?: number;
  /** Refunds this work dealt with, and how (the Refund rows' `handling`). */
  refunds?: Array<{ ids: string[]; handling: string }>;
}

export function callbackUrlFor(appUrl: string, invoiceId: string): string {
  return `${appUrl.replace(/\/+$/, "")}/callbacks/invoices/${invoiceId}`;
}

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

type Client = ReturnType<NonNullable<ProcessDeps["clientFor"]>>;

/** Test-mode invoices have their own order id at the service, so the live invoice of the order can follow later. */
export function serviceOrderId(orderId: string, testMode: boolean): string {
  return testMode ? `test-${orderId}` : orderId;
}

/**
 * What the row's earlier attempt was posted with. Rows posted before these columns existed fall back to the
 * current channel and any integration.
 */
function earlierPost(row: Row, connection: Connection, appUrl: string): PostedWith {
  return {
    saleChannelId: row.saleChannelId ?? connection.saleChannelId,
    invoiceIntegrationId: row.invoiceIntegrationId,
    orderId: serviceOrderId(row.orderId, row.postedInTestMode),
    callbackUrl: callbackUrlFor(appUrl, row.id),
  };
}

type Settled = { record: InvoiceRecord | null; problem?: Problem };
type Built =
  { ok: true; body: InvoiceRequest; paid: string | null; warnings: Problem[] } | { ok: false; problems: Problem[] };

/**
 * Where a row's invoice comes from: a Shopify order (POST /invoices, found again by its order id) or a waybill
 * (POST /waybills/{id}/invoice, found again through the waybill's invoice_id). The rules around them are the
 * same: count the attempt before the request leaves, and after an unknown outcome look before posting again.
 */
interface PostSource {
  /** What an earlier attempt left at the service: the invoice, nothing (posting is safe), or a problem. */
  settleEarlier(): Promise<Settled>;
  /**
   * `standing`: the order as it stands, when the caller read it already (one parse of the snapshot per post);
   * `company`: a B2B order's company as Shopify holds it, and what reading it had to assume.
   */
  build(now: Date, standing?: ShopifyOrder, company?: CompanyRead): Built;
  create(body: InvoiceRequest): Promise<InvoiceRecord>;
  /** A refusal after which the invoice may exist all the same: how to look, and what to say if it is not found. */
  afterRefusal(error: unknown): { settle: () => Promise<Settled>; unresolved: Problem | null } | null;
  /** What a 404 to the create means. */
  notFound?: Problem;
}

function orderSource(
  row: Row,
  client: Client,
  connection: Connection,
  deps: ProcessDeps,
  refunds: RefundRow[],
): PostSource {
  const target: PostedWith = {
    saleChannelId: connection.saleChannelId,
    invoiceIntegrationId: connection.invoiceIntegrationId,
    orderId: serviceOrderId(row.orderId, connection.testMode),
    callbackUrl: callbackUrlFor(deps.appUrl, row.id),
  };
  return {
    settleEarlier: async () => ({
      record: await settleUnknownCreate(client, earlierPost(row, connection, deps.appUrl)),
    }),
    build(now, standing, company) {
      let order = standing;
      if (!order) {
        const parsed = parseShopifyOrder(row.orderSnapshot);
        if (!parsed.ok) return { ok: false, problems: parsed.problems };
        // The order as it stands: units and shipping refunded since the snapshot are not invoiced.
        order = orderAsItStands(parsed.order, storedRefunds(refunds));
      }
      const mapped = mapOrderToInvoice(order, {
        settings: connection.mapping,
        shop: {
          domain: row.shopDomain,
          timezone: row.shop.timezone,
          currency: row.shop.currency,
          storefrontUrl: row.shop.storefrontUrl,
        },
        now,
        saleChannelId: target.saleChannelId,
        invoiceIntegrationId: target.invoiceIntegrationId!,
        serviceOrderId: target.orderId,
        callbackUrl: callbackUrlFor(deps.appUrl, row.id),
        buyer: buyerOverrideFrom(row.buyerOverride),
        company: company?.company,
      });
      const warnings = [...(company?.warnings ?? []), ...mapped.warnings];
      if (!mapped.ok) return { ok: false, problems: [...mapped.problems, ...warnings] };
      return { ok: true, body: mapped.body, paid: mapped.paid, warnings };
    },
    create: (body) => client.createInvoice(body),
    afterRefusal: (error) =>
      error instanceof DuplicateOrderError
        ? {
            settle: async () => ({ record: await settleUnknownCreate(client, target) }),
            unresolved: problem("service.duplicate_unresolved"),
          }
        : null,
  };
}

/**
 * A waybill has no order id: the lookup is the waybill itself, whose invoice_id the service sets when it
 * invoices it. That invoice is this row's only if it carries this row's callback address; any other means
 * the waybill was invoiced elsewhere (the panel, another app), which the merchant must know
 * (docs/decisions/0013-invoices-from-waybills.md).
 */
function waybillSource(
  row: Row,
  waybillId: number,
  client: Client,
  connection: Connection,
  deps: ProcessDeps,
): PostSource {
  const callbackUrl = callbackUrlFor(deps.appUrl, row.id);
  const settle = (invoiceIntegrationId: number | null) => async (): Promise<Settled> => {
    const found = await settleWaybillCreate(client, { waybillId, callbackUrl, invoiceIntegrationId });
    if (found.record) return { record: found.record };
    return found.takenBy
      ? { record: null, problem: problem("waybill.already_invoiced", { waybillId, invoiceId: found.takenBy }) }
      : { record: null };
  };
  return {
    // An earlier attempt: what it was posted to; a refusal of this one: what it is posted to now.
    settleEarlier: settle(row.invoiceIntegrationId),
    build(now) {
      const snapshot = waybillSnapshotOf(row.orderSnapshot);
      if (!snapshot) return { ok: false, problems: [problem("waybill.form_invalid", { details: "snapshot" })] };
      const built = waybillInvoiceBody(snapshot.form, {
        waybill: snapshot.waybill,
        settings: connection.mapping,
        saleChannelId: connection.saleChannelId,
        invoiceIntegrationId: connection.invoiceIntegrationId,
        now,
        timezone: row.shop.timezone,
        callbackUrl,
      });
      if (!built.ok) {
        const details = Object.entries(built.errors)
          .map(([field, e]) => `${field}: ${e.code}`)
          .join("; ");
        return { ok: false, problems: [problem("waybill.form_invalid", { details })] };
      }
      return { ok: true, body: built.body, paid: built.totals.grand_total, warnings: [] };
    },
    create: (body) => client.createInvoiceFromWaybill(waybillId, body),
    // Refusals of a waybill invoice are not documented beyond "already invoiced" and "not completed":
    // after any of them the waybill says whether an invoice exists.
    afterRefusal: (error) =>
      error instanceof InvoicingError &&
      error.retry === "never" &&
      !(error instanceof AuthenticationError) &&
      !(error instanceof NotFoundError) &&
      !(error instanceof BlockedError)
        ? { settle: settle(connection.invoiceIntegrationId), unresolved: null }
        : null,
    notFound: problem("waybill.not_found", { waybillId }),
  };
}

async function post(
  row: Row,
  facts: Facts,
  client: Client,
  connection: Connection,
  deps: ProcessDeps,
  log: typeof logger,
): Promise<Outcome> {
  // Nothing is posted for a shop that uninstalled the app: the row waits (queued, not due) and resumes when
  // the shop installs again (app/shops/shops.server.ts recordShop).
  if (row.shop.uninstalledAt) {
    return {
      data: { state: targetOf("uninstalled"), nextAttemptAt: null },
      events: [
        {
          type: "waiting",
          message: "the app is uninstalled; waits until the shop installs it again",
          data: { note: "uninstalled" },
        },
      ],
    };
  }
  if (row.cancelledInShop && row.attempts === 0) {
    return {
      data: { state: targetOf("cancelled_unposted"), nextAttemptAt: null },
      events: [
        {
          type: "cancelled",
          message: "order cancelled in Shopify before posting",
          data: { note: "cancelled_before_post" },
        },
      ],
    };
  }
  const now = deps.now();
  // An order edited since its snapshot is read again first: the invoice shows the order as it stands.
  if (row.waybillId === null && facts.unreadEdits) {
    const refreshed = await refreshEditedOrder(row, deps.readOrder ?? readOrderFromShopify, now);
    if (!refreshed.ok)
      return shopifyReadWaits(
        row,
        deps,
        "order.edited_unread",
        "order_unread",
        `order edited in Shopify; reading it again failed (${refreshed.reason})`,
        refreshed.reason,
        refreshed.cause instanceof AdminApiError && refreshed.cause.kind === "reconnect",
      );
    if (refreshed.snapshot !== undefined) row = { ...row, orderSnapshot: refreshed.snapshot as Prisma.JsonValue };
  }
  const refunds = row.waybillId === null ? await refundsOf(row.shopDomain, row.orderId) : [];
  const source =
    row.waybillId !== null
      ? waybillSource(row, row.waybillId, client, connection, deps)
      : orderSource(row, client, connection, deps, refunds);
  let attempted = row;
  // An earlier attempt may have reached the service (timeout, crash mid-post): ask before posting again, for
  // exactly what it was posted with. This pass counts as an attempt before its first request, so a lookup that
  // keeps failing ends like a post that does.
  if (row.attempts > 0) {
    if (!(await hot().updateLeased(row.id, row.leaseOwner!, {}, { incrementAttempts: true })))
      return { data: {}, events: [] };
    attempted = { ...row, attempts: row.attempts + 1 };
    try {
      const settled = await source.settleEarlier();
      if (settled.record) return created(attempted, settled.record, deps, "settled", null);
      if (settled.problem) return needsAttention([settled.problem]);
    } catch (error) {
      return failedAttempt(attempted, error, deps, log);
    }
    if (row.cancelledInShop) {
      return {
        data: { state: targetOf("cancelled_unposted"), nextAttemptAt: null },
        events: [
          {
            type: "cancelled",
            message: "order cancelled in Shopify; the service has no invoice for it",
            data: { note: "cancelled_nothing_at_service" },
          },
        ],
      };
    }
  }

  // Fully refunded before it was invoiced (and, after an earlier attempt, nothing found at the service): no invoice.
  // An order of gift cards only is no refund: nothing of it is invoiced when it is sold, and the trail says so.
  const asItStands = row.waybillId === null ? standing(row.orderSnapshot, refunds) : null;
  if (asItStands && giftCardsOnly(asItStands.order)) {
    return {
      data: { state: targetOf("cancelled_unposted"), nextAttemptAt: null },
      events: [
        {
          type: "cancelled",
          message:
            "the order sold gift cards only: a gift card is invoiced when it is spent, not when sold; no invoice",
          data: { note: "gift_card_sale" },
        },
      ],
      // Its refunds (the card taken back) had nothing invoiced to correct either.
      refunds: [{ ids: refunds.filter((r) => r.handling === null).map((r) => r.refundId), handling: "no_invoice" }],
    };
  }
  if (asItStands?.nothingLeft) {
    return {
      data: { state: targetOf("cancelled_unposted"), nextAttemptAt: null },
      events: [
        {
          type: "cancelled",
          message: "order fully refunded in Shopify before it was invoiced; no invoice",
          data: { note: "refunded_before_invoice" },
        },
      ],
      refunds: [{ ids: refunds.filter((r) => r.handling === null).map((r) => r.refundId), handling: "no_invoice" }],
    };
  }

  // Never a live invoice to a test account, nor a test invoice to a live one, whatever the stored settings say.
  const refusal = await postAccountRefusal(row.shopDomain, connection, client);
  if (refusal) return needsAttention([problem(`settings.${refusal}`)]);

  // A B2B order is invoiced to its company as Shopify holds it now (not for the settings page's test invoices).
  let company: CompanyRead | undefined;
  if (asItStands && !row.isTest) {
    const found = await buyerCompany(
      row.shopDomain,
      asItStands.order,
      connection.mapping.companyTaxOfficeMetafield,
      deps.readCompany,
    );
    if ("unread" in found)
      return shopifyReadWaits(
        row,
        deps,
        "customer.company_unread",
        "company_unread",
        `reading the order's B2B company failed (${found.unread})`,
        found.unread,
        found.reconnect,
      );
    company = found;
  }
  const mapped = source.build(now, asItStands?.order, company);
  if (!mapped.ok) return needsAttention(mapped.problems);

  // Before the request leaves: count the attempt (first pass) and record what it is posted with, so a crash
  // during it leads to a lookup of exactly this, not a blind post.
  const recorded = await hot().updateLeased(
    row.id,
    row.leaseOwner!,
    {
      requestBody: mapped.body,
      // What customers/redact never erases: the books keep the invoice whoever its buyer was.
      fiscalRecord: fiscalRecordOf(mapped.body),
      problems: mapped.warnings,
      saleChannelId: connection.saleChannelId,
      invoiceIntegrationId: connection.invoiceIntegrationId,
      postedInTestMode: connection.testMode,
      // The list names and finds a B2B order by the company it is invoiced to, and the contact who placed it.
      ...(company?.company ? companyListName(company.company.name, row.customerName) : {}),
    },
    { incrementAttempts: row.attempts === 0 },
  );
  // The lease expired and another worker owns the row now: it decides, this one must not post.
  if (!recorded) return { data: {}, events: [] };
  if (row.attempts === 0) attempted = { ...row, attempts: 1 };
  try {
    const record = await source.create(mapped.body);
    // The refunds known now are in this invoice (their units and shipping were left off).
    const known = refunds.filter((r) => r.handling === null);
    return {
      ...created(attempted, record, deps, "posted", mapped.paid),
      refunds: [
        { ids: known.filter(changesInvoice).map((r) => r.refundId), handling: "before_invoice" },
        ...known
          .filter((r) => !changesInvoice(r))
          .map((r) => ({ ids: [r.refundId], handling: handlingWithoutChange(r) })),
      ],
    };
  } catch (error) {
    const look = source.afterRefusal(error);
    if (look) {
      let settled: Settled;
      try {
        settled = await look.settle();
      } catch (lookupError) {
        // The attempt is counted: the next pass starts with the same lookup, on the same backoff.
        return failedAttempt(attempted, lookupError, deps, log);
      }
      if (settled.record) return created(attempted, settled.record, deps, "settled", mapped.paid);
      if (settled.problem) return needsAttention([settled.problem]);
      if (look.unresolved) return needsAttention([look.unresolved]);
    }
    return failedAttempt(attempted, error, deps, log, source.notFound);
  }
}

/** The service holds the invoice now: store its id and what it says, and read it again later. */
function created(
  row: Row,
  record: InvoiceRecord,
  deps: ProcessDeps,
  how: "posted" | "settled",
  paid: string | null,
): Outcome {
  const applied = applyRecord(row, record, deps);
  const events: Outcome["events"] = [
    {
      type: how,
      message: `invoice ${record.id} at the service`,
      data: { remoteId: record.id, grandTotal: record.grand_total ?? null },
    },
    ...applied.events,
  ];
  const problems: Problem[] = [];
  if (paid && record.grand_total && dec(record.grand_total).sub(dec(paid)).abs().gt("0.01")) {
    problems.push(problem("invoice.total_mismatch", { remote: record.grand_total, paid }, "warning"));
  }
  return {
    data: {
      ...applied.data,
      remoteId: record.id,
      syncAttempts: 0,
      ...(problems.length ? { problems: json(problems) } : {}),
    },
    events,
    teamId: applied.teamId,
  };
}

async function sync(row: Row, facts: Facts, client: Client, deps: ProcessDeps): Promise<Outcome> {
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

/** Formal statuses in which the service still lets the invoice be deleted (sandbox/README.md, decision 0016). */
const WITHDRAWABLE = new Set(["pending", "failed"]);

/**
 * Posted, and Shopify says the sale changed since (a cancellation, or refunds not in the invoice): while the
 * service allows it, the invoice is deleted, then either the row ends cancelled (nothing left to invoice) or it
 * is posted again for the kept lines. Formalised already: the refunds go to the invoice page's after-sale view.
 * Null when there is nothing to do here (the ordinary status read goes on).
 */
async function afterSaleAtService(
  row: Row,
  facts: Facts,
  record: InvoiceRecord,
  client: Client,
  deps: ProcessDeps,
): Promise<Outcome | null> {
  if (row.waybillId !== null || row.state === STATE.cancelled) return null;
  const refunds = await refundsOf(row.shopDomain, row.orderId);
  const pending = refunds.filter((r) => r.handling === null);
  const changing = pending.filter(changesInvoice);
  const minor = pending.filter((r) => !changesInvoice(r));
  const withMinor = (outcome: Outcome): Outcome => ({
    ...outcome,
    refunds: [
      ...(outcome.refunds ?? []),
      ...minor.map((r) => ({ ids: [r.refundId], handling: handlingWithoutChange(r) })),
    ],
  });
  const formal = record.formal_status ?? "";
  if (stateOf(record) === STATE.completed) {
    // Formalised: the invoice stays as the tax authority has it; the invoice page shows each refund's path.
    if (pending.length === 0) return null;
    const outcome = applyRecord(row, record, deps);
    return { ...outcome, refunds: [{ ids: pending.map((r) => r.refundId), handling: "after_formalisation" }] };
  }
  if (!row.cancelledInShop && changing.length === 0)
    return minor.length ? withMinor(applyRecord(row, record, deps)) : null;
  if (!WITHDRAWABLE.has(formal)) return null; // being formalised right now: read again soon, decide then
  if (!client.deleteInvoice) return null;
  const nothingLeft = row.cancelledInShop || (standing(row.orderSnapshot, refunds)?.nothingLeft ?? false);
  try {
    await client.deleteInvoice(record.id);
  } catch (error) {
    if (!(error instanceof NotFoundError)) {
      if (error instanceof InvoicingError && error.retry === "never") {
        // Refused: most likely formalised meanwhile. The next read shows it; the merchant sees why.
        return {
          data: {
            nextAttemptAt: new Date(deps.now().getTime() + syncDelayMs(0, deps.random)),
            lastError: describe(error),
          },
          events: [
            {
              type: "after_sale",
              message: `deleting invoice ${record.id} was refused: ${describe(error)}`,
              data: { note: "delete_refused", remoteId: record.id, reason: json(reasonOf(error)) },
            },
          ],
        };
      }
      throw error; // transient: the status read's backoff applies (processClaimedRow counts it)
    }
  }
  const cleared: Prisma.InvoiceUpdateManyMutationInput = {
    remoteId: null,
    workflowStatus: null,
    formalStatus: null,
    ettn: null,
    serialNumber: null,
    pdfUrl: null,
    remoteTotals: Prisma.DbNull,
    syncAttempts: 0,
    problems: json([]),
  };
  const withdrawn = {
    type: "withdrawn" as const,
    message: `invoice ${record.id} deleted at the service before formalisation`,
    data: json({ remoteId: record.id, formalStatus: formal }),
  };
  if (nothingLeft) {
    // The row closes: no worker looks at it again. A refund stored while the invoice was being deleted (orders/cancelled
    // stores the cancellation first, then the refunds it carries) is read again here and settled with it; the refund's
    // own path settles one that lands on the row once it is closed (app/after-sale/record.server.ts).
    const known = new Set(pending.map((r) => r.refundId));
    const late = (await refundsOf(row.shopDomain, row.orderId))
      .filter((r) => r.handling === null && !known.has(r.refundId))
      .map((r) => r.refundId);
    return withMinor({
      data: { ...cleared, state: nextState(row.state as InvoiceState, "withdraw"), nextAttemptAt: null },
      events: [
        withdrawn,
        {
          type: "cancelled",
          message: row.cancelledInShop
            ? "order cancelled in Shopify; its invoice was deleted before formalisation"
            : "order fully refunded; its invoice was deleted before formalisation",
          data: { note: row.cancelledInShop ? "cancelled_withdrawn" : "refunded_withdrawn" },
        },
      ],
      refunds: [{ ids: [...changing.map((r) => r.refundId), ...late], handling: "withdrawn" }],
    });
  }
  // Partially refunded: the same row is posted again, for the order as it stands (a fresh first attempt).
  return withMinor({
    data: {
      ...cleared,
      state: nextState(row.state as InvoiceState, "reissue"),
      attempts: 0,
      nextAttemptAt: deps.now(),
    },
    events: [
      withdrawn,
      {
        type: "reissue",
        message: `re-issued for the kept lines after refund(s) ${changing.map((r) => r.refundId).join(", ")}`,
        data: { refunds: changing.length },
      },
    ],
    refunds: [{ ids: changing.map((r) => r.refundId), handling: "reissued" }],
  });
}

/** The Admin API (app/shopify, the shop's offline session), loaded when an edited order first needs it. */
const readOrderFromShopify: ReadOrder = async (shop, orderId) => {
  const { readOrder } = await import("../shopify/orders.server");
  const order = await readOrder(shop, orderId);
  if (!order) throw new Error(`Shopify has no order ${orderId} for this shop`);
  return order;
};

/** "Acme A.Ş. (Ayşe Yılmaz)", as the list shows a billing address's company and name; the contact kept. */
function companyListName(company: string, contact: string | null): { customerName: string; customerSearch: string } {
  const customerName = contact?.includes(company) ? contact : contact ? `${company} (${contact})` : company;
  return { customerName, customerSearch: foldForSearch(customerName) };
}

/**
 * What Shopify must say before the post (an edited order as it stands, a B2B order's company) could not be read: the
 * invoice waits, on the ordinary backoff, and says why; after the last try it needs attention.
 */
function shopifyReadWaits(
  row: Row,
  deps: ProcessDeps,
  code: "order.edited_unread" | "customer.company_unread",
  kind: string,
  message: string,
  reason: string,
  reconnect: boolean,
): Outcome {
  // Shopify refused the shop's token: only the merchant opening the app brings it back, so the row waits for that
  // (app/shops/connection.server.ts resumes it) without spending an attempt.
  if (reconnect)
    return {
      data: {
        state: targetOf("shopify_lost"),
        nextAttemptAt: null,
        lastError: message,
        problems: json([problem("shopify.reconnect", undefined, "warning")]),
      },
      events: [
        { type: "waiting", message: `${message}; waits until the shop reconnects`, data: { note: "reconnect" } },
      ],
    };
  const attempts = row.attempts + 1;
  if (attempts >= RETRY.maxAttempts) return needsAttention([problem(code, { details: reason })]);
  const nextAttemptAt = new Date(deps.now().getTime() + retryDelayMs(attempts, deps.random));
  return {
    data: {
      state: targetOf("retry"),
      attempts,
      nextAttemptAt,
      lastError: message,
      problems: json([problem(code, { details: reason }, "warning")]),
    },
    events: [
      {
        type: "retry",
        message: `${message}; next try ${nextAttemptAt.toISOString()}`,
        data: { attempts, nextAttemptAt: nextAttemptAt.toISOString(), reason: { kind } },
      },
    ],
  };
}

function applyRecord(row: Row, record: InvoiceRecord, deps: ProcessDeps): Outcome {
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

function failedAttempt(row: Row, error: unknown, deps: ProcessDeps, log: typeof logger, notFound?: Problem): Outcome {
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
function unexpectedFailure(row: Row, deps: ProcessDeps, error: unknown): Outcome {
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

function needsAttention(problems: Problem[], extra: Prisma.InvoiceUpdateManyMutationInput = {}): Outcome {
  return {
    data: { ...extra, state: targetOf("needs_attention"), nextAttemptAt: null, problems: json(problems) },
    events: [{ type: "needs_attention", message: problems.map((p) => p.code).join(", "), data: json({ problems }) }],
  };
}

function describe(error: unknown): string {
  if (error instanceof InvoicingError)
    return `${error.kind}${error.status ? ` ${error.status}` : ""}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
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
