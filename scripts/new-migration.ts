// Writes a new migration for BOTH providers from the change in prisma/models.prisma, so the SQLite and
// PostgreSQL histories stay in step. Usage: npm run db:new-migration -- NAME
// Each migration folder keeps the schema it leads to (schema.snapshot.prisma); the next migration is the
// diff from that snapshot to the current schema. This needs no database and no engine download.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROVIDERS } from "./prisma-schemas";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:new-migration -- name_in_snake_case");
  process.exit(2);
}
execFileSync("npx", ["tsx", "scripts/prisma-schemas.ts"], { stdio: "inherit" });
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
// The JavaScript schema engine connects through the adapter even for a pure diff: give it a scratch
// SQLite file and a reachable PostgreSQL (the local one by default).
mkdirSync("tmp", { recursive: true });
const scratchUrl = {
  sqlite: "file:./tmp/migration-diff.sqlite",
  postgresql: process.env.MIGRATION_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test",
};

for (const provider of PROVIDERS) {
  const dir = path.join("prisma", provider);
  const migrations = path.join(dir, "migrations");
  mkdirSync(migrations, { recursive: true });
  const previous = readdirSync(migrations).sort().at(-1);
  const from = previous
    ? ["--from-schema-datamodel", path.join(migrations, previous, "schema.snapshot.prisma")]
    : ["--from-empty"];
  let sql = execFileSync(
    "npx",
    ["prisma", "migrate", "diff", "--config", path.join(dir, "prisma.config.ts"), ...from,
      "--to-schema-datamodel", path.join(dir, "schema.prisma"), "--script"],
    { env: { ...process.env, DATABASE_URL: scratchUrl[provider] }, encoding: "utf8" },
  );
  // Tables go into the connection's search_path schema, so the same SQL serves any schema.
  sql = sql.replace(/-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n+/, "");
  if (/This is an empty migration/.test(sql) || !sql.trim()) {
    console.log(`${provider}: no changes`);
    continue;
  }
  const target = path.join(migrations, `${stamp}_${name}`);
  if (existsSync(target)) throw new Error(`${target} exists already`);
  mkdirSync(target);
  writeFileSync(path.join(target, "migration.sql"), sql);
  copyFileSync(path.join(dir, "schema.prisma"), path.join(target, "schema.snapshot.prisma"));
  console.log(`${provider}: wrote ${target}/migration.sql`);
}
