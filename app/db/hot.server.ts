// The pipeline's hot statements: the webhook's delivery record and row insert, the worker's claim, its writes around a
// post and at the end of a job, a callback's mark. One interface, HotStatements (hot-statements.ts), with two implementations:
// - Prisma's client (hot-prisma.server.ts): every statement that has a Prisma form;
// - one class per database dialect with the hand-written SQL that measured more than 1.25x faster than Prisma 7
//   on that database (hot-sqlite.server.ts, hot-postgres.server.ts; what they share is in hot-sql.ts, built from the
//   schema's metadata in schema.ts). docs/decisions/0041-hand-written-sql-after-prisma-7.md has the measurements
//   (bench/statements.bench.ts --ab runs each statement both ways).
// Business rules are decided by the callers in TypeScript (the write-back's start, the default trigger); the
// statements read and write what they are told.
import { sqliteConnectionOf, type Db } from "./client";
import { PrismaStatements } from "./hot-prisma.server";
import { PostgresStatements } from "./hot-postgres.server";
import { SqliteStatements } from "./hot-sqlite.server";
import {
  HOT_STATEMENTS,
  type DialectStatements,
  type HotStatementName,
  type HotStatements,
  type Via,
} from "./hot-statements";
import { providerOf } from "./provider";

export { newId } from "./hot-sql";
// The interface and its types live in hot-statements.ts (so the implementations need not import this factory);
// they are re-exported for the factory's callers (app/db.server.ts, bench/).
export * from "./hot-statements";

/** The dialect class of `databaseUrl`'s database: on SQLite it shares `db`'s connection, on PostgreSQL it has a small pool. */
export function dialectStatements(databaseUrl: string, db: Db): DialectStatements {
  return providerOf(databaseUrl) === "sqlite"
    ? new SqliteStatements(() => sqliteConnectionOf(db))
    : new PostgresStatements(databaseUrl);
}

/**
 * The hot statements for `db`'s database: each through its dialect's hand-written SQL where the dialect keeps one,
 * else through Prisma's client. `via` is the benchmark's A/B switch (bench/hot-ab.ts); HOT_STATEMENTS_VIA=prisma
 * (for a benchmark's processes) takes every statement that has a Prisma form through Prisma.
 */
export function createHotStatements(databaseUrl: string, db: Db, via?: (name: HotStatementName) => Via): HotStatements {
  const sql = dialectStatements(databaseUrl, db);
  const orm = new PrismaStatements(db, databaseUrl);
  const choose =
    via ??
    (process.env.HOT_STATEMENTS_VIA === "prisma"
      ? (name: HotStatementName) => (name === "claimRows" ? "sql" : "prisma")
      : () => "sql");
  const statements = { close: () => sql.close() } as HotStatements;
  for (const name of HOT_STATEMENTS) {
    const path: Partial<HotStatements> = choose(name) === "sql" && sql[name] ? sql : orm;
    (statements as unknown as Record<string, unknown>)[name] = (path[name] as (...args: unknown[]) => unknown).bind(
      path,
    );
  }
  return statements;
}
