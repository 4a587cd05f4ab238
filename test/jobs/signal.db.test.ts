// A worker in another process is woken by the enqueue itself (NOTIFY on PostgreSQL), not by its poll:
// its poll interval is ten minutes, so within this test only the wake-up can make it post.
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { startWorkerProcess } from "../helpers/app-processes";
import { stopProcess } from "../helpers/processes";
import { connectShop, withTestPipeline, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";

const postgres = process.env.TEST_DB === "postgresql";
const pipeline = withTestPipeline();
let worker: ChildProcess | undefined;

// Runs before the pipeline's own afterAll (hooks registered later run first).
afterAll(async () => {
  if (worker && worker.exitCode === null) await stopProcess(worker);
});

describe.runIf(postgres)("waking a worker process on PostgreSQL", () => {
  it("posts an order queued by another process without waiting for the poll", async () => {
    await connectShop(pipeline.sandbox);
    // `npm run worker`: the compiled worker. Wait until it is listening (its start-up line), then let its first idle
    // poll pass.
    const started = startWorkerProcess({ SHOPIFY_APP_URL: pipeline.appUrl, WORKER_POLL_MS: "600000" });
    worker = started.child;
    await started.started;
    await new Promise((resolve) => setTimeout(resolve, 500));
    await pipeline.deliverPaid(paidOrder());
    const [row] = await waitForInvoices((rows) => rows[0]?.remoteId != null, 15_000);
    expect(pipeline.sandbox.invoices.get(row.remoteId!)).toBeDefined();
  }, 40_000);
});
