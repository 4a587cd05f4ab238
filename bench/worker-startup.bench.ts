// The worker's start-up (issue 26 point 6, issue 38 point 3): time and CPU from spawning a worker process on SQLite
// until its first claim has returned ("first claim done" in its log), RUNS times for each way of starting it:
//   source    node --import tsx scripts/worker.ts (transpiled at start; the baseline, as the tests start it)
//   compiled  `npm run worker`'s command: node --conditions=compiled build/worker/worker-entry.js, with V8's compile
//             cache in a fresh directory per run (the first worker started on a new machine)
//   cached    the same with the compile cache a worker before it left (every later worker on that machine)
// The ways take turns run by run, so a change of the machine's load touches them alike.
//   npm run build && npx tsx bench/worker-startup.bench.ts [--runs=7]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { migrate } from "../app/db/migrate";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const RUNS = Number(args.get("runs") ?? 7);
if (!existsSync("build/worker/worker-entry.js")) throw new Error("no compiled worker: run npm run build first");
const dir = path.resolve("tmp/bench");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, "worker-startup.sqlite");
for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
await migrate(`file:${file}`);

const WAYS = {
  source: { argv: ["--import", "tsx", "scripts/worker.ts"], cache: null },
  compiled: { argv: ["--conditions=compiled", "build/worker/worker-entry.js"], cache: "fresh" },
  cached: { argv: ["--conditions=compiled", "build/worker/worker-entry.js"], cache: "kept" },
} as const;
type Way = keyof typeof WAYS;
const keptCache = path.join(dir, "compile-cache-kept");
const freshCache = path.join(dir, "compile-cache-fresh");
rmSync(keptCache, { recursive: true, force: true });

/** CPU time (user + system) of a process so far, in ms (Linux, clock ticks of 10 ms). */
const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

async function startOnce(way: Way): Promise<{ ms: number; cpu: number }> {
  const { argv, cache } = WAYS[way];
  if (cache === "fresh") rmSync(freshCache, { recursive: true, force: true });
  const started = Date.now();
  const child = spawn(process.execPath, argv, {
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
      ...(cache ? { NODE_COMPILE_CACHE: cache === "kept" ? keptCache : freshCache } : {}),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${way}: the worker exited (${code}) before its first claim`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("first claim done")) resolve();
    });
  });
  const sample = { ms: Date.now() - started, cpu: cpuMsOf(child.pid!) };
  child.removeAllListeners("exit");
  await new Promise((resolve) => child.once("exit", resolve).kill("SIGTERM"));
  return sample;
}

// The kept cache is written by one start before the runs, as by an earlier worker.
await startOnce("cached");
const samples = new Map<Way, Array<{ ms: number; cpu: number }>>(Object.keys(WAYS).map((way) => [way as Way, []]));
const loadBefore = loadavg()[0];
for (let i = 0; i < RUNS; i++)
  for (const way of Object.keys(WAYS) as Way[]) samples.get(way)!.push(await startOnce(way));
const loadAfter = loadavg()[0];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const base = median(samples.get("source")!.map((s) => s.ms));
console.log(
  `worker start-up to its first claim, ${RUNS} runs each; load ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)}`,
);
for (const [way, list] of samples) {
  const wall = median(list.map((s) => s.ms));
  console.log(
    `  ${way.padEnd(9)} wall median ${wall} ms (${(wall / base).toFixed(2)}x source) [${list.map((s) => s.ms).join(", ")}]; CPU median ${median(list.map((s) => s.cpu))} ms`,
  );
}
process.exit(0);
