// All configuration, read and validated in one place. A missing or bad variable stops start-up with a
// message that names it, instead of failing later on the first request that needs it.
import { z } from "zod";

const DEFAULT_SCOPES = "read_orders";

const schema = z.object({
  SHOPIFY_API_KEY: z.string().min(1, "the app's client id from the Partner Dashboard"),
  SHOPIFY_API_SECRET: z.string().min(1, "the app's client secret from the Partner Dashboard"),
  SHOPIFY_APP_URL: z.url({ message: "the public https address of the app, e.g. https://invoices.example.com" }),
  SCOPES: z.string().default(DEFAULT_SCOPES),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
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
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // "inprocess" runs the invoicing worker inside the web server (the default); "off" leaves it to `npm run worker`.
  WORKER_MODE: z.enum(["inprocess", "off"]).default("inprocess"),
  // Demo and test only: serves a local stand-in for App Bridge so the embedded page opens outside Shopify.
  LOCAL_ADMIN: z
    .enum(["0", "1", "true", "false"])
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

export type Env = z.infer<typeof schema>;

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

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (result.success) {
    // The local admin signs session tokens for any shop: it must never be reachable from outside.
    const host = new URL(result.data.SHOPIFY_APP_URL).hostname;
    if (result.data.LOCAL_ADMIN && result.data.NODE_ENV !== "test" && !LOOPBACK_HOSTS.has(host)) {
      throw new ConfigError([`LOCAL_ADMIN is invalid: it is for the demo and tests only, and needs SHOPIFY_APP_URL on localhost (got ${host})`]);
    }
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

let cached: Env | undefined;

/** The validated configuration of this process, read once. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
