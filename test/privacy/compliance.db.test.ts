import { describe, expect, it } from "vitest";
import { action as uninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as dataRequest } from "../../app/routes/webhooks.customers.data_request";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { callRoute } from "../helpers/routes";
import { OTHER_SHOP, SHOP, signedWebhookRequest } from "../helpers/shopify";
import { createInvoiceRow, freshShopsForEachTest, prisma, uninstalledFor } from "../helpers/db";

async function snapshot() {
  return {
    sessions: await prisma.session.findMany({ orderBy: { id: "asc" } }),
    shops: await prisma.shop.findMany({ orderBy: { domain: "asc" } }),
    invoices: await prisma.invoice.findMany({ orderBy: { id: "asc" } }),
    events: await prisma.invoiceEvent.findMany({ orderBy: { id: "asc" } }),
  };
}

describe("app/uninstalled and the compliance webhooks", () => {
  freshShopsForEachTest();

  it("app/uninstalled removes the shop's sessions and marks it uninstalled, keeping its invoices", async () => {
    await createInvoiceRow(SHOP);
    const response = await callRoute(
      uninstalled,
      signedWebhookRequest({ topic: "app/uninstalled", body: { id: 1, domain: SHOP, myshopify_domain: SHOP } }),
    );
    expect(response.status).toBe(200);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).uninstalledAt).toBeInstanceOf(Date);
    expect(await prisma.invoice.count({ where: { shopDomain: SHOP } })).toBe(1);
    // The other shop is untouched.
    expect(await prisma.session.count({ where: { shop: OTHER_SHOP } })).toBe(1);
  });

  it("shop/redact, 48 hours after the uninstall, deletes everything of that shop and nothing of another", async () => {
    await createInvoiceRow(SHOP);
    const kept = await createInvoiceRow(OTHER_SHOP);
    await uninstalledFor(SHOP, 49);
    const response = await callRoute(
      shopRedact,
      signedWebhookRequest({ topic: "shop/redact", body: { shop_id: 1, shop_domain: SHOP } }),
    );
    expect(response.status).toBe(200);
    expect(await prisma.shop.count({ where: { domain: SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.invoice.count({ where: { shopDomain: SHOP } })).toBe(0);
    expect(await prisma.invoiceEvent.count({ where: { invoice: { shopDomain: SHOP } } })).toBe(0);
    expect(await prisma.invoice.findUnique({ where: { id: kept.id } })).not.toBeNull();
  });

  it("customers/redact anonymises that customer's invoices in that shop only", async () => {
    const mine = await createInvoiceRow(SHOP, { customerId: "7001" });
    const byOrder = await createInvoiceRow(SHOP, { customerId: "9999", orderId: "5550001" });
    const someoneElse = await createInvoiceRow(SHOP, { customerId: "8002", customerName: "Mehmet Demir" });
    const otherShop = await createInvoiceRow(OTHER_SHOP, { customerId: "7001" });
    const response = await callRoute(
      customersRedact,
      signedWebhookRequest({
        topic: "customers/redact",
        body: {
          shop_id: 1,
          shop_domain: SHOP,
          customer: { id: 7001, email: "ayse@example.com" },
          orders_to_redact: [5550001],
        },
      }),
    );
    expect(response.status).toBe(200);
    for (const id of [mine.id, byOrder.id]) {
      const row = await prisma.invoice.findUniqueOrThrow({ where: { id } });
      expect(row.customerId).toBeNull();
      expect(row.customerName).toBe("[redacted]");
      expect(JSON.stringify(row.orderSnapshot)).not.toContain("ayse@example.com");
      const events = await prisma.invoiceEvent.findMany({ where: { invoiceId: id } });
      expect(JSON.stringify(events.map((e) => e.data))).not.toContain("ayse@example.com");
    }
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: someoneElse.id } })).customerName).toBe(
      "Mehmet Demir",
    );
    const untouched = await prisma.invoice.findUniqueOrThrow({ where: { id: otherShop.id } });
    expect(untouched.customerId).toBe("7001");
    expect(JSON.stringify(untouched.orderSnapshot)).toContain("ayse@example.com");
  });

  it("customers/redact also clears what was derived from the buyer's data: problems' values, the last error, event messages", async () => {
    const typed = "10000000146"; // a T.C. number the buyer typed, wrong
    const row = await createInvoiceRow(SHOP, { customerId: "7001" });
    await prisma.invoice.update({
      where: { id: row.id },
      data: {
        state: "needs_attention",
        problems: [{ code: "customer.invalid_tax_number", severity: "error", params: { value: typed } }],
        lastError: `validation 422: customer.tax_number ${typed} is invalid`,
        events: {
          create: [
            {
              type: "needs_attention",
              message: `customer.tax_number: ${typed} is invalid`,
              data: { problems: [{ params: { value: typed } }] },
            },
          ],
        },
      },
    });
    const response = await callRoute(
      customersRedact,
      signedWebhookRequest({
        topic: "customers/redact",
        body: { shop_domain: SHOP, customer: { id: 7001 }, orders_to_redact: [] },
      }),
    );
    expect(response.status).toBe(200);
    const after = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id }, include: { events: true } });
    expect(JSON.stringify(after)).not.toContain(typed);
    expect(after.lastError).toBeNull();
    // What was wrong stays readable; the value the buyer typed does not.
    expect(after.problems).toEqual([
      { code: "customer.invalid_tax_number", severity: "error", params: { value: "[redacted]" } },
    ]);
    expect(after.events.every((event) => event.message === null)).toBe(true);
  });

  it("customers/redact also clears what a past-orders dry run kept of what buyers typed (issue 35, point 5)", async () => {
    const typed = "10000000146";
    const run = await prisma.backfillRun.create({
      data: {
        shopDomain: SHOP,
        fromDate: new Date("2026-10-01T00:00:00Z"),
        toDate: new Date("2026-11-01T00:00:00Z"),
        state: "ready",
        plan: {
          orders: 3,
          reasons: { "customer.invalid_tax_number": 1 },
          reasonExamples: { "customer.invalid_tax_number": { order: "#1001", params: { value: typed } } },
        },
      },
    });
    await createInvoiceRow(SHOP, { customerId: "7001" });
    const response = await callRoute(
      customersRedact,
      signedWebhookRequest({
        topic: "customers/redact",
        body: { shop_domain: SHOP, customer: { id: 7001 }, orders_to_redact: [] },
      }),
    );
    expect(response.status).toBe(200);
    const after = await prisma.backfillRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(JSON.stringify(after.plan)).not.toContain(typed);
    // The counts and what was wrong stay: the dry run still reads right.
    expect(after.plan).toMatchObject({
      orders: 3,
      reasons: { "customer.invalid_tax_number": 1 },
      reasonExamples: { "customer.invalid_tax_number": { order: "#1001", params: { value: "[redacted]" } } },
    });
  });

  it("customers/data_request is accepted and changes nothing", async () => {
    await createInvoiceRow(SHOP);
    const before = await snapshot();
    const response = await callRoute(
      dataRequest,
      signedWebhookRequest({
        topic: "customers/data_request",
        body: { shop_id: 1, shop_domain: SHOP, customer: { id: 7001 }, orders_requested: [], data_request: { id: 9 } },
      }),
    );
    expect(response.status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  const routes = [
    ["app/uninstalled", uninstalled],
    ["customers/data_request", dataRequest],
    ["customers/redact", customersRedact],
    ["shop/redact", shopRedact],
  ] as const;

  for (const [topic, route] of routes) {
    it(`${topic}: a bad signature gets 401 and changes nothing`, async () => {
      await createInvoiceRow(SHOP);
      const before = await snapshot();
      const body = { shop_domain: SHOP, customer: { id: 7001 }, orders_to_redact: [] };
      const forged = await callRoute(route, signedWebhookRequest({ topic, body, secret: "not-the-app-secret" }));
      expect(forged.status).toBe(401);
      // No signature at all is a malformed delivery: the library answers 400.
      const unsigned = await callRoute(route, signedWebhookRequest({ topic, body, hmac: "" }));
      expect(unsigned.status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });
  }
});
