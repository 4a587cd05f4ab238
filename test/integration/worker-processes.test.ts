// Two worker processes (`npm run worker`'s script, as in production) against one database never post the
// same row: every order ends with exactly one invoice and one create request.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectShop, startTestPipeline, waitForInvoices, type TestPipeline } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";

let pipeline: TestPipeline;
const children: ChildProcess[] = [];

beforeAll(async () => {
  pipeline = await startTestPipeline({ formalizeDelayMs: 20 });
});
afterAll(async () => {
  await Promise.all(
    children.map((child) => (child.exitCode !== null ? null : new Promise((resolve) => child.once("exit", resolve).kill("SIGTERM")))),
  );
  await pipeline.stop();
});

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: {
      ...process.env,
      SHOPIFY_APP_URL: pipeline.appUrl,
      WORKER_CONCURRENCY: "4",
      WORKER_PER_SHOP: "4",
      WORKER_POLL_MS: "100",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  return child;
}

describe("two worker processes", () => {
  it("never post the same row", async () => {
    await connectShop(pipeline.sandbox);
    // Each create answers slowly, so both processes are busy at the same time.
    pipeline.sandbox.faults.setLatency(40);
    const orders = Array.from({ length: 30 }, () => paidOrder());
    for (const order of orders) expect((await pipeline.deliverPaid(order)).status).toBe(200);
    startWorkerProcess();
    startWorkerProcess();
    await waitForInvoices((rows) => rows.length === orders.length && rows.every((r) => r.remoteId !== null), 60_000);
    for (const order of orders) expect(pipeline.sandbox.invoices.byOrderId(String(order.id))).toHaveLength(1);
    expect(pipeline.posts()).toBe(orders.length);
    const posted = await prisma.invoiceEvent.findMany({ where: { type: "posted" } });
    expect(posted).toHaveLength(orders.length);
    const workers = new Set(posted.map((event) => (event.data as { worker: string }).worker.split("-").slice(0, 2).join("-")));
    expect(workers.size).toBe(2); // both processes did part of the work
  }, 90_000);
});
