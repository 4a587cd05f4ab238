// The worker's claim (app/db/hot.server.ts claimRows) with many due rows: ms per claim of the app's statement against
// the statement before issue 14's claim index (kept below as it was), in the same run, on SQLite and, with
// --postgres=URL, on PostgreSQL; and each one's plan (EXPLAIN QUERY PLAN / EXPLAIN ANALYZE of the generic plan).
// Seed: --due=10000 due rows of --shops=100 shops (Zipf sizes, as the pipeline bench's fairness run), 2 rows in
// flight for each of the first 8 shops, and --history=20000 finished rows (no next attempt). Each claim leases
// rows; they are released (untimed) before the next one, so every claim sees the same rows.
// Run: npx tsx bench/claim.bench.ts [--postgres=postgresql://postgres@127.0.0.1:5432/test] [--claims=200]
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const DUE = Number(args.get("due") ?? 10_000);
const SHOPS = Number(args.get("shops") ?? 100);
const HISTORY = Number(args.get("history") ?? 20_000);
const CLAIMS = Number(args.get("claims") ?? 200);
const LIMIT = Number(args.get("limit") ?? 16);
const PER_SHOP = Number(args.get("per-shop") ?? 2);
const postgresUrl = args.get("postgres");

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const print = (text: string) => process.stdout.write(`${text}\n`);
const { migrate } = await import("../app/db/migrate");
const { createDb } = await import("../app/db/client");
const { createHotStatements } = await import("../app/db/hot.server");
const { claimRowsSql } = await import("../app/db/hot-sql");
const { PRIORITIES } = await import("../app/invoices/states");

// ---------------------------------------------------------------- the statement before the index (ranks every due row)
const OLD_CHOICE = (p: (name: "now" | "perShop" | "limit") => string) => `busy AS (
    SELECT "shopDomain", COUNT(*) AS "n" FROM "Invoice" WHERE "leaseUntil" >= ${p("now")} GROUP BY "shopDomain"
  ), due AS (
    SELECT i."id", i."shopDomain", i."priority",
      ROW_NUMBER() OVER (PARTITION BY i."shopDomain" ORDER BY i."priority", i."nextAttemptAt", i."id") AS "inShop",
      ROW_NUMBER() OVER (PARTITION BY i."shopDomain", i."priority" ORDER BY i."nextAttemptAt", i."id") AS "round"
    FROM "Invoice" AS i
    WHERE i."nextAttemptAt" <= ${p("now")} AND (i."leaseUntil" IS NULL OR i."leaseUntil" < ${p("now")})
  ), picked AS (
    SELECT d."id" FROM due AS d LEFT JOIN busy AS b ON b."shopDomain" = d."shopDomain"
    WHERE d."inShop" <= ${p("perShop")} - COALESCE(b."n", 0)
    ORDER BY d."priority", d."round" + COALESCE(b."n", 0), RANDOM()
    LIMIT ${p("limit")}
  )`;
const OLD_SQLITE = `WITH ${OLD_CHOICE((name) => `@${name}`)}
  UPDATE "Invoice" SET "leaseOwner" = @owner, "leaseUntil" = @until, "state" = CASE WHEN "remoteId" IS NULL THEN 'sending' ELSE "state" END, "updatedAt" = @updated
  WHERE "id" IN (SELECT "id" FROM picked)
  RETURNING "id", "shopDomain", "priority", "nextAttemptAt"`;
const OLD_PG = `WITH ${OLD_CHOICE((name) => ({ now: "$1::timestamp(3)", perShop: "$2::int", limit: "$3::int" })[name])}, locked AS (
    SELECT i."id" FROM "Invoice" AS i
    WHERE i."id" IN (SELECT "id" FROM picked) AND i."nextAttemptAt" <= $1::timestamp(3) AND (i."leaseUntil" IS NULL OR i."leaseUntil" < $1::timestamp(3))
    FOR UPDATE SKIP LOCKED
  )
  UPDATE "Invoice" AS u SET "leaseOwner" = $4, "leaseUntil" = $5::timestamp(3), "state" = CASE WHEN u."remoteId" IS NULL THEN 'sending' ELSE u."state" END, "updatedAt" = $6::timestamp(3)
  FROM locked WHERE u."id" = locked."id"
  RETURNING u."id", u."shopDomain", u."priority", u."nextAttemptAt"`;

// ---------------------------------------------------------------- seed
const now = new Date();
const shops = Array.from({ length: SHOPS }, (_, k) => `claim-${String(k).padStart(3, "0")}.myshopify.com`);
const weights = shops.map((_, k) => 1 / (k + 1));
const total = weights.reduce((a, b) => a + b, 0);
const sizes = weights.map((w) => Math.max(1, Math.round((w / total) * DUE)));
interface SeedRow {
  id: string;
  shop: string;
  order: number;
  state: string;
  next: Date | null;
  owner: string | null;
  until: Date | null;
}
function seedRows(): SeedRow[] {
  const rows: SeedRow[] = [];
  let n = 0;
  const add = (
    shop: string,
    state: string,
    next: Date | null,
    owner: string | null = null,
    until: Date | null = null,
  ) => rows.push({ id: `c${String(n).padStart(8, "0")}`, shop, order: n++, state, next, owner, until });
  shops.forEach((shop, k) => {
    for (let i = 0; i < sizes[k]; i++) add(shop, "queued", new Date(now.getTime() - 3_600_000 + n));
  });
  for (let k = 0; k < 8; k++)
    for (let i = 0; i < 2; i++)
      add(shops[k], "sending", new Date(now.getTime() - 7_200_000), "w-busy", new Date(now.getTime() + 600_000));
  for (let i = 0; i < HISTORY; i++) add(shops[i % SHOPS], "completed", null);
  return rows;
}
const rows = seedRows();
const dueCount = rows.filter((row) => row.next && !row.owner).length;

const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)], mean: values.reduce((a, b) => a + b, 0) / values.length };
};
const report = (label: string, before: number[], after: number[]) => {
  const [b, a] = [ms(before), ms(after)];
  print(
    `${label}: before p50 ${b.p50.toFixed(2)} ms (mean ${b.mean.toFixed(2)}), after p50 ${a.p50.toFixed(2)} ms (mean ${a.mean.toFixed(2)}): after ÷ before ${(a.p50 / b.p50).toFixed(3)}×`,
  );
};

print(
  `claim bench: ${dueCount} due rows of ${SHOPS} shops, ${HISTORY} finished rows, 16 in flight; limit ${LIMIT}, ${PER_SHOP} per shop; ${CLAIMS} claims each`,
);

/** The old and the new claim, CLAIMS times each, alternating, each followed by `release`: ms per claim and rows claimed. */
async function alternate(
  claimOld: () => number | Promise<number>,
  claimNew: () => Promise<number>,
  release: () => unknown,
) {
  const before: number[] = [];
  const after: number[] = [];
  let claimedBefore = 0;
  let claimedAfter = 0;
  for (let i = 0; i < CLAIMS; i++) {
    let t = performance.now();
    claimedBefore += await claimOld();
    before.push(performance.now() - t);
    await release();
    t = performance.now();
    claimedAfter += await claimNew();
    after.push(performance.now() - t);
    await release();
  }
  return { before, after, claimedBefore, claimedAfter };
}

// ---------------------------------------------------------------- SQLite
{
  const file = path.join(root, "tmp", "bench", "claim.sqlite");
  mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const url = `file:${file}`;
  await migrate(url, root);
  const sqlite = new Database(file);
  const iso = (date: Date | null) => (date ? date.toISOString().replace("Z", "+00:00") : null);
  const insertShop = sqlite.prepare(`INSERT INTO "Shop" ("domain", "installedAt", "updatedAt") VALUES (?, ?, ?)`);
  const insert =
    sqlite.prepare(`INSERT INTO "Invoice" ("id", "shopDomain", "orderId", "orderName", "orderCreatedAt", "orderTotal", "currency", "orderSnapshot", "state",
    "nextAttemptAt", "leaseOwner", "leaseUntil", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, '1.00', 'TRY', '{}', ?, ?, ?, ?, ?, ?)`);
  sqlite.transaction(() => {
    for (const shop of shops) insertShop.run(shop, iso(now), iso(now));
    for (const row of rows)
      insert.run(
        row.id,
        row.shop,
        String(row.order),
        `#${row.order}`,
        iso(now),
        row.state,
        iso(row.next),
        row.owner,
        iso(row.until),
        iso(now),
        iso(now),
      );
  })();
  sqlite.exec("ANALYZE");
  const release = sqlite.prepare(
    `UPDATE "Invoice" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "state" = 'queued' WHERE "leaseOwner" = 'bench'`,
  );
  const old = sqlite.prepare(OLD_SQLITE);
  const params = () => ({
    now: iso(now),
    perShop: PER_SHOP,
    limit: LIMIT,
    owner: "bench",
    until: iso(new Date(now.getTime() + 60_000)),
    updated: iso(new Date()),
  });
  const newParams = () => ({ ...params(), priorities: JSON.stringify(PRIORITIES) });
  const db = createDb(url);
  const hot = createHotStatements(url, db);
  const claimNew = () =>
    hot.claimRows({
      owner: "bench",
      now,
      leaseUntil: new Date(now.getTime() + 60_000),
      limit: LIMIT,
      perShopLimit: PER_SHOP,
      priorities: PRIORITIES,
    });
  await claimNew();
  release.run();
  const { before, after, claimedBefore, claimedAfter } = await alternate(
    () => old.all(params()).length,
    async () => (await claimNew()).length,
    () => void release.run(),
  );
  print(`\nSQLite (rows claimed per claim: before ${claimedBefore / CLAIMS}, after ${claimedAfter / CLAIMS})`);
  report("SQLite ms per claim", before, after);
  const planOf = (sql: string, values: object) =>
    (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values) as Array<{ detail: string }>)
      .map((row) => `    ${row.detail}`)
      .join("\n");
  print(`  plan before:\n${planOf(OLD_SQLITE, params())}`);
  print(`  plan after:\n${planOf(claimRowsSql.sqlite, newParams())}`);
  await hot.close();
  await db.$disconnect();
  sqlite.close();
}

// ---------------------------------------------------------------- PostgreSQL
if (postgresUrl) {
  const schema = "bench_claim";
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const url = `${postgresUrl}${postgresUrl.includes("?") ? "&" : "?"}schema=${schema}`;
  await migrate(url, root);
  const client = new pg.Client({
    connectionString: postgresUrl,
    options: `-c search_path="${schema}" -c TimeZone=UTC`,
  });
  await client.connect();
  const ts = (date: Date | null) => (date ? date.toISOString().replace("Z", "") : null);
  await client.query(
    `INSERT INTO "Shop" ("domain", "installedAt", "updatedAt") SELECT unnest($1::text[]), $2::timestamp(3), $2::timestamp(3)`,
    [shops, ts(now)],
  );
  for (let i = 0; i < rows.length; i += 5000) {
    const part = rows.slice(i, i + 5000).map((row) => ({
      id: row.id,
      shop: row.shop,
      order: String(row.order),
      state: row.state,
      next: ts(row.next),
      owner: row.owner,
      until: ts(row.until),
    }));
    await client.query(
      `INSERT INTO "Invoice" ("id", "shopDomain", "orderId", "orderName", "orderCreatedAt", "orderTotal", "currency", "orderSnapshot", "state", "nextAttemptAt", "leaseOwner", "leaseUntil", "createdAt", "updatedAt")
       SELECT r."id", r."shop", r."order", '#' || r."order", $2::timestamp(3), '1.00', 'TRY', '{}', r."state", r."next", r."owner", r."until", $2::timestamp(3), $2::timestamp(3)
       FROM jsonb_to_recordset($1::jsonb) AS r("id" text, "shop" text, "order" text, "state" text, "next" timestamp(3), "owner" text, "until" timestamp(3))`,
      [JSON.stringify(part), ts(now)],
    );
  }
  await client.query(`VACUUM ANALYZE "Invoice"`);
  const release = () =>
    client.query(
      `UPDATE "Invoice" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "state" = 'queued' WHERE "leaseOwner" = 'bench'`,
    );
  const values = () => [ts(now), PER_SHOP, LIMIT, "bench", ts(new Date(now.getTime() + 60_000)), ts(new Date())];
  const db = createDb(url);
  const hot = createHotStatements(url, db);
  const claimNew = () =>
    hot.claimRows({
      owner: "bench",
      now,
      leaseUntil: new Date(now.getTime() + 60_000),
      limit: LIMIT,
      perShopLimit: PER_SHOP,
      priorities: PRIORITIES,
    });
  await claimNew();
  await release();
  const { before, after, claimedBefore, claimedAfter } = await alternate(
    async () => (await client.query({ name: "old-claim", text: OLD_PG, values: values() })).rowCount ?? 0,
    async () => (await claimNew()).length,
    release,
  );
  print(`\nPostgreSQL (rows claimed per claim: before ${claimedBefore / CLAIMS}, after ${claimedAfter / CLAIMS})`);
  report("PostgreSQL ms per claim (with the round trip)", before, after);
  // The plan the app runs: a named prepared statement gets a generic plan after five executions.
  await client.query("SET plan_cache_mode = force_generic_plan");
  const types = "timestamp(3), int, int, text, timestamp(3), timestamp(3)";
  for (const [label, sql, argTypes, args] of [
    ["before", OLD_PG, types, values()],
    ["after", claimRowsSql.postgresql, `${types}, int[]`, [...values(), `{${PRIORITIES.join(",")}}`]],
  ] as const) {
    await client.query(`PREPARE "plan-${label}" (${argTypes}) AS ${sql}`);
    await client.query("BEGIN");
    const literals = args.map((value) => (typeof value === "number" ? String(value) : `'${value}'`)).join(", ");
    const { rows: plan } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) EXECUTE "plan-${label}" (${literals})`);
    await client.query("ROLLBACK");
    print(`  plan ${label}:\n${plan.map((row) => `    ${row["QUERY PLAN"]}`).join("\n")}`);
  }
  await hot.close();
  await db.$disconnect();
  await client.end();
}
