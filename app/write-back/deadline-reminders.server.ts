// Flow's "Invoice deadline approaching" calls (48 h and 24 h before the 7-day deadline) are sent by the write-back step
// (app/write-back), which runs when an invoice changes. Nothing changes when a threshold is crossed, so the worker's
// housekeeping looks, shop by shop, for invoices at rest (needing attention, failed, waiting to be issued by hand)
// whose call is due and not yet sent, and makes their write-back due. An invoice in flight (queued, sending) is left
// alone: it ends at rest or issued within its retries, and its next write-back carries the call if it is still due;
// a write-back made due while another one of the same order is being written could lose the newer state.
// Another worker doing the same at once finds them pending; the write-back sends each call once (its key).
import prisma from "../db.server";
import { signalWork } from "../jobs/signal.server";
import { readWritten } from "./plan";
import { scheduleWriteBack } from "../invoices/write-back-due.server";
import { isInFlight } from "../invoice-state/transitions";
import { DEADLINE_DAYS, flowCallDue, nearBefore, runningDeadline, runningStates } from "../invoices/deadline";
import { DEFAULT_TRIGGER } from "../settings/schema";

/** At most this many write-backs made due per shop and pass (the next pass takes the rest). */
const PER_SHOP = 500;

/** Makes due the write-backs of every invoice whose deadline call is due at `now`; returns how many. */
export async function scheduleDeadlineCalls(now: Date): Promise<number> {
  const shops = await prisma.shop.findMany({ select: { domain: true, settings: { select: { trigger: true } } } });
  let scheduled = 0;
  for (const shop of shops) {
    const trigger = shop.settings?.trigger ?? DEFAULT_TRIGGER;
    // Deadlines between now and 48 h from now: an index range on [shopDomain, state, orderCreatedAt].
    const rows = await prisma.invoice.findMany({
      where: {
        shopDomain: shop.domain,
        isTest: false,
        waybillId: null,
        state: { in: runningStates(trigger).filter((state) => !isInFlight(state)) },
        orderCreatedAt: { gt: new Date(now.getTime() - DEADLINE_DAYS * 24 * 3_600_000), lte: nearBefore(now) },
      },
      select: {
        id: true,
        orderId: true,
        state: true,
        orderCreatedAt: true,
        isTest: true,
        writeBack: { select: { status: true, written: true, leaseUntil: true } },
      },
      orderBy: { orderCreatedAt: "asc" },
      take: PER_SHOP,
    });
    for (const row of rows) {
      const deadline = runningDeadline(row, trigger);
      const call = deadline ? flowCallDue(deadline, now) : null;
      // Due already, or waiting for write_orders (granting it makes every write-back due again): nothing to add.
      if (
        !call ||
        !/^\d+$/.test(row.orderId) ||
        row.writeBack?.status === "pending" ||
        row.writeBack?.status === "no_scope"
      )
        continue;
      // Being written right now: the next pass looks again.
      if (row.writeBack?.leaseUntil && row.writeBack.leaseUntil > now) continue;
      if (readWritten(row.writeBack?.written).flow.includes(call.key)) continue;
      await scheduleWriteBack(prisma, row.id, shop.domain, now);
      scheduled += 1;
    }
  }
  if (scheduled > 0) await signalWork();
  return scheduled;
}
