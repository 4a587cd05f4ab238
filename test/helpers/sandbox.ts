// One invoicing sandbox for a test file: started before its tests, stopped after them. No database here (the
// contract tests use it); the per-test shop set-up against the sandbox is `sandboxForEachTest` in ./pipeline.
import { afterAll, beforeAll } from "vitest";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../sandbox/server";
import { startedLater } from "./started-later";

export interface TestSandbox extends Sandbox {
  /** Every request line the sandbox saw, e.g. "POST /api/invoices → 201 (3 ms)" (a test empties it to count its own). */
  requests: string[];
}

/** Registers the file's (or describe block's) beforeAll and afterAll; `port` defaults to 0 (a free port). */
export function withSandbox(options: SandboxOptions = {}): TestSandbox {
  const requests: string[] = [];
  let current: Sandbox | undefined;
  beforeAll(async () => {
    current = await startSandbox({
      port: 0,
      ...options,
      log: (line) => {
        requests.push(line);
        options.log?.(line);
      },
    });
  });
  afterAll(async () => {
    await current?.stop();
  });
  return startedLater<TestSandbox>("the sandbox", () => current as TestSandbox | undefined, { requests });
}
