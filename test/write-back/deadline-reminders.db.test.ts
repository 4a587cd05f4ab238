// Flow's "Invoice deadline approaching" (issue 27, point 2): the worker's housekeeping makes due the write-back of
// every invoice not issued yet whose call is due (48 h, then 24 h before its 7-day deadline), and the write-back sends
// each call once, through the Admin API stand-in. Issued, cancelled, passed and other shops' invoices get none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminGraphql } from "../../app/shopify/admin.server";
import { scheduleDeadlineCalls } from "../../app/write-back/deadline-reminders.server";
import { defaultWriteBackDeps } from "../../app/write-back/shopify-client.server";
import { encryptSecret } from "../../app/secrets/crypto.server";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { fixtureOrder } from "../orders/fixture-loader";
import { connectShop, pipelineForEachTest } from "../helpers/pipeline";
import { installShop, prisma } from "../helpers/db";
import { OTHER_SHOP, SHOP } from "../helpers/shopify";
import { seedInvoice } from "../helpers/seed";

const citizen = fixtureOrder("01-single-item-citizen") as { id: number };
const HOUR = 3_600_000;

let standin: Standin;
beforeAll(async () => {
  standin = await startStandin({ shop: SHOP, orders: [citizen] });
});
afterAll(async () => {
  await standin?.stop();
});

const pipeline = pipelineForEachTest({
  setUp: async (p) => {
    await connectShop(p.sandbox, SHOP);
    await prisma.session.update({
      where: { id: `offline_${SHOP}` },
      data: { accessToken: encryptSecret(standin.accessToken, SHOP), scope: "read_orders,write_orders" },
    });
    await installShop(OTHER_SHOP);
  },
});

/** A row of the shop whose order was placed `hours` ago, with an order id of its own. */
let next = 0;
async function placed(hours: number, state: string, shop = SHOP) {
  next += 1;
  const row = await seedInvoice(shop, {
    orderName: `#${state}-${hours}`,
    state,
    createdAt: new Date(Date.now() - hours * HOUR),
  });
  // An order Shopify has (the stand-in refuses metafields of an order it does not know).
  const id = 7_000_000_000 + next;
  if (shop === SHOP) standin.upsertOrders([{ ...citizen, id, name: row.orderName }]);
  return prisma.invoice.update({ where: { id: row.id }, data: { orderId: String(id) } });
}

const deadlineCalls = (since: number) =>
  standin
    .mutations()
    .slice(since)
    .filter(
      (m) =>
        m.field === "flowTriggerReceive" &&
        (m.arguments as { handle?: string }).handle === "invoice-deadline-approaching",
    )
    .map((m) => m.arguments as { payload: Record<string, unknown> });

describe("deadline reminders through Flow", () => {
  it("48 h and 24 h before the deadline, once each; never for an issued, in-flight, passed, early or other shop's invoice", async () => {
    const at48 = await placed(5 * 24 + 6, "needs_attention"); // deadline in 42 h
    const at24 = await placed(6 * 24 + 6, "failed"); // deadline in 18 h
    await placed(5 * 24 + 6, "completed");
    await placed(5 * 24 + 6, "processing");
    await placed(6 * 24 + 6, "cancelled");
    await placed(8 * 24, "needs_attention"); // passed: the banner and the list say so, no trigger
    await placed(3 * 24, "needs_attention"); // four days left
    await placed(5 * 24 + 6, "waiting"); // the shop issues on payment: a wait for payment has no clock
    await placed(5 * 24 + 6, "queued"); // in flight: its next write-back, at rest or issued, carries the call if due
    await placed(5 * 24 + 6, "needs_attention", OTHER_SHOP); // no write_orders there: waits with its write-back

    const since = standin.mutations().length;
    expect(await scheduleDeadlineCalls(new Date())).toBe(3);
    const due = await prisma.orderWriteBack.findMany({
      where: { status: "pending" },
      select: { invoiceId: true, shopDomain: true },
    });
    expect(
      due
        .filter((r) => r.shopDomain === SHOP)
        .map((r) => r.invoiceId)
        .sort(),
    ).toEqual([at48.id, at24.id].sort());
    expect(due.filter((r) => r.shopDomain === OTHER_SHOP)).toHaveLength(1);

    await pipeline.startWorker({
      writeBack: {
        ...defaultWriteBackDeps(),
        adminFor: (shop) =>
          adminGraphql(shop, { endpoint: standin.graphqlUrl(), fetch, sleep: async () => undefined, maxAttempts: 2 }),
      },
    });
    await expect.poll(() => deadlineCalls(since).length, { timeout: 15_000 }).toBe(2);
    const byOrder = Object.fromEntries(
      deadlineCalls(since).map((call) => [String(call.payload.order_id), call.payload]),
    );
    expect(byOrder[at48.orderId]).toMatchObject({
      "Hours left": "48",
      "Invoice state": "needs_attention",
      Deadline: new Date(at48.orderCreatedAt.getTime() + 168 * HOUR).toISOString(),
    });
    expect(byOrder[at24.orderId]).toMatchObject({ "Hours left": "24", "Invoice state": "failed" });
    // The other shop has no write_orders: its write-back waits without sending anything.
    await expect
      .poll(async () => (await prisma.orderWriteBack.findFirst({ where: { shopDomain: OTHER_SHOP } }))?.status, {
        timeout: 15_000,
      })
      .toBe("no_scope");

    // Once each: the next pass finds the calls sent (and the other shop's waiting for its scope).
    await expect
      .poll(
        async () => (await prisma.orderWriteBack.findMany({ where: { shopDomain: SHOP, status: "pending" } })).length,
        { timeout: 15_000 },
      )
      .toBe(0);
    expect(await scheduleDeadlineCalls(new Date())).toBe(0);
    expect(deadlineCalls(since)).toHaveLength(2);
  });
});
