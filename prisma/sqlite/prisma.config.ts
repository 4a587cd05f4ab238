// Prisma CLI settings for the SQLite schema: the JavaScript schema engine through the driver adapter,
// so no engine binary is downloaded (the machine and CI reach only the npm registry).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "migrations") },
  adapter: async () => new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? "file:./data/app.sqlite" }),
});
