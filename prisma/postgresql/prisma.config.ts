// Prisma CLI settings for the PostgreSQL schema (see ../sqlite/prisma.config.ts for why "js").
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "migrations") },
  adapter: async () =>
    new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" }),
});
