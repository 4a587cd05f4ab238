// The app's Prisma client, for the database DATABASE_URL selects (docs/decisions/0002-database.md).
import { env } from "./env.server";
import { createDb, dbNullFor, type Db } from "./db/client";
import { createHotStatements, type HotStatements } from "./db/hot.server";
import { providerOf, type DbProvider } from "./db/provider";

export { createDb, type Db };

declare global {
  // Kept across Vite's module reloads in development, so reloads do not open new connections.
  var __db: Db | undefined;
  var __hot: HotStatements | undefined;
}

const prisma: Db = (global.__db ??= createDb(env().DATABASE_URL));

/** The provider of the process's database: some queries (row claiming) differ between the two. */
export function dbProvider(): DbProvider {
  return providerOf(env().DATABASE_URL);
}

export default prisma;

/** SQL NULL for a JSON column in a Prisma write on this process's database (Prisma.DbNull of its own client). */
export function dbNull() {
  return dbNullFor(env().DATABASE_URL);
}

/** The pipeline's hot statements, through the driver itself (app/db/hot.server.ts). */
export function hot(): HotStatements {
  return (global.__hot ??= createHotStatements(env().DATABASE_URL, prisma));
}
