// `npm run demo` stops everything it started on SIGTERM or SIGINT (scripts/demo.ts): the app's process, the
// invoicing sandbox and the Admin API stand-in stop answering and no process of the demo is left, whether the
// signal comes while it serves or while it is still starting. The signal goes to npm alone, as `kill PID` or a
// supervisor sends it.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
let demo: { child: ChildProcess; output: () => string; exited: Promise<void> } | undefined;

function startDemo() {
  let output = "";
  // Its own process group, so the test can tell when every process of the demo is gone.
  const child = spawn("npm", ["run", "demo"], {
    cwd: root,
    detached: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  demo = { child, output: () => output, exited };
  return demo;
}

async function waitForOutput(pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = demo!.output().match(pattern);
    if (match) return match;
    if (demo!.child.exitCode !== null) throw new Error(`the demo exited (${demo!.child.exitCode}):\n${demo!.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether any process of the demo's process group is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

afterEach(() => {
  if (demo && groupAlive(demo.child.pid!)) process.kill(-demo.child.pid!, "SIGKILL");
  demo = undefined;
});

describe("npm run demo", () => {
  it("stops the app, the sandbox and the stand-in on SIGTERM while it serves", async () => {
    const { child, exited } = startDemo();
    const [, sandbox, app] = await waitForOutput(/Sandbox (\S+) · app (\S+) ·/);
    const [, standin] = await waitForOutput(/Admin API stand-in (http:\/\/[\d.:]+)\)/);
    await waitForOutput(/Ctrl\+C stops the demo/);
    const addresses = [`${app}/healthz`, `${sandbox.replace(/\/api$/, "")}/`, `${standin}/`];
    for (const address of addresses) expect(await answers(address), address).toBe(true);

    process.kill(child.pid!, "SIGTERM");
    await exited;
    await expect.poll(() => groupAlive(child.pid!)).toBe(false);
    for (const address of addresses) expect(await answers(address), address).toBe(false);
  }, 240_000);

  it("stops what it has started on SIGINT while it is still starting", async () => {
    const { child, exited } = startDemo();
    await waitForOutput(/Starting the invoicing sandbox/);
    process.kill(child.pid!, "SIGINT");
    await exited;
    await expect.poll(() => groupAlive(child.pid!)).toBe(false);
    expect(demo!.output()).not.toContain("Ctrl+C stops the demo");
  }, 240_000);
});
