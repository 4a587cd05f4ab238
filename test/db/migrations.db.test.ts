import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrate, readMigrations } from "../../app/db/migrate";
import { PROVIDERS, schemaFor } from "../../scripts/prisma-schemas";
import prisma from "../../app/db.server";
import { postgresConnectionString, providerOf } from "../../app/db/provider";
import { migrationDiff, withBlocksOf } from "../../scripts/prisma/migration-diff";

// Where the client is generated does not change the database.
const withoutGenerator = (schema: string) => schema.replace(/generator client \{[^}]*\}/, "");

describe("database migrations", () => {
  it("have been applied to this test database, and applying again changes nothing", async () => {
    expect(await migrate(process.env.DATABASE_URL!)).toEqual([]);
    // Every model answers a query on the migrated database.
    expect(await prisma.session.count()).toBe(0);
    expect(await prisma.shop.count()).toBe(0);
    expect(await prisma.shopSettings.count()).toBe(0);
    expect(await prisma.invoice.count()).toBe(0);
    expect(await prisma.invoiceEvent.count()).toBe(0);
  });

  it("keep SQLite and PostgreSQL in step: same migration names on both", () => {
    const names = PROVIDERS.map((provider) => readMigrations(provider).map((m) => m.name));
    expect(names[0].length).toBeGreaterThan(0);
    expect(names[0]).toEqual(names[1]);
  });

  it("lead exactly to the current models (no model change without a migration)", () => {
    const models = readFileSync("prisma/models.prisma", "utf8");
    for (const provider of PROVIDERS) {
      const schema = readFileSync(path.join("prisma", provider, "schema.prisma"), "utf8");
      expect(schema, `prisma/${provider}/schema.prisma is stale: run npm run prisma:schemas`).toBe(
        schemaFor(provider, models),
      );
      const dir = path.join("prisma", provider, "migrations");
      const last = readdirSync(dir).sort().at(-1)!;
      const snapshot = readFileSync(path.join(dir, last, "schema.snapshot.prisma"), "utf8");
      expect(
        withoutGenerator(snapshot),
        `models changed without a migration: run npm run db:new-migration -- NAME`,
      ).toBe(withoutGenerator(schema));
    }
  });

  // npm run db:new-migration diffs the last snapshot against the schema with Prisma 7's WebAssembly schema engine
  // (scripts/prisma/migration-diff.ts); the migrations before it were written by Prisma 6's CLI. The engine must
  // write each of them again from its predecessor's snapshot, except those edited by hand (each says so); the partial
  // indexes, written by hand under Prisma 6, are the same statements as the schema's `where:` now gives.
  const HAND_WRITTEN: Record<string, string[]> = {
    sqlite: ["20261126162610_fix_loop_and_account_check", "20261126164742_admin_list_order_date_and_search"],
    postgresql: ["20261126164742_admin_list_order_date_and_search"],
  };
  const statements = (sql: string) =>
    sql
      .split(";")
      .map((s) =>
        s
          .replace(/--.*$/gm, "")
          .replace(/\s+/g, " ")
          .trim()
          .replace(/WHERE \((.*)\)$/, "WHERE $1"),
      )
      .filter(Boolean)
      .sort();
  it("are what the schema engine writes from one snapshot to the next, on this test's database", async () => {
    // PostgreSQL's diff connects to a server (the test one) and reads nothing from it.
    for (const provider of [providerOf(process.env.DATABASE_URL!)]) {
      const dir = path.join("prisma", provider, "migrations");
      const schema = readFileSync(path.join("prisma", provider, "schema.prisma"), "utf8");
      const snapshot = (name: string) => ({
        path: name,
        content: withBlocksOf(schema, readFileSync(path.join(dir, name, "schema.snapshot.prisma"), "utf8")),
      });
      const names = readMigrations(provider).map((m) => m.name);
      let compared = 0;
      for (const [i, name] of names.entries()) {
        if (HAND_WRITTEN[provider].includes(name)) continue;
        const written = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
        const sql = (
          await migrationDiff(
            provider,
            i ? snapshot(names[i - 1]) : null,
            snapshot(name),
            postgresConnectionString(process.env.DATABASE_URL!),
          )
        ).replace(/-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n+/, "");
        if (name.endsWith("_partial_indexes"))
          expect(statements(sql), `${provider} ${name}`).toEqual(statements(written));
        else expect(sql.trim(), `${provider} ${name}`).toBe(written.trim());
        compared++;
      }
      expect(compared).toBeGreaterThan(15);
    }
  }, 120_000);

  // Hand-written in migration 20261126234500_partial_indexes, declared in the schema since Prisma 7 (`where:`), so a
  // later migration that redefines the Invoice table on SQLite recreates them partial; this checks they are.
  const PARTIAL = [
    ["Invoice_remoteId_idx", `WHERE "remoteId" IS NOT NULL`, `SELECT "id" FROM "Invoice" WHERE "remoteId" = 7`],
    // The claim's count of live leases (app/db/hot.server.ts); on SQLite it names the index, which must be usable.
    [
      "Invoice_leaseUntil_idx",
      `WHERE "leaseUntil" IS NOT NULL`,
      `SELECT "shopDomain", COUNT(*) FROM "Invoice" {hint} WHERE "leaseUntil" >= '2026-11-26' GROUP BY "shopDomain"`,
    ],
    [
      "Invoice_backfillId_state_idx",
      `WHERE "backfillId" IS NOT NULL`,
      `SELECT COUNT(*) FROM "Invoice" WHERE "backfillId" = 'run' AND "state" = 'queued'`,
    ],
  ] as const;

  it("keep the Invoice columns that are NULL at insert in partial indexes, which their queries still use", async () => {
    const sqlite = providerOf(process.env.DATABASE_URL!) === "sqlite";
    for (const [name, predicate, query] of PARTIAL) {
      const [definition] = sqlite
        ? await prisma.$queryRawUnsafe<Array<{ sql: string }>>(
            `SELECT "sql" FROM sqlite_master WHERE "type" = 'index' AND "name" = ?`,
            name,
          )
        : await prisma.$queryRawUnsafe<Array<{ sql: string }>>(
            `SELECT "indexdef" AS "sql" FROM pg_indexes WHERE "indexname" = $1 AND "schemaname" = current_schema()`,
            name,
          );
      // PostgreSQL prints the predicate in its own words: (... IS NOT NULL).
      expect(definition?.sql.replace(/[()]/g, ""), name).toContain(sqlite ? predicate : predicate.replace(/[()]/g, ""));
      const plan = sqlite
        ? (
            await prisma.$queryRawUnsafe<Array<{ detail: string }>>(
              `EXPLAIN QUERY PLAN ${query.replace("{hint}", `INDEXED BY "${name}"`)}`,
            )
          )
            .map((row) => row.detail)
            .join("\n")
        : await prisma.$transaction(async (tx) => {
            // An empty table is cheapest to scan whole: forbid that, to see whether the index can serve the query.
            await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
            return (await tx.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(`EXPLAIN ${query.replace("{hint}", "")}`))
              .map((row) => row["QUERY PLAN"])
              .join("\n");
          });
      expect(plan, `${name} for ${query}`).toContain(name);
    }
  });
});
