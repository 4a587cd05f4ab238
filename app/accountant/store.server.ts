// Where finished accountant packages are kept (docs/decisions/0046-accountant-package-store.md): two stores behind one
// interface, chosen by ACCOUNTANT_PACKAGE_STORE (app/env.server.ts).
//   - directory: the ZIP stays a file under ACCOUNTANT_PACKAGE_DIR, as it was built (the embedded default, SQLite):
//     only processes sharing that disk can serve it.
//   - database: the ZIP is streamed into AccountantPackageChunk rows of about 1 MiB and streamed back out one chunk
//     per query (the default on PostgreSQL): any web process on any machine serves it, never whole in memory. The
//     statements that carry the bytes go through the driver (app/accountant/chunks.server.ts).
// Either way a build works in a local folder per package under the store's root (its PDFs, the workbook, the ZIP being
// written); only the finished ZIP goes into the store. The package row is what says a kept ZIP is whole: it is
// `ready`, with its `fileSize`, only after `put` has returned.
import { createReadStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import prisma from "../db.server";
import { accountantPackageStore, env, type PackageStoreKind } from "../env.server";
import { chunkStatements } from "./chunks.server";

/** A package id as a folder name: checked before any path is made of it. */
export const PACKAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The database store's chunk: big enough that a month of PDFs is a few hundred rows, small enough to hold one. */
export const CHUNK_BYTES = 1024 * 1024;

export interface PackageStore {
  readonly kind: PackageStoreKind;
  /** The local folder builds work in, one sub-folder per package (the directory store keeps the ZIPs there too). */
  readonly root: string;
  /** Keeps the finished ZIP at `file` (a file in the package's folder, taken away) as the package's. Returns its bytes. */
  put(id: string, file: string, base: string): Promise<number>;
  /** The kept ZIP as a stream, or null when it is not there whole (`size`: the bytes the package row says it has). */
  open(id: string, base: string, size: number): Promise<ReadableStream<Uint8Array> | null>;
  /** Deletes the kept ZIP and this machine's working folder of the package. */
  remove(id: string): Promise<void>;
}

/** The local folder of one package (its PDFs while it builds; the directory store's ZIP). */
export function packageDir(id: string, root = env().ACCOUNTANT_PACKAGE_DIR): string {
  if (!PACKAGE_ID.test(id)) throw new Error("invalid package id");
  return path.resolve(root, id);
}

export function zipPath(id: string, base: string, root?: string): string {
  return path.join(packageDir(id, root), `${base}.zip`);
}

/** The store this process's configuration names. */
export function packageStore(root = env().ACCOUNTANT_PACKAGE_DIR, kind = accountantPackageStore()): PackageStore {
  return kind === "database" ? databaseStore(root) : directoryStore(root);
}

export function directoryStore(root = env().ACCOUNTANT_PACKAGE_DIR): PackageStore {
  return {
    kind: "directory",
    root,
    async put(id, file, base) {
      // Renamed into place when whole: a reader never sees a ZIP half written.
      const target = zipPath(id, base, root);
      await rename(file, target);
      return (await stat(target)).size;
    },
    async open(id, base, size) {
      const file = zipPath(id, base, root);
      // The file itself, not only the row: a folder lost or cleaned by hand is missing, not a broken download.
      const found = await stat(file).catch(() => null);
      if (!found || found.size !== size) return null;
      return Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    },
    async remove(id) {
      await rm(packageDir(id, root), { recursive: true, force: true });
      // Chunks kept while the database store was configured: expiry deletes them whichever store came after.
      await prisma.accountantPackageChunk.deleteMany({ where: { packageId: id } });
    },
  };
}

/** COUNT and SUM in raw SQL: a number on SQLite, a bigint on PostgreSQL. */
type Numeric = number | bigint;

export function databaseStore(root = env().ACCOUNTANT_PACKAGE_DIR, chunkBytes = CHUNK_BYTES): PackageStore {
  const chunks = prisma.accountantPackageChunk;
  const statements = chunkStatements();
  return {
    kind: "database",
    root,
    async put(id, file) {
      // An earlier attempt's chunks (a build stopped while writing them) go first. No transaction: one over hundreds
      // of megabytes would hold SQLite's write lock throughout; the row is marked ready only after the last chunk.
      await chunks.deleteMany({ where: { packageId: id } });
      const handle = await open(file, "r");
      // One buffer for every chunk: the driver is done with it once its write has returned.
      const bytes = Buffer.alloc(chunkBytes);
      let size = 0;
      try {
        for (let seq = 0; ; seq++) {
          let filled = 0;
          // A read may return less than asked: a chunk is filled to its size, only the last one is shorter.
          while (filled < chunkBytes) {
            const { bytesRead } = await handle.read(bytes, filled, chunkBytes - filled, null);
            if (bytesRead === 0) break;
            filled += bytesRead;
          }
          if (filled === 0) break;
          await statements.write(id, seq, bytes.subarray(0, filled));
          size += filled;
          if (filled < chunkBytes) break;
        }
      } finally {
        await handle.close();
      }
      await rm(file, { force: true });
      return size;
    },
    async open(id, _base, size) {
      // Chunks 0..n-1, every one of them, holding the row's bytes: anything else (expired, deleted by hand) is missing.
      // Prisma cannot sum the lengths of a Bytes column: the same SQL on both databases does.
      const [stored] = await prisma.$queryRaw<Array<{ chunks: Numeric; last: Numeric | null; bytes: Numeric | null }>>`
        SELECT COUNT(*) AS "chunks", MAX("seq") AS "last", SUM(LENGTH("bytes")) AS "bytes"
        FROM "AccountantPackageChunk" WHERE "packageId" = ${id}`;
      const count = Number(stored.chunks);
      if (Number(stored.bytes ?? 0) !== size || Number(stored.last ?? -1) !== count - 1) return null;
      let seq = 0;
      let sent = 0;
      // highWaterMark 0: a chunk is read from the database only when the response asks for the next one.
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            if (seq === count) {
              if (sent === size) controller.close();
              else controller.error(new Error(`accountant package ${id}: ${sent} bytes stored, ${size} expected`));
              return;
            }
            const chunk = await statements.read(id, seq);
            if (!chunk) {
              controller.error(new Error(`accountant package ${id}: chunk ${seq} went while it was downloaded`));
              return;
            }
            seq += 1;
            sent += chunk.length;
            controller.enqueue(chunk);
          },
        },
        { highWaterMark: 0 },
      );
    },
    async remove(id) {
      await chunks.deleteMany({ where: { packageId: id } });
      await rm(packageDir(id, root), { recursive: true, force: true });
    },
  };
}
