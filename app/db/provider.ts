// Which database a URL selects. SQLite is the embedded default; PostgreSQL is chosen by configuration only.
export type DbProvider = "sqlite" | "postgresql";

export function providerOf(databaseUrl: string): DbProvider {
  if (databaseUrl.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgresql";
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got "${databaseUrl.split(":")[0]}:...")`);
}

/** The file path of a `file:` URL; relative paths are relative to the working directory, as in Prisma. */
export function sqlitePath(databaseUrl: string): string {
  return databaseUrl.replace(/^file:(\/\/)?/, "").split("?")[0];
}

/** The PostgreSQL schema named by `?schema=` (Prisma's convention), default `public`. */
export function postgresSchema(databaseUrl: string): string {
  return new URL(databaseUrl).searchParams.get("schema") ?? "public";
}

/** The connection string without Prisma's own `schema` parameter, which the pg driver does not know. */
export function postgresConnectionString(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.delete("schema");
  return url.toString();
}
