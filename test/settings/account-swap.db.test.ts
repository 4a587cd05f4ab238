// Test and live accounts swapped in the stored settings (issue 22, point 2): no "live" invoice may go to the dummy
// integration and no test invoice to the live one, whatever the settings say; the worker's start-up check shows
// the problem on the home page before any post.
import { describe, expect, it } from "vitest";
import { loadInvoicesPage } from "../../app/invoices/list.server";
import {
  CHECK_LANES,
  checkStoredAccounts,
  forgetAccountKinds,
  postAccountRefusal,
} from "../../app/settings/accounts.server";
import type { Connection } from "../../app/settings/settings.server";
import { encryptSecret } from "../../app/secrets/crypto.server";
import { connectShop, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { installShop, prisma } from "../helpers/db";
import { SHOP } from "../helpers/shopify";

const pipeline = pipelineForEachTest({ formalizeDelayMs: 10 });
const account = () => pipeline.sandbox.account;
const swap = (data: { testMode: boolean }) =>
  prisma.shopSettings.update({
    where: { shopDomain: SHOP },
    data: {
      ...data,
      invoiceIntegrationId: account().dummyIntegrationId,
      dummyIntegrationId: account().invoiceIntegrationId,
    },
  });

describe("swapped test and live accounts", () => {
  it("a live invoice is never posted to the dummy integration: the invoice needs attention and the home page says why", async () => {
    forgetAccountKinds(SHOP);
    await swap({ testMode: false });
    await pipeline.startWorker();
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "needs_attention");
    expect(row.problems).toEqual([{ code: "settings.live_account_is_test", severity: "error" }]);
    expect(row.remoteId).toBeNull();
    expect(pipeline.posts()).toBe(0);
    expect(pipeline.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(0);
    expect(pipeline.sandbox.quotaUsed(account().apiKey)).toBe(0);
    expect((await loadInvoicesPage(SHOP, new URLSearchParams())).accountProblem).toBe("live_account_is_test");
  });

  it("a test invoice is never posted to a live account (it would be a legal invoice and use quota)", async () => {
    forgetAccountKinds(SHOP);
    await swap({ testMode: true });
    await pipeline.startWorker();
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "needs_attention");
    expect(row.problems).toEqual([{ code: "settings.test_account_is_live", severity: "error" }]);
    expect(pipeline.posts()).toBe(0);
  });

  it("the right accounts post as before", async () => {
    forgetAccountKinds(SHOP);
    await connectShop(pipeline.sandbox, SHOP);
    await pipeline.startWorker();
    await pipeline.deliverPaid(paidOrder());
    await waitForInvoices((rows) => rows.length === 1 && rows[0].state === "completed");
    expect(pipeline.posts()).toBe(1);
  });

  it("the start-up check finds swapped stored settings before any post, and clears once they are right", async () => {
    await swap({ testMode: false });
    expect(await checkStoredAccounts()).toBe(1);
    expect((await loadInvoicesPage(SHOP, new URLSearchParams())).accountProblem).toBe("live_account_is_test");
    expect(pipeline.posts()).toBe(0);
    await connectShop(pipeline.sandbox, SHOP);
    expect(await checkStoredAccounts()).toBe(0);
    expect((await loadInvoicesPage(SHOP, new URLSearchParams())).accountProblem).toBeNull();
  });

  it("the start-up check asks the services of many shops a few at a time: a slow one does not hold up the rest", async () => {
    const shops = Array.from({ length: 20 }, (_, i) => `swap-${i}.myshopify.com`);
    for (const shop of shops) {
      await installShop(shop);
      await prisma.shopSettings.create({
        data: {
          shopDomain: shop,
          apiKeyEncrypted: encryptSecret(`key-${shop}`, shop),
          invoiceIntegrationId: 8,
          dummyIntegrationId: 9,
        },
      });
    }
    let open = 0;
    let most = 0;
    const answered: string[] = [];
    const found = await checkStoredAccounts(({ apiKey }) => ({
      async listInvoiceIntegrations() {
        open++;
        most = Math.max(most, open);
        // The first shop's service is slow; the others answer at once (shop 3's with its accounts swapped).
        await new Promise((resolve) => setTimeout(resolve, apiKey === `key-${shops[0]}` ? 1_500 : 10));
        open--;
        answered.push(apiKey);
        return apiKey === `key-${shops[3]}`
          ? [
              { id: 8, is_test: true },
              { id: 9, is_test: false },
            ]
          : [
              { id: 8, is_test: false },
              { id: 9, is_test: true },
            ];
      },
    }));
    expect(found).toBe(1);
    const ours = answered.filter((key) => key.startsWith("key-swap-"));
    expect(new Set(ours).size).toBe(20);
    expect(most).toBe(CHECK_LANES);
    // Asked first, answered last: the other shops did not wait for it.
    expect(ours.at(-1)).toBe(`key-${shops[0]}`);
    expect(
      (await prisma.shopSettings.findUniqueOrThrow({ where: { shopDomain: shops[3] } })).accountProblem,
    ).not.toBeNull();
  });

  it("posts that need the account list while it is read wait for that one read: a worker's 16 slots ask once", async () => {
    forgetAccountKinds(SHOP);
    const live = { baseUrl: "https://service.invalid", invoiceIntegrationId: 8, testMode: false } as Connection;
    let asked = 0;
    let answer!: () => void;
    const lister = {
      async listInvoiceIntegrations() {
        asked++;
        await new Promise<void>((resolve) => (answer = resolve));
        return [
          { id: 8, is_test: true },
          { id: 9, is_test: false },
        ];
      },
    };
    const posts = Array.from({ length: 16 }, () => postAccountRefusal(SHOP, live, lister));
    await new Promise((resolve) => setTimeout(resolve, 20));
    answer();
    expect(await Promise.all(posts)).toEqual(Array(16).fill("live_account_is_test"));
    expect(asked).toBe(1);
    // Known now: the next post does not ask.
    expect(await postAccountRefusal(SHOP, live, lister)).toBe("live_account_is_test");
    expect(asked).toBe(1);

    // Settings saved while a list is read: what it reads is not kept for the new settings.
    forgetAccountKinds(SHOP);
    const during = postAccountRefusal(SHOP, live, lister);
    await new Promise((resolve) => setTimeout(resolve, 20));
    forgetAccountKinds(SHOP);
    answer();
    await during;
    const after = postAccountRefusal(SHOP, live, lister);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toBe(3);
    answer();
    await after;
  });
});
