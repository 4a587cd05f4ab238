// Applies prisma/<provider>/migrations in order and records them in Prisma's own `_prisma_migrations`
// table (same columns, same sha256 checksum), so `prisma migrate deploy` on a host with Prisma's
// engines sees the same history. Used by `npm run db:migrate`, the tests and the demo: the CLI's
// WebAssembly engine cannot run `migrate deploy` against PostgreSQL offline (docs/decisions/0002-database.md).
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { postgresConnectionString, postgresSchema, providerOf, sqlitePath, type DbProvider } from "./provider";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function migrationsDir(provider: DbProvider, root = process.cwd()): string {
  return path.join(root, "prisma", provider, "migrations");
}

export function readMigrations(provider: DbProvider, root = process.cwd()): Migration[] {
  const dir = migrationsDir(provider, root);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const SQLITE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`;

const POSTGRES_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`;

/** Applies the migrations not yet applied; returns their names. Each migration runs in one transaction. */
export async function migrate(databaseUrl: string, root = process.cwd()): Promise<string[]> {
  const provider = providerOf(databaseUrl);
  const migrations = readMigrations(provider, root);
  return provider === "sqlite" ? migrateSqlite(databaseUrl, migrations) : migratePostgres(databaseUrl, migrations);
}

function pending(applied: Map<string, string>, migrations: Migration[]): Migration[] {
  for (const m of migrations) {
    const checksum = applied.get(m.name);
    if (checksum && checksum !== m.checksum) {
      throw new Error(`Migration ${m.name} was changed after it was applied. Add a new migration instead.`);
    }
  }
  return migrations.filter((m) => !applied.has(m.name));
}

function migrateSqlite(databaseUrl: string, migrations: Migration[]): string[] {
  const file = sqlitePath(databaseUrl);
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.exec(SQLITE_TABLE);
    const rows = db
      .prepare(
        `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      )
      .all() as { migration_name: string; checksum: string }[];
    const todo = pending(new Map(rows.map((r) => [r.migration_name, r.checksum])), migrations);
    for (const m of todo) {
      db.transaction(() => {
        db.exec(m.sql);
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES (?, ?, ?, ?, ?, 1)`,
        ).run(randomUUID(), m.checksum, m.name, Date.now(), Date.now());
      })();
    }
    return todo.map((m) => m.name);
  } finally {
    db.close();
  }
}

async function migratePostgres(databaseUrl: string, migrations: Migration[]): Promise<string[]> {
  const schema = postgresSchema(databaseUrl);
  const client = new pg.Client({ connectionString: postgresConnectionString(databaseUrl) });
  await client.connect();
  try {
    const quoted = `"${schema.replace(/"/g, '""')}"`;
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(`SET search_path TO ${quoted}`);
    // One migrator at a time, even with several app processes starting together.
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [`migrate:${schema}`]);
    await client.query(POSTGRES_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const todo = pending(new Map(rows.map((r) => [r.migration_name, r.checksum])), migrations);
    for (const m of todo) {
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
      }
    }
    return todo.map((m) => m.name);
  } finally {
    await client.end();
  }
}
