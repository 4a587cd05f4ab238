import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  accountantPackageStore,
  ConfigError,
  ENV_VARIABLES,
  logLevel,
  parseEnv,
  workerSettings,
} from "../app/env.server";

const valid = {
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://invoices.example.com",
  ENCRYPTION_KEY: "ab".repeat(32),
};

describe("configuration", () => {
  it("accepts a complete configuration and applies the embedded defaults", () => {
    const env = parseEnv(valid);
    expect(env.DATABASE_URL).toBe("file:./data/app.sqlite");
    expect(env.SCOPES).toBe("read_orders");
    expect(env.WORKER_MODE).toBe("inprocess");
  });

  it.each(["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "ENCRYPTION_KEY"])(
    "names a missing %s",
    (name) => {
      const source: Record<string, string | undefined> = { ...valid, [name]: undefined };
      expect(() => parseEnv(source)).toThrow(ConfigError);
      expect(() => parseEnv(source)).toThrow(new RegExp(`${name} is missing`));
    },
  );

  it("names a bad value and says what is expected", () => {
    expect(() => parseEnv({ ...valid, ENCRYPTION_KEY: "short" })).toThrow(
      /ENCRYPTION_KEY is invalid: must be 32 random bytes/,
    );
    expect(() => parseEnv({ ...valid, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL is invalid/);
    expect(() => parseEnv({ ...valid, SHOPIFY_APP_URL: "not a url" })).toThrow(/SHOPIFY_APP_URL is invalid/);
  });

  it("refuses the local admin (it signs session tokens) unless the app runs on localhost", () => {
    expect(() => parseEnv({ ...valid, LOCAL_ADMIN: "1", NODE_ENV: "production" })).toThrow(/LOCAL_ADMIN is invalid/);
    expect(
      parseEnv({ ...valid, LOCAL_ADMIN: "1", NODE_ENV: "production", SHOPIFY_APP_URL: "http://127.0.0.1:3000" })
        .LOCAL_ADMIN,
    ).toBe(true);
    expect(parseEnv({ ...valid, LOCAL_ADMIN: "0", NODE_ENV: "production" }).LOCAL_ADMIN).toBe(false);
  });

  it("refuses the Admin API stand-in (it would receive every shop's access token) unless the app runs on localhost", () => {
    expect(() =>
      parseEnv({ ...valid, SHOPIFY_ADMIN_API_URL: "http://127.0.0.1:4020", NODE_ENV: "production" }),
    ).toThrow(/SHOPIFY_ADMIN_API_URL is invalid/);
    expect(
      parseEnv({
        ...valid,
        SHOPIFY_ADMIN_API_URL: "http://127.0.0.1:4020",
        NODE_ENV: "production",
        SHOPIFY_APP_URL: "http://localhost:3000",
      }).SHOPIFY_ADMIN_API_URL,
    ).toBe("http://127.0.0.1:4020");
    expect(() =>
      parseEnv({ ...valid, SHOPIFY_ADMIN_API_URL: "ftp://127.0.0.1", SHOPIFY_APP_URL: "http://localhost:3000" }),
    ).toThrow(/SHOPIFY_ADMIN_API_URL is invalid/);
    expect(
      parseEnv({ ...valid, SHOPIFY_ADMIN_API_URL: "", NODE_ENV: "production" }).SHOPIFY_ADMIN_API_URL,
    ).toBeUndefined();
  });

  it("keeps every localhost-only guard with a public app address, whatever VITEST or NODE_ENV say (issue 35, point 10)", () => {
    const collector = { SHOPIFY_ADMIN_API_URL: "https://collector.example.net" };
    expect(() => parseEnv({ ...valid, NODE_ENV: "test", ...collector })).toThrow(/SHOPIFY_ADMIN_API_URL is invalid/);
    expect(() => parseEnv({ ...valid, NODE_ENV: "test", LOCAL_SERVICES: "1" })).toThrow(/LOCAL_SERVICES is invalid/);
    expect(() => parseEnv({ ...valid, NODE_ENV: "test", LOCAL_ADMIN: "1" })).toThrow(/LOCAL_ADMIN is invalid/);
    // Vitest's own mark with LOCAL_SERVICES exempted a public address before: it no longer does.
    for (const vitest of ["true", "1"])
      expect(() =>
        parseEnv({ ...valid, VITEST: vitest, NODE_ENV: "test", LOCAL_SERVICES: "1", LOCAL_ADMIN: "1", ...collector }),
      ).toThrow(/LOCAL_SERVICES is invalid[\s\S]*SHOPIFY_ADMIN_API_URL is invalid/);
    // On localhost, as the tests and the demo run, they are allowed.
    expect(
      parseEnv({ ...valid, SHOPIFY_APP_URL: "http://localhost:3999", LOCAL_SERVICES: "1", ...collector })
        .SHOPIFY_ADMIN_API_URL,
    ).toBe(collector.SHOPIFY_ADMIN_API_URL);
  });

  it("accepts a base64 encryption key of 32 bytes", () => {
    expect(parseEnv({ ...valid, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") }).ENCRYPTION_KEY).toBeTruthy();
  });

  it("stops the app's start-up with a message naming the missing variable", async () => {
    const environment: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      ...valid,
      DATABASE_URL: "file:./tmp/env-test.sqlite",
    };
    delete environment.SHOPIFY_API_SECRET;
    const run = promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        "import('./app/shopify.server.ts').catch((error) => { console.error(String(error.message)); process.exit(1); })",
      ],
      { env: environment },
    );
    const failure = await run.then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).not.toBeNull();
    expect(failure!.code).not.toBe(0);
    expect(failure!.stderr).toContain("SHOPIFY_API_SECRET is missing");
  });

  it("keeps accountant packages in a directory on SQLite and in the database on PostgreSQL, unless told otherwise", () => {
    expect(accountantPackageStore(parseEnv(valid))).toBe("directory");
    expect(accountantPackageStore(parseEnv({ ...valid, DATABASE_URL: "postgresql://db/x" }))).toBe("database");
    expect(accountantPackageStore(parseEnv({ ...valid, ACCOUNTANT_PACKAGE_STORE: "database" }))).toBe("database");
    expect(
      accountantPackageStore(
        parseEnv({ ...valid, DATABASE_URL: "postgresql://db/x", ACCOUNTANT_PACKAGE_STORE: "directory" }),
      ),
    ).toBe("directory");
    expect(accountantPackageStore(parseEnv({ ...valid, ACCOUNTANT_PACKAGE_STORE: "" }))).toBe("directory");
    expect(() => parseEnv({ ...valid, ACCOUNTANT_PACKAGE_STORE: "s3" })).toThrow(/ACCOUNTANT_PACKAGE_STORE is invalid/);
  });

  it("reads the worker's limits through the validated configuration", () => {
    expect(workerSettings(parseEnv(valid))).toEqual({
      concurrency: 8,
      perShopLimit: 2,
      pollMs: 1000,
      leaseMs: 10_000,
      reconcileIntervalMs: 3_600_000,
    });
    expect(workerSettings(parseEnv({ ...valid, DATABASE_URL: "postgresql://db/x" }))).toMatchObject({ pollMs: 5000 });
    expect(
      workerSettings(
        parseEnv({
          ...valid,
          WORKER_CONCURRENCY: "16",
          WORKER_PER_SHOP: "4",
          WORKER_POLL_MS: "250",
          WORKER_LEASE_MS: "30000",
          RECONCILE_INTERVAL_MINUTES: "0",
        }),
      ),
    ).toEqual({ concurrency: 16, perShopLimit: 4, pollMs: 250, leaseMs: 30_000, reconcileIntervalMs: 0 });
    expect(() => parseEnv({ ...valid, RECONCILE_INTERVAL_MINUTES: "-1" })).toThrow(
      /RECONCILE_INTERVAL_MINUTES is invalid/,
    );
    expect(() => parseEnv({ ...valid, WORKER_CONCURRENCY: "many" })).toThrow(/WORKER_CONCURRENCY is invalid/);
    expect(() => parseEnv({ ...valid, WORKER_PER_SHOP: "0" })).toThrow(/WORKER_PER_SHOP is invalid/);
    expect(() => parseEnv({ ...valid, WORKER_POLL_MS: "5" })).toThrow(/WORKER_POLL_MS is invalid/);
    expect(() => parseEnv({ ...valid, WORKER_LEASE_MS: "500" })).toThrow(/WORKER_LEASE_MS is invalid/);
  });

  it("validates LOG_LEVEL, also for the logger that starts before the rest", () => {
    expect(() => parseEnv({ ...valid, LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL is invalid/);
    expect(() => logLevel({ LOG_LEVEL: "loud" })).toThrow(ConfigError);
    expect(() => logLevel({ LOG_LEVEL: "loud" })).toThrow(
      /LOG_LEVEL is invalid: one of fatal, error, warn, info, debug, trace, silent/,
    );
    expect(logLevel({ LOG_LEVEL: "debug" })).toBe("debug");
    expect(logLevel({})).toBe("info");
    // Silent by default only in a local test run: a public server with NODE_ENV=test keeps its log (issue 35, point 10).
    expect(logLevel({ NODE_ENV: "test", SHOPIFY_APP_URL: "http://localhost:3999" })).toBe("silent");
    expect(logLevel({ NODE_ENV: "test", SHOPIFY_APP_URL: "https://invoices.example.com" })).toBe("info");
    expect(logLevel({ NODE_ENV: "test" })).toBe("info");
  });

  it(".env.example and the README list every variable, and .env.example parses once the required ones are filled", () => {
    const example = readFileSync(".env.example", "utf8");
    const readme = readFileSync("README.md", "utf8");
    const entries = Object.fromEntries(
      example
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    for (const name of ENV_VARIABLES) {
      expect(Object.keys(entries), name).toContain(name);
      expect(readme, name).toContain(`\`${name}\``);
    }
    expect(Object.keys(entries).sort()).toEqual([...ENV_VARIABLES].sort());
    const parsed = parseEnv({ ...entries, ...valid, NODE_ENV: "production" });
    expect(parsed).toMatchObject({
      DATABASE_URL: "file:./data/app.sqlite",
      LOCAL_SERVICES: false,
      LOCAL_ADMIN: false,
      WORKER_POLL_MS: undefined,
    });
  });

  it("stops the worker's start-up with a message naming a bad worker setting", async () => {
    const environment: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      ...valid,
      DATABASE_URL: "file:./tmp/env-test.sqlite",
      WORKER_CONCURRENCY: "lots",
    };
    const run = promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      env: environment,
      timeout: 30_000,
    });
    const failure = await run.then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).not.toBeNull();
    expect(failure!.code).not.toBe(0);
    expect(failure!.stderr).toContain("WORKER_CONCURRENCY is invalid");
  });
});
