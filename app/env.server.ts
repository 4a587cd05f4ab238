// All configuration, read and validated in one place. A missing or bad variable stops start-up with a
// message that names it, instead of failing later on the first request that needs it.
import { z } from "zod";
import { providerOf } from "./db/provider";

const DEFAULT_SCOPES = "read_orders";
/** The invoicing service's live and staging API hosts (docs/spec/invoicing-service-facts.md). */
export const DEFAULT_INVOICING_HOSTS = "app.faturaentegrator.com,staging.faturaentegrator.com";
const HOST_ENTRY = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** An empty value (`NAME=` in an env file) means "not set". */
const emptyIsUnset = (value: unknown) => (value === "" ? undefined : value);

const flag = z
  .enum(["0", "1", "true", "false"])
  .default("0")
  .transform((v) => v === "1" || v === "true");

/** Where finished accountant packages may be kept (accountantPackageStore below). */
const PACKAGE_STORES = ["directory", "database"] as const;

const schema = z.object({
  SHOPIFY_API_KEY: z.string().min(1, "the app's client id from the Partner Dashboard"),
  SHOPIFY_API_SECRET: z.string().min(1, "the app's client secret from the Partner Dashboard"),
  SHOPIFY_APP_URL: z.url({ message: "the public https address of the app, e.g. https://invoices.example.com" }),
  SCOPES: z.string().default(DEFAULT_SCOPES),
  DATABASE_URL: z
    .string()
    .default("file:./data/app.sqlite")
    .refine((url) => /^(file:|postgres(ql)?:\/\/)/.test(url), {
      message: "must start with file: (SQLite) or postgresql:// (PostgreSQL)",
    }),
  // 32 bytes, base64 or hex: the AES-256-GCM key that encrypts the shops' invoicing API keys at rest.
  ENCRYPTION_KEY: z.string().refine((value) => decodeKey(value) !== null, {
    message: "must be 32 random bytes as 64 hex characters or base64 (generate: openssl rand -hex 32)",
  }),
  // Older keys after a rotation, comma-separated: they still read what they wrote; ENCRYPTION_KEY writes, and
  // `npm run secrets:reencrypt` rewrites everything under it (docs/decisions/0025).
  ENCRYPTION_KEY_PREVIOUS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((key) => key.trim())
        .filter(Boolean),
    )
    .refine((keys) => keys.every((key) => decodeKey(key) !== null), {
      message: "a comma-separated list of older keys, each 32 bytes as 64 hex characters or base64",
    }),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // The address the server listens on (server/app-server.ts); unset: every interface, as remix-serve did.
  HOST: z.preprocess(emptyIsUnset, z.string().optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // "inprocess" runs the invoicing worker inside the web server (the default); "off" leaves it to `npm run worker`.
  WORKER_MODE: z.enum(["inprocess", "off"]).default("inprocess"),
  // Worker limits: invoices in flight at once, per shop, and the longest sleep without a wake-up signal
  // (default 1000 ms on SQLite, 5000 ms on PostgreSQL, where workers are woken by NOTIFY).
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  WORKER_PER_SHOP: z.coerce.number().int().min(1).max(64).default(2),
  WORKER_POLL_MS: z.preprocess(emptyIsUnset, z.coerce.number().int().min(50).max(3_600_000).optional()),
  // An invoice row's lease, renewed every third of it while its job runs: how long a dead worker's rows wait.
  WORKER_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  // How often the worker reconciles each installed shop (reads the paid orders no webhook brought); 0 turns the
  // schedule off (the admin's button and `npm run reconcile` still work).
  RECONCILE_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(60),
  // Accountant packages (app/accountant/): the local directory they are built in (their PDFs, the ZIP being written),
  // where finished ones are kept (accountantPackageStore below), how long a finished package is kept, and how many PDFs
  // are read from the service at once.
  ACCOUNTANT_PACKAGE_DIR: z.preprocess(emptyIsUnset, z.string().min(1).default("./data/accountant-packages")),
  ACCOUNTANT_PACKAGE_STORE: z.preprocess(emptyIsUnset, z.enum(PACKAGE_STORES).optional()),
  ACCOUNTANT_PACKAGE_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(168),
  ACCOUNTANT_PDF_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(6),
  // Demo and test only: the shell loads the App Bridge stand-in that the demo's server (scripts/local-server.ts)
  // serves, so the embedded page opens outside Shopify. The app itself serves nothing of it.
  LOCAL_ADMIN: flag,
  // Hosts the app may send a shop's invoicing API key to (https only); the operator's choice, never a merchant's.
  // See app/http/outbound-guard.server.ts and docs/decisions/0007-outbound-allow-list.md.
  INVOICING_ALLOWED_HOSTS: z
    .string()
    .default(DEFAULT_INVOICING_HOSTS)
    .transform((value) =>
      value
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((hosts) => hosts.length > 0 && hosts.every((host) => HOST_ENTRY.test(host)), {
      message: "a comma-separated list of host names (optionally with :port), e.g. app.faturaentegrator.com",
    }),
  // Development only: lets the app call stand-ins on this machine (the invoicing sandbox) over http on loopback
  // addresses. Refused unless the app itself runs on localhost.
  LOCAL_SERVICES: flag,
  // GET /healthz answers the queue's figures (due, needing attention, worker) only with `Authorization: Bearer` this
  // value; without it, or unset, only up or down (the figures span every shop).
  HEALTH_TOKEN: z.preprocess(emptyIsUnset, z.string().min(16, "at least 16 characters").optional()),
  // How long before an expiring offline token's end the app replaces it (Shopify's tokens live an hour; the library
  // also uses 5 minutes). Tests with short-lived stand-in tokens lower it.
  SHOPIFY_TOKEN_REFRESH_MARGIN_SECONDS: z.coerce.number().min(0.1).max(1800).default(300),
  // Development only: the origin of a local stand-in of Shopify's Admin GraphQL API (`npm run shopify:standin`),
  // used instead of https://SHOP for every shop. Refused unless the app itself runs on localhost.
  SHOPIFY_ADMIN_API_URL: z.preprocess(
    emptyIsUnset,
    z.url({ protocol: /^https?$/, message: "an http(s) origin, e.g. http://127.0.0.1:4020" }).optional(),
  ),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

export type Env = z.infer<typeof schema>;

/** Every variable the app reads (.env.example and the README's table list them all; a test checks). */
export const ENV_VARIABLES = Object.keys(schema.shape) as Array<keyof Env>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuration error:\n${problems.map((p) => `  - ${p}`).join("\n")}\nSee README.md, "Configuration".`);
    this.name = "ConfigError";
  }
}

export function decodeKey(value: string): Buffer | null {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  const fromBase64 = Buffer.from(trimmed, "base64");
  return fromBase64.length === 32 ? fromBase64 : null;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether an app address is this machine's own. */
function isLocalAppUrl(value: string | undefined): boolean {
  return URL.canParse(value ?? "") && LOOPBACK_HOSTS.has(new URL(value!).hostname);
}

/**
 * Development settings that would be dangerous in production are refused unless the app runs on localhost, whatever
 * else the environment says: no variable (VITEST, NODE_ENV=test) exempts a public address (issue 35, point 10). The
 * tests run with a localhost app address (test/setup-env.ts).
 */
function localOnlyProblems(config: Env): string[] {
  const host = new URL(config.SHOPIFY_APP_URL).hostname;
  if (LOOPBACK_HOSTS.has(host)) return [];
  const problems: string[] = [];
  // The local admin (the demo's server) signs session tokens for any shop: it must never be reachable from outside.
  if (config.LOCAL_ADMIN)
    problems.push(
      `LOCAL_ADMIN is invalid: it is for the demo and tests only, and needs SHOPIFY_APP_URL on localhost (got ${host})`,
    );
  // Local services would let a shop's API key go to this machine's own network.
  if (config.LOCAL_SERVICES)
    problems.push(
      `LOCAL_SERVICES is invalid: it is for local runs only, and needs SHOPIFY_APP_URL on localhost (got ${host})`,
    );
  // The stand-in would receive every shop's access token and feed the app orders that Shopify never had.
  if (config.SHOPIFY_ADMIN_API_URL)
    problems.push(
      `SHOPIFY_ADMIN_API_URL is invalid: it points the app at a stand-in of Shopify for local runs only, and needs SHOPIFY_APP_URL on localhost (got ${host})`,
    );
  return problems;
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (result.success) {
    const problems = localOnlyProblems(result.data);
    if (problems.length) throw new ConfigError(problems);
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".");
    const missing = issue.code === "invalid_type" && source[name] === undefined;
    const hint = schema.shape[name as keyof typeof schema.shape] ? issue.message : "";
    return missing ? `${name} is missing${hintFor(name)}` : `${name} is invalid: ${hint}`;
  });
  throw new ConfigError(problems);
}

function hintFor(name: string): string {
  const hints: Record<string, string> = {
    SHOPIFY_API_KEY: " (the app's client id from the Partner Dashboard)",
    SHOPIFY_API_SECRET: " (the app's client secret from the Partner Dashboard)",
    SHOPIFY_APP_URL: " (the public https address of the app)",
    ENCRYPTION_KEY: " (32 random bytes as hex; generate one with: openssl rand -hex 32)",
  };
  return hints[name] ?? "";
}

/** The worker's limits, from the validated configuration. */
export function workerSettings(config: Env = env()): {
  concurrency: number;
  perShopLimit: number;
  pollMs: number;
  leaseMs: number;
  reconcileIntervalMs: number;
} {
  return {
    leaseMs: config.WORKER_LEASE_MS,
    reconcileIntervalMs: config.RECONCILE_INTERVAL_MINUTES * 60_000,
    concurrency: config.WORKER_CONCURRENCY,
    perShopLimit: config.WORKER_PER_SHOP,
    pollMs: config.WORKER_POLL_MS ?? (config.DATABASE_URL.startsWith("file:") ? 1000 : 5000),
  };
}

export type PackageStoreKind = (typeof PACKAGE_STORES)[number];

/**
 * Where finished accountant packages are kept (app/accountant/store.server.ts): ACCOUNTANT_PACKAGE_STORE, else by the
 * database. PostgreSQL is what several processes on several machines share, so the packages go into it; SQLite is one
 * machine's file, so they stay files beside it.
 */
export function accountantPackageStore(config: Env = env()): PackageStoreKind {
  return config.ACCOUNTANT_PACKAGE_STORE ?? (providerOf(config.DATABASE_URL) === "sqlite" ? "directory" : "database");
}

/**
 * LOG_LEVEL alone, validated like the rest: the logger is created when its module loads, before (and in scripts
 * without) the full configuration. Tests are silent unless they ask.
 */
export function logLevel(source: Record<string, string | undefined> = process.env): Env["LOG_LEVEL"] {
  // Only a local run may be silent by default: NODE_ENV=test on a public server must not hide its log.
  if (source.LOG_LEVEL === undefined && source.NODE_ENV === "test" && isLocalAppUrl(source.SHOPIFY_APP_URL))
    return "silent";
  const result = schema.shape.LOG_LEVEL.safeParse(source.LOG_LEVEL);
  if (!result.success)
    throw new ConfigError([
      `LOG_LEVEL is invalid: one of ${schema.shape.LOG_LEVEL.removeDefault().options.join(", ")}`,
    ]);
  return result.data;
}

let cached: Env | undefined;

/** The validated configuration of this process, read once. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
