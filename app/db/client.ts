// Builds a Prisma client for a database URL: SQLite (embedded default) or PostgreSQL. Both generated
// clients come from the same models, so they share one type (`Db`). No configuration is read here, so
// scripts can open another database than the app's.
import { PrismaClient as SqliteClient } from "#prisma/sqlite";
import { PrismaClient as PostgresClient } from "#prisma/postgresql";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { postgresConnectionString, postgresSchema, providerOf } from "./provider";

export type Db = SqliteClient;

export function createDb(databaseUrl: string): Db {
  if (providerOf(databaseUrl) === "sqlite") {
    // A busy connection waits up to 5 s for a lock instead of failing at once (webhooks and the worker share the file).
    return new SqliteClient({ adapter: new PrismaBetterSQLite3({ url: databaseUrl, timeout: 5000 }) });
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
