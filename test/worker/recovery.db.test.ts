// Recovery after a crash (issue 26, point 7). Leases are short and renewed while a job runs (the heartbeat), and a
// worker whose database went away mid-job releases its own leased rows once it answers again, so a shop's share is
// not held by leases nobody works under. Exactly one invoice per order throughout: a re-run starts with the lookup.
import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { hot } from "../../app/db.server";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { startWorkerProcess } from "../helpers/app-processes";
import { stopProcess } from "../helpers/processes";
import { pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";
import { startTcpProxy, throughProxy, type TcpProxy } from "../helpers/tcp-proxy";

const pipeline = pipelineForEachTest();
const children: ChildProcess[] = [];
let proxy: TcpProxy | undefined;

// A test's worker processes end with it: one left running would share the next test's database and take its rows.
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => stopProcess(child)));
});
afterAll(async () => {
  await proxy?.close();
});

const atService = (orderId: string) => pipeline.sandbox.invoices.byOrderId(orderId);

describe("the lease heartbeat", () => {
  it("a job that outlasts its lease keeps its row: no other worker takes it over while it runs", async () => {
    // The service keeps the create's answer for two and a half leases; the invoice exists meanwhile, so a worker
    // taking the row over would find it by lookup and store it as "settled". The lease is 6 s, renewed every 2 s: with
    // 2 s, a renewal came late at the suite's load of 9-11 on 2 cores (this process's timers 2-3.5 s late, 1 run in 4).
    pipeline.sandbox.faults.delayNext(1, 15_000, { method: "POST", path: "/api/invoices" });
    const patient = (connection: { baseUrl: string; apiKey: string }) =>
      new InvoicingClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, timeoutMs: 30_000 });
    await pipeline.startWorker({ leaseMs: 6_000, clientFor: patient });
    await pipeline.startWorker({ leaseMs: 6_000, clientFor: patient });
    const order = paidOrder();
    await pipeline.deliverPaid(order);
    const [row] = await waitForInvoices((rows) => rows[0]?.remoteId != null && !rows[0].leaseOwner, 45_000);
    const events = (await prisma.invoiceEvent.findMany({ where: { invoiceId: row.id } })).map((event) => event.type);
    expect(events).toContain("posted");
    expect(events).not.toContain("settled");
    expect(row.attempts).toBe(1);
    expect(atService(String(order.id))).toHaveLength(1);
  }, 60_000);
});

const postgres = (process.env.DATABASE_URL ?? "").startsWith("postgres");

/** The compiled worker with one slot of the shop's two, polling every 100 ms; resolves once it started. */
async function startChildWorker(env: Record<string, string>) {
  const worker = startWorkerProcess({
    SHOPIFY_APP_URL: pipeline.appUrl,
    WORKER_CONCURRENCY: "1",
    WORKER_PER_SHOP: "2",
    WORKER_POLL_MS: "100",
    ...env,
  });
  children.push(worker.child);
  await worker.started;
  return worker;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!postgres)("a worker killed while the database goes away for the other (PostgreSQL)", () => {
  it("invoicing resumes without waiting out leases, and every order has exactly one invoice", async () => {
    const url = new URL(process.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    // Each request to the service takes a while, so both workers have jobs in flight when it happens.
    pipeline.sandbox.faults.setLatency(700);
    const killed = await startChildWorker({});
    // The survivor's own leases are long: only releasing its rows once the database is back can free them in time.
    const survivor = await startChildWorker({
      DATABASE_URL: throughProxy(process.env.DATABASE_URL!, proxy),
      WORKER_LEASE_MS: "300000",
    });
    const orders = Array.from({ length: 12 }, () => paidOrder());
    for (const order of orders) expect((await pipeline.deliverPaid(order)).status).toBe(200);

    // Both hold one of the shop's two slots (one slot each) with a post in flight.
    const holds = async (child: ChildProcess) =>
      (await prisma.invoice.count({
        where: { state: "sending", attempts: { gt: 0 }, leaseOwner: { startsWith: `worker-${child.pid}-` } },
      })) > 0;
    await until(
      async () => (await holds(killed.child)) && (await holds(survivor.child)),
      "both workers posting",
      60_000,
    ).catch(async (error) => {
      console.log(
        JSON.stringify(
          await prisma.invoice.findMany({ select: { state: true, attempts: true, leaseOwner: true, remoteId: true } }),
        ),
        killed.log.slice(-5),
        survivor.log.slice(-5),
      );
      throw error;
    });
    killed.child.kill("SIGKILL");
    proxy.cut();
    // The survivor's job comes back from the service and cannot store its end.
    await until(
      () => survivor.log.some((line) => line.includes("worker job crashed")),
      "the survivor's job to fail",
      30_000,
    );
    const back = Date.now();
    proxy.restore();

    const done = await waitForInvoices(
      (rows) => rows.length === orders.length && rows.every((r) => r.remoteId !== null && !r.leaseOwner),
      45_000,
    );
    for (const order of orders) {
      const invoices = atService(String(order.id));
      expect(invoices).toHaveLength(1);
      expect(done.find((row) => row.orderId === String(order.id))!.remoteId).toBe(invoices[0].id);
    }
    expect(survivor.log.some((line) => line.includes("rows of jobs whose end was not stored are released"))).toBe(true);
    // Reported, not asserted (no timed assertions): how long the shop stood still after the database came back.
    const first = await prisma.invoiceEvent.findFirst({
      where: { at: { gte: new Date(back) }, type: { in: ["posted", "settled"] } },
      orderBy: { at: "asc" },
    });
    console.log(
      `recovery: first post or settle ${first ? first.at.getTime() - back : "none"} ms after the database came back`,
    );
  }, 150_000);
});

describe("a job whose end cannot be stored", () => {
  it("is released and run again once, then left to its lease, so a failure that is not the database does not loop at once", async () => {
    const finish = vi.spyOn(hot(), "finishJob").mockRejectedValue(new Error("storing the end fails"));
    try {
      const worker = await pipeline.startWorker({ leaseMs: 60_000 });
      await pipeline.deliverPaid(paidOrder());
      await until(() => finish.mock.calls.length >= 2, "the second failed end", 20_000);
      await worker.idle();
      expect(finish).toHaveBeenCalledTimes(2);
      const [row] = await prisma.invoice.findMany();
      expect(row.leaseOwner).toBe(worker.id);
    } finally {
      finish.mockRestore();
    }
  }, 40_000);
});
