// Orders paid while the shop was in test mode get test invoices (dummy integration): marked as test everywhere,
// never counted as live, and issued for real after going live, once, without colliding at the service.
import { describe, expect, it } from "vitest";
import { action as homeAction } from "../../app/routes/app._index";
import { loader as orderBlock } from "../../app/routes/api.orders.$orderId.invoice";
import { dashboardCounts, loadInvoicesPage } from "../../app/invoices/list.server";
import { getInvoiceDetail } from "../../app/invoices/detail.server";
import { issueTestInvoicesForReal } from "../../app/invoices/actions.server";
import { connectShop, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";
import { callRoute } from "../helpers/routes";
import { adminFetchRequest, SHOP } from "../helpers/shopify";
import { sessionStorage } from "../../app/shopify.server";
import { offlineSession } from "../helpers/shopify";

const pipeline = pipelineForEachTest({
  formalizeDelayMs: 10,
  setUp: async (p) => {
    await prisma.session.deleteMany();
    await connectShop(p.sandbox, SHOP, { testMode: true });
    await sessionStorage.storeSession(offlineSession(SHOP));
  },
});

const account = () => pipeline.sandbox.account;
const goLive = () => prisma.shopSettings.update({ where: { shopDomain: SHOP }, data: { testMode: false } });
const issueForReal = async () =>
  callRoute(
    homeAction,
    await adminFetchRequest("/app?index", SHOP, {
      method: "POST",
      body: new URLSearchParams({ intent: "issue_for_real" }),
    }),
  );

/** Two orders invoiced (completed) while the shop is in test mode. */
async function invoicedInTestMode() {
  await pipeline.startWorker();
  const orders = [paidOrder(), paidOrder()];
  for (const order of orders) await pipeline.deliverPaid(order);
  const rows = await waitForInvoices((all) => all.length === 2 && all.every((r) => r.state === "completed"));
  return { orders, rows };
}

describe("orders invoiced in test mode", () => {
  it("go to the dummy integration under their own order id, and show as test invoices everywhere, never as live", async () => {
    const { orders, rows } = await invoicedInTestMode();
    for (const order of orders) {
      const atService = pipeline.sandbox.invoices.byOrderId(`test-${order.id}`);
      expect(atService).toHaveLength(1);
      expect(atService[0].invoice_integration_id).toBe(account().dummyIntegrationId);
      expect(pipeline.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(0);
    }
    expect(rows.every((r) => r.postedInTestMode && r.invoiceIntegrationId === account().dummyIntegrationId)).toBe(true);
    expect(pipeline.sandbox.quotaUsed(account().apiKey)).toBe(0);

    const page = await loadInvoicesPage(SHOP, new URLSearchParams());
    expect(page.page.rows.every((r) => r.postedInTestMode)).toBe(true);
    expect(page.counts).toEqual({ today: 0, inFlight: 0, needsAttention: 0, failed: 0 });
    expect(await dashboardCounts(SHOP, "Europe/Istanbul")).toMatchObject({ today: 0 });
    expect(page.testInvoicesToIssue).toBe(0); // still in test mode: nothing to offer yet
    expect((await getInvoiceDetail(SHOP, rows[0].id))!.postedInTestMode).toBe(true);
    const block = await callRoute(orderBlock, await adminFetchRequest(`/api/orders/${rows[0].orderId}/invoice`, SHOP), {
      orderId: rows[0].orderId,
    });
    expect((await block.json()).invoice).toMatchObject({ test: true, state: "completed" });
  });

  it("after going live, are issued for real in one action: one live invoice each, quota used once each, a second click does nothing", async () => {
    const { orders } = await invoicedInTestMode();
    expect((await issueForReal()).status).toBe(409); // refused while test mode is on
    await goLive();
    expect((await loadInvoicesPage(SHOP, new URLSearchParams())).testInvoicesToIssue).toBe(2);

    const [first, second] = await Promise.all([issueForReal(), issueForReal()]);
    const counts = [(await first.json()).count, (await second.json()).count];
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    const rows = await waitForInvoices(
      (all) => all.length === 2 && all.every((r) => r.state === "completed" && !r.postedInTestMode),
    );
    for (const order of orders) {
      const live = pipeline.sandbox.invoices.byOrderId(String(order.id));
      expect(live).toHaveLength(1);
      expect(live[0].invoice_integration_id).toBe(account().invoiceIntegrationId);
      // The test invoice stays at the service under its own order id.
      expect(pipeline.sandbox.invoices.byOrderId(`test-${order.id}`)).toHaveLength(1);
    }
    expect(rows.every((r) => r.invoiceIntegrationId === account().invoiceIntegrationId)).toBe(true);
    expect(pipeline.sandbox.quotaUsed(account().apiKey)).toBe(2);

    const page = await loadInvoicesPage(SHOP, new URLSearchParams());
    expect(page.testInvoicesToIssue).toBe(0);
    expect(page.counts.today).toBe(2);
    expect(await (await issueForReal()).json()).toMatchObject({ ok: true, count: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pipeline.posts()).toBe(4);
  });

  it("a cancelled order or an invoice still in progress is not offered", async () => {
    await invoicedInTestMode();
    await goLive();
    const [one, two] = await prisma.invoice.findMany({ where: { shopDomain: SHOP } });
    await prisma.invoice.update({ where: { id: one.id }, data: { cancelledInShop: true, state: "needs_attention" } });
    await prisma.invoice.update({ where: { id: two.id }, data: { state: "processing" } });
    expect((await loadInvoicesPage(SHOP, new URLSearchParams())).testInvoicesToIssue).toBe(0);
    expect(await issueTestInvoicesForReal(SHOP)).toEqual({ ok: true, count: 0 });
  });
});
