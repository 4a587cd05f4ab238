// Builds a Prisma client for a database URL: SQLite (embedded default) or PostgreSQL. Both generated
// clients come from the same models, so they share one type (`Db`). No configuration is read here, so
// scripts can open another database than the app's.
import { PrismaClient as SqliteClient } from "#prisma/sqlite";
import { PrismaClient as PostgresClient } from "#prisma/postgresql";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type Database from "better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { postgresConnectionString, postgresSchema, providerOf } from "./provider";

export type Db = SqliteClient;

/** Prisma's SQLite adapter, keeping hold of the connection it opens, for the prepared statements of app/db/hot.server.ts. */
class SqliteAdapterFactory extends PrismaBetterSQLite3 {
  connection: Database.Database | null = null;
  async connect() {
    const adapter = await super.connect();
    this.connection = (adapter as unknown as { client: Database.Database }).client;
    return adapter;
  }
}
const sqliteFactories = new WeakMap<Db, SqliteAdapterFactory>();

/**
 * The better-sqlite3 connection under a SQLite client (opened if need be). The hot statements share it rather than
 * opening their own: a second connection could commit between a Prisma transaction's read and its write, which
 * SQLite answers with "database is locked" at once.
 */
export async function sqliteConnectionOf(db: Db): Promise<Database.Database> {
  const factory = sqliteFactories.get(db);
  if (!factory) throw new Error("not a SQLite client");
  if (!factory.connection?.open) await db.$queryRawUnsafe("SELECT 1");
  return factory.connection!;
}

export function createDb(databaseUrl: string): Db {
  if (providerOf(databaseUrl) === "sqlite") {
    // A busy connection waits up to 5 s for a lock instead of failing at once (webhooks and the worker share the file).
    const factory = new SqliteAdapterFactory({ url: databaseUrl, timeout: 5000 });
    const db = new SqliteClient({ adapter: factory });
    sqliteFactories.set(db, factory);
    return db;
  }
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
