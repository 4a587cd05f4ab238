// The app's own processes in a test, as production starts them: the compiled web server on the production build
// (`npm start`: SERVER_ENTRY) and the compiled worker (`npm run worker`: WORKER_ENTRY), each
// detached with only the environment it is given, its output kept as log lines ("name line"), and every one of them
// killed at the end. Used by the process tests: test/shopify/token-load.db.test.ts, test/worker/machines.db.test.ts.
// startWorkerProcess: one compiled worker with the test's own environment (its database), for the tests of workers
// in other processes (test/worker/processes.db.test.ts, test/worker/recovery.db.test.ts, test/jobs/signal.db.test.ts).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ensureBuild, fakedClockEnv, SERVER_ENTRY, WORKER_ENTRY } from "../../scripts/lib/local-stack";

const root = path.resolve(__dirname, "../..");

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When it exited (Date.now()). */
  at: number;
}

export interface AppProcess {
  name: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class AppProcesses {
  /** Every process's output, one line each, prefixed with its name. */
  readonly logs: string[] = [];
  private readonly started: AppProcess[] = [];

  /** Starts `node args…` (this Node) with PATH, HOME and `env` only; `cwd` defaults to the repository. */
  spawn(args: string[], env: Record<string, string>, name: string, cwd = root): AppProcess {
    const child = spawn(process.execPath, args, {
      cwd,
      detached: true,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...fakedClockEnv(),
        ...env,
      } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout!, child.stderr!])
      stream.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString().split("\n").filter(Boolean)) this.logs.push(`${name} ${line}`);
      });
    const exited = new Promise<Exit>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
    const started = { name, child, exited };
    this.started.push(started);
    return started;
  }

  /** The production web server, as `npm start` runs it (WORKER_MODE and PORT come with `env`; ensureBuild() first). */
  web(env: Record<string, string>, name: string, cwd = root): AppProcess {
    return this.spawn([SERVER_ENTRY[0], path.join(root, SERVER_ENTRY[1])], env, name, cwd);
  }

  /** The compiled worker, as `npm run worker` runs it (ensureBuild() first). */
  worker(env: Record<string, string>, name: string, cwd = root): AppProcess {
    return this.spawn([WORKER_ENTRY[0], path.join(root, WORKER_ENTRY[1])], env, name, cwd);
  }

  /** The last lines of the output, for a failure's message. */
  tail(lines = 40): string {
    return this.logs.slice(-lines).join("\n");
  }

  /** Waits until a line of `name`'s output contains `text` (its log lines are JSON: a message is `"msg":"…"`). */
  async logged(name: string, text: string, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.logs.find((l) => l.startsWith(`${name} `) && l.includes(text));
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`${name} never logged ${text}:\n${this.tail()}`);
      await sleep(50);
    }
  }

  /** Waits until `url`/healthz answers 200. */
  async healthy(url: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (
        await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await sleep(100);
    }
    throw new Error(`${url} did not start:\n${this.tail()}`);
  }

  /** SIGKILL to every process still running (and its children): a test's teardown. */
  killAll(): void {
    for (const { child } of this.started) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
}

/**
 * `npm run worker` (the compiled worker, built first when missing) with this process's environment and `env`, logging
 * at info. `started` resolves once it logs that it started, and rejects if it exits before; its output lines are kept
 * in `log`. The child is returned at once so the caller can register it for its teardown before waiting (stopProcess,
 * test/helpers/processes.ts).
 */
export function startWorkerProcess(env: Record<string, string> = {}): {
  child: ChildProcess;
  log: string[];
  started: Promise<void>;
} {
  ensureBuild();
  const child = spawn(process.execPath, [...WORKER_ENTRY], {
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const log: string[] = [];
  let rest = "";
  const started = new Promise<void>((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`the worker exited (${code}) before it started`));
    child.once("exit", exited);
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split("\n");
      rest = lines.pop() ?? "";
      log.push(...lines);
      if (lines.some((line) => line.includes("invoice worker started"))) {
        child.off("exit", exited);
        resolve();
      }
    });
  });
  return { child, log, started };
}
