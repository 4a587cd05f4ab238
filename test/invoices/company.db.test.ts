// B2B orders end to end: a paid order placed for a company (Shopify B2B) through the webhook, or read through the
// Admin API, is invoiced to the company as the Admin API stand-in serves it (its tax registration id, name, billing
// address and tax office metafield), read with the shop's offline session and the real Admin client. Without a
// companies scope the order is invoiced from its own fields and says so; an invalid number in Shopify stops the
// invoice until it is corrected there and retried.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminGraphql } from "../../app/shopify/admin.server";
import { readPurchasingCompanyWith } from "../../app/shopify/company-reads";
import { retryInvoice } from "../../app/invoices/actions.server";
import { invoiceSelectedOrders } from "../../app/invoices/bulk-invoice.server";
import { encryptSecret } from "../../app/secrets/crypto.server";
import { startStandin, type Standin } from "../../shopify-standin/server";
import type { StandinCompany } from "../../shopify-standin/rest-to-graphql";
import { connectShop, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { standinReader } from "../helpers/standin";
import { prisma } from "../helpers/db";
import { paidOrder } from "../helpers/orders";
import { SHOP } from "../helpers/shopify";
import type { ReadCompany } from "../../app/invoices/company.server";

const acme = (taxRegistrationId: string | null): StandinCompany => ({
  id: 9001,
  name: "Acme Makine A.Ş.",
  metafields: [{ namespace: "custom", key: "tax_office", value: "Kavaklıdere" }],
  locations: [
    {
      id: 9101,
      name: "Ankara Merkez",
      taxRegistrationId,
      billingAddress: {
        address1: "Atatürk Bulv. 100",
        city: "Çankaya",
        province: "Ankara",
        zoneCode: "TR-06",
        zip: "06420",
        country: "Turkey",
        countryCode: "TR",
        companyName: "Acme Makine A.Ş.",
      },
      metafields: [{ namespace: "custom", key: "tax_office", value: "Çankaya" }],
    },
  ],
});

/** An order the contact Ayşe placed for Acme's Ankara location; her own T.C. number is in the notes. */
const b2bOrder = () => paidOrder({ company: { id: 9001, location_id: 9101 } });

let standin: Standin;
beforeAll(async () => {
  standin = await startStandin({ shop: SHOP, scopes: ["read_orders", "read_companies", "read_all_orders"] });
});
afterAll(async () => {
  await standin?.stop();
});

/** The shop's offline session: the stand-in's token and the scopes the shop granted. */
async function grant(scope: string) {
  await prisma.session.update({
    where: { id: `offline_${SHOP}` },
    data: { accessToken: encryptSecret(standin.accessToken, SHOP), scope },
  });
}

let companyReads = 0;
/** The worker's company read: the real query and client, aimed at the stand-in. */
const readCompany: ReadCompany = async (shop, orderId, metafield) => {
  companyReads++;
  return readPurchasingCompanyWith(
    await adminGraphql(shop, { endpoint: standin.graphqlUrl(), fetch, sleep: async () => undefined, maxAttempts: 2 }),
    orderId,
    metafield,
  );
};

const pipeline = pipelineForEachTest({
  setUp: async (p) => {
    await connectShop(p.sandbox, SHOP);
    await grant("read_orders,read_companies");
    standin.setScopes(["read_orders", "read_companies", "read_all_orders"]);
    standin.setFaults({ serverErrors: 0 });
    standin.upsertCompanies([acme("9860008925")]);
    companyReads = 0;
  },
});

async function deliver(order: ReturnType<typeof paidOrder>) {
  standin.upsertOrders([order]);
  expect((await pipeline.deliverPaid(order)).status).toBe(200);
}

const customerOf = (row: { requestBody: unknown }) =>
  (row.requestBody as { customer: Record<string, unknown> }).customer;
const codes = (row: { problems: unknown }) => (row.problems as Array<{ code: string }>).map((p) => p.code);

describe("B2B orders", () => {
  it("a webhook order placed for a company is invoiced to the company: its VKN, name, tax office metafield and billing address", async () => {
    await pipeline.startWorker({ readCompany });
    await deliver(b2bOrder());
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    expect(customerOf(row)).toMatchObject({
      type: "company",
      tax_number: "9860008925",
      title: "Acme Makine A.Ş.",
      tax_office: "Çankaya",
      city: "Ankara",
      district: "Çankaya",
      address: "Atatürk Bulv. 100",
    });
    expect(codes(row)).toContain("customer.from_company");
    expect(companyReads).toBe(1);
    // The list shows and finds it by the company, with the contact who placed it.
    expect(row.customerName).toBe("Acme Makine A.Ş. (Ayşe Yılmaz)");
    expect(row.customerSearch).toContain("acme makine");
  });

  it("an order read through the Admin API (the order list's action) is found to be a company's and invoiced to it", async () => {
    const order = b2bOrder();
    standin.upsertOrders([order]);
    await pipeline.startWorker({ readCompany });
    const summary = await invoiceSelectedOrders(SHOP, [String(order.id)], standinReader(standin));
    expect(summary).toMatchObject({ queued: 1 });
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    expect(customerOf(row)).toMatchObject({ type: "company", tax_number: "9860008925", title: "Acme Makine A.Ş." });
  });

  it("an order the webhook says has no company costs no company read", async () => {
    await pipeline.startWorker({ readCompany });
    await deliver(paidOrder({ company: null }));
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    expect(customerOf(row)).toMatchObject({ type: "person", tax_number: "10000000146" });
    expect(companyReads).toBe(0);
  });

  it("without a companies scope: invoiced from the order's own fields, and the invoice says why", async () => {
    await grant("read_orders");
    await pipeline.startWorker({ readCompany });
    await deliver(b2bOrder());
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    expect(customerOf(row)).toMatchObject({ type: "person", tax_number: "10000000146", title: "Ayşe Yılmaz" });
    expect(codes(row)).toContain("customer.b2b_without_scope");
    expect(companyReads).toBe(0);
  });

  it("a scope taken back in Shopify (ACCESS_DENIED) is the same fallback, not a stuck invoice", async () => {
    standin.setScopes(["read_orders", "read_all_orders"]);
    await pipeline.startWorker({ readCompany });
    await deliver(b2bOrder());
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    expect(codes(row)).toContain("customer.b2b_without_scope");
    expect(companyReads).toBe(1);
  });

  it("an invalid tax registration id needs attention naming it; corrected in Shopify and retried, the invoice goes out to the company", async () => {
    standin.upsertCompanies([acme("1234567891")]);
    const order = b2bOrder();
    await pipeline.startWorker({ readCompany });
    await deliver(order);
    const [stuck] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "needs_attention");
    expect(stuck.problems).toContainEqual({
      code: "customer.invalid_company_tax_number",
      params: { value: "1234567891", company: "Acme Makine A.Ş." },
      severity: "error",
    });
    expect(pipeline.posts()).toBe(0);

    standin.upsertCompanies([acme("0720039666")]);
    expect(await retryInvoice(SHOP, stuck.id, new Date(), standinReader(standin))).toMatchObject({ ok: true });
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    expect(customerOf(row)).toMatchObject({ type: "company", tax_number: "0720039666" });
  });

  it("Shopify unreachable while the company is read: the invoice waits on the backoff and says why, nothing is posted", async () => {
    standin.setFaults({ serverErrors: 10, status: 503 });
    await pipeline.startWorker({ readCompany });
    await deliver(b2bOrder());
    const [row] = await waitForInvoices(
      (rows) => rows.length === 1 && rows[0].attempts === 1 && rows[0].state === "queued",
    );
    expect(codes(row)).toEqual(["customer.company_unread"]);
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(pipeline.posts()).toBe(0);
  });
});
