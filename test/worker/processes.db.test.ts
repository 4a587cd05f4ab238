// Two worker processes (`npm run worker`'s compiled build, as in production) against one database never post the
// same row: every order ends with exactly one invoice and one create request.
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { startWorkerProcess } from "../helpers/app-processes";
import { stopProcess } from "../helpers/processes";
import { connectShop, withTestPipeline, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";

const pipeline = withTestPipeline();
const children: ChildProcess[] = [];

// Runs before the pipeline's own afterAll (hooks registered later run first).
afterAll(async () => {
  await Promise.all(children.map((child) => (child.exitCode !== null ? null : stopProcess(child))));
});

/**
 * Starts a worker process and resolves once it is running (its start-up log line). Both the same build: a worker
 * from source spends its first seconds transpiling what it imports after its first claim, and the other then took
 * every order.
 */
async function startChildWorker(): Promise<void> {
  const worker = startWorkerProcess({
    SHOPIFY_APP_URL: pipeline.appUrl,
    WORKER_CONCURRENCY: "4",
    // One shop here: its fairness cap (shared by all workers) must not serialise the two processes.
    WORKER_PER_SHOP: "30",
    WORKER_POLL_MS: "100",
  });
  children.push(worker.child);
  await worker.started;
}

describe("two worker processes", () => {
  it("never post the same row", async () => {
    await connectShop(pipeline.sandbox);
    // Each create answers slowly, so both processes are busy at the same time: one process alone needs 2 s for the
    // burst (30 creates, 4 at once), time enough for the other's next claim (every 100 ms) on a loaded machine too;
    // with 40 ms one process once took the whole burst while the other waited for the CPU (load 4).
    pipeline.sandbox.faults.setLatency(250);
    // Both workers run before any order arrives, so neither gets a head start.
    await Promise.all([startChildWorker(), startChildWorker()]);
    const orders = Array.from({ length: 30 }, () => paidOrder());
    // One burst, so both processes find a backlog to claim from.
    const responses = await Promise.all(orders.map((order) => pipeline.deliverPaid(order)));
    expect(responses.map((r) => r.status)).toEqual(orders.map(() => 200));
    await waitForInvoices((rows) => rows.length === orders.length && rows.every((r) => r.remoteId !== null), 60_000);
    for (const order of orders) expect(pipeline.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(1);
    expect(pipeline.posts()).toBe(orders.length);
    const posted = await prisma.invoiceEvent.findMany({ where: { type: "posted" } });
    expect(posted).toHaveLength(orders.length);
    const workers = new Set(
      posted.map((event) => (event.data as { worker: string }).worker.split("-").slice(0, 2).join("-")),
    );
    expect(workers.size).toBe(2); // both processes did part of the work
  }, 90_000);
});
