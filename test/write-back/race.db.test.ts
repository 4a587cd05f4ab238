// A write-back made due again while its order is being written (the invoice changed meanwhile, e.g. a post that
// ended in needs attention while the earlier state's write was under way): the step must not mark the row written,
// or the order would keep saying the older state.
import { beforeEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  claimDueWriteBacks,
  processWriteBack,
  type AdminGraphql,
  type WriteBackDeps,
} from "../../app/write-back/run.server";
import { scheduleWriteBack, writeBackStart } from "../../app/invoices/write-back-due.server";
import { readWritten } from "../../app/write-back/plan";
import { hot } from "../../app/db.server";
import { createInvoiceRow, installShop, prisma } from "../helpers/db";
import { SHOP } from "../helpers/shopify";

/** Every write-back mutation answered as Shopify does when it takes the values. */
const TAKEN = {
  metafieldsSet: { userErrors: [] },
  tagsAdd: { userErrors: [] },
  tagsRemove: { userErrors: [] },
  flowTriggerReceive: { userErrors: [] },
};

function fakeAdmin(duringFirstCall: () => Promise<void>) {
  const sent: Array<{ query: string; variables: Record<string, unknown> | undefined }> = [];
  let pending: (() => Promise<void>) | null = duringFirstCall;
  const admin: AdminGraphql = {
    async graphql<T>(query: string, variables: Record<string, unknown> | undefined, schema: z.ZodType<T>) {
      sent.push({ query, variables });
      const run = pending;
      pending = null;
      await run?.();
      return schema.parse(TAKEN);
    },
  };
  return { admin, sent };
}

const claimOne = async (now: Date) => (await claimDueWriteBacks({ workerId: "w1", now, limit: 5, leaseMs: 10_000 }))[0];

describe("a write-back made due again while it is being written", () => {
  beforeEach(async () => {
    await prisma.shop.deleteMany();
    await installShop(SHOP);
    await prisma.session.updateMany({ where: { shop: SHOP }, data: { scope: "read_orders,write_orders" } });
  });

  const ISSUED = {
    state: "completed",
    problems: [],
    remoteId: 77,
    serialNumber: "ARS2026000000077",
    ettn: "7f1c2d3e-0000-4000-8000-000000000077",
    documentKind: "e_archive",
  };
  // Made due again by the worker storing a job's end (the statement every post ends with), or by a merchant's fix.
  const ways: Array<[string, (invoiceId: string) => Promise<void>]> = [
    [
      "the worker's store of a job's end",
      async (invoiceId) => {
        await prisma.invoice.update({
          where: { id: invoiceId },
          data: { leaseOwner: "worker-2", leaseUntil: new Date(Date.now() + 60_000) },
        });
        const stored = await hot().finishJob({
          id: invoiceId,
          owner: "worker-2",
          shopDomain: SHOP,
          values: ISSUED,
          events: [],
          refunds: [],
          writeBack: (scopes) => writeBackStart(scopes, new Date()),
          teamId: null,
          callbacksSince: null,
        });
        expect(stored.stored).toBe(true);
      },
    ],
    [
      "a merchant's fix",
      async (invoiceId) => {
        await prisma.invoice.update({ where: { id: invoiceId }, data: ISSUED });
        await prisma.$transaction((tx) => scheduleWriteBack(tx, invoiceId, SHOP, new Date()));
      },
    ],
  ];

  it.each(ways)(
    "through %s: the row is left due, not written, and the next step writes the newer state",
    async (_way, makeDueAgain) => {
      const row = await createInvoiceRow(SHOP);
      await prisma.invoice.update({
        where: { id: row.id },
        data: { state: "needs_attention", problems: [{ code: "customer.tax_id_invalid", severity: "error" }] },
      });
      await scheduleWriteBack(prisma, row.id, SHOP, new Date());
      // While the needs-attention state is being written, the merchant fixes the order and the invoice is issued.
      const { admin, sent } = fakeAdmin(() => makeDueAgain(row.id));
      const deps: WriteBackDeps = { now: () => new Date(), adminFor: async () => admin, classify: () => "transient" };

      await processWriteBack((await claimOne(new Date()))!, deps);
      const between = await prisma.orderWriteBack.findUniqueOrThrow({ where: { invoiceId: row.id } });
      expect(between).toMatchObject({ status: "pending", leaseOwner: null, leaseUntil: null, writtenAt: null });
      // What Shopify holds is recorded as it was written: the older state.
      expect(readWritten(between.written).metafields.invoice_state).toBe("needs_attention");

      const again = await claimOne(new Date());
      expect(again?.invoiceId).toBe(row.id);
      const before = sent.length;
      await processWriteBack(again!, deps);
      const after = await prisma.orderWriteBack.findUniqueOrThrow({ where: { invoiceId: row.id } });
      expect(after).toMatchObject({ status: "written", leaseOwner: null, nextAttemptAt: null });
      expect(readWritten(after.written).metafields).toMatchObject({
        invoice_state: "completed",
        invoice_serial: "ARS2026000000077",
      });
      expect(sent.length).toBeGreaterThan(before);
      // Nothing is due any more.
      expect(await claimOne(new Date(Date.now() + 60_000))).toBeUndefined();
    },
  );
});
