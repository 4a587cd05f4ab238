// The write-back step: after an invoice's state changed, write its tags, metafields and Flow events to the
// Shopify order. A job of its own (OrderWriteBack row: due time, attempts, lease), run by the invoice worker
// beside the invoices, so that a Shopify outage or THROTTLED only delays this step and never touches the
// invoice. Bounded: WRITEBACK.maxAttempts, then "failed" until the merchant retries.
// docs/decisions/0015-order-write-back.md
import type { Prisma } from "#prisma/sqlite";
import prisma, { hot } from "../db.server";
import { logger } from "../logger.server";
import { retryDelayMs } from "../jobs/backoff";
import { runningDeadline } from "../invoices/deadline";
import { closureFrom } from "../invoices/closure";
import { signalWork } from "../jobs/signal.server";
import type { InvoiceState } from "../invoice-state/transitions";
import { WriteRefusedError, type WriteFailure } from "./errors";
import type { z } from "zod";
import {
  FLOW_TRIGGER_RECEIVE,
  FlowTriggerAnswer,
  METAFIELDS_SET,
  MetafieldsSetAnswer,
  TAGS_ADD,
  TAGS_REMOVE,
  TagsAddAnswer,
  TagsRemoveAnswer,
  type UserErrors,
} from "./mutations";
import {
  afterFlow,
  afterMetafields,
  afterTagsAdd,
  afterTagsRemove,
  isEmptyPlan,
  planWriteBack,
  readWritten,
  type TagSettings,
  type WriteBackInvoice,
  type Written,
} from "./plan";
import { hasWriteScope } from "../shops/scopes.server";
import { WRITE_SCOPE } from "../shopify/optional-scopes";
import { customerPdfUrl } from "../pdf/customer-pdf.server";
import { STATE } from "../invoice-state/transitions";
import { DEFAULT_TRIGGER } from "../settings/schema";

export const WRITEBACK = {
  baseMs: 5_000,
  capMs: 30 * 60_000,
  /** Attempts before the step is marked failed (about 1.5 hours of retrying); the merchant can retry. */
  maxAttempts: 10,
} as const;

/** The Admin API as the write-back needs it (app/shopify's client): one call, validated data or a thrown error. */
export interface AdminGraphql {
  graphql<T>(query: string, variables: Record<string, unknown> | undefined, schema: z.ZodType<T>): Promise<T>;
}

export interface WriteBackDeps {
  now: () => Date;
  /** The shop's Admin API client (offline token), or null when the shop has none. */
  adminFor: (shop: string) => Promise<AdminGraphql | null>;
  /** How a thrown error is handled; by default by the Admin client's error types. */
  classify: (error: unknown) => WriteFailure;
  random?: () => number;
}

export interface ClaimedWriteBack {
  invoiceId: string;
  shopDomain: string;
  leaseOwner: string;
}

/** Leases up to `limit` due write-backs: one prepared statement (SKIP LOCKED on PostgreSQL), safe with many workers. */
export async function claimDueWriteBacks(options: {
  workerId: string;
  now: Date;
  limit: number;
  leaseMs: number;
}): Promise<ClaimedWriteBack[]> {
  const claimed = await hot().claimWriteBacks(
    options.workerId,
    options.now,
    new Date(options.now.getTime() + options.leaseMs),
    options.limit,
  );
  return claimed.map((row) => ({ ...row, leaseOwner: options.workerId }));
}

function tagSettingsOf(settings: { orderTag: string; eArchiveTag: string; eInvoiceTag: string } | null): TagSettings {
  return settings ?? { orderTag: "e-fatura", eArchiveTag: "", eInvoiceTag: "" };
}

/** The invoice as the planner reads it; `trigger` (the shop's) says whether a waiting invoice's deadline runs. */
export function writeBackInvoiceOf(
  row: Prisma.InvoiceGetPayload<object>,
  trigger: string = DEFAULT_TRIGGER,
): WriteBackInvoice {
  const deadline = runningDeadline(row, trigger);
  const body = (row.requestBody ?? {}) as { issue_date?: unknown };
  const problems = Array.isArray(row.problems) ? (row.problems as Array<{ code?: unknown; severity?: unknown }>) : [];
  return {
    id: row.id,
    orderId: row.orderId,
    orderName: row.orderName,
    state: row.state as InvoiceState,
    documentKind: row.documentKind,
    // Closed as issued in the invoicing panel: the order carries the serial number the merchant gave.
    serialNumber: row.serialNumber ?? (row.state === STATE.closed ? (closureFrom(row.closure)?.serial ?? null) : null),
    ettn: row.ettn,
    // The app's signed link to a legal, formalised invoice: it works whatever the service's pdf_url is.
    // The link of the invoice's current version: none once customers/redact revoked it.
    pdfUrl:
      row.remoteId !== null && row.state === STATE.completed && !row.postedInTestMode
        ? customerPdfUrl(row.shopDomain, row.id, row.pdfLinkVersion)
        : null,
    issueDate: typeof body.issue_date === "string" ? body.issue_date : null,
    postedInTestMode: row.postedInTestMode,
    orderTotal: row.orderTotal,
    currency: row.currency,
    problemCodes: problems
      .filter((p) => p.severity !== "warning" && typeof p.code === "string")
      .map((p) => p.code as string),
    deadline: deadline?.toISOString() ?? null,
  };
}

const json = (value: Written) => value as unknown as Prisma.InputJsonValue;

function check(mutation: string, payload: { userErrors: UserErrors } | null) {
  if (payload?.userErrors?.length) throw new WriteRefusedError(mutation, payload.userErrors);
}

/** One claimed write-back: plan from what was written, carry out each part, record each part as it succeeds. */
export async function processWriteBack(claim: ClaimedWriteBack, deps: WriteBackDeps): Promise<void> {
  const job = await prisma.orderWriteBack.findUnique({
    where: { invoiceId: claim.invoiceId },
    include: { invoice: { include: { shop: { include: { settings: true } } } } },
  });
  if (!job || job.leaseOwner !== claim.leaseOwner) return;
  const log = logger.child({ shop: job.shopDomain, invoice: job.invoiceId, order: job.invoice.orderName });
  const lease = { invoiceId: job.invoiceId, leaseOwner: claim.leaseOwner };
  const release = { leaseOwner: null, leaseUntil: null };
  let written = readWritten(job.written);
  const save = async (data: Prisma.OrderWriteBackUpdateManyMutationInput) =>
    prisma.orderWriteBack.updateMany({ where: lease, data });
  // The step's outcome holds only for the version it planned from: made due again meanwhile (the invoice changed
  // while its order was being written), the row keeps that newer due time and is only released.
  const finish = async (data: Prisma.OrderWriteBackUpdateManyMutationInput) => {
    const { count } = await prisma.orderWriteBack.updateMany({
      where: { ...lease, version: job.version },
      data: { ...data, ...release },
    });
    if (count === 0 && (await save(release)).count === 1)
      log.info("the invoice changed while its order was written; writing it again");
  };

  // Without write_orders nothing is written, and nothing is retried until the merchant grants it.
  if (!(await hasWriteScope(job.shopDomain))) {
    await finish({ status: "no_scope", nextAttemptAt: null, lastError: `missing scope ${WRITE_SCOPE}` });
    return;
  }
  const settings = job.invoice.shop.settings;
  const plan = planWriteBack(
    writeBackInvoiceOf(job.invoice, settings?.trigger),
    tagSettingsOf(settings),
    written,
    deps.now(),
  );
  if (isEmptyPlan(plan)) {
    await finish({
      status: "written",
      nextAttemptAt: null,
      attempts: 0,
      lastError: null,
      writtenAt: job.writtenAt ?? deps.now(),
    });
    return;
  }
  const record = (next: Written) => {
    written = next;
    return save({ written: json(next) });
  };
  try {
    const admin = await deps.adminFor(job.shopDomain);
    if (!admin) {
      await finish({ status: "no_scope", nextAttemptAt: null, lastError: "no Admin API access for the shop" });
      return;
    }
    if (plan.metafields.length) {
      const result = await admin.graphql(METAFIELDS_SET, { metafields: plan.metafields }, MetafieldsSetAnswer);
      check("metafieldsSet", result.metafieldsSet);
      await record(afterMetafields(written, plan));
    }
    if (plan.tagsAdd.length) {
      const result = await admin.graphql(TAGS_ADD, { id: plan.orderGid, tags: plan.tagsAdd }, TagsAddAnswer);
      check("tagsAdd", result.tagsAdd);
      await record(afterTagsAdd(written, plan));
    }
    if (plan.tagsRemove.length) {
      const result = await admin.graphql(TAGS_REMOVE, { id: plan.orderGid, tags: plan.tagsRemove }, TagsRemoveAnswer);
      check("tagsRemove", result.tagsRemove);
      await record(afterTagsRemove(written, plan));
    }
    for (const event of plan.flow) {
      const result = await admin.graphql(
        FLOW_TRIGGER_RECEIVE,
        { handle: event.handle, payload: event.payload },
        FlowTriggerAnswer,
      );
      check("flowTriggerReceive", result.flowTriggerReceive);
      await record(afterFlow(written, event));
    }
    await finish({ status: "written", nextAttemptAt: null, attempts: 0, lastError: null, writtenAt: deps.now() });
    log.info(
      {
        tagsAdd: plan.tagsAdd,
        tagsRemove: plan.tagsRemove,
        metafields: plan.metafields.map((m) => m.key),
        flow: plan.flow.map((f) => f.handle),
      },
      "order written back",
    );
  } catch (error) {
    const failure = error instanceof WriteRefusedError ? "refused" : deps.classify(error);
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (failure === "no_scope") {
      await finish({ status: "no_scope", nextAttemptAt: null, lastError: reason });
      return;
    }
    // Waits, without spending an attempt, until the shop reconnects (app/shops/connection.server.ts makes it due).
    if (failure === "reconnect") {
      await finish({ status: "pending", nextAttemptAt: null, lastError: reason });
      return;
    }
    const attempts = job.attempts + 1;
    if (failure === "refused" || attempts >= WRITEBACK.maxAttempts) {
      log.warn({ reason, attempts }, "writing the order back failed");
      await finish({ status: "failed", attempts, nextAttemptAt: null, lastError: reason });
      return;
    }
    const delay = retryDelayMs(attempts, deps.random, WRITEBACK.baseMs, WRITEBACK.capMs);
    log.info({ reason, attempts, delayMs: delay }, "writing the order back failed; will retry");
    await finish({
      status: "pending",
      attempts,
      nextAttemptAt: new Date(deps.now().getTime() + delay),
      lastError: reason,
    });
  }
}

/** The merchant's "retry" on the invoice page: the shop's own invoice only. */
export async function retryWriteBack(shop: string, invoiceId: string, now = new Date()): Promise<boolean> {
  const updated = await prisma.orderWriteBack.updateMany({
    where: { invoiceId, shopDomain: shop, status: { in: ["failed", "no_scope"] } },
    data: { status: "pending", attempts: 0, nextAttemptAt: now, lastError: null },
  });
  if (updated.count === 1) await signalWork();
  return updated.count === 1;
}

/** `writtenState`: the invoice state the order carries (its invoice_state metafield as last written), if any. */
export type WriteBackView = {
  status: "pending" | "written" | "failed" | "no_scope";
  lastError: string | null;
  writtenAt: Date | null;
  writtenState: string | null;
} | null;

export async function writeBackOf(shop: string, invoiceId: string): Promise<WriteBackView> {
  const row = await prisma.orderWriteBack.findFirst({
    where: { invoiceId, shopDomain: shop },
    select: { status: true, lastError: true, writtenAt: true, written: true },
  });
  return row
    ? {
        status: row.status as NonNullable<WriteBackView>["status"],
        lastError: row.lastError,
        writtenAt: row.writtenAt,
        writtenState: readWritten(row.written).metafields.invoice_state ?? null,
      }
    : null;
}
