// What the past-orders page shows of a shop's latest run: its state, range and counts.
import prisma from "../db.server";
import { bulkReadStatus } from "../shopify/bulk-operations.server";
import { type Plan } from "./plan";
import { STATE } from "../invoice-state/transitions";
import { UNFINISHED, type RunState } from "./run-rules";

export interface RunProgress {
  /**
   * Orders this run invoices: the preview's "to invoice" until every order is read, then the run's own rows. Orders
   * already invoiced before the run are not among them (`alreadyInvoiced`), so the bar ends where the preview said.
   */
  total: number;
  /** Of the run's own orders: invoiced (or closed by hand), needing no invoice (gift cards only, cancelled or refunded
   * before it was made), needing attention, failed, still in the queue. */
  done: number;
  noInvoice: number;
  needsAttention: number;
  failed: number;
  inQueue: number;
  /** Paid orders of the range the app had invoiced (or recorded) before the run: skipped, not redone. */
  alreadyInvoiced: number;
}

export interface RunView {
  id: string;
  state: RunState;
  from: string;
  to: string;
  plan: Plan | null;
  progress: RunProgress;
  listedAll: boolean;
  lastError: string | null;
  createdAt: string;
  /** How this phase reads: "bulk" (one bulk operation) or "paged"; null until its first step. */
  mode: "bulk" | "paged" | null;
  /** While a bulk operation builds: Shopify's status and the objects it has read so far. */
  bulk: { status: string; objectCount: number } | null;
}

/** The shop's latest run with its progress, counted over its rows. */
export async function latestRun(shop: string): Promise<RunView | null> {
  const run = await prisma.backfillRun.findFirst({
    where: { shopDomain: shop, state: { not: "cancelled" } },
    orderBy: { createdAt: "desc" },
  });
  if (!run) return null;
  const states = await prisma.invoice.groupBy({ by: ["state"], where: { backfillId: run.id }, _count: { _all: true } });
  const count = (names: string[]) =>
    states.filter((row) => names.includes(row.state)).reduce((sum, row) => sum + row._count._all, 0);
  const plan = (run.plan as Plan | null) ?? null;
  // Closed by hand (issued in the panel, no invoice needed) is finished too: never counted as waiting or late.
  const done = count([STATE.completed, STATE.closed]);
  const noInvoice = count([STATE.cancelled]);
  const needsAttention = count([STATE.needs_attention]);
  const failed = count([STATE.failed]);
  const inQueue = count([...UNFINISHED, STATE.waiting]);
  return {
    id: run.id,
    state: run.state as RunState,
    from: run.fromDate.toISOString(),
    to: run.toDate.toISOString(),
    plan,
    progress: {
      total: run.listedAllAt
        ? done + noInvoice + needsAttention + failed + inQueue
        : Math.max(plan?.toInvoice ?? 0, done + noInvoice + needsAttention + failed + inQueue),
      done,
      noInvoice,
      needsAttention,
      failed,
      inQueue,
      alreadyInvoiced: run.existing,
    },
    listedAll: run.listedAllAt !== null,
    lastError: run.lastError,
    createdAt: run.createdAt.toISOString(),
    mode: run.mode === "bulk" || run.mode === "paged" ? run.mode : null,
    bulk: run.bulkOperationId ? await bulkReadStatus(run.bulkOperationId) : null,
  };
}
