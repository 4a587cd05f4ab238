// The migration that adds Invoice.customerSearch folds the names of the rows already there in SQL, the way the app
// folds new ones in TypeScript (app/i18n/search-fold.ts): checked on a database migrated up to the migration before it,
// on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { readMigrations } from "../../app/db/migrate";
import { postgresConnectionString } from "../../app/db/provider";
import { foldForSearch } from "../../app/i18n/search-fold";

const MIGRATION = "admin_list_order_date_and_search";
const NAMES = [
  "Ayşe Yılmaz",
  "AYŞE ÇAĞLAR",
  "İsmail Işık",
  "Anadolu Tekstil Sanayi ve Ticaret A.Ş.",
  "Demir Bilişim Ltd. Şti. - 6080712084",
  "Güneş Öztürk",
  "Hans Müller",
  "Yüzde_Yüz %100",
];

function split(provider: "sqlite" | "postgresql") {
  const migrations = readMigrations(provider);
  const index = migrations.findIndex((m) => m.name.endsWith(MIGRATION));
  expect(index).toBeGreaterThan(0);
  return { before: migrations.slice(0, index), it: migrations[index] };
}

const insertRows = (insert: (id: string, name: string) => unknown) => NAMES.map((name, i) => insert(`inv${i}`, name));

describe("the customerSearch backfill", () => {
  it("folds existing names as foldForSearch does (SQLite)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "backfill-"));
    const db = new Database(path.join(dir, "db.sqlite"));
    try {
      const { before, it: migration } = split("sqlite");
      for (const m of before) db.exec(m.sql);
      db.prepare(`INSERT INTO "Shop" ("domain", "updatedAt") VALUES ('s.myshopify.com', 0)`).run();
      const insert = db.prepare(
        `INSERT INTO "Invoice" ("id", "shopDomain", "orderId", "orderName", "orderCreatedAt", "customerName", "orderTotal", "currency", "orderSnapshot", "updatedAt")
         VALUES (?, 's.myshopify.com', ?, '#1', 0, ?, '1', 'TRY', '{}', 0)`,
      );
      insertRows((id, name) => insert.run(id, id, name));
      db.exec(migration.sql);
      const rows = db
        .prepare(`SELECT "customerName" AS name, "customerSearch" AS folded FROM "Invoice"`)
        .all() as Array<{ name: string; folded: string }>;
      expect(rows).toHaveLength(NAMES.length);
      for (const row of rows) expect(row.folded, row.name).toBe(foldForSearch(row.name));
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("folds existing names as foldForSearch does (PostgreSQL)", async () => {
    const client = new pg.Client({ connectionString: postgresConnectionString(process.env.TEST_DATABASE_URL!) });
    await client.connect();
    const schema = `backfill_${process.pid}_${Date.now()}`;
    try {
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query(`SET search_path TO "${schema}"`);
      const { before, it: migration } = split("postgresql");
      for (const m of before) await client.query(m.sql);
      await client.query(`INSERT INTO "Shop" ("domain", "updatedAt") VALUES ('s.myshopify.com', now())`);
      for (const [i, name] of NAMES.entries()) {
        await client.query(
          `INSERT INTO "Invoice" ("id", "shopDomain", "orderId", "orderName", "orderCreatedAt", "customerName", "orderTotal", "currency", "orderSnapshot", "updatedAt")
           VALUES ($1, 's.myshopify.com', $1, '#1', now(), $2, '1', 'TRY', '{}', now())`,
          [`inv${i}`, name],
        );
      }
      await client.query(migration.sql);
      const { rows } = await client.query<{ name: string; folded: string }>(
        `SELECT "customerName" AS name, "customerSearch" AS folded FROM "Invoice"`,
      );
      expect(rows).toHaveLength(NAMES.length);
      for (const row of rows) expect(row.folded, row.name).toBe(foldForSearch(row.name));
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});
