// The two statements that carry a package chunk's bytes (AccountantPackageChunk, app/accountant/store.server.ts), through
// the database driver rather than Prisma's client: Prisma 7 passes a Bytes value through its query compiler, whose
// WebAssembly memory grew by about 150 MB, never given back, while a 128 MiB package was written in 1 MiB chunks
// (3× slower than the driver), and $executeRaw kept 200 MB on the heap (docs/decisions/0046-accountant-package-store.md).
// On SQLite they run on Prisma's own connection, as the hot statements do (a second connection could hold the write
// lock between a Prisma transaction's read and its write); on PostgreSQL on a small pool of their own.
import type pg from "pg";
import prisma from "../db.server";
import { sqliteConnectionOf } from "../db/client";
import { postgresConnectionString, postgresSchema, providerOf } from "../db/provider";
import { env } from "../env.server";

export interface ChunkStatements {
  write(packageId: string, seq: number, bytes: Uint8Array): Promise<void>;
  /** One chunk's bytes, or null when it is not there. */
  read(packageId: string, seq: number): Promise<Uint8Array | null>;
}

const INSERT = `INSERT INTO "AccountantPackageChunk" ("packageId", "seq", "bytes") VALUES `;
const SELECT = `SELECT "bytes" FROM "AccountantPackageChunk" WHERE "packageId" = `;

function sqliteStatements(): ChunkStatements {
  return {
    async write(packageId, seq, bytes) {
      const db = await sqliteConnectionOf(prisma);
      db.prepare(`${INSERT}(?, ?, ?)`).run(packageId, seq, bytes);
    },
    async read(packageId, seq) {
      const db = await sqliteConnectionOf(prisma);
      const row = db.prepare(`${SELECT}? AND "seq" = ?`).get(packageId, seq) as { bytes: Uint8Array } | undefined;
      return row?.bytes ?? null;
    },
  };
}

function postgresStatements(databaseUrl: string): ChunkStatements {
  const schema = postgresSchema(databaseUrl);
  let pool: Promise<pg.Pool> | undefined;
  // Imported at the first chunk: a process that never stores or serves a package does not load the driver for it.
  const connect = () =>
    (pool ??= import("pg").then(({ default: driver }) => {
      const made = new driver.Pool({
        connectionString: postgresConnectionString(databaseUrl),
        // A build writes one chunk at a time, a download reads one: two connections, closed when idle.
        max: 2,
        allowExitOnIdle: true,
        options: `-c search_path="${schema}"`,
        application_name: `e-fatura:${schema}`.slice(0, 63),
      });
      made.on("error", () => undefined); // an idle connection that dies is replaced on the next query
      return made;
    }));
  return {
    async write(packageId, seq, bytes) {
      await (await connect()).query(`${INSERT}($1, $2, $3)`, [packageId, seq, bytes]);
    },
    async read(packageId, seq) {
      // pg parses the bytea's hex text into a Buffer (its binary results decode bytes as text: unusable here).
      const { rows } = await (await connect()).query<{ bytes: Buffer }>(`${SELECT}$1 AND "seq" = $2`, [packageId, seq]);
      return rows[0]?.bytes ?? null;
    },
  };
}

let statements: ChunkStatements | undefined;

/** This process's chunk statements, for its database. */
export function chunkStatements(): ChunkStatements {
  const url = env().DATABASE_URL;
  statements ??= providerOf(url) === "sqlite" ? sqliteStatements() : postgresStatements(url);
  return statements;
}
