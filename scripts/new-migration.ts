// Writes a new migration for BOTH providers from the change in prisma/models.prisma, so the SQLite and
// PostgreSQL histories stay in step. Usage: npm run db:new-migration -- NAME
// Each migration folder keeps the schema it leads to (schema.snapshot.prisma); the next migration is the
// diff from that snapshot to the current schema, by Prisma's WebAssembly schema engine (scripts/prisma/
// migration-diff.ts): no engine download. PostgreSQL's diff needs a reachable server (MIGRATION_POSTGRES_URL,
// the local one by default), whose data it does not touch.
// Expand now, contract later: the release before keeps running on the new schema during a rolling deploy, so a
// migration that drops or renames a table or column, changes a type or adds a required column without a default is
// refused by test/db/migration-safety.test.ts unless marked as a contract step; this script warns of it at once
// (docs/operations.md, "Rolling deploys").
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { checkMigrations, readMigrationHistory } from "./lib/migration-safety";
import { PROVIDERS } from "./prisma-schemas";
import { migrationDiff, withBlocksOf } from "./prisma/migration-diff";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:new-migration -- name_in_snake_case");
  process.exit(2);
}
execFileSync(process.execPath, ["--import", "tsx", "scripts/prisma-schemas.ts"], { stdio: "inherit" });
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);

for (const provider of PROVIDERS) {
  const dir = path.join("prisma", provider);
  const migrations = path.join(dir, "migrations");
  mkdirSync(migrations, { recursive: true });
  const schemaPath = path.join(dir, "schema.prisma");
  const schema = readFileSync(schemaPath, "utf8");
  const previous = readdirSync(migrations, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .at(-1);
  const snapshotPath = previous && path.join(migrations, previous, "schema.snapshot.prisma");
  const from = snapshotPath
    ? { path: snapshotPath, content: withBlocksOf(schema, readFileSync(snapshotPath, "utf8")) }
    : null;
  let sql = await migrationDiff(provider, from, { path: schemaPath, content: schema });
  // Tables go into the connection's search_path schema, so the same SQL serves any schema.
  sql = sql.replace(/-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n+/, "");
  if (!sql.trim()) {
    console.log(`${provider}: no changes`);
    continue;
  }
  const target = path.join(migrations, `${stamp}_${name}`);
  if (existsSync(target)) throw new Error(`${target} exists already`);
  mkdirSync(target);
  writeFileSync(path.join(target, "migration.sql"), sql);
  writeFileSync(path.join(target, "schema.snapshot.prisma"), schema);
  console.log(`${provider}: wrote ${target}/migration.sql`);
  const { refused } = checkMigrations(provider, readMigrationHistory(provider)).verdicts.at(-1)!;
  for (const message of refused) console.warn(`${provider}: ${message}`);
  if (refused.length > 0)
    console.warn(
      `${provider}: the release before this one would break on this schema during a rolling deploy; expand now, ` +
        `contract in a later release (docs/operations.md, "Rolling deploys")`,
    );
}
