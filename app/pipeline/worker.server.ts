// The worker: claims due rows and works on them, up to `concurrency` at once and `perShopLimit` per shop.
// It sleeps until the next row is due, a signal arrives (a webhook queued a row), or `pollMs` passes.
// Runs inside the web server by default (WORKER_MODE=inprocess) and as `npm run worker` in production.
import { logger } from "../logger.server";
import { claimDueRows, newWorkerId } from "./claim.server";
import { hot } from "../db.server";
import { processClaimedRow, type ProcessDeps } from "./process.server";
import { onWork } from "./signal.server";
import { pruneWebhookDeliveries } from "../webhooks/deliveries.server";
import { advanceRuns } from "../past-orders/runs.server";
import type { OrderReader } from "./order-reader";
import { reconcileShop, shopsDueForReconciliation } from "./reconcile.server";
import { claimDueWriteBacks, processWriteBack, type WriteBackDeps } from "../writeback/run.server";
import { defaultWriteBackDeps } from "../writeback/admin.server";

/** Housekeeping (old webhook deliveries) runs at most this often per worker. */
const HOUSEKEEPING_MS = 60 * 60_000;
/** How often the scheduler looks for reconciliations due and past-orders runs to advance. */
const SCHEDULER_MS = 1000;

export interface WorkerOptions extends Omit<ProcessDeps, "now"> {
  now?: () => Date;
  /** The write-back step's Admin API access and error handling (app/writeback); Shopify's by default. */
  writeBack?: Partial<Omit<WriteBackDeps, "now">>;
  concurrency?: number;
  perShopLimit?: number;
  leaseMs?: number;
  /** Longest sleep without a signal: the safety net for rows made due by another process on SQLite. */
  pollMs?: number;
  /**
   * Shopify's Admin API. With it the worker also reconciles every installed shop each `reconcileIntervalMs`
   * (0: never on a schedule) and advances past-orders runs; without it (most tests) it only works on rows.
   */
  orders?: OrderReader;
  reconcileIntervalMs?: number;
}

export interface Worker {
  id: string;
  /** Look for work now. */
  wake(): void;
  /** Resolves when nothing is in flight and nothing is due right now. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const id = newWorkerId();
  const now = options.now ?? (() => new Date());
  const concurrency = options.concurrency ?? 8;
  const perShopLimit = options.perShopLimit ?? 2;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 5_000;
  const deps: ProcessDeps = { ...options, now };
  const writeBackDeps: WriteBackDeps = { ...defaultWriteBackDeps(), random: options.random, ...options.writeBack, now };
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let pendingWake = true;
  let idleWaiters: Array<() => void> = [];

  const wake = () => {
    pendingWake = true;
    wakeUp?.();
  };
  const stopListening = await onWork(wake);

  // Claiming costs a few queries whatever the batch, so with jobs running it waits until a quarter of
  // the slots are free instead of claiming one row per finished job.
  const batch = Math.max(1, Math.floor(concurrency / 4));

  async function fill(): Promise<number> {
    const free = concurrency - inFlight.size;
    if (free <= 0 || (inFlight.size > 0 && free < batch)) return 0;
    const claimed = await claimDueRows({ workerId: id, now: now(), limit: free, perShopLimit, leaseMs });
    for (const claim of claimed) {
      track(processClaimedRow(claim, deps).catch((error: unknown) => logger.error({ err: error, invoice: claim.id }, "worker job crashed")));
    }
    // Writing orders back to Shopify shares the slots, after the invoices (which the merchant waits for).
    const writeBacks = await claimDueWriteBacks({ workerId: id, now: now(), limit: concurrency - inFlight.size, leaseMs });
    for (const claim of writeBacks) {
      track(processWriteBack(claim, writeBackDeps).catch((error: unknown) => logger.error({ err: error, invoice: claim.invoiceId }, "write-back job crashed")));
    }
    return claimed.length + writeBacks.length;
  }

  function track(work: Promise<void>) {
    const job: Promise<void> = work.finally(() => {
      inFlight.delete(job);
      wake();
    });
    inFlight.add(job);
  }

  /** The earliest due row, invoice or write-back: one prepared read. */
  const nextDue = () => hot().nextDue();

  async function sleepUntilNeeded() {
    if (pendingWake) return;
    // With jobs in flight, each one wakes the loop when it ends. Otherwise sleep until the next row is
    // due; rows due already but not claimable are held by other workers' leases or per-shop limits.
    let ms = pollMs;
    if (inFlight.size === 0) {
      const due = await nextDue().catch(() => null);
      const untilDue = due ? due.getTime() - now().getTime() : pollMs;
      ms = untilDue > 0 ? Math.max(5, Math.min(pollMs, untilDue)) : Math.min(250, pollMs);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wakeUp = null;
  }

  let lastHousekeeping = 0;
  const loop = (async () => {
    while (!stopped) {
      pendingWake = false;
      if (now().getTime() - lastHousekeeping >= HOUSEKEEPING_MS) {
        lastHousekeeping = now().getTime();
        await pruneWebhookDeliveries(now()).catch((error: unknown) => logger.warn({ err: error }, "pruning webhook deliveries failed"));
      }
      let claimed = 0;
      try {
        claimed = await fill();
      } catch (error) {
        logger.error({ err: error }, "claiming due invoices failed");
      }
      if (claimed === 0 && inFlight.size === 0) {
        const due = await nextDue().catch(() => null);
        if (!due || due > now()) {
          idleWaiters.forEach((resolve) => resolve());
          idleWaiters = [];
        }
      }
      if (stopped) break;
      if (claimed > 0 && inFlight.size < concurrency) continue;
      await sleepUntilNeeded();
    }
  })();

  // Reconciliation and past-orders runs: their own loop, so reading Shopify never delays claiming rows. It looks
  // for work every second (a new run starts within a second) and goes on at once while a run has pages left.
  let wakeScheduler: (() => void) | null = null;
  const scheduler = options.orders
    ? (async (reader: OrderReader) => {
        const reconcileEvery = options.reconcileIntervalMs ?? 60 * 60_000;
        while (!stopped) {
          let more = false;
          try {
            if (reconcileEvery > 0) {
              for (const shop of await shopsDueForReconciliation(now(), reconcileEvery)) {
                if (stopped) break;
                await reconcileShop(shop, { reader, owner: id, now });
              }
            }
            more = await advanceRuns({ reader, owner: id, now });
          } catch (error) {
            logger.error({ err: error }, "reconciliation or a past-orders run failed");
          }
          if (stopped) break;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, more ? 0 : SCHEDULER_MS);
            wakeScheduler = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wakeScheduler = null;
        }
      })(options.orders)
    : Promise.resolve();

  logger.info({ worker: id, concurrency, perShopLimit, reconcile: Boolean(options.orders) }, "invoice worker started");

  return {
    id,
    wake,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        wake();
      }),
    async stop() {
      stopped = true;
      wakeUp?.();
      wakeScheduler?.();
      await loop;
      await scheduler;
      await Promise.allSettled([...inFlight]);
      await stopListening();
      idleWaiters.forEach((resolve) => resolve());
      logger.info({ worker: id }, "invoice worker stopped");
    },
  };
}
