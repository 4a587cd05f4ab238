// Throttles every process shares (issue 35, point 12; decision 0045): on PostgreSQL a bucket is one row, spent under
// its lock, so two web processes behind a load balancer get one limit, not one each. On SQLite (one process) the
// same rule holds within the process.
import { spawn } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import prisma from "../../app/db.server";
import { bucketStep, SharedThrottle } from "../../app/http/throttle.server";

function child(name: string, key: string, times: number) {
  const process_ = spawn(
    process.execPath,
    ["--import", "tsx", "test/helpers/throttle-child.ts", name, key, String(times)],
    {
      env: process.env,
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  let out = "";
  const ready = new Promise<void>((resolve) =>
    process_.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready\n")) resolve();
    }),
  );
  const done = new Promise<number>((resolve, reject) => {
    process_.on("error", reject);
    process_.on("exit", () => resolve(Number(out.split("\n")[1])));
  });
  return { ready, done, go: () => process_.stdin.write("go\n") };
}

describe("a shared throttle", () => {
  it.runIf(process.env.TEST_DB === "postgresql")(
    "allows its capacity once over two processes taking from it at the same moment",
    async () => {
      const key = `shop-${Date.now()}.myshopify.com`;
      const [a, b] = [child("two-processes", key, 8), child("two-processes", key, 8)];
      await Promise.all([a.ready, b.ready]);
      a.go();
      b.go();
      const allowed = await Promise.all([a.done, b.done]);
      expect(allowed[0] + allowed[1]).toBe(5);
      // And this process, a third one, finds the bucket spent.
      expect((await new SharedThrottle("two-processes", { capacity: 5, refillMs: 60_000 }).take(key)).allowed).toBe(
        false,
      );
    },
    60_000,
  );

  it.runIf(process.env.TEST_DB === "postgresql")(
    "refuses (429's verdict) instead of failing when the database cannot give it a transaction in time",
    async () => {
      const throttle = new SharedThrottle(`overloaded-${Date.now()}`, { capacity: 5, refillMs: 1_000 });
      const saturated = Object.assign(
        new Error("Transaction API error: Unable to start a transaction in the given time."),
        {
          code: "P2028",
        },
      );
      const spy = vi.spyOn(prisma, "$transaction").mockRejectedValueOnce(saturated);
      try {
        expect(await throttle.take("shop")).toEqual({ allowed: false, retryAfterMs: 1_000, firstRefusal: false });
        // Any other failure is not an overload: it still fails the request.
        spy.mockRejectedValueOnce(Object.assign(new Error("connection refused"), { code: "P1001" }));
        await expect(throttle.take("shop")).rejects.toThrow("connection refused");
        // And the bucket itself was never spent by either.
        expect((await throttle.take("shop")).allowed).toBe(true);
      } finally {
        spy.mockRestore();
      }
    },
  );

  it("allows its capacity once to callers of one process at once, then refills at its rate", async () => {
    const throttle = new SharedThrottle(`one-process-${Date.now()}`, { capacity: 5, refillMs: 1_000 });
    const at = 1_800_000_000_000;
    const verdicts = await Promise.all(Array.from({ length: 12 }, () => throttle.take("shop", at)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
    expect((await throttle.take("shop", at + 999)).allowed).toBe(false);
    expect((await throttle.take("shop", at + 2_000)).allowed).toBe(true);
    expect((await throttle.take("other", at)).allowed).toBe(true);
  });

  it("is the same bucket arithmetic as the in-memory throttle", () => {
    const rule = { capacity: 2, refillMs: 1_000 };
    let bucket = bucketStep(undefined, rule, 0, true).bucket;
    bucket = bucketStep(bucket, rule, 0, true).bucket;
    const refused = bucketStep(bucket, rule, 500, true);
    expect(refused.verdict).toEqual({ allowed: false, retryAfterMs: 500, firstRefusal: true });
    expect(bucketStep(refused.bucket, rule, 1_000, true).verdict).toEqual({
      allowed: true,
      quiet: false,
      refusedBefore: 1,
    });
  });
});
