// The database package store (app/accountant/store.server.ts, docs/decisions/0046-accountant-package-store.md) on
// SQLite and PostgreSQL: a package built into the database is downloaded byte for byte by another process that shares
// nothing with the builder but the database (its own, empty ACCOUNTANT_PACKAGE_DIR); the download reads one chunk per
// query, only as the response asks for it; expiry, a redaction's rebuild and the shop's deletion delete the chunks;
// a package whose chunks are gone says so; housekeeping sweeps the working folders no package needs.
import { spawn } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { issuedInvoice, unzip } from "../helpers/accountant";
import { sandboxForEachTest } from "../helpers/pipeline";
import { prisma } from "../helpers/db";
import { APP_ORIGIN, SHOP } from "../helpers/shopify";
import { callRoute } from "../helpers/routes";
import { accountantPackageStore } from "../../app/env.server";
import { buildPackage } from "../../app/accountant/build.server";
import {
  expirePackages,
  rebuildPackagesCovering,
  requestPackage,
  signDownload,
  sweepOrphanDirs,
  ORPHAN_GRACE_MS,
} from "../../app/accountant/packages.server";
import { databaseStore, directoryStore, packageDir, type PackageStore } from "../../app/accountant/store.server";
import { chunkStatements } from "../../app/accountant/chunks.server";
import { TEXT } from "../../app/accountant/texts";
import { loader as download } from "../../app/routes/accountant-package.$token";

// Before the app's modules read the configuration: this file's processes keep packages in the database, whatever
// the database (the other accountant tests use the configured default).
const previousStore = vi.hoisted(() => {
  const previous = process.env.ACCOUNTANT_PACKAGE_STORE;
  process.env.ACCOUNTANT_PACKAGE_STORE = "database";
  return previous;
});

const sandbox = sandboxForEachTest({ formalizeDelayMs: 5 });
const PERIOD = { from: "2026-10-01", to: "2026-10-31" };
/** Small chunks, so that a package of two invoices is many of them. */
const SMALL_CHUNKS = 4096;

const folders: string[] = [];
function folder(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `accountant-${name}-`));
  folders.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  if (previousStore === undefined) delete process.env.ACCOUNTANT_PACKAGE_STORE;
  else process.env.ACCOUNTANT_PACKAGE_STORE = previousStore;
});

const chunksOf = (id: string) => prisma.accountantPackageChunk.count({ where: { packageId: id } });
const get = (token: string) => callRoute(download, new Request(`${APP_ORIGIN}/accountant-package/${token}`), { token });

/**
 * October's package of two invoices, built into the database in SMALL_CHUNKS pieces, working in a folder of its own;
 * with the ZIP's bytes as the build made them (copied on their way into the store).
 */
async function builtPackage(options: { stale?: boolean } = {}) {
  await issuedInvoice(sandbox, SHOP, { issue_date: "2026-10-05" });
  await issuedInvoice(sandbox, SHOP, { issue_date: "2026-10-06" });
  const root = folder("builder");
  const copy = path.join(folder("built"), "built.zip");
  const store = databaseStore(root, SMALL_CHUNKS);
  const teed: PackageStore = {
    ...store,
    put: async (id, file, base) => {
      copyFileSync(file, copy);
      return store.put(id, file, base);
    },
  };
  const { id } = (await requestPackage(SHOP, PERIOD, "tr")) as { id: string };
  // What an earlier attempt stopped while writing its chunks would have left.
  if (options.stale)
    for (const seq of [0, 500])
      await prisma.accountantPackageChunk.create({ data: { packageId: id, seq, bytes: Buffer.from("stale") } });
  expect(await buildPackage(id, { owner: "test", store: teed })).toBe(true);
  const row = await prisma.accountantPackage.findUniqueOrThrow({ where: { id } });
  expect(row).toMatchObject({ state: "ready", lastError: null });
  const bytes = readFileSync(copy);
  expect(Number(row.fileSize)).toBe(bytes.length);
  return { id, row, bytes, root, chunks: Math.ceil(bytes.length / SMALL_CHUNKS) };
}

/** The download route in another process, with its own empty package folder: what it answered and wrote. */
async function downloadElsewhere(token: string, emptyFolder: string) {
  const out = path.join(folder("download"), "package.zip");
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/package-download-child.ts", token, out], {
    env: { ...process.env, ACCOUNTANT_PACKAGE_DIR: emptyFolder, ACCOUNTANT_PACKAGE_STORE: "database" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", resolve);
  });
  expect(code, stdout).toBe(0);
  const answer = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
    status: number;
    headers: Record<string, string>;
    chunkQueries: number;
  };
  return { ...answer, bytes: readFileSync(out) };
}

describe("the database package store", () => {
  it("is this file's configured store", () => {
    expect(accountantPackageStore()).toBe("database");
  });

  it("gives another process that shares only the database the package byte for byte, one chunk per query", async () => {
    const built = await builtPackage({ stale: true });
    expect(built.chunks).toBeGreaterThan(2);
    // The earlier attempt's chunks were replaced; the builder's working folder is gone: only the database has it.
    expect(await chunksOf(built.id)).toBe(built.chunks);
    expect(readdirSync(built.root)).toEqual([]);

    const elsewhere = folder("web");
    const answer = await downloadElsewhere(signDownload(SHOP, built.id), elsewhere);
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({
      "content-type": "application/zip",
      "content-length": String(built.bytes.length),
      "content-disposition": 'attachment; filename="muhasebe-2026-10.zip"',
    });
    expect(answer.bytes.equals(built.bytes)).toBe(true);
    expect(answer.chunkQueries).toBe(built.chunks);
    expect(readdirSync(elsewhere)).toEqual([]);
    // Two PDFs, the workbook and four CSV files.
    expect((await unzip(answer.bytes)).size).toBe(2 + 5);
  }, 60_000);

  it("reads a chunk from the database only when the download asks for the next one", async () => {
    const built = await builtPackage();
    const reads = vi.spyOn(chunkStatements(), "read");
    try {
      const response = await get(signDownload(SHOP, built.id));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-length")).toBe(String(built.bytes.length));
      expect(reads).not.toHaveBeenCalled();
      const reader = response.body!.getReader();
      const parts: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        // Never ahead of the reader: one chunk asked for, one read.
        expect(reads).toHaveBeenCalledTimes(parts.length);
      }
      expect(parts.map((part) => part.length)).toEqual(
        Array.from({ length: built.chunks }, (_, i) =>
          i < built.chunks - 1 ? SMALL_CHUNKS : built.bytes.length - SMALL_CHUNKS * (built.chunks - 1),
        ),
      );
      expect(Buffer.concat(parts).equals(built.bytes)).toBe(true);
    } finally {
      reads.mockRestore();
    }
  });

  it("says so when the package's chunks are gone, and breaks off a download whose chunks go while it runs", async () => {
    const built = await builtPackage();
    const token = signDownload(SHOP, built.id);

    // Chunks going midway (deleted by hand while a download runs): the stream fails, it does not end short.
    const running = await get(token);
    const reader = running.body!.getReader();
    expect((await reader.read()).value!.length).toBe(SMALL_CHUNKS);
    await prisma.accountantPackageChunk.deleteMany({ where: { packageId: built.id, seq: { gt: 0 } } });
    await expect(reader.read()).rejects.toThrow(/chunk 1 went while it was downloaded/);

    // One chunk left of many, then none: the row still says ready, the download says the file is gone.
    for (const remaining of [1, 0]) {
      expect(await chunksOf(built.id)).toBe(remaining);
      const missing = await get(token);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe(TEXT.tr.fileMissing);
      await prisma.accountantPackageChunk.deleteMany({ where: { packageId: built.id } });
    }
  });

  it("deletes the chunks when the package expires, when a redaction rebuilds it and with the shop's data", async () => {
    const built = await builtPackage();
    expect(await expirePackages(new Date(built.row.expiresAt!.getTime() + 1))).toBe(1);
    expect(await chunksOf(built.id)).toBe(0);
    expect(await prisma.accountantPackage.findUniqueOrThrow({ where: { id: built.id } })).toMatchObject({
      state: "expired",
      fileSize: null,
    });
    expect((await get(signDownload(SHOP, built.id))).status).toBe(404);

    // Packages kept by hand: their ZIP's one chunk each.
    const kept = async (period: { from: string; to: string }) => {
      const row = await prisma.accountantPackage.create({
        data: {
          shopDomain: SHOP,
          fromDate: period.from,
          toDate: period.to,
          state: "ready",
          fileSize: BigInt(3),
          finishedAt: new Date(),
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      });
      await prisma.accountantPackageChunk.create({ data: { packageId: row.id, seq: 0, bytes: Buffer.from("zip") } });
      return row.id;
    };
    // A buyer of 12 September erased: September's package goes back to the queue without its chunks.
    const september = await kept({ from: "2026-09-01", to: "2026-09-30" });
    expect(await rebuildPackagesCovering(SHOP, ["2026-09-12"])).toBe(1);
    expect(await chunksOf(september)).toBe(0);
    // The shop's data deleted (shop/redact): its packages' rows, and so their chunks, go.
    const august = await kept({ from: "2026-08-01", to: "2026-08-31" });
    expect(await chunksOf(august)).toBe(1);
    await prisma.shop.delete({ where: { domain: SHOP } });
    expect(await prisma.accountantPackageChunk.count()).toBe(0);
  });

  it("sweeps a working folder no package needs once it is a day old: the directory store keeps a ready one's", async () => {
    const root = folder("sweep");
    const made = async (state: string) => {
      const row = await prisma.accountantPackage.create({
        data: { shopDomain: SHOP, fromDate: PERIOD.from, toDate: PERIOD.to, state },
      });
      mkdirSync(path.join(packageDir(row.id, root), "pdf"), { recursive: true });
      writeFileSync(path.join(packageDir(row.id, root), "pdf", "x.pdf"), "%PDF");
      return row.id;
    };
    // Left by a build another machine finished, or that failed; and one still building here.
    const ready = await made("ready");
    await made("failed");
    const building = await made("building");
    // Times from a folder's own mtime, which the file system gives (under libfaketime Node's stat is not faked).
    const at = statSync(packageDir(building, root)).mtimeMs;
    const later = new Date(at + ORPHAN_GRACE_MS + 60_000);
    expect(await sweepOrphanDirs(new Date(at + 60_000), databaseStore(root))).toBe(0);
    expect(await sweepOrphanDirs(later, directoryStore(root))).toBe(1);
    expect(readdirSync(root).sort()).toEqual([building, ready].sort());
    expect(await sweepOrphanDirs(later, databaseStore(root))).toBe(1);
    expect(readdirSync(root)).toEqual([building]);
  });
});
