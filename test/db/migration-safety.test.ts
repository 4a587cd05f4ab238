// Expand now, contract later (docs/decisions/0047-migration-expand-contract.md; docs/operations.md, "Rolling
// deploys"): in a rolling deploy the previous release runs on the schema the new release migrated, so no migration
// of either provider may drop or rename a table or column, change a column's type, make a column required, take a
// required column's default away, or add a required column without a default to an existing table, unless it is a
// contract step whose first lines name each such object. A plain unit test: it reads the SQL files, no database.
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../scripts/prisma-schemas";
import {
  checkMigrations,
  describeFinding,
  modelColumns,
  readMigrationHistory,
  type MigrationInput,
} from "../../scripts/lib/migration-safety";
import type { Dialect } from "../../scripts/lib/sql-scanner";

/**
 * Migrations shipped before rolling deploys were promised (issue 38) that the check refuses: `provider/name` → the
 * objects it refuses and, in one line, why that is history. Empty: every migration shipped so far only expands (new
 * tables, nullable columns or columns with a default, SQLite rebuilds that copy every column). An entry whose
 * objects the check no longer refuses fails the test, so the list cannot outlive its reason.
 */
const HISTORICAL: Record<string, { objects: string[]; why: string }> = {};

describe("the shipped migrations", () => {
  for (const provider of PROVIDERS) {
    const history = readMigrationHistory(provider);
    const { verdicts, tables } = checkMigrations(provider, history);

    it(`of ${provider} keep the previous release working, each of them (or are allow-listed history)`, () => {
      expect(verdicts.length).toBeGreaterThan(20);
      const refused = verdicts.flatMap(({ migration, findings, refused }) => {
        const allowed = HISTORICAL[`${provider}/${migration}`]?.objects ?? [];
        const historical = findings.filter((f) => allowed.includes(f.object)).map(describeFinding);
        return refused
          .filter((message) => !historical.some((finding) => message.startsWith(`${finding}:`)))
          .map((message) => `${migration}: ${message}`);
      });
      expect(refused).toEqual([]);
    });

    it(`of ${provider} were followed table by table: the tables and columns they lead to are the models'`, () => {
      // The check is only as good as its reading of the SQL: replaying every migration (SQLite's table rebuilds
      // included) must end exactly at the last migration's models.
      const models = modelColumns(history.at(-1)!.models!);
      expect(models.size).toBeGreaterThan(10);
      const followed = new Map([...tables].map(([table, columns]) => [table, new Set(columns ?? [])]));
      expect(followed).toEqual(models);
    });

    it(`of ${provider}: every allow-listed migration is still refused for the objects listed`, () => {
      for (const [key, { objects, why }] of Object.entries(HISTORICAL)) {
        if (!key.startsWith(`${provider}/`)) continue;
        expect(why.length, key).toBeGreaterThan(10);
        const verdict = verdicts.find((v) => `${provider}/${v.migration}` === key);
        expect(verdict, `${key} is not a migration`).toBeDefined();
        for (const object of objects)
          expect(
            verdict!.findings.map((f) => f.object),
            `${key}: ${object} is no longer refused`,
          ).toContain(object);
      }
    });
  }
});

// Synthetic migrations: the verdict on the last one, after the ones before it (the history the check follows).
const BASE = `CREATE TABLE "Invoice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "total" TEXT NOT NULL,
    "note" TEXT,
    "state" TEXT NOT NULL DEFAULT 'queued'
);`;
const BASE_MODELS = `model Invoice {
  id    String  @id
  total String
  note  String?
  state String  @default("queued")
}`;

function verdictOn(dialect: Dialect, ...migrations: (string | Omit<MigrationInput, "name">)[]) {
  const inputs = migrations.map((m, k) => ({ name: `m${k}`, ...(typeof m === "string" ? { sql: m } : m) }));
  const verdict = checkMigrations(dialect, inputs).verdicts.at(-1)!;
  return { ...verdict, found: verdict.findings.map((f) => `${f.kind} ${f.object}`) };
}

/** SQLite's table rebuild as Prisma writes it, with the new table's columns and the INSERT's column list. */
const rebuild = (columns: string, copied: string) => `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Invoice" (
${columns}
);
INSERT INTO "new_Invoice" (${copied}) SELECT ${copied} FROM "Invoice";
DROP TABLE "Invoice";
ALTER TABLE "new_Invoice" RENAME TO "Invoice";
CREATE INDEX "Invoice_state_idx" ON "Invoice"("state");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;`;
const ID = `"id" TEXT NOT NULL PRIMARY KEY`;
const TOTAL = `"total" TEXT NOT NULL`;
const STATE = `"state" TEXT NOT NULL DEFAULT 'queued'`;

describe("the check, on synthetic migrations", () => {
  for (const dialect of PROVIDERS) {
    it(`refuses a dropped column (${dialect})`, () => {
      const v = verdictOn(dialect, BASE, `-- DropColumn\nALTER TABLE "Invoice" DROP COLUMN "note";`);
      expect(v.found).toEqual(["drops column Invoice.note"]);
      expect(v.refused).toHaveLength(1);
      expect(v.refused[0]).toMatch(/-- contract: Invoice\.note no longer read since release/);
    });

    it(`refuses a renamed column or table, and a dropped table (${dialect})`, () => {
      expect(verdictOn(dialect, BASE, `ALTER TABLE "Invoice" RENAME COLUMN "note" TO "remark";`).found).toEqual([
        "renames column Invoice.note",
      ]);
      expect(verdictOn(dialect, BASE, `ALTER TABLE "Invoice" RENAME TO "Bill";`).found).toEqual([
        "renames table Invoice",
      ]);
      expect(verdictOn(dialect, BASE, `DROP TABLE IF EXISTS "Invoice";`).found).toEqual(["drops table Invoice"]);
    });

    it(`refuses a required column added without a default to an existing table, and only that (${dialect})`, () => {
      const v = verdictOn(
        dialect,
        BASE,
        `ALTER TABLE "Invoice" ADD COLUMN "currency" TEXT NOT NULL;
         ALTER TABLE "Invoice" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'sale';
         ALTER TABLE "Invoice" ADD COLUMN "remark" TEXT;
         CREATE TABLE "Chunk" ("id" TEXT NOT NULL, "seq" INTEGER NOT NULL, PRIMARY KEY ("id", "seq"));
         ALTER TABLE "Chunk" ADD COLUMN "bytes" TEXT NOT NULL;
         CREATE INDEX "Invoice_kind_idx" ON "Invoice"("kind");`,
      );
      expect(v.found).toEqual(["adds required column without default Invoice.currency"]);
      expect(v.refused).toHaveLength(1);
    });

    it(`reads quoted names, comments, literals and multi-line statements as the database does (${dialect})`, () => {
      const v = verdictOn(
        dialect,
        `CREATE TABLE "Odd ""Name""" ("a;b" TEXT, "c" TEXT);`,
        `/* DROP TABLE "Odd ""Name"""; */
         -- ALTER TABLE "Odd ""Name""" DROP COLUMN "c";
         UPDATE "Odd ""Name""" SET "c" = 'DROP TABLE x; --' WHERE "a;b" = ';';
         alter table "Odd ""Name"""
           drop column
             "a;b"
         ;`,
      );
      expect(v.found).toEqual(['drops column Odd "Name".a;b']);
    });

    it(`refuses a statement it cannot read rather than guessing (${dialect})`, () => {
      const v = verdictOn(dialect, BASE, `ALTER TABLE "Invoice" SET SCHEMA "archive";`);
      expect(v.found).toEqual(["cannot tell what this does to Invoice"]);
      expect(verdictOn(dialect, BASE, `MERGE INTO "Invoice" USING x ON true;`).refused).toHaveLength(1);
    });
  }

  it("refuses a changed type, a column made required and a required column's default taken away (postgresql)", () => {
    const v = verdictOn(
      "postgresql",
      BASE,
      `ALTER TABLE "Invoice" ALTER COLUMN "total" SET DATA TYPE DECIMAL(12, 2) USING "total"::numeric,
       ALTER COLUMN "note" SET NOT NULL,
       ALTER COLUMN "state" DROP DEFAULT,
       ALTER COLUMN "note" SET DEFAULT '',
       ADD CONSTRAINT "Invoice_total_check" CHECK ("total" <> '');`,
    );
    expect(v.found).toEqual([
      "changes the type of column Invoice.total",
      "makes column required Invoice.note",
      "takes the default of required column Invoice.state",
    ]);
    expect(v.findings[0].detail).toBe("to DECIMAL(12,2)");
  });

  it("accepts a PostgreSQL DO block whatever its body says, and a column made optional", () => {
    const v = verdictOn(
      "postgresql",
      BASE,
      `DO $body$ BEGIN EXECUTE 'DROP TABLE "Invoice"'; END $body$;
       ALTER TABLE "Invoice" ALTER COLUMN "total" DROP NOT NULL;`,
    );
    expect(v.found).toEqual([]);
  });

  it("judges SQLite's table rebuild by its columns: losing one is a drop", () => {
    const v = verdictOn("sqlite", BASE, rebuild([ID, TOTAL, STATE].join(",\n"), `"id", "state", "total"`));
    expect(v.found).toEqual(["drops column Invoice.note"]);
  });

  it("judges SQLite's table rebuild by its columns: adding a nullable one (or one with a default) is fine", () => {
    const columns = [ID, TOTAL, `"note" TEXT`, STATE, `"remark" TEXT`, `"version" INTEGER NOT NULL DEFAULT 0`];
    const v = verdictOn("sqlite", BASE, rebuild(columns.join(",\n"), `"id", "note", "state", "total"`));
    expect(v.found).toEqual([]);
    expect(v.refused).toEqual([]);
  });

  it("judges SQLite's table rebuild by its columns: new required, renamed, retyped, not copied", () => {
    const required = [ID, TOTAL, `"note" TEXT`, STATE, `"currency" TEXT NOT NULL`].join(",\n");
    expect(verdictOn("sqlite", BASE, rebuild(required, `"id", "note", "state", "total"`)).found).toEqual([
      "adds required column without default Invoice.currency",
    ]);
    const renamed = `-- RedefineTables
      CREATE TABLE "new_Invoice" (${[ID, TOTAL, `"remark" TEXT`, STATE].join(", ")});
      INSERT INTO "new_Invoice" ("id", "total", "remark", "state") SELECT "id", "total", "note", "state" FROM "Invoice";
      DROP TABLE "Invoice";
      ALTER TABLE "new_Invoice" RENAME TO "Invoice";`;
    expect(verdictOn("sqlite", BASE, renamed).found).toEqual(["renames column Invoice.note"]);
    const retyped = [ID, `"total" INTEGER NOT NULL`, `"note" TEXT`, STATE].join(",\n");
    expect(verdictOn("sqlite", BASE, rebuild(retyped, `"id", "note", "state", "total"`)).found).toEqual([
      "changes the type of column Invoice.total",
    ]);
    const all = [ID, TOTAL, `"note" TEXT`, STATE].join(",\n");
    expect(verdictOn("sqlite", BASE, rebuild(all, `"id", "state", "total"`)).found).toEqual([
      "drops column Invoice.note",
    ]);
  });

  it("accepts a table made and rebuilt in one migration, and a rebuild that copies every column", () => {
    const all = [ID, TOTAL, `"note" TEXT`, STATE].join(",\n");
    expect(verdictOn("sqlite", BASE + rebuild(all, `"id", "note", "state", "total"`)).found).toEqual([]);
    expect(verdictOn("sqlite", BASE, rebuild(all, `"id", "note", "state", "total"`)).found).toEqual([]);
  });
});

describe("a contract step", () => {
  const drop = `ALTER TABLE "Invoice" DROP COLUMN "note";\nDROP TABLE "Old";`;
  const history = [`${BASE}\nCREATE TABLE "Old" ("id" TEXT NOT NULL PRIMARY KEY);`];

  it("is accepted when its marker names each object it drops", () => {
    for (const dialect of PROVIDERS) {
      const v = verdictOn(
        dialect,
        ...history,
        `-- contract: Invoice.note, "Old" no longer read since release 2027.01\n-- DropColumn\n${drop}`,
      );
      expect(v.contract).toEqual(["Invoice.note", "Old"]);
      expect(v.found).toEqual(["drops column Invoice.note", "drops table Old"]);
      expect(v.refused).toEqual([]);
    }
  });

  it("is refused for what its marker leaves out, for what it names in vain, and for a marker it cannot read", () => {
    const partial = verdictOn(
      "sqlite",
      ...history,
      `-- contract: Invoice.note no longer read since release 3\n${drop}`,
    );
    expect(partial.refused).toEqual(["line 3: drops table Old: not named by the contract marker"]);
    const vain = verdictOn(
      "sqlite",
      ...history,
      `-- contract: Invoice.note, Old, Invoice.total no longer read since release 3\n${drop}`,
    );
    expect(vain.refused).toEqual([
      "the contract marker names Invoice.total, which this migration does not drop or change",
    ]);
    const unreadable = verdictOn("sqlite", ...history, `-- contract: Invoice.note and Old are gone\n${drop}`);
    expect(unreadable.refused[0]).toMatch(/^the contract marker .* is not "-- contract: Table.column/);
    expect(unreadable.refused).toHaveLength(3);
  });

  it("is refused while the release before it still has the column in its models (Prisma reads every field)", () => {
    const contract = `-- contract: Invoice.note no longer read since release 2027.01\nALTER TABLE "Invoice" DROP COLUMN "note";`;
    const withoutNote = BASE_MODELS.replace(/\n {2}note .*/, "");
    // The expand step stopped reading it (the models lost the field, the column stayed): the contract may drop it.
    const expanded = verdictOn(
      "postgresql",
      { sql: BASE, models: BASE_MODELS },
      { sql: "-- the column stays until the contract step", models: withoutNote },
      { sql: contract, models: withoutNote },
    );
    expect(expanded.refused).toEqual([]);
    // Dropped in the very migration whose release stopped reading it: the previous release still selects it.
    const early = verdictOn("postgresql", { sql: BASE, models: BASE_MODELS }, { sql: contract, models: withoutNote });
    expect(early.refused).toEqual([
      "the contract marker names Invoice.note, which is still in the previous migration's models (the release before still reads them)",
    ]);
  });
});
