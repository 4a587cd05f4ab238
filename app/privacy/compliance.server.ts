// The three mandatory privacy webhooks. What the app stores about people: the order snapshot (only the fields
// the mapping reads, app/orders/order.ts orderSnapshot), the customer's name and id on each Invoice row, the
// request body sent to the invoicing service, and text derived from them: problems (a tax number the buyer typed),
// the last error and the audit trail's messages.
import type { Prisma } from "#prisma/sqlite";
import prisma from "../db.server";

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

function customerScope(
  shop: string,
  payload: { customer?: { id?: number | string | null } | null },
  orderIds: Array<number | string>,
) {
  const customerId = payload.customer?.id != null ? String(payload.customer.id) : undefined;
  const orders = orderIds.map(String);
  const or = [...(customerId ? [{ customerId }] : []), ...(orders.length ? [{ orderId: { in: orders } }] : [])];
  return or.length ? { shopDomain: shop, OR: or } : null;
}

/**
 * customers/redact: removes the personal data of the customer's invoices. The invoice itself (its
 * serial number and totals) is a legal record the merchant must keep, so the row stays, anonymised.
 */
export async function redactCustomer(shop: string, payload: CustomerRedactPayload): Promise<number> {
  const where = customerScope(shop, payload, payload.orders_to_redact ?? []);
  if (!where) return 0;
  const rows = await prisma.invoice.findMany({ where, select: { id: true, problems: true } });
  if (rows.length === 0) return 0;
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
        requestBody: { redacted: true },
        lastError: null,
        pdfLinkVersion: null,
      },
    }),
    // Problems keep their codes (what was wrong) but not their values (what the buyer typed).
    ...rows.map((row) =>
      prisma.invoice.update({ where: { id: row.id }, data: { problems: redactedProblems(row.problems) } }),
    ),
    prisma.invoiceEvent.updateMany({
      where: { invoiceId: { in: ids } },
      data: { data: { redacted: true }, message: null },
    }),
  ]);
  return ids.length;
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
  const where = customerScope(shop, payload, payload.orders_requested ?? []);
  if (!where) return [];
  return prisma.invoice.findMany({
    where,
    select: { orderId: true, orderName: true, serialNumber: true, state: true, createdAt: true },
  });
}

/** shop/redact (48 hours after uninstall): everything of the shop goes. */
export async function redactShop(shop: string) {
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop } }),
    prisma.webhookDelivery.deleteMany({ where: { shopDomain: shop } }),
    // Settings, invoices and their events cascade from the shop row.
    prisma.shop.deleteMany({ where: { domain: shop } }),
  ]);
}
