// Prisma CLI settings for the sqlite schema. Only `prisma generate` uses them: migrations are written by
// scripts/new-migration.ts (the WebAssembly schema engine called directly) and applied by app/db/migrate.ts
// (docs/decisions/0002-database.md, 0040-prisma-7.md).
import path from "node:path";
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: path.join(import.meta.dirname, "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
