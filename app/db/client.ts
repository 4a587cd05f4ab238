// Builds a Prisma client for a database URL: SQLite (embedded default) or PostgreSQL. Both generated
// clients come from the same models, so they share one type (`Db`). No configuration is read here, so
// scripts can open another database than the app's.
import { createRequire } from "node:module";
import type { PrismaClient as SqliteClient } from "#prisma/sqlite";
import type Database from "better-sqlite3";
import { postgresConnectionString, postgresSchema, providerOf } from "./provider";

export type Db = SqliteClient;

/** How long a SQLite statement waits for another process's write lock before SQLITE_BUSY. */
export const SQLITE_LOCK_WAIT_MS = 5000;

// Each database's generated client and Prisma adapter are loaded when a client for it is first made: a process on
// SQLite never loads the PostgreSQL ones (13 MB of RSS measured), nor one on PostgreSQL the SQLite ones. The clients
// are TypeScript (Prisma 7's `prisma-client` generator, in generated/prisma/); Node strips their types on require, and a
// process started with `--conditions=compiled` (`npm run worker`) gets their JavaScript from build/prisma/ instead
// (package.json's "#prisma/*" imports, scripts/build-node.ts).
const load = createRequire(import.meta.url);
const sqliteModules = () => ({
  PrismaClient: (load("#prisma/sqlite") as typeof import("#prisma/sqlite")).PrismaClient,
  PrismaBetterSqlite3: (load("@prisma/adapter-better-sqlite3") as typeof import("@prisma/adapter-better-sqlite3"))
    .PrismaBetterSqlite3,
});
const postgresModules = () => ({
  PrismaClient: (load("#prisma/postgresql") as typeof import("#prisma/postgresql")).PrismaClient,
  PrismaPg: (load("@prisma/adapter-pg") as typeof import("@prisma/adapter-pg")).PrismaPg,
});

/**
 * SQL NULL for a JSON column in a Prisma write, from the client of the database at `databaseUrl`: each generated client
 * knows only its own Prisma.DbNull, and the other's is written as the JSON object {}.
 */
export function dbNullFor(databaseUrl: string): typeof import("#prisma/sqlite").Prisma.DbNull {
  return providerOf(databaseUrl) === "postgresql"
    ? ((load("#prisma/postgresql") as typeof import("#prisma/postgresql")).Prisma
        .DbNull as unknown as typeof import("#prisma/sqlite").Prisma.DbNull)
    : (load("#prisma/sqlite") as typeof import("#prisma/sqlite")).Prisma.DbNull;
}

/** The connection Prisma's SQLite adapter opened, kept for the prepared statements of app/db/hot.server.ts. */
type SqliteConnection = { connection: Database.Database | null };
const sqliteConnections = new WeakMap<Db, SqliteConnection>();

/**
 * The better-sqlite3 connection under a SQLite client (opened if need be). The hot statements share it rather than
 * opening their own: a second connection could commit between a Prisma transaction's read and its write, which
 * SQLite answers with "database is locked" at once.
 */
export async function sqliteConnectionOf(db: Db): Promise<Database.Database> {
  const held = sqliteConnections.get(db);
  if (!held) throw new Error("not a SQLite client");
  if (!held.connection?.open) await db.$queryRawUnsafe("SELECT 1");
  return held.connection!;
}

export function createDb(databaseUrl: string): Db {
  if (providerOf(databaseUrl) === "sqlite") {
    // A busy connection waits up to 5 s for a lock instead of failing at once (webhooks and the worker share the file).
    const { PrismaClient, PrismaBetterSqlite3 } = sqliteModules();
    const factory = new PrismaBetterSqlite3({ url: databaseUrl, timeout: SQLITE_LOCK_WAIT_MS });
    const held: SqliteConnection = { connection: null };
    const connect = factory.connect.bind(factory);
    factory.connect = async () => {
      const adapter = await connect();
      held.connection = (adapter as unknown as { client: Database.Database }).client;
      return adapter;
    };
    const db = new PrismaClient({ adapter: factory });
    sqliteConnections.set(db, held);
    return db;
  }
  const { PrismaClient: PostgresClient, PrismaPg } = postgresModules();
  const schema = postgresSchema(databaseUrl);
  const adapter = new PrismaPg(
    // search_path too, so raw SQL (row claiming, NOTIFY) finds the same tables as Prisma's queries.
    // The application name (with the schema) identifies the app's sessions in pg_stat_activity.
    {
      connectionString: postgresConnectionString(databaseUrl),
      max: 10,
      options: `-c search_path="${schema}"`,
      application_name: `e-fatura:${schema}`.slice(0, 63),
    },
    { schema },
  );
  return new PostgresClient({ adapter }) as unknown as Db;
}
