// Writing invoices back to their Shopify orders, end to end: a paid order through the sandbox to a completed invoice,
// then the worker's write-back step against the Admin API stand-in. The exact mutations per state change, that
// the same completion twice writes once, recovery after THROTTLED and 5xx (without touching the invoice), and no
// write without the write_orders scope.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminGraphql } from "../../app/shopify/admin.server";
import { scheduleWriteBack } from "../../app/invoices/write-back-due.server";
import { defaultWriteBackDeps } from "../../app/write-back/shopify-client.server";
import { startStandin, type RecordedMutation, type Standin } from "../../shopify-standin/server";
import { fixtureOrder } from "../orders/fixture-loader";
import { connectShop, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { prisma } from "../helpers/db";
import { SHOP } from "../helpers/shopify";
import { customerPdfUrl } from "../../app/pdf/customer-pdf.server";
import { encryptSecret } from "../../app/secrets/crypto.server";

const citizen = fixtureOrder("01-single-item-citizen") as { id: number; name: string };
const withoutTaxOffice = fixtureOrder("10-company-without-tax-office") as { id: number; name: string };
const gidOf = (order: { id: number }) => `gid://shopify/Order/${order.id}`;

let standin: Standin;
beforeAll(async () => {
  // The fixtures have fixed dates: without read_all_orders the stand-in, as Shopify, hides orders older than 60 days.
  standin = await startStandin({
    shop: SHOP,
    orders: [citizen, withoutTaxOffice],
    scopes: ["read_orders", "write_orders", "read_all_orders"],
  });
});
afterAll(async () => {
  await standin?.stop();
});

/** The shop's offline session as after installing: the stand-in's token and the scopes it records. */
async function grant(scope: string) {
  await prisma.session.update({
    where: { id: `offline_${SHOP}` },
    data: { accessToken: encryptSecret(standin.accessToken, SHOP), scope },
  });
}

const pipeline = pipelineForEachTest({
  setUp: async (p) => {
    await connectShop(p.sandbox, SHOP);
    await grant("read_orders,write_orders");
    standin.setFaults({ throttled: 0, serverErrors: 0 });
    standin.upsertOrders([{ ...citizen, tags: "vip" }, withoutTaxOffice]);
  },
});

let mark = 0;
beforeEach(() => {
  mark = standin.mutations().length;
});
/** The mutations recorded since the test began (the stand-in keeps them across tests). */
const sent = (): RecordedMutation[] => standin.mutations().slice(mark);

/** The worker, with the real Admin client aimed at the stand-in, without real sleeps between its own retries. */
const startWorker = () =>
  pipeline.startWorker({
    writeBack: {
      ...defaultWriteBackDeps(),
      adminFor: (shop) =>
        adminGraphql(shop, { endpoint: standin.graphqlUrl(), fetch, sleep: async () => undefined, maxAttempts: 2 }),
    },
  });

async function waitForWriteBack(predicate: (row: { status: string; attempts: number }) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await prisma.orderWriteBack.findFirst({ where: { shopDomain: SHOP } });
    if (row && predicate(row)) return row;
    if (Date.now() > deadline) throw new Error(`write-back timed out: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What the stand-in's order holds now: its tags and the app's metafields. */
async function orderState(order: { id: number }) {
  const { json } = await standin.request({
    query: `query($id: ID!) { order(id: $id) { tags metafields(first: 20, namespace: "$app") { nodes { key value type } } } }`,
    variables: { id: gidOf(order) },
  });
  const node = json.data.order as {
    tags: string[];
    metafields: { nodes: Array<{ key: string; value: string; type: string }> };
  };
  return { tags: node.tags, metafields: Object.fromEntries(node.metafields.nodes.map((m) => [m.key, m.value])) };
}

async function completeCitizenOrder() {
  await startWorker();
  expect((await pipeline.deliverPaid(citizen)).status).toBe(200);
  const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
  await waitForWriteBack((r) => r.status === "written");
  return row;
}

describe("write-back to the Shopify order", () => {
  it("a completed invoice: one metafieldsSet with its six metafields, one tagsAdd, one 'Invoice issued'; the merchant's tag stays", async () => {
    const row = await completeCitizenOrder();
    expect(sent().map((m) => m.field)).toEqual(["metafieldsSet", "tagsAdd", "flowTriggerReceive"]);
    const [metafields, tags, flow] = sent();
    expect(metafields.userErrors).toEqual([]);
    const inputs = (
      metafields.arguments as {
        metafields: Array<{ ownerId: string; namespace: string; key: string; type: string; value: string }>;
      }
    ).metafields;
    expect(Object.fromEntries(inputs.map((m) => [m.key, m.value]))).toEqual({
      invoice_state: "completed",
      invoice_serial: row.serialNumber,
      invoice_ettn: row.ettn,
      invoice_pdf_url: customerPdfUrl(row.shopDomain, row.id, row.pdfLinkVersion),
      invoice_kind: row.documentKind,
      invoice_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(inputs.every((m) => m.ownerId === gidOf(citizen) && m.namespace === "$app")).toBe(true);
    expect(tags.arguments).toEqual({ id: gidOf(citizen), tags: ["e-fatura"] });
    expect(flow.arguments).toMatchObject({
      handle: "invoice-issued",
      payload: { order_id: citizen.id, "Serial number": row.serialNumber, "Test invoice": false },
    });
    expect(await orderState(citizen)).toMatchObject({
      tags: ["vip", "e-fatura"],
      metafields: { invoice_state: "completed", invoice_serial: row.serialNumber },
    });
  });

  it("the same completion twice writes once: a repeated write-back and a repeated webhook send nothing more", async () => {
    const row = await completeCitizenOrder();
    const count = sent().length;
    await prisma.$transaction((tx) => scheduleWriteBack(tx, row.id, SHOP, new Date()));
    await waitForWriteBack((r) => r.status === "written");
    expect((await pipeline.deliverPaid(citizen)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitForWriteBack((r) => r.status === "written");
    expect(sent()).toHaveLength(count);
  });

  it("cancelled: removes only the app's tag and says 'cancelled'; the merchant's tag and the serial number stay", async () => {
    const row = await completeCitizenOrder();
    const before = sent().length;
    await prisma.$transaction(async (tx) => {
      await tx.invoice.update({ where: { id: row.id }, data: { state: "cancelled" } });
      await scheduleWriteBack(tx, row.id, SHOP, new Date());
    });
    await waitForWriteBack((r) => r.status === "written");
    const now = sent().slice(before);
    expect(now.map((m) => [m.field, m.arguments])).toEqual([
      ["metafieldsSet", { metafields: [expect.objectContaining({ key: "invoice_state", value: "cancelled" })] }],
      ["tagsRemove", { id: gidOf(citizen), tags: ["e-fatura"] }],
    ]);
    expect(await orderState(citizen)).toMatchObject({
      tags: ["vip"],
      metafields: { invoice_state: "cancelled", invoice_serial: row.serialNumber },
    });
  });

  it("an order that needs the merchant: its state and one 'Invoice needs attention', no tag", async () => {
    await startWorker();
    await pipeline.deliverPaid(withoutTaxOffice);
    await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "needs_attention");
    await waitForWriteBack((r) => r.status === "written");
    // Whether the fixture order's 7-day deadline is near (and so a deadline call goes too) depends on the day the
    // suite runs: test/write-back/deadline-reminders.db.test.ts dates its orders; here those calls are left out.
    const deadlineCall = (m: RecordedMutation) =>
      m.field === "flowTriggerReceive" &&
      (m.arguments as { handle?: string }).handle === "invoice-deadline-approaching";
    const calls = sent().filter((m) => !deadlineCall(m));
    expect(calls.map((m) => m.field)).toEqual(["metafieldsSet", "flowTriggerReceive"]);
    expect(calls[1].arguments).toMatchObject({
      handle: "invoice-needs-attention",
      payload: { order_id: withoutTaxOffice.id, "Invoice state": "needs_attention" },
    });
    expect((await orderState(withoutTaxOffice)).metafields).toEqual({ invoice_state: "needs_attention" });
  });

  it("THROTTLED answers are waited out by the client: each mutation lands once, the invoice is untouched", async () => {
    standin.setFaults({ throttled: 3 });
    const row = await completeCitizenOrder();
    expect(sent().map((m) => m.field)).toEqual(["metafieldsSet", "tagsAdd", "flowTriggerReceive"]);
    expect(standin.stats().throttled).toBeGreaterThanOrEqual(3);
    const after = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    expect([after.state, after.attempts, after.updatedAt.getTime()]).toEqual([
      row.state,
      row.attempts,
      row.updatedAt.getTime(),
    ]);
  });

  it("an outage (5xx beyond the client's retries) reschedules the write-back with backoff, then it completes; the invoice never changes", async () => {
    // Two 503s exhaust the client's two attempts; the third is answered on the write-back's own retry.
    standin.setFaults({ serverErrors: 3, status: 503 });
    await startWorker();
    await pipeline.deliverPaid(citizen);
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    const failed = await waitForWriteBack((r) => r.status === "pending" && r.attempts === 1);
    expect(failed).toMatchObject({ lastError: expect.stringContaining("503") });
    expect((failed as { nextAttemptAt: Date | null }).nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(sent()).toEqual([]);
    // Time travel: the retry is due now.
    await prisma.orderWriteBack.updateMany({ where: { shopDomain: SHOP }, data: { nextAttemptAt: new Date() } });
    await waitForWriteBack((r) => r.status === "written");
    expect(sent().map((m) => m.field)).toEqual(["metafieldsSet", "tagsAdd", "flowTriggerReceive"]);
    expect(standin.stats().serverErrors).toBeGreaterThanOrEqual(3);
    const after = await prisma.invoice.findUniqueOrThrow({ where: { id: row.id } });
    expect([after.state, after.attempts, after.updatedAt.getTime()]).toEqual([
      row.state,
      row.attempts,
      row.updatedAt.getTime(),
    ]);
  });

  it("without write_orders nothing is written and the invoice completes as ever; granting it resumes the write", async () => {
    await grant("read_orders");
    await startWorker();
    await pipeline.deliverPaid(citizen);
    await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    await waitForWriteBack((r) => r.status === "no_scope");
    expect(sent()).toEqual([]);
    const { recordGrantedScopes } = await import("../../app/shops/scopes.server");
    await recordGrantedScopes(SHOP, ["read_orders", "write_orders"]);
    await waitForWriteBack((r) => r.status === "written");
    expect(sent().map((m) => m.field)).toEqual(["metafieldsSet", "tagsAdd", "flowTriggerReceive"]);
  });

  it("a session that claims write_orders which Shopify denies: ACCESS_DENIED parks the write, nothing is recorded", async () => {
    const denying = await startStandin({ shop: SHOP, orders: [citizen], scopes: ["read_orders"] });
    try {
      await prisma.session.update({
        where: { id: `offline_${SHOP}` },
        data: { accessToken: encryptSecret(denying.accessToken, SHOP) },
      });
      await pipeline.startWorker({
        writeBack: {
          ...defaultWriteBackDeps(),
          adminFor: (shop) =>
            adminGraphql(shop, { endpoint: denying.graphqlUrl(), fetch, sleep: async () => undefined }),
        },
      });
      await pipeline.deliverPaid(citizen);
      await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
      const row = await waitForWriteBack((r) => r.status === "no_scope");
      expect(row).toMatchObject({ lastError: expect.stringContaining("write_orders") });
      expect(denying.mutations()).toEqual([]);
    } finally {
      await denying.stop();
    }
  });

  it("a test-mode invoice: state 'test' and the Flow event marked as a test, no tag", async () => {
    await connectShop(pipeline.sandbox, SHOP, { testMode: true });
    await grant("read_orders,write_orders");
    await completeCitizenOrder();
    expect(sent().map((m) => m.field)).toEqual(["metafieldsSet", "flowTriggerReceive"]);
    expect((await orderState(citizen)).metafields.invoice_state).toBe("test");
    expect(sent()[1].arguments).toMatchObject({ payload: { "Test invoice": true } });
  });
});
