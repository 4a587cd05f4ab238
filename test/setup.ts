// Runs before each test file: the app's configuration for tests (setup-env.ts), and a fresh, migrated database of
// the provider the project selects (SQLite file, or a new PostgreSQL schema).
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, vi } from "vitest";
import pg from "pg";
import { migrate } from "../app/db/migrate";
import { postgresConnectionString } from "../app/db/provider";
import "./setup-env";

const id = `${process.pid}_${randomBytes(4).toString("hex")}`;
const provider = process.env.TEST_DB === "postgresql" ? "postgresql" : "sqlite";
let cleanup: () => Promise<void>;

if (provider === "postgresql") {
  const schema = `test_${id}`;
  const base = process.env.TEST_DATABASE_URL!;
  process.env.DATABASE_URL = `${base}${base.includes("?") ? "&" : "?"}schema=${schema}`;
  cleanup = async () => {
    const client = new pg.Client({ connectionString: postgresConnectionString(base) });
    await client.connect();
    try {
      // Sessions of this test's schema still open (a worker process or a transaction that never ended) would
      // block the DROP forever: end them first, and never wait long for a lock.
      await client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
        [`e-fatura:${schema}`.slice(0, 63)],
      );
      await client.query("SET lock_timeout = '10s'");
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } catch (error) {
      console.warn(`could not drop the test schema ${schema}: ${(error as Error).message}`);
    } finally {
      await client.end();
    }
  };
} else {
  const dir = path.resolve("tmp/test-db");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${id}.sqlite`);
  process.env.DATABASE_URL = `file:${file}`;
  cleanup = async () => {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
  };
}

// A database test file that shares its worker's process with earlier files (vitest.config.ts) imports the app's
// modules afresh: the app binds its database client to DATABASE_URL and keeps per-shop state (throttles, callback
// instants, locks) in its modules. The packages stay loaded.
if (process.env.TEST_FRESH_APP_MODULES) vi.resetModules();
// A test file never sees the database client of an earlier file in the same worker.
globalThis.__db = undefined;
globalThis.__hot = undefined;
await migrate(process.env.DATABASE_URL);

afterAll(async () => {
  // A connection stuck in a transaction must not hang the suite: give the disconnect 5 s.
  await Promise.race([globalThis.__db?.$disconnect(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  globalThis.__db = undefined;
  await globalThis.__hot?.close();
  globalThis.__hot = undefined;
  await cleanup();
});
