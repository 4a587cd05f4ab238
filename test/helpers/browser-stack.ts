// What every browser test of the admin starts before its tests: Shopify's Admin API stand-in (when the pages need
// it), a local stack (sandbox + the production build of the app, scripts/lib/local-stack.ts), a client of the stack's
// database, and Chromium; and what it closes after them, in reverse order.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { randomBytes } from "node:crypto";
import { LOCAL_API_KEY, startLocalStack, type LocalStack, type LocalStackOptions } from "../../scripts/lib/local-stack";
import { startStandin, type Standin, type StandinOptions } from "../../shopify-standin/server";
import { createDb, type Db } from "../../app/db/client";
import { launchBrowser } from "./browser";
import { startedLater } from "./started-later";

export interface BrowserStackOptions {
  /** Names the stack's database (the process id is added). */
  name: string;
  stack?: Omit<LocalStackOptions, "name" | "adminApi">;
  /**
   * Starts the Admin API stand-in first and points the app at it, with `sessionScopes` on the shop's offline session;
   * the stack's shop is then the stand-in's.
   */
  standin?: StandinOptions & { sessionScopes: string };
}

export interface BrowserStack {
  stack: LocalStack;
  db: Db;
  browser: Browser;
  /** Only with `options.standin`. */
  standin?: Standin;
  /** Closes what was started, last started first; every close is tried, the first failure is thrown after. */
  stop(): Promise<void>;
}

/** Starts it all; if a start fails, what had started is closed before the failure is thrown. */
export async function startBrowserStack(options: BrowserStackOptions): Promise<BrowserStack> {
  const closes: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    const errors: unknown[] = [];
    for (const close of closes.splice(0).reverse()) await close().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
  };
  try {
    let standin: Standin | undefined;
    // The app's secret, known to the stand-in too: it checks the session tokens the app exchanges there.
    const apiSecret = `local-secret-${randomBytes(8).toString("hex")}`;
    if (options.standin) {
      const { sessionScopes: _scopes, ...standinOptions } = options.standin;
      const started = await startStandin({
        port: 0,
        clientId: LOCAL_API_KEY,
        clientSecret: apiSecret,
        ...standinOptions,
      });
      standin = started;
      closes.push(() => started.stop());
    }
    const stack = await startLocalStack({
      ...(standin ? { shop: standin.shop } : {}),
      ...options.stack,
      apiSecret,
      name: `${options.name}-${process.pid}`,
      ...(standin
        ? { adminApi: { url: standin.url, accessToken: standin.accessToken, scopes: options.standin!.sessionScopes } }
        : {}),
    });
    closes.push(() => stack.stop());
    const db = createDb(stack.databaseUrl);
    closes.push(() => db.$disconnect());
    const browser = await launchBrowser();
    closes.push(() => browser.close());
    return { stack, db, browser, ...(standin ? { standin } : {}), stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/**
 * Registers the beforeAll (start, then `ready`: hand the parts to the file's variables, deliver its orders) and the
 * afterAll (stop) of a browser test file's describe block.
 */
export function withBrowserStack(
  options: BrowserStackOptions & { timeoutMs: number },
  ready: (started: BrowserStack) => unknown,
): BrowserStack {
  let current: BrowserStack | undefined;
  beforeAll(async () => {
    current = await startBrowserStack(options);
    await ready(current);
  }, options.timeoutMs);
  afterAll(async () => {
    await current?.stop();
  });
  return startedLater("the browser stack", () => current);
}
