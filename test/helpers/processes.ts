// Stopping a child process in a test teardown: SIGTERM for a clean stop, SIGKILL if it has not exited
// in time, so a stuck child can never hang the suite.
import type { ChildProcess } from "node:child_process";

export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
