import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrate, readMigrations } from "../../app/db/migrate";
import { PROVIDERS, schemaFor } from "../../scripts/prisma-schemas";
import prisma from "../../app/db.server";

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
      expect(schema, `prisma/${provider}/schema.prisma is stale: run npm run prisma:schemas`).toBe(schemaFor(provider, models));
      const dir = path.join("prisma", provider, "migrations");
      const last = readdirSync(dir).sort().at(-1)!;
      const snapshot = readFileSync(path.join(dir, last, "schema.snapshot.prisma"), "utf8");
      expect(withoutGenerator(snapshot), `models changed without a migration: run npm run db:new-migration -- NAME`).toBe(
        withoutGenerator(schema),
      );
    }
  });
});
