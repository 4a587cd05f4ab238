// The partial indexes of migration 20261126234500_partial_indexes, measured in one run against the schema before it:
// 1. the webhook's insert of a new Invoice row (remoteId, leaseUntil and backfillId NULL), µs per row, into a table
//    that already holds --history finished rows, on SQLite and (--postgres=URL) PostgreSQL, the two schemas
//    alternating in rounds;
// 2. on SQLite, the claim's count of live leases per shop (its `busy` part) as the app runs it (no ANALYZE: the app
//    never gathers statistics), with the index named (INDEXED BY, as the claim has it) and as the planner chose
//    before (a scan of every row in shop order).
// Each insert is timed twice: as a prepared statement through the driver, and through Prisma 7's client (create with
// the same columns; the app's webhook insert measured both ways in bench/hot-ab.ts).
// Run: npx tsx bench/partial-indexes.bench.ts [--history=20000] [--inserts=2000] [--postgres=postgresql://postgres@127.0.0.1:5432/test]
import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const HISTORY = Number(args.get("history") ?? 20_000);
const INSERTS = Number(args.get("inserts") ?? 2_000);
const ROUNDS = 10;
const postgresUrl = args.get("postgres");
const MIGRATION = "20261126234500_partial_indexes";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const print = (text: string) => process.stdout.write(`${text}\n`);
const { migrate } = await import("../app/db/migrate");
const { createDb } = await import("../app/db/client");
type Db = ReturnType<typeof createDb>;

/** `per` inserts of a new row through Prisma's client (the columns the webhook's insert sets), µs per row. */
async function prismaInserts(db: Db, per: number, next: () => number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < per; i++) {
    const n = next();
    await db.invoice.create({
      data: {
        id: `p${n}`,
        shopDomain: "bench.myshopify.com",
        orderId: `p${n}`,
        orderName: `#p${n}`,
        orderCreatedAt: now,
        customerId: "7",
        customerName: "Ayşe",
        customerSearch: "ayse",
        orderTotal: "100.00",
        currency: "TRY",
        orderSnapshot: JSON.parse(SNAPSHOT),
        state: "queued",
        nextAttemptAt: now,
        priority: 0,
      },
      select: { id: true },
    });
  }
  return ((performance.now() - start) * 1000) / per;
}

// The project as it was before the migration: the same migrations without it.
const beforeRoot = path.join(root, "tmp", "bench", "before-partial-indexes");
rmSync(beforeRoot, { recursive: true, force: true });
for (const provider of ["sqlite", "postgresql"]) {
  const from = path.join(root, "prisma", provider, "migrations");
  const to = path.join(beforeRoot, "prisma", provider, "migrations");
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from))
    if (name !== MIGRATION) cpSync(path.join(from, name), path.join(to, name), { recursive: true });
}
const schemas = [
  ["before", beforeRoot],
  ["after", root],
] as const;

const now = new Date();
const iso = (date: Date) => date.toISOString().replace("Z", "+00:00");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
print(`partial indexes bench: ${HISTORY} finished rows, ${INSERTS} inserts per schema in ${ROUNDS} alternating rounds`);

// The columns the webhook's insert sets (app/invoices/enqueue.server.ts rowData), with a realistic snapshot size.
const SNAPSHOT = JSON.stringify({
  id: 1,
  line_items: Array.from({ length: 3 }, (_, i) => ({ id: i, title: "Ürün", price: "100.00", quantity: 1 })),
});
const COLUMNS = `"id", "shopDomain", "orderId", "orderName", "orderCreatedAt", "customerId", "customerName", "customerSearch", "orderTotal", "currency", "orderSnapshot", "state", "nextAttemptAt", "priority", "createdAt", "updatedAt"`;

// ---------------------------------------------------------------- SQLite
{
  const results: Record<string, number[]> = { before: [], after: [] };
  const viaPrisma: Record<string, number[]> = { before: [], after: [] };
  const clients = new Map<string, Db>();
  const dbs = new Map<string, Database.Database>();
  for (const [label, dir] of schemas) {
    const file = path.join(root, "tmp", "bench", `partial-${label}.sqlite`);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    await migrate(`file:${file}`, dir);
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.prepare(`INSERT INTO "Shop" ("domain", "installedAt", "updatedAt") VALUES ('bench.myshopify.com', ?, ?)`).run(
      iso(now),
      iso(now),
    );
    const history = db.prepare(
      `INSERT INTO "Invoice" (${COLUMNS}, "remoteId", "serialNumber") VALUES (?, 'bench.myshopify.com', ?, ?, ?, '7', 'Ayşe', 'ayse', '100.00', 'TRY', ?, 'completed', NULL, 0, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < HISTORY; i++)
        history.run(
          `h${i}`,
          `h${i}`,
          `#h${i}`,
          iso(now),
          SNAPSHOT,
          iso(now),
          iso(now),
          i + 1,
          `ARS2026${String(i).padStart(9, "0")}`,
        );
    })();
    dbs.set(label, db);
    clients.set(label, createDb(`file:${file}`));
  }
  let n = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label] of schemas) {
      const db = dbs.get(label)!;
      const insert = db.prepare(
        `INSERT INTO "Invoice" (${COLUMNS}) VALUES (?, 'bench.myshopify.com', ?, ?, ?, '7', 'Ayşe', 'ayse', '100.00', 'TRY', ?, 'queued', ?, 0, ?, ?)`,
      );
      const per = INSERTS / ROUNDS;
      const start = performance.now();
      // One transaction per row, as the webhook's group commit does under light load.
      for (let i = 0; i < per; i++) {
        n++;
        db.transaction(() =>
          insert.run(`n${n}`, `n${n}`, `#n${n}`, iso(now), SNAPSHOT, iso(now), iso(now), iso(now)),
        )();
      }
      results[label].push(((performance.now() - start) * 1000) / per);
      viaPrisma[label].push(await prismaInserts(clients.get(label)!, per, () => ++n));
    }
  }
  const [b, a] = [median(results.before), median(results.after)];
  print(
    `\nSQLite insert of a new row: before ${b.toFixed(1)} µs, after ${a.toFixed(1)} µs per row (medians of ${ROUNDS} rounds): after ÷ before ${(a / b).toFixed(3)}×`,
  );
  const [pb, pa] = [median(viaPrisma.before), median(viaPrisma.after)];
  print(
    `SQLite insert through Prisma's client: before ${pb.toFixed(1)} µs, after ${pa.toFixed(1)} µs per row: after ÷ before ${(pa / pb).toFixed(3)}×`,
  );
  for (const client of clients.values()) await client.$disconnect();

  // The claim's live-lease count, as the app's database has no statistics.
  const db = dbs.get("after")!;
  db.exec(
    `UPDATE "Invoice" SET "leaseOwner" = 'w', "leaseUntil" = '${iso(new Date(now.getTime() + 600_000))}' WHERE "id" IN (SELECT "id" FROM "Invoice" WHERE "state" = 'queued' LIMIT 4)`,
  );
  const busy = (hint: string) =>
    db.prepare(
      `SELECT "shopDomain", COUNT(*) AS "n" FROM "Invoice"${hint} WHERE "leaseUntil" >= ? GROUP BY "shopDomain"`,
    );
  const variants = [
    ["as the planner chose", busy("")],
    ["with the index named", busy(` INDEXED BY "Invoice_leaseUntil_idx"`)],
  ] as const;
  const times: Record<string, number[]> = {};
  for (let i = 0; i < 200; i++) {
    for (const [label, statement] of variants) {
      const start = performance.now();
      const rows = statement.all(iso(now)) as Array<{ n: number }>;
      (times[label] ??= []).push(performance.now() - start);
      if (rows.reduce((sum, row) => sum + Number(row.n), 0) !== 4) throw new Error(`${label}: wrong count`);
    }
  }
  for (const [label, statement] of variants) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${statement.source}`).all(iso(now)) as Array<{ detail: string }>)
      .map((row) => row.detail)
      .join("; ");
    print(`SQLite live-lease count ${label}: p50 ${median(times[label]).toFixed(3)} ms (${plan})`);
  }
  print(
    `  named ÷ planner's choice: ${(median(times["with the index named"]) / median(times["as the planner chose"])).toFixed(3)}×`,
  );
  for (const db of dbs.values()) db.close();
}

// ---------------------------------------------------------------- PostgreSQL
if (postgresUrl) {
  const clients = new Map<string, pg.Client>();
  const prismas = new Map<string, Db>();
  for (const [label, dir] of schemas) {
    const schema = `bench_partial_${label}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    await migrate(`${postgresUrl}${postgresUrl.includes("?") ? "&" : "?"}schema=${schema}`, dir);
    const client = new pg.Client({
      connectionString: postgresUrl,
      options: `-c search_path="${schema}" -c TimeZone=UTC`,
    });
    await client.connect();
    await client.query(
      `INSERT INTO "Shop" ("domain", "installedAt", "updatedAt") VALUES ('bench.myshopify.com', now(), now())`,
    );
    await client.query(
      `INSERT INTO "Invoice" (${COLUMNS}, "remoteId", "serialNumber")
       SELECT 'h' || g, 'bench.myshopify.com', 'h' || g, '#h' || g, now(), '7', 'Ayşe', 'ayse', '100.00', 'TRY', $1::jsonb, 'completed', NULL, 0, now(), now(), g, 'ARS2026' || lpad(g::text, 9, '0')
       FROM generate_series(1, $2::int) AS g`,
      [SNAPSHOT, HISTORY],
    );
    await client.query(`VACUUM ANALYZE "Invoice"`);
    clients.set(label, client);
    prismas.set(label, createDb(`${postgresUrl}${postgresUrl.includes("?") ? "&" : "?"}schema=${schema}`));
  }
  const results: Record<string, number[]> = { before: [], after: [] };
  const viaPrisma: Record<string, number[]> = { before: [], after: [] };
  let n = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label] of schemas) {
      const client = clients.get(label)!;
      const per = INSERTS / ROUNDS;
      const start = performance.now();
      for (let i = 0; i < per; i++) {
        n++;
        await client.query({
          name: `insert-${label}`,
          text: `INSERT INTO "Invoice" (${COLUMNS}) VALUES ($1, 'bench.myshopify.com', $1, $2, now(), '7', 'Ayşe', 'ayse', '100.00', 'TRY', $3::jsonb, 'queued', now(), 0, now(), now())`,
          values: [`n${n}`, `#n${n}`, SNAPSHOT],
        });
      }
      results[label].push(((performance.now() - start) * 1000) / per);
      viaPrisma[label].push(await prismaInserts(prismas.get(label)!, per, () => ++n));
    }
  }
  const [pb, pa] = [median(viaPrisma.before), median(viaPrisma.after)];
  for (const db of prismas.values()) await db.$disconnect();
  const [b, a] = [median(results.before), median(results.after)];
  print(
    `\nPostgreSQL insert through Prisma's client: before ${pb.toFixed(1)} µs, after ${pa.toFixed(1)} µs per row: after ÷ before ${(pa / pb).toFixed(3)}×`,
  );
  print(
    `PostgreSQL insert of a new row (one round trip, autocommit): before ${b.toFixed(1)} µs, after ${a.toFixed(1)} µs per row: after ÷ before ${(a / b).toFixed(3)}×`,
  );
  for (const client of clients.values()) await client.end();
}
