// The worker: claims due rows and works on them, up to `concurrency` at once and `perShopLimit` per shop.
// It sleeps until the next row is due, a signal arrives (a webhook queued a row), or `pollMs` passes.
// Runs inside the web server by default (WORKER_MODE=inprocess) and as `npm run worker` in production.
import { logger } from "../logger.server";
import { claimDueRows, newWorkerId } from "../invoices/claim.server";
import prisma, { hot } from "../db.server";
import { sealPlainTokens } from "../secrets/reencrypt.server";
import { processClaimedRow, type ProcessDeps } from "../invoices/process.server";
import { onWork } from "../jobs/signal.server";
import type { OrderReader } from "../shopify/order-reader";
import { claimDueWriteBacks, processWriteBack, type WriteBackDeps } from "../write-back/run.server";
import { defaultWriteBackDeps } from "../write-back/shopify-client.server";
import type { AccountLister } from "../settings/accounts.server";
import type { BuildOptions } from "../accountant/build.server";
// Housekeeping, reconciliation, past-orders runs and the accounts check are imported when first used, after the
// first claim: a worker's start-up is part of how long a queue takes to drain (issue 26, point 6).

/** Housekeeping (old webhook deliveries, abandoned runs, deadline reminders) runs at most this often per worker. */
const HOUSEKEEPING_MS = 60 * 60_000;
/** How often the scheduler looks for reconciliations due and past-orders runs to advance. */
const SCHEDULER_MS = 1000;
/** How often the token step migrates non-expiring offline tokens and refreshes dormant shops' (with `offlineTokens`). */
const TOKEN_STEP_MS = 60 * 60_000;
/** How often the accountant packages' loop looks for a package to build (a request also wakes it), and expires old ones. */
const PACKAGES_POLL_MS = 2000;
const PACKAGES_EXPIRY_MS = 60_000;
/**
 * Every signal wakes the packages' loop too, and nearly all are for invoices (each service callback sends one: a
 * thousand in a drain of 2,000 orders): woken, it looks for a due package at most this often.
 */
const PACKAGES_WAKE_GAP_MS = 500;

export interface WorkerOptions extends Omit<ProcessDeps, "now"> {
  now?: () => Date;
  /** The write-back step's Admin API access and error handling (app/write-back); Shopify's by default. */
  writeBack?: Partial<Omit<WriteBackDeps, "now">>;
  concurrency?: number;
  perShopLimit?: number;
  /**
   * An invoice row's lease. Short, and renewed every third of it while the job runs (the heartbeat): a worker that
   * dies holds its rows, and its shop's share, only this long. Default 10 s.
   */
  leaseMs?: number;
  /** A write-back's lease (not renewed: Shopify's calls are bounded well under it). Default 60 s. */
  writeBackLeaseMs?: number;
  /** Longest sleep without a signal: the safety net for rows made due by another process on SQLite. */
  pollMs?: number;
  /**
   * Shopify's Admin API. With it the worker also reconciles every installed shop each `reconcileIntervalMs`
   * (0: never on a schedule) and advances past-orders runs; without it (most tests) it only works on rows.
   * A function is called once the first claim is done: the Admin API client and the Shopify library it brings
   * are loaded after the worker has started working.
   */
  orders?: OrderReader | (() => Promise<OrderReader>);
  reconcileIntervalMs?: number;
  /**
   * The token step (app/shopify/offline-tokens.server.ts cycleOfflineTokens), at start and hourly in the scheduler:
   * shops still on a non-expiring offline token are migrated, shops nobody used lately have theirs refreshed before
   * the refresh token lapses. For workers that talk to Shopify itself (the web server's and `npm run worker`).
   */
  offlineTokens?: boolean;
  /** Check every shop's stored test and live accounts against the service once at start (default: yes). */
  checkAccounts?: boolean;
  /**
   * Housekeeping makes due the write-backs of invoices whose deadline reminder (Flow, 48 h and 24 h before the 7-day
   * deadline) is due (app/write-back/deadline-reminders.server.ts). Default true; tests of other things turn it off, since
   * whether a fixture order's deadline is near depends on the day they run.
   */
  deadlineReminders?: boolean;
  /**
   * Accountant packages (app/accountant/): the worker builds them one at a time in a loop of its own, and deletes
   * expired ones. Options of the build (the service's PDF client in tests); false: this worker builds none.
   */
  accountant?: false | Omit<Partial<BuildOptions>, "owner" | "now" | "stopping">;
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
  const leaseMs = options.leaseMs ?? 10_000;
  const writeBackLeaseMs = options.writeBackLeaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 5_000;
  const deps: ProcessDeps = { ...options, now };
  const writeBackDeps: WriteBackDeps = { ...defaultWriteBackDeps(), random: options.random, ...options.writeBack, now };
  const inFlight = new Set<Promise<void>>();
  /** Invoice rows whose job is running: the heartbeat renews their leases. */
  const rowsInFlight = new Set<string>();
  /**
   * Rows whose job ended without storing its end (the database went away mid-job): still leased to this worker, so
   * they would hold their shop's share until the lease expired. Released as soon as the database answers again.
   */
  const unfinished = new Set<string>();
  /**
   * Rows released that way once: a row whose job fails again is left to its lease's expiry, so a job that fails for
   * another reason than the database (a bug in storing its end) is not run again at once, again and again.
   */
  const releasedOnce = new Set<string>();
  /** Claims failed in a row (the database away): the loop tries again sooner than its poll, backing off. */
  let claimFailures = 0;
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  /** Wakes the accountant packages' loop (below) when it sleeps. */
  let wakePackages: (() => void) | null = null;
  let pendingWake = true;
  let idleWaiters: Array<() => void> = [];

  const wake = () => {
    pendingWake = true;
    wakeUp?.();
    wakePackages?.();
  };
  const stopListening = await onWork(wake);

  // The start-up step of encryption at rest: Shopify tokens an earlier version stored in clear are sealed now.
  try {
    const sealed = await sealPlainTokens(prisma);
    if (sealed.rewritten) logger.info({ sealed: sealed.rewritten }, "Shopify tokens stored in clear were encrypted");
  } catch (error) {
    logger.warn(
      { err: error },
      "could not encrypt the Shopify tokens stored in clear; `npm run secrets:reencrypt` does it",
    );
  }

  // Claiming costs a few queries whatever the batch, so with jobs running it waits until a quarter of
  // the slots are free instead of claiming one row per finished job.
  const batch = Math.max(1, Math.floor(concurrency / 4));

  async function fill(): Promise<number> {
    const free = concurrency - inFlight.size;
    if (free <= 0 || (inFlight.size > 0 && free < batch)) return 0;
    const claimed = await claimDueRows({ workerId: id, now: now(), limit: free, perShopLimit, leaseMs });
    for (const claim of claimed) {
      rowsInFlight.add(claim.id);
      track(
        processClaimedRow(claim, deps)
          .catch((error: unknown) => {
            // Most likely the database went away before the job's end was stored: the row is still ours.
            const release = !releasedOnce.has(claim.id);
            if (release) {
              if (releasedOnce.size >= 10_000) releasedOnce.clear();
              releasedOnce.add(claim.id);
              unfinished.add(claim.id);
            }
            logger.error(
              { err: error, invoice: claim.id },
              release
                ? "worker job crashed; its row is released once the database answers"
                : "worker job crashed again; its row waits for its lease to expire",
            );
          })
          .finally(() => rowsInFlight.delete(claim.id)),
      );
    }
    // Writing orders back to Shopify shares the slots, after the invoices (which the merchant waits for).
    const writeBacks = await claimDueWriteBacks({
      workerId: id,
      now: now(),
      limit: concurrency - inFlight.size,
      leaseMs: writeBackLeaseMs,
    });
    for (const claim of writeBacks) {
      track(
        processWriteBack(claim, writeBackDeps).catch((error: unknown) =>
          logger.error({ err: error, invoice: claim.invoiceId }, "write-back job crashed"),
        ),
      );
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

  /** Frees the rows of jobs that could not store their end; they are due again (their next attempt looks first). */
  async function releaseUnfinished() {
    if (unfinished.size === 0) return;
    const ids = [...unfinished];
    const released = await hot().releaseLeases(id, ids);
    ids.forEach((row) => unfinished.delete(row));
    logger.info({ rows: ids.length, released }, "rows of jobs whose end was not stored are released");
  }

  // The heartbeat: every third of the lease, one statement extends the leases of the rows in flight. After a failure
  // it tries again sooner (250 ms, doubling back up to the interval), so a short outage of the database does not
  // cost a running job its lease; it ends with the worker, and a job's renewals end with the job.
  const heartbeatMs = Math.max(100, Math.floor(leaseMs / 3));
  let heartbeatFailures = 0;
  let heartbeat: NodeJS.Timeout | null = null;
  let beating = true;
  const beat = async () => {
    const ids = [...rowsInFlight];
    if (ids.length > 0) {
      try {
        // A row not renewed has just been finished (its lease released) or was taken over after its lease ran out;
        // its job's end, conditional on the lease, tells which.
        await hot().renewLeases(id, ids, new Date(now().getTime() + leaseMs));
        if (heartbeatFailures > 0) logger.info({ worker: id }, "lease heartbeat back");
        heartbeatFailures = 0;
      } catch (error) {
        if (heartbeatFailures++ === 0)
          logger.warn({ err: error }, "renewing the leases of the jobs in flight failed; trying again sooner");
      }
    }
    if (!beating) return;
    heartbeat = setTimeout(
      beat,
      heartbeatFailures === 0 ? heartbeatMs : Math.min(heartbeatMs, 250 * 2 ** (heartbeatFailures - 1)),
    );
  };
  heartbeat = setTimeout(beat, heartbeatMs);

  /** The earliest due row, invoice or write-back: one prepared read. */
  const nextDue = () => hot().nextDue();

  async function sleepUntilNeeded() {
    if (pendingWake) return;
    // With jobs in flight, each one wakes the loop when it ends. Otherwise sleep until the next row is
    // due; rows due already but not claimable are held by other workers' leases or per-shop limits.
    let ms = pollMs;
    if (claimFailures > 0 || unfinished.size > 0) {
      // The database did not answer: look again soon (100 ms doubling to 2 s), not after a whole poll.
      ms = Math.min(pollMs, 2_000, 100 * 2 ** Math.min(claimFailures, 5));
    } else if (inFlight.size === 0) {
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

  // Housekeeping waits for the first claim (rows due at start-up go first), then runs at most every HOUSEKEEPING_MS.
  let lastHousekeeping = 0;
  let firstClaimDone!: () => void;
  const firstClaim = new Promise<void>((resolve) => (firstClaimDone = resolve));
  const housekeeping = async () => {
    const [{ pruneWebhookDeliveries }, { pruneAbandonedRuns }, { scheduleDeadlineCalls }, { sweepOrphanDirs }] =
      await Promise.all([
        import("../webhooks/deliveries.server"),
        import("../past-orders/runs.server"),
        import("../write-back/deadline-reminders.server"),
        import("../accountant/packages.server"),
      ]);
    await pruneWebhookDeliveries(now()).catch((error: unknown) =>
      logger.warn({ err: error }, "pruning webhook deliveries failed"),
    );
    await pruneAbandonedRuns(now()).catch((error: unknown) =>
      logger.warn({ err: error }, "pruning abandoned past-order runs failed"),
    );
    // The real clock, not `now`: a directory's age is the file system's.
    if (options.accountant !== false)
      await sweepOrphanDirs(new Date()).catch((error: unknown) =>
        logger.warn({ err: error }, "sweeping accountant package directories failed"),
      );
    await import("../http/throttle.server")
      .then(({ pruneThrottleBuckets }) => pruneThrottleBuckets(now().getTime()))
      .catch((error: unknown) => logger.warn({ err: error }, "pruning throttle buckets failed"));
    // shop/redact requests that have come due: uninstalled for 48 hours and not back (app/privacy/compliance.server.ts).
    await import("../privacy/compliance.server")
      .then(({ redactDueShops }) => redactDueShops(now()))
      .catch((error: unknown) => logger.warn({ err: error }, "erasing shops due for shop/redact failed"));
    // Hourly: a Flow reminder comes at most an hour after its threshold (48 h, 24 h before the deadline).
    if (options.deadlineReminders ?? true)
      await scheduleDeadlineCalls(now()).catch((error: unknown) =>
        logger.warn({ err: error }, "scheduling deadline reminders failed"),
      );
  };
  const loop = (async () => {
    let first = true;
    while (!stopped) {
      pendingWake = false;
      if (!first && now().getTime() - lastHousekeeping >= HOUSEKEEPING_MS) {
        lastHousekeeping = now().getTime();
        await housekeeping().catch((error: unknown) => logger.warn({ err: error }, "housekeeping failed"));
      }
      let claimed = 0;
      try {
        await releaseUnfinished();
        claimed = await fill();
        if (claimFailures > 0) logger.info({ worker: id, failures: claimFailures }, "claiming works again");
        claimFailures = 0;
      } catch (error) {
        // Logged once per outage: the loop tries again every few seconds at most while the database is away.
        if (claimFailures++ === 0) logger.error({ err: error }, "claiming due invoices failed");
      }
      if (first) {
        first = false;
        // bench/worker-startup.bench.ts times a new worker to this line.
        logger.debug({ worker: id, claimed }, "first claim done");
        firstClaimDone();
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
    firstClaimDone(); // stopped before its first claim: the scheduler and the accounts check must not wait on it
  })();

  // Reconciliation and past-orders runs: their own loop, so reading Shopify never delays claiming rows. It looks
  // for work every second (a new run starts within a second) and goes on at once while a run has pages left.
  let wakeScheduler: (() => void) | null = null;
  const scheduler = options.orders
    ? (async (orders: NonNullable<WorkerOptions["orders"]>) => {
        await firstClaim;
        if (stopped) return;
        const reconcileEvery = options.reconcileIntervalMs ?? 60 * 60_000;
        const [reader, { reconcileShop, shopsDueForReconciliation }, { advanceRuns }] = await Promise.all([
          typeof orders === "function" ? orders() : orders,
          import("../reconciliation/reconcile.server"),
          import("../past-orders/runs.server"),
        ]);
        let tokenStepAt = 0;
        while (!stopped) {
          let more = false;
          if (options.offlineTokens && now().getTime() - tokenStepAt >= TOKEN_STEP_MS) {
            tokenStepAt = now().getTime();
            await import("../shopify/offline-tokens.server")
              .then(({ cycleOfflineTokens }) => cycleOfflineTokens())
              .catch((error: unknown) => logger.error({ err: error }, "the offline token step failed"));
          }
          try {
            if (reconcileEvery > 0) {
              for (const shop of await shopsDueForReconciliation(now(), reconcileEvery)) {
                if (stopped) break;
                // bulk: a long gap is read with a bulk operation, followed across the scheduler's turns.
                await reconcileShop(shop, { reader, owner: id, now, bulk: true });
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

  // Accountant packages: their own loop (a build reads hundreds of PDFs), so they never hold up invoices or runs.
  const packages =
    options.accountant === false
      ? Promise.resolve()
      : (async (accountant: Omit<Partial<BuildOptions>, "owner" | "now" | "stopping">) => {
          await firstClaim;
          if (stopped) return;
          // The builder is imported with the first package due, not at start: loading exceljs took ~0.3 s, during
          // which no slot of this process moved.
          const { nextDuePackage, expirePackages } = await import("../accountant/packages.server");
          let lastExpiry = 0;
          let lastLook = 0;
          while (!stopped) {
            let built = false;
            try {
              if (now().getTime() - lastExpiry >= PACKAGES_EXPIRY_MS) {
                lastExpiry = now().getTime();
                await expirePackages(now());
              }
              lastLook = Date.now();
              const due = await nextDuePackage(now());
              if (due) {
                const { buildPackage } = await import("../accountant/build.server");
                built = await buildPackage(due, { ...accountant, owner: id, now, stopping: () => stopped });
              }
            } catch (error) {
              logger.error({ err: error }, "accountant package loop failed");
            }
            if (stopped) break;
            if (built) continue;
            await new Promise<void>((resolve) => {
              let timer = setTimeout(resolve, PACKAGES_POLL_MS);
              wakePackages = () => {
                clearTimeout(timer);
                timer = setTimeout(resolve, stopped ? 0 : Math.max(0, lastLook + PACKAGES_WAKE_GAP_MS - Date.now()));
              };
            });
            wakePackages = null;
          }
        })(options.accountant ?? {});

  // Settings stored before the accounts were checked (or changed in the panel since): shown on the home page now,
  // not first at a shop's next post. In the background: it reads the service once per shop.
  if (options.checkAccounts ?? true) {
    const clientFor = options.clientFor;
    void Promise.all([firstClaim, import("../settings/accounts.server"), import("../settings/schema")])
      .then(([, { checkStoredAccounts }, { readMapping }]) =>
        checkStoredAccounts(
          clientFor
            ? (service) =>
                clientFor({
                  ...service,
                  saleChannelId: 0,
                  invoiceIntegrationId: 0,
                  testMode: true,
                  mapping: readMapping(null),
                }) as AccountLister
            : undefined,
        ),
      )
      .then(
        (found) => found > 0 && logger.warn({ shops: found }, "shops whose test and live invoice accounts are swapped"),
      )
      .catch((error: unknown) => logger.warn({ err: error }, "checking the stored invoice accounts failed"));
  }

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
      wakePackages?.();
      await loop;
      await scheduler;
      await packages;
      await Promise.allSettled([...inFlight]);
      // The jobs stopping kept their leases until they ended; nothing is left to renew.
      beating = false;
      if (heartbeat) clearTimeout(heartbeat);
      await stopListening();
      idleWaiters.forEach((resolve) => resolve());
      logger.info({ worker: id }, "invoice worker stopped");
    },
  };
}
