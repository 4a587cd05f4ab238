// npm run worker: the invoice worker as its own process (set WORKER_MODE=off on the web processes).
// Any number may run against one PostgreSQL database; rows are claimed with FOR UPDATE SKIP LOCKED.
import { env, workerSettings } from "../app/env.server";
import { logger } from "../app/logger.server";
import { startWorker } from "../app/worker/worker.server";

const config = env();
// With the Admin API: reconciliation every RECONCILE_INTERVAL_MINUTES and past-orders runs.
const worker = await startWorker({
  appUrl: config.SHOPIFY_APP_URL,
  ...workerSettings(config),
  orders: async () => (await import("../app/shopify/order-readers.server")).shopifyOrders,
  offlineTokens: true,
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    logger.info({ signal }, "stopping the worker: finishing the jobs in flight");
    // A job stuck past this is abandoned: its lease expires and another worker takes the row.
    const forced = setTimeout(() => {
      logger.warn("jobs still in flight after 20 s; exiting, their leases will expire");
      process.exit(1);
    }, 20_000);
    await worker.stop();
    clearTimeout(forced);
    process.exit(0);
  });
}
