// Posting a row that has no invoice at the service yet, whatever its source: the checks before the post, counting
// the attempt before the request leaves, and after an unknown outcome looking before posting again.
import type { Prisma } from "#prisma/sqlite";
import { hot } from "../db.server";
import type { logger } from "../logger.server";
import type { Connection } from "../settings/settings.server";
import type { InvoiceRecord } from "../invoicing-service/schemas";
import { dec } from "../invoicing-service/money";
import { fiscalRecordOf } from "../invoicing-service/fiscal-record";
import { problem, type Problem } from "../problems";
import { targetOf } from "../invoice-state/transitions";
import {
  changesInvoice,
  handlingWithoutChange,
  refreshEditedOrder,
  refundsOf,
  standing,
} from "../after-sale/before-posting.server";
import { giftCardsOnly } from "../orders/refunds";
import { postAccountRefusal } from "../settings/accounts.server";
import { AdminApiError } from "../shopify/errors";
import { buyerCompany, type CompanyRead } from "./company.server";
import { applyRecord, failedAttempt, json, needsAttention } from "./outcome";
import { orderSource } from "./order-source.server";
import { waybillSource } from "./waybill-source.server";
import { companyListName, readOrderFromShopify, shopifyReadWaits } from "./shopify-reads.server";
import type { Settled } from "./post-source";
import type { Client, Facts, Outcome, ProcessDeps, Row } from "./process-types";

export async function post(
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
      facts.offlineScope,
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
