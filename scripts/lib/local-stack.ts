// The whole app on this machine, with no network: the invoicing sandbox, the production build of the app
// (SQLite, in-process worker) served with the local admin (scripts/local-server.ts) on a free port, and a demo
// shop installed. Used by `npm run demo`, the end-to-end and browser tests, and the benchmarks.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { migrate } from "../../app/db/migrate";
import { webhookHeaders } from "./shopify-signing";

export interface LocalStackOptions {
  shop?: string;
  /** Rebuild the app even when build/ exists. */
  rebuild?: boolean;
  formalizeDelayMs?: number;
  /** Extra environment for the app process. */
  env?: Record<string, string>;
  /** Extra node flags for the app process (a benchmark's --cpu-prof). */
  nodeArgs?: string[];
  /** Print the app's logs. */
  logs?: boolean;
  /** Settings of the demo shop: test mode posts with the sandbox's dummy integration. */
  testMode?: boolean;
  name?: string;
  /** A PostgreSQL URL to use instead of a fresh SQLite file (a fresh schema is made for this stack). */
  postgresUrl?: string;
  /** Receives the sandbox's request log lines ("POST /api/invoices → 201 (3 ms)"). */
  sandboxLog?: (line: string) => void;
  /** Tax numbers the sandbox treats as registered for e-invoice (their invoices become e-Fatura). */
  eInvoiceTaxNumbers?: string[];
  /**
   * Shopify's Admin API as a local stand-in (`shopify-standin/`): the app is pointed at it (SHOPIFY_ADMIN_API_URL)
   * and the shop's offline session gets its token and these scopes (e.g. read_orders,write_orders).
   */
  adminApi?: { url: string; accessToken: string; scopes: string };
  /**
   * The app's client secret (SHOPIFY_API_SECRET; random by default): given when the Admin API stand-in must know it
   * too, to check the session tokens the app exchanges there (its `clientSecret`). The client id is LOCAL_API_KEY.
   */
  apiSecret?: string;
}

/**
 * Run under libfaketime (`faketime -f "+30d" npm test`: the suite on another day), a child started with an environment
 * built from nothing must keep the tests' clock, or a token signed now by the test is not yet valid there.
 */
export function fakedClockEnv(): Record<string, string> {
  return process.env.FAKETIME && process.env.LD_PRELOAD
    ? { LD_PRELOAD: process.env.LD_PRELOAD, FAKETIME: process.env.FAKETIME }
    : {};
}

/** The app's client id in a local stack (SHOPIFY_API_KEY). */
export const LOCAL_API_KEY = "local-demo-app";

export interface LocalStack {
  appUrl: string;
  shop: string;
  secret: string;
  apiKey: string;
  databaseUrl: string;
  /** The app process's environment (for starting a separate worker against the same database). */
  env: NodeJS.ProcessEnv;
  sandbox: Sandbox;
  process: ChildProcess;
  /** Delivers a signed webhook to the app, as Shopify does. */
  deliver(topic: string, body: unknown, options?: { webhookId?: string; secret?: string }): Promise<Response>;
  stop(): Promise<void>;
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

/**
 * What every stack started in this process still holds (the app's process, the sandbox), so a signal can stop it
 * all even while a stack is still starting: `stopLocalStacks()` (scripts/demo.ts on SIGINT and SIGTERM).
 */
const running = new Set<() => Promise<void>>();

export async function stopLocalStacks(): Promise<void> {
  await Promise.all([...running].map((stop) => stop().catch(() => undefined)));
}

/** SIGTERM, then SIGKILL if the process has not exited in `graceMs`. */
function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function dropSchema(postgresUrl: string, schema: string) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

/** Node's arguments that start the compiled worker, as `npm run worker` does (after ensureBuild). */
export const WORKER_ENTRY = ["--conditions=compiled", "build/worker/worker-entry.js"] as const;

/** Node's arguments that start the compiled production server, as `npm start` does (after ensureBuild). */
export const SERVER_ENTRY = ["--conditions=compiled", "build/node/start.js"] as const;

/** Node's arguments that start the demo's server (the production server with the local admin), compiled. */
export const LOCAL_SERVER_ENTRY = ["--conditions=compiled", "build/node/local-server.js"] as const;

/** Node's arguments that install the stack's shop (`npm run shop:setup`'s script), compiled. */
export const SHOP_SETUP_ENTRY = ["--conditions=compiled", "build/node/shop-setup.js"] as const;

/**
 * `npm run build`'s two parts, each made when missing (or always with `rebuild`): the app, and the compiled processes
 * (the worker, the servers).
 */
export function ensureBuild(rebuild = false) {
  const run = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
    if (result.status !== 0) throw new Error(`The app build failed:\n${result.stderr || result.stdout}`);
  };
  if (rebuild || !existsSync(path.join(root, "build/server/index.js"))) run("npx", ["remix", "vite:build"]);
  const compiled = [WORKER_ENTRY, SERVER_ENTRY, LOCAL_SERVER_ENTRY, SHOP_SETUP_ENTRY].map(([, entry]) =>
    path.join(root, entry),
  );
  if (rebuild || !compiled.every((entry) => existsSync(entry)))
    run(process.execPath, ["--import", "tsx", "scripts/build-node.ts"]);
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The app exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The app did not become healthy in ${timeoutMs} ms:\n${output()}`);
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const shop = options.shop ?? "demo-magaza.myshopify.com";
  const name = options.name ?? `stack-${process.pid}-${randomBytes(3).toString("hex")}`;
  ensureBuild(options.rebuild);
  const sandbox = await startSandbox({
    port: 0,
    formalizeDelayMs: options.formalizeDelayMs ?? 300,
    ...(options.sandboxLog ? { log: options.sandboxLog } : {}),
    ...(options.eInvoiceTaxNumbers ? { seed: { eInvoiceTaxNumbers: options.eInvoiceTaxNumbers } } : {}),
  });
  const app: { process?: ChildProcess } = {}; // set once spawned
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (app.process) await stopChild(app.process);
      await sandbox.stop();
      running.delete(stop);
    })();
    return stopped;
  };
  running.add(stop);
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const dir = path.join(root, "tmp", "local-stack");
  mkdirSync(dir, { recursive: true });
  const dbFile = path.join(dir, `${name}.sqlite`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
  // Accountant packages of this stack: beside its database, emptied like it.
  const packagesDir = path.join(dir, `${name}-packages`);
  rmSync(packagesDir, { recursive: true, force: true });
  const schema = `stack_${name.replace(/[^a-z0-9_]/gi, "_")}`;
  const databaseUrl = options.postgresUrl
    ? `${options.postgresUrl}${options.postgresUrl.includes("?") ? "&" : "?"}schema=${schema}`
    : `file:${dbFile}`;
  if (options.postgresUrl) await dropSchema(options.postgresUrl, schema);
  await migrate(databaseUrl, root);

  const secret = options.apiSecret ?? `local-secret-${randomBytes(8).toString("hex")}`;
  const apiKey = LOCAL_API_KEY;
  const appEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    SHOPIFY_API_KEY: apiKey,
    SHOPIFY_API_SECRET: secret,
    SHOPIFY_APP_URL: appUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOCAL_ADMIN: "1",
    // The app calls the sandbox on 127.0.0.1 over http (app/http/outbound-guard.server.ts).
    LOCAL_SERVICES: "1",
    LOG_LEVEL: options.logs ? "info" : "warn",
    ACCOUNTANT_PACKAGE_DIR: packagesDir,
    // Without an Admin API to read from, the hourly reconciliation's first pass could only fail, retrying an
    // unreachable Shopify with backoff, and a SIGTERM would wait for those retries (5 s per stop): no schedule then.
    ...(options.adminApi ? { SHOPIFY_ADMIN_API_URL: options.adminApi.url } : { RECONCILE_INTERVAL_MINUTES: "0" }),
    // Its environment is otherwise built from nothing: the tests' clock goes with it (fakedClockEnv).
    ...fakedClockEnv(),
    ...options.env,
  };

  const account = sandbox.account;
  // `npm run shop:setup`'s script compiled (ensureBuild above): through tsx's loader it took 1.9 s per stack.
  const setup = spawnSync(
    process.execPath,
    [
      ...SHOP_SETUP_ENTRY,
      "--shop",
      shop,
      "--api-key",
      account.apiKey,
      "--base-url",
      sandbox.url,
      "--sale-channel-id",
      String(account.saleChannelId),
      "--integration-id",
      String(account.invoiceIntegrationId),
      "--dummy-integration-id",
      String(account.dummyIntegrationId),
      ...(options.testMode ? ["--test-mode"] : []),
      ...(options.adminApi
        ? ["--access-token", options.adminApi.accessToken, "--scopes", options.adminApi.scopes]
        : []),
    ],
    { cwd: root, env: appEnv, encoding: "utf8" },
  );
  if (setup.status !== 0) {
    await stop();
    throw new Error(`shop:setup failed:\n${setup.stderr || setup.stdout}`);
  }

  let output = "";
  // The demo's server: the production server on the production build, with the local admin in front
  // (scripts/local-server.ts, compiled). No npm process in between, so a signal reaches it.
  const child = (app.process = spawn(process.execPath, [...(options.nodeArgs ?? []), ...LOCAL_SERVER_ENTRY], {
    cwd: root,
    env: appEnv,
    stdio: ["ignore", "pipe", "pipe"],
  }));
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (options.logs) process.stderr.write(chunk);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  try {
    await waitForHealth(appUrl, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    appUrl,
    shop,
    secret,
    apiKey,
    databaseUrl,
    env: appEnv,
    sandbox,
    process: child,
    async deliver(topic, body, deliverOptions = {}) {
      const rawBody = typeof body === "string" ? body : JSON.stringify(body);
      const headers = webhookHeaders({
        topic,
        shop,
        rawBody,
        secret: deliverOptions.secret ?? secret,
        webhookId: deliverOptions.webhookId,
      });
      return fetch(`${appUrl}/webhooks/${topic}`, { method: "POST", headers, body: rawBody });
    },
    stop,
  };
}
