// Builds one accountant package in the worker (docs/decisions/0038-accountant-package.md):
//   1. lease the row (one builder over all processes; the lease is renewed while it works, a dead builder's row is
//      taken again once its lease runs out);
//   2. list the period's legal invoices (completed, live, issue date in the period), page by page, and those the
//      merchant issued in the invoicing panel and recorded in the app during the period (serials only);
//   3. read each formal PDF from the service with the shop's key, ACCOUNTANT_PDF_CONCURRENCY at once, streamed to
//      its own file (a PDF is never held whole in memory); a PDF on disk from an earlier attempt is not read again, so
//      a restart goes on where the build stopped. A PDF that cannot be read is retried with backoff a few times, then
//      named in the package (its sheet, its CSV and a text file), never skipped silently;
//   4. write the workbook and the CSV files, stream everything into one ZIP (yazl) in the package's local folder, and
//      hand the whole ZIP to the package store (app/accountant/store.server.ts: kept as a file, or in the database).
// Progress (total, PDFs on disk, PDFs missing) is written to the row every PROGRESS_MS.
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { DateTime } from "luxon";
import yazl from "yazl";
import prisma from "../db.server";
import { env } from "../env.server";
import { logger } from "../logger.server";
import { apiKeyFor } from "../settings/settings.server";
import { dateIn, zoneOrTurkey } from "../orders/dates";
import { STATE } from "../invoice-state/transitions";
import { closureFrom } from "../invoices/closure";
import { pdfFileName } from "../pdf/formal-pdf.server";
import { listReturns } from "../after-sale/returns.server";
import { csvDate, defaultDecimal, returnPathText, type CsvDecimal, type CsvOptions } from "../after-sale/returns-csv";
import { retryDelayMs } from "../jobs/backoff";
import { writeCsv, writeWorkbook } from "./files.server";
import { defaultClientFor, PDF_ATTEMPTS, PDF_RETRY_BASE_MS, readPdf, type PdfOpener } from "./pdf-read.server";
import { keepNewestReady } from "./packages.server";
import { packageDir, packageStore, type PackageStore } from "./store.server";
import {
  contentOf,
  failuresText,
  failuresTextName,
  invoiceFacts,
  issueDateOf,
  packageBaseName,
  packageTables,
  type FactsResult,
  type PanelInvoice,
  type PdfFailure,
} from "./workbook";

export interface BuildOptions {
  owner: string;
  now?: () => Date;
  /** The service's client (tests pass the sandbox's; default: the real client with a download's timeout). */
  clientFor?: PdfOpener;
  /** PDFs read at once; default ACCOUNTANT_PDF_CONCURRENCY. */
  concurrency?: number;
  /** Where the package is built (a folder under its root) and kept; default the configured store. */
  store?: PackageStore;
  /** The row's lease, renewed every third of it; default 60 s. */
  leaseMs?: number;
  /** Tries per PDF, and the first retry's delay (doubling, with jitter). */
  pdfAttempts?: number;
  pdfRetryBaseMs?: number;
  random?: () => number;
  /** Called once the PDFs are read (a test stops the build there to see a restart go on). */
  afterPdfs?: () => Promise<void>;
  /** The worker is stopping: the build stops at its next step and gives its lease back (not counted as an attempt). */
  stopping?: () => boolean;
}

/** A build that crashed is tried again after a backoff; after this many, the package is failed with the error. */
export const MAX_BUILD_ATTEMPTS = 5;
const LEASE_MS = 60_000;
const PROGRESS_MS = 500;
const PAGE = 500;
/** Invoices are looked for among rows created up to this long after the period and updated since this long before it. */
const SLACK_DAYS = 2;

class LeaseLost extends Error {
  constructor() {
    super("the package's lease was lost (another worker took it over)");
  }
}

class Interrupted extends Error {
  constructor() {
    super("the worker is stopping");
  }
}

/** Builds the package if this worker gets its lease. Returns whether it ran (finished, failed or will be retried). */
export async function buildPackage(id: string, options: BuildOptions): Promise<boolean> {
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const start = now();
  const leased = await prisma.accountantPackage.updateMany({
    where: { id, state: { in: ["queued", "building"] }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: start } }] },
    data: {
      state: "building",
      leaseOwner: options.owner,
      leaseUntil: new Date(start.getTime() + leaseMs),
      attempts: { increment: 1 },
    },
  });
  if (leased.count !== 1) return false;
  const row = await prisma.accountantPackage.findUniqueOrThrow({ where: { id } });
  if (!row.startedAt)
    await prisma.accountantPackage.updateMany({ where: { id, leaseOwner: options.owner }, data: { startedAt: start } });
  const log = logger.child({ shop: row.shopDomain, package: id });
  const held = { id, leaseOwner: options.owner };
  let lost = false;
  // The heartbeat: the lease is renewed while the build works; a renewal that finds the row taken stops the build.
  const heartbeat = setInterval(
    () => {
      prisma.accountantPackage
        .updateMany({ where: held, data: { leaseUntil: new Date(now().getTime() + leaseMs) } })
        .then(({ count }) => {
          if (count === 0) lost = true;
        })
        .catch((error: unknown) => log.warn({ err: error }, "accountant package: renewing the lease failed"));
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  try {
    await build(row, options, () => (lost ? "lost" : options.stopping?.() ? "stopping" : null), log);
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof LeaseLost) {
      log.warn("accountant package: lease lost, the other worker goes on");
      return true;
    }
    if (error instanceof Interrupted) {
      // A restart is not a failure: the next worker goes on with the PDFs on disk, at once.
      await prisma.accountantPackage.updateMany({
        where: held,
        data: { leaseOwner: null, leaseUntil: null, attempts: { decrement: 1 } },
      });
      log.info("accountant package: build interrupted by the worker's stop; it goes on at the next start");
      return true;
    }
    // `row` was read after the lease counted this attempt.
    const final = row.attempts >= MAX_BUILD_ATTEMPTS;
    log.error({ err: error, attempt: row.attempts, final }, "accountant package: the build failed");
    await prisma.accountantPackage.updateMany({
      where: held,
      data: final
        ? {
            state: "failed",
            lastError: message.slice(0, 500),
            leaseOwner: null,
            leaseUntil: null,
            nextAttemptAt: null,
            finishedAt: now(),
          }
        : {
            lastError: message.slice(0, 500),
            leaseOwner: null,
            leaseUntil: null,
            nextAttemptAt: new Date(now().getTime() + retryDelayMs(row.attempts, options.random, 5_000, 10 * 60_000)),
          },
    });
    if (final) await (options.store ?? packageStore()).remove(id).catch(() => undefined);
    return true;
  } finally {
    clearInterval(heartbeat);
  }
}

type Row = Awaited<ReturnType<typeof prisma.accountantPackage.findUniqueOrThrow>>;

/** The package's decimal separator: the merchant's choice, else the language's own (a comma in Turkish). */
export function csvDecimalOf(chosen: string | null, locale: "tr" | "en"): CsvDecimal {
  return chosen === "comma" || chosen === "point" ? chosen : defaultDecimal(locale);
}

/**
 * The invoices the merchant issued in the invoicing panel and recorded in the app during the period (closed by hand
 * with the panel's serial, on a day of the period in the shop's zone): their serials belong in the books.
 */
async function panelInvoices(
  row: Row,
  bounds: ReturnType<typeof candidateBounds>,
  zone: string,
): Promise<PanelInvoice[]> {
  const found: PanelInvoice[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await prisma.invoice.findMany({
      where: {
        shopDomain: row.shopDomain,
        state: STATE.closed,
        isTest: false,
        serialNumber: { not: null },
        updatedAt: { gte: bounds.updatedSince },
        ...(cursor ? { id: { gt: cursor } } : {}),
      },
      orderBy: { id: "asc" },
      take: PAGE,
      select: { id: true, orderName: true, serialNumber: true, closure: true },
    });
    for (const invoice of page) {
      const closure = closureFrom(invoice.closure);
      const recordedOn = closure?.as === "panel" ? dateIn(closure.at, zone) : undefined;
      if (!recordedOn || recordedOn < row.fromDate || recordedOn > row.toDate) continue;
      found.push({
        id: invoice.id,
        orderName: invoice.orderName,
        serialNumber: invoice.serialNumber!,
        recordedOn,
        note: closure?.reason ?? "",
      });
    }
    if (page.length < PAGE) break;
    cursor = page[page.length - 1].id;
  }
  return found;
}

interface Item {
  id: string;
  remoteId: number;
  serialNumber: string | null;
  ettn: string | null;
  issueDate: string;
  orderName: string;
}

/** UTC instants bounding the rows that can hold an invoice issued in [from, to] (days in `zone`), with slack. */
function candidateBounds(from: string, to: string, zone: string) {
  return {
    updatedSince: DateTime.fromISO(from, { zone }).minus({ days: SLACK_DAYS }).toJSDate(),
    createdBefore: DateTime.fromISO(to, { zone })
      .plus({ days: 1 + SLACK_DAYS })
      .toJSDate(),
  };
}

async function build(
  row: Row,
  options: BuildOptions,
  interruption: () => "lost" | "stopping" | null,
  log: typeof logger,
) {
  const now = options.now ?? (() => new Date());
  const store = options.store ?? packageStore();
  const locale = row.locale === "en" ? "en" : "tr";
  const shop = await prisma.shop.findUniqueOrThrow({
    where: { domain: row.shopDomain },
    select: { timezone: true, settings: { select: { baseUrl: true } } },
  });
  const zone = zoneOrTurkey(shop.timezone);
  const dir = packageDir(row.id, store.root);
  const pdfDir = path.join(dir, "pdf");
  await mkdir(pdfDir, { recursive: true });
  const check = () => {
    const why = interruption();
    if (why === "lost") throw new LeaseLost();
    if (why === "stopping") throw new Interrupted();
  };

  // 2. The period's legal invoices, a page at a time: the facts of each (small) are kept, its stored body is not.
  // An invoice is issued while it is posted, so its row was created before its issue date ended and updated after
  // it began; the issue date itself (the invoice's own, in the shop's zone) decides.
  const bounds = candidateBounds(row.fromDate, row.toDate, zone);
  const items: Item[] = [];
  const facts: FactsResult[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await prisma.invoice.findMany({
      where: {
        shopDomain: row.shopDomain,
        state: "completed",
        isTest: false,
        postedInTestMode: false,
        remoteId: { not: null },
        createdAt: { lt: bounds.createdBefore },
        updatedAt: { gte: bounds.updatedSince },
        ...(cursor ? { id: { gt: cursor } } : {}),
      },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        orderName: true,
        serialNumber: true,
        ettn: true,
        documentKind: true,
        remoteId: true,
        requestBody: true,
        fiscalRecord: true,
        remoteTotals: true,
        orderCreatedAt: true,
      },
    });
    for (const invoice of page) {
      const issueDate = issueDateOf(invoice.fiscalRecord ?? invoice.requestBody);
      if (!issueDate || issueDate < row.fromDate || issueDate > row.toDate) continue;
      items.push({
        id: invoice.id,
        remoteId: invoice.remoteId!,
        serialNumber: invoice.serialNumber,
        ettn: invoice.ettn,
        issueDate,
        orderName: invoice.orderName,
      });
      facts.push(invoiceFacts({ ...invoice, remoteId: invoice.remoteId! }, zone));
    }
    if (page.length < PAGE) break;
    cursor = page[page.length - 1].id;
  }
  const panel = await panelInvoices(row, bounds, zone);
  items.sort(
    (a, b) =>
      a.issueDate.localeCompare(b.issueDate) ||
      (a.serialNumber ?? "").localeCompare(b.serialNumber ?? "") ||
      a.id.localeCompare(b.id),
  );
  check();

  // 3. The PDFs: those on disk already (an earlier attempt's) count as done.
  const onDisk = new Set(
    (await readdir(pdfDir)).filter((name) => name.endsWith(".pdf")).map((name) => name.slice(0, -4)),
  );
  const failures: PdfFailure[] = [];
  let done = items.filter((item) => onDisk.has(item.id)).length;
  let lastProgress = 0;
  const progress = async (force = false) => {
    if (!force && Date.now() - lastProgress < PROGRESS_MS) return;
    lastProgress = Date.now();
    const { count } = await prisma.accountantPackage.updateMany({
      where: { id: row.id, leaseOwner: options.owner },
      data: { total: items.length, pdfDone: done, pdfFailed: failures.length },
    });
    if (count === 0) throw new LeaseLost();
  };
  await progress(true);
  const todo = items.filter((item) => !onDisk.has(item.id));
  if (todo.length > 0) {
    const apiKey = await apiKeyFor(row.shopDomain);
    const baseUrl = shop.settings?.baseUrl;
    if (!apiKey || !baseUrl)
      throw new Error("the shop has no invoicing API key: save it in Settings, then ask for the package again");
    const client = (options.clientFor ?? defaultClientFor)({ baseUrl, apiKey });
    const attempts = options.pdfAttempts ?? PDF_ATTEMPTS;
    const baseMs = options.pdfRetryBaseMs ?? PDF_RETRY_BASE_MS;
    let refusedKey = false;
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        check();
        const item = todo[next++];
        const outcome = refusedKey
          ? { ok: false as const, reason: "authentication", attempts: 0 }
          : await readPdf(client, item.remoteId, path.join(pdfDir, item.id), attempts, baseMs, options.random);
        if (outcome.ok) done += 1;
        else {
          if (outcome.reason === "authentication") refusedKey = true;
          failures.push({
            invoiceId: item.id,
            serialNumber: item.serialNumber,
            ettn: item.ettn,
            issueDate: item.issueDate,
            orderName: item.orderName,
            reason: outcome.reason,
            attempts: outcome.attempts,
          });
        }
        await progress();
      }
    };
    await Promise.all(
      Array.from(
        { length: Math.max(1, Math.min(options.concurrency ?? env().ACCOUNTANT_PDF_CONCURRENCY, todo.length)) },
        worker,
      ),
    );
    await progress(true);
    if (failures.length)
      log.warn(
        { missing: failures.length, of: items.length },
        "accountant package: some PDFs could not be read; they are named in the package",
      );
  }
  await options.afterPdfs?.();
  check();

  // 4. The workbook, the CSV files and the ZIP.
  const base = packageBaseName(row.fromDate, row.toDate, locale);
  const refundedFrom = DateTime.fromISO(row.fromDate, { zone }).toJSDate();
  const refundedTo = DateTime.fromISO(row.toDate, { zone }).plus({ days: 1 }).toJSDate();
  const returns = await listReturns(row.shopDomain, zone, now(), { refundedFrom, refundedTo });
  failures.sort(
    (a, b) => a.issueDate.localeCompare(b.issueDate) || (a.serialNumber ?? "").localeCompare(b.serialNumber ?? ""),
  );
  const builtOn = DateTime.fromJSDate(now(), { zone }).toISODate()!;
  const content = contentOf(facts, returns, failures, { panel, period: { to: row.toDate, builtOn } });
  const csv: CsvOptions = { locale, decimal: csvDecimalOf(row.csvDecimal, locale), zone };
  const tables = packageTables(content, locale, zone, (r) => returnPathText(r, locale, (day) => csvDate(day, locale)));
  const work = path.join(dir, "work");
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await writeWorkbook(path.join(work, `${base}.xlsx`), tables, locale);
  for (const table of tables) await writeCsv(path.join(work, `${table.file}.csv`), table, csv);
  if (failures.length || content.unreadable.length)
    await writeFile(
      path.join(work, failuresTextName(locale)),
      failuresText(content, locale, { from: row.fromDate, to: row.toDate }),
    );
  check();

  const part = path.join(dir, `${base}.zip.part`);
  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, createWriteStream(part));
  const folder = locale === "tr" ? "faturalar" : "invoices";
  const failed = new Set(failures.map((f) => f.invoiceId));
  for (const item of items) {
    if (failed.has(item.id)) continue;
    // PDFs are compressed already: stored as they are (no CPU spent for nothing).
    zip.addFile(
      path.join(pdfDir, `${item.id}.pdf`),
      `${folder}/${item.issueDate}_${pdfFileName(item.serialNumber, item.remoteId)}`,
      { compress: false },
    );
  }
  for (const name of (await readdir(work)).sort()) zip.addFile(path.join(work, name), name);
  zip.end();
  await written;
  check();
  const size = await store.put(row.id, part, base);
  const finished = now();
  const ttlMs = env().ACCOUNTANT_PACKAGE_TTL_HOURS * 3_600_000;
  const { count } = await prisma.accountantPackage.updateMany({
    where: { id: row.id, leaseOwner: options.owner },
    data: {
      state: "ready",
      total: items.length,
      pdfDone: done,
      pdfFailed: failures.length,
      fileSize: BigInt(size),
      expiresAt: new Date(finished.getTime() + ttlMs),
      finishedAt: finished,
      lastError: null,
      leaseOwner: null,
      leaseUntil: null,
      nextAttemptAt: null,
    },
  });
  if (count === 0) throw new LeaseLost();
  // Only the ZIP is kept: the PDFs and the workbook go, and the whole folder once the ZIP is in the database.
  if (store.kind === "directory") {
    await rm(pdfDir, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  } else await rm(dir, { recursive: true, force: true });
  log.info(
    { invoices: items.length, missing: failures.length, bytes: size, store: store.kind },
    "accountant package ready",
  );
  await keepNewestReady(row.shopDomain, undefined, store);
}
