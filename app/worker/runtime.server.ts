// Starts the invoice worker inside the web server process (WORKER_MODE=inprocess, the default), once.
import { env, workerSettings } from "../env.server";
import { logger } from "../logger.server";
import { startWorker, type Worker } from "./worker.server";
import { shopifyOrders } from "../shopify/order-readers.server";

declare global {
  var __inProcessWorker: Promise<Worker> | undefined;
}

export function ensureInProcessWorker(): void {
  const config = env();
  if (config.WORKER_MODE !== "inprocess" || config.NODE_ENV === "test" || global.__inProcessWorker) return;
  global.__inProcessWorker = startWorker({
    appUrl: config.SHOPIFY_APP_URL,
    ...workerSettings(config),
    orders: shopifyOrders,
    offlineTokens: true,
  });
  global.__inProcessWorker.catch((error: unknown) => {
    logger.error({ err: error }, "the in-process worker could not start");
    global.__inProcessWorker = undefined;
  });
}

export function workerStatus(): "inprocess" | "external" {
  return global.__inProcessWorker ? "inprocess" : "external";
}
