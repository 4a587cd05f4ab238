// `npm run sandbox` (tsx sandbox/cli.ts): the first stdout line is the JSON start line; SIGTERM/SIGINT stop it.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";

function start(args: string[]) {
  // As `npm run sandbox` runs it: the tsx binary, which relays signals to the script.
  const child = spawn("node_modules/.bin/tsx", ["sandbox/cli.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  firstLine.catch(() => undefined); // a start that fails is asserted through `exited`
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, firstLine, exited, stderr: () => stderr };
}

describe("sandbox CLI", () => {
  it("prints one JSON object first, serves the seed account, logs on stderr, and stops on SIGTERM", async () => {
    const { child, firstLine, exited, stderr } = start([
      "--port",
      "0",
      "--formalize-delay-ms",
      "10",
      "--latency-ms",
      "0",
    ]);
    const info = JSON.parse(await firstLine);
    expect(Object.keys(info)).toEqual([
      "url",
      "apiKey",
      "teamId",
      "saleChannelId",
      "invoiceIntegrationId",
      "dummyIntegrationId",
    ]);
    expect(info).toMatchObject({
      apiKey: "sandbox-api-key-team-1",
      teamId: 1,
      saleChannelId: 11,
      invoiceIntegrationId: 21,
      dummyIntegrationId: 22,
    });
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const auth = await fetch(`${info.url}/check/auth`, {
      method: "POST",
      headers: { Accept: "application/json", Authorization: `Bearer ${info.apiKey}` },
    });
    expect(auth.status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr()).toContain("POST /api/check/auth");
  }, 20_000);

  it("stops on SIGINT and rejects a malformed port", async () => {
    const running = start(["--port", "0", "--quiet"]);
    await running.firstLine;
    running.child.kill("SIGINT");
    expect(await running.exited).toBe(0);
    const bad = start(["--port", "nope"]);
    expect(await bad.exited).toBe(2);
  }, 20_000);
});
