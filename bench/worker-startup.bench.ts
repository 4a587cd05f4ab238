// The worker's start-up (issue 26, point 6): time and CPU from spawning `npm run worker`'s script (node --import tsx
// scripts/worker.ts, as the drain bench starts it) on SQLite until its first claim is sent, RUNS times.
//   npx tsx bench/worker-startup.bench.ts [--runs=5]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { migrate } from "../app/db/migrate";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const RUNS = Number(args.get("runs") ?? 5);
const dir = path.resolve("tmp/bench");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, "worker-startup.sqlite");
for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
await migrate(`file:${file}`);

/** CPU time (user + system) of a process so far, in ms (Linux, clock ticks of 10 ms). */
const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const samples: Array<{ ms: number; cpu: number }> = [];
for (let i = 0; i < RUNS; i++) {
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      DATABASE_URL: `file:${file}`,
      SHOPIFY_API_KEY: "bench",
      SHOPIFY_API_SECRET: "bench",
      SHOPIFY_APP_URL: "http://127.0.0.1:9",
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LOG_LEVEL: "debug",
      RECONCILE_INTERVAL_MINUTES: "0",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  // "invoice worker started" is logged once the loop has sent its first claim.
  await new Promise<void>((resolve) =>
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("invoice worker started")) resolve();
    }),
  );
  samples.push({ ms: Date.now() - started, cpu: cpuMsOf(child.pid!) });
  await new Promise((resolve) => child.once("exit", resolve).kill("SIGTERM"));
}
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
console.log(
  `worker start-up, ${RUNS} runs: wall ${samples.map((s) => s.ms).join(", ")} ms (median ${median(samples.map((s) => s.ms))}); CPU ${samples.map((s) => s.cpu).join(", ")} ms (median ${median(samples.map((s) => s.cpu))}); load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ")}`,
);
process.exit(0);
