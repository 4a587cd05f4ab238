import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "../../app/env.server";

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

  it.each(["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "ENCRYPTION_KEY"])("names a missing %s", (name) => {
    const source: Record<string, string | undefined> = { ...valid, [name]: undefined };
    expect(() => parseEnv(source)).toThrow(ConfigError);
    expect(() => parseEnv(source)).toThrow(new RegExp(`${name} is missing`));
  });

  it("names a bad value and says what is expected", () => {
    expect(() => parseEnv({ ...valid, ENCRYPTION_KEY: "short" })).toThrow(/ENCRYPTION_KEY is invalid: must be 32 random bytes/);
    expect(() => parseEnv({ ...valid, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL is invalid/);
    expect(() => parseEnv({ ...valid, SHOPIFY_APP_URL: "not a url" })).toThrow(/SHOPIFY_APP_URL is invalid/);
  });

  it("refuses the local admin (it signs session tokens) unless the app runs on localhost", () => {
    expect(() => parseEnv({ ...valid, LOCAL_ADMIN: "1", NODE_ENV: "production" })).toThrow(/LOCAL_ADMIN is invalid/);
    expect(parseEnv({ ...valid, LOCAL_ADMIN: "1", NODE_ENV: "production", SHOPIFY_APP_URL: "http://127.0.0.1:3000" }).LOCAL_ADMIN).toBe(true);
    expect(parseEnv({ ...valid, LOCAL_ADMIN: "0", NODE_ENV: "production" }).LOCAL_ADMIN).toBe(false);
  });

  it("accepts a base64 encryption key of 32 bytes", () => {
    expect(parseEnv({ ...valid, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") }).ENCRYPTION_KEY).toBeTruthy();
  });

  it("stops the app's start-up with a message naming the missing variable", async () => {
    const environment: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...valid, DATABASE_URL: "file:./tmp/env-test.sqlite" };
    delete environment.SHOPIFY_API_SECRET;
    const run = promisify(execFile)("npx", ["tsx", "-e", "import('./app/shopify.server.ts').catch((error) => { console.error(String(error.message)); process.exit(1); })"], { env: environment });
    const failure = await run.then(() => null, (error: { code: number; stderr: string }) => error);
    expect(failure).not.toBeNull();
    expect(failure!.code).not.toBe(0);
    expect(failure!.stderr).toContain("SHOPIFY_API_SECRET is missing");
  });
});
