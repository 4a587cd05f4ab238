// The three mandatory privacy webhooks. What the app stores about people: the order snapshot (only the fields
// the mapping reads, app/orders/order.ts orderSnapshot), the customer's name and id on each Invoice row, the
// request body sent to the invoicing service, and text derived from them: problems (a tax number the buyer typed),
// the last error and the audit trail's messages.
import { createHash } from "node:crypto";
import type { Prisma } from "#prisma/sqlite";
import prisma from "../db.server";
import { rebuildPackagesCovering } from "../accountant/packages.server";
import { fiscalRecordOf, redactedRequestBody } from "../invoicing-service/fiscal-record";
import { logger } from "../logger.server";
import { installStateAtShopify, type InstallState } from "../shopify/install-check.server";
import { markUninstalled } from "../shops/shops.server";

export interface CustomerRedactPayload {
  shop_domain?: string;
  customer?: { id?: number | string | null; email?: string | null; phone?: string | null } | null;
  orders_to_redact?: Array<number | string>;
}

export interface DataRequestPayload {
  shop_domain?: string;
  customer?: { id?: number | string | null; email?: string | null } | null;
  orders_requested?: Array<number | string>;
  data_request?: { id?: number | string };
}

const REDACTED = "[redacted]";

/**
 * When this request was first received: its signed body identifies it (Shopify's event id header is not signed, so a
 * captured delivery sent again with another id is the same request). The first receipt is recorded.
 */
async function firstReceipt(shop: string, topic: string, payload: unknown, now: Date): Promise<Date> {
  const bodyHash = createHash("sha256").update(JSON.stringify(payload)).digest("hex");
  const key = { shopDomain: shop, topic, bodyHash };
  const found = await prisma.privacyRequest.findUnique({ where: { shopDomain_topic_bodyHash: key } });
  if (found) return found.firstReceivedAt;
  try {
    return (await prisma.privacyRequest.create({ data: { ...key, firstReceivedAt: now } })).firstReceivedAt;
  } catch {
    // The same request arriving twice at once: the other delivery recorded it.
    return (await prisma.privacyRequest.findUniqueOrThrow({ where: { shopDomain_topic_bodyHash: key } }))
      .firstReceivedAt;
  }
}

/**
 * The invoices a request is about: the orders it names, and the customer's invoices that existed when the request was
 * first received (never an order placed after it: a replayed request must not reach them).
 */
function customerScope(
  shop: string,
  payload: { customer?: { id?: number | string | null } | null },
  orderIds: Array<number | string>,
  receivedAt: Date,
) {
  const customerId = payload.customer?.id != null ? String(payload.customer.id) : undefined;
  const orders = orderIds.map(String);
  const or = [
    ...(customerId ? [{ customerId, createdAt: { lte: receivedAt } }] : []),
    ...(orders.length ? [{ orderId: { in: orders } }] : []),
  ];
  return or.length ? { shopDomain: shop, OR: or } : null;
}

/**
 * customers/redact: removes the personal data of the customer's invoices. The invoice itself is a legal record the
 * merchant must keep (VUK): its fiscal facts stay (Invoice.fiscalRecord, kept from the body before the person is
 * taken out of it), and the accountant packages that named the buyer are built again without them.
 */
export async function redactCustomer(
  shop: string,
  payload: CustomerRedactPayload,
  now = new Date(),
): Promise<{ invoices: number; packages: number; firstReceivedAt: Date }> {
  const receivedAt = await firstReceipt(shop, "customers/redact", payload, now);
  const where = customerScope(shop, payload, payload.orders_to_redact ?? [], receivedAt);
  if (!where) return { invoices: 0, packages: 0, firstReceivedAt: receivedAt };
  const rows = await prisma.invoice.findMany({
    where,
    select: { id: true, problems: true, requestBody: true, fiscalRecord: true },
  });
  if (rows.length === 0) return { invoices: 0, packages: 0, firstReceivedAt: receivedAt };
  const ids = rows.map((row) => row.id);
  await prisma.$transaction([
    prisma.invoice.updateMany({
      where: { id: { in: ids } },
      // pdfLinkVersion null: the customer's PDF link (in e-mails, the order's metafield, Flow) answers 404 from now on.
      data: {
        customerId: null,
        customerName: REDACTED,
        customerSearch: "",
        orderSnapshot: { redacted: true },
        lastError: null,
        pdfLinkVersion: null,
      },
    }),
    // Per row: the body loses the person, the fiscal record is kept (written now for a row from before it existed),
    // and problems keep their codes (what was wrong) but not their values (what the buyer typed).
    ...rows.map((row) =>
      prisma.invoice.update({
        where: { id: row.id },
        data: {
          problems: redactedProblems(row.problems),
          ...(row.requestBody === null
            ? {}
            : { requestBody: redactedRequestBody(row.requestBody) as Prisma.InputJsonValue }),
          ...(row.fiscalRecord === null && fiscalRecordOf(row.requestBody)
            ? { fiscalRecord: fiscalRecordOf(row.requestBody) as unknown as Prisma.InputJsonValue }
            : {}),
        },
      }),
    ),
    prisma.invoiceEvent.updateMany({
      where: { invoiceId: { in: ids } },
      data: { data: { redacted: true }, message: null },
    }),
    // The kept copy of the formal PDF names the buyer; the service keeps the legal one.
    prisma.invoicePdf.deleteMany({ where: { invoiceId: { in: ids } } }),
  ]);
  const days = rows.map((row) => fiscalRecordOf(row.fiscalRecord ?? row.requestBody)?.issue_date);
  const packages = await rebuildPackagesCovering(
    shop,
    days.filter((day): day is string => Boolean(day)),
  );
  await redactRunExamples(shop);
  return { invoices: ids.length, packages, firstReceivedAt: receivedAt };
}

/** Past-orders dry runs keep an example order per problem, with what the buyer typed: the values go. */
async function redactRunExamples(shop: string): Promise<void> {
  const runs = await prisma.backfillRun.findMany({ where: { shopDomain: shop }, select: { id: true, plan: true } });
  for (const run of runs) {
    const plan = run.plan as { reasonExamples?: Record<string, { order: string; params?: Record<string, unknown> }> };
    if (!plan?.reasonExamples) continue;
    const examples = Object.fromEntries(
      Object.entries(plan.reasonExamples).map(([code, example]) => [
        code,
        example.params
          ? { ...example, params: Object.fromEntries(Object.keys(example.params).map((key) => [key, REDACTED])) }
          : example,
      ]),
    );
    await prisma.backfillRun.update({
      where: { id: run.id },
      data: { plan: { ...plan, reasonExamples: examples } as Prisma.InputJsonValue },
    });
  }
}

function redactedProblems(value: unknown): Prisma.InputJsonValue {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (item): item is { code: string; severity?: unknown; params?: unknown } =>
        Boolean(item) && typeof item.code === "string",
    )
    .map(({ code, severity, params }) => ({
      code,
      ...(typeof severity === "string" ? { severity } : {}),
      ...(params && typeof params === "object"
        ? { params: Object.fromEntries(Object.keys(params).map((key) => [key, REDACTED])) }
        : {}),
    }));
}

/**
 * customers/data_request: the app holds no data Shopify does not already hold (the invoices are built
 * from Shopify's own orders), so the answer is which invoices exist; it is logged for the merchant.
 */
export async function findCustomerData(shop: string, payload: DataRequestPayload) {
  const where = customerScope(shop, payload, payload.orders_requested ?? [], new Date());
  if (!where) return [];
  return prisma.invoice.findMany({
    where,
    select: { orderId: true, orderName: true, serialNumber: true, state: true, createdAt: true },
  });
}

/** Shopify sends shop/redact 48 hours after the uninstall; a shop is erased no sooner after the app saw it go. */
export const REDACT_AFTER_MS = 48 * 3_600_000;
/** A shop/redact Shopify could not confirm (the app's records say installed) is asked again for a week, then dropped. */
const UNCONFIRMED_REDACT_MS = 7 * 86_400_000;

export type ShopRedaction = "redacted" | "scheduled" | "refused_installed" | "unconfirmed" | "nothing";

/**
 * shop/redact. Its signed body is the same for every delivery to a shop, so it is acted on only for a shop that is
 * uninstalled: Shopify is asked when the app's records say the shop is installed (a replay then changes nothing), and
 * the data goes once the shop has been uninstalled for 48 hours and has not come back (redactDueShops, also run by
 * the worker's housekeeping; a reinstall in between cancels it).
 */
export async function requestShopRedaction(
  shop: string,
  now = new Date(),
  probe: (shop: string) => Promise<InstallState> = installStateAtShopify,
): Promise<ShopRedaction> {
  const row = await prisma.shop.findUnique({ where: { domain: shop }, select: { uninstalledAt: true } });
  if (!row) {
    // Already erased, or never recorded: what is left under the shop's name (sessions, deliveries) goes.
    await redactShop(shop);
    return "nothing";
  }
  if (!row.uninstalledAt) {
    const state = await probe(shop);
    if (state === "installed") return "refused_installed";
    if (state === "unknown") {
      // Shopify could not say: the request is kept and asked about again by housekeeping, never acted on unconfirmed.
      await prisma.shop.updateMany({
        where: { domain: shop, redactRequestedAt: null },
        data: { redactRequestedAt: now },
      });
      return "unconfirmed";
    }
    await markUninstalled(shop, now);
  }
  await prisma.shop.updateMany({ where: { domain: shop }, data: { redactRequestedAt: now } });
  return (await redactDueShops(now, probe)).includes(shop) ? "redacted" : "scheduled";
}

/**
 * Housekeeping: erases the shops whose shop/redact is due (uninstalled for 48 hours, no offline session), and asks
 * Shopify again about the requests it could not confirm. Returns the shops erased.
 */
export async function redactDueShops(
  now = new Date(),
  probe: (shop: string) => Promise<InstallState> = installStateAtShopify,
): Promise<string[]> {
  const unconfirmed = await prisma.shop.findMany({
    where: { redactRequestedAt: { not: null }, uninstalledAt: null },
    select: { domain: true, redactRequestedAt: true },
  });
  for (const { domain, redactRequestedAt } of unconfirmed) {
    const state = await probe(domain);
    if (state === "uninstalled") await markUninstalled(domain, now);
    else if (state === "installed" || now.getTime() - redactRequestedAt!.getTime() > UNCONFIRMED_REDACT_MS) {
      logger.warn({ shop: domain, state }, "shop/redact dropped: Shopify says the app is installed, or never answered");
      await prisma.shop.updateMany({ where: { domain }, data: { redactRequestedAt: null } });
    }
  }
  const due = await prisma.shop.findMany({
    where: { redactRequestedAt: { not: null }, uninstalledAt: { lte: new Date(now.getTime() - REDACT_AFTER_MS) } },
    select: { domain: true },
  });
  const erased: string[] = [];
  for (const { domain } of due) {
    if (await prisma.session.findFirst({ where: { shop: domain, isOnline: false }, select: { id: true } })) continue;
    await redactShop(domain);
    erased.push(domain);
    logger.info({ shop: domain }, "shop redacted: all data removed");
  }
  return erased;
}

/** Everything of the shop goes. */
export async function redactShop(shop: string) {
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop } }),
    prisma.webhookDelivery.deleteMany({ where: { shopDomain: shop } }),
    prisma.privacyRequest.deleteMany({ where: { shopDomain: shop } }),
    // Settings, invoices and their events cascade from the shop row.
    prisma.shop.deleteMany({ where: { domain: shop } }),
  ]);
}
