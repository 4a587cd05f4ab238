// Accountant packages of a shop ("Muhasebeci paketi"): asking for one, what the admin page shows of them, the signed
// short-lived link that downloads a finished one, and housekeeping (expired packages deleted). The build itself is
// app/accountant/build.server.ts, run by the worker; where a finished ZIP is kept, app/accountant/store.server.ts.
// Every function that takes a shop reads that shop's rows only.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readdir, rm, stat } from "node:fs/promises";
import { DateTime } from "luxon";
import prisma from "../db.server";
import { env } from "../env.server";
import { logger } from "../logger.server";
import { dateIn, TURKEY_ZONE, zoneOrTurkey } from "../orders/dates";
import type { CsvDecimal } from "../after-sale/returns-csv";
import { signalWork } from "../jobs/signal.server";
import type { Locale } from "../i18n/i18n";
import { lastDayOfMonth, packageBaseName } from "./workbook";
import { TEXT } from "./texts";
import { PACKAGE_ID, packageDir, packageStore, type PackageStore } from "./store.server";

export const PACKAGE_STATES = ["queued", "building", "ready", "failed", "expired"] as const;
export type PackageState = (typeof PACKAGE_STATES)[number];
export const ACTIVE_PACKAGE_STATES: PackageState[] = ["queued", "building"];

/** A period longer than this is refused (a year and a day: a leap year's whole). */
export const MAX_PERIOD_DAYS = 366;
/** How long a download link works after the page made it. */
export const DOWNLOAD_LINK_TTL_MS = 15 * 60_000;

export type PeriodProblem = "invalid" | "order" | "future" | "too_long";

/** A period of whole days in the shop's time zone: both ends included, not after today, at most MAX_PERIOD_DAYS. */
export function periodProblem(from: string, to: string, today: string): PeriodProblem | null {
  const a = DateTime.fromISO(from, { zone: "UTC" });
  const b = DateTime.fromISO(to, { zone: "UTC" });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to) || !a.isValid || !b.isValid)
    return "invalid";
  if (from > to) return "order";
  if (from > today) return "future";
  if (b.diff(a, "days").days + 1 > MAX_PERIOD_DAYS) return "too_long";
  return null;
}

/** A month ("2026-11") as its first and last day. */
export function monthPeriod(month: string): { from: string; to: string } | null {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) return null;
  return { from: `${month}-01`, to: lastDayOfMonth(month) };
}

export type RequestResult = { ok: true; id: string } | { ok: false; reason: PeriodProblem | "busy" | "no_shop" };

/** Asks the worker for a package of [from, to] (days in the shop's zone). One package at a time per shop is built. */
export async function requestPackage(
  shop: string,
  period: { from: string; to: string; csvDecimal?: CsvDecimal },
  locale: Locale,
  now = new Date(),
): Promise<RequestResult> {
  const row = await prisma.shop.findUnique({ where: { domain: shop }, select: { timezone: true } });
  if (!row) return { ok: false, reason: "no_shop" };
  const today = DateTime.fromJSDate(now, { zone: zoneOrTurkey(row.timezone) }).toISODate()!;
  const problem = periodProblem(period.from, period.to, today);
  if (problem) return { ok: false, reason: problem };
  const busy = await prisma.accountantPackage.count({
    where: { shopDomain: shop, state: { in: ACTIVE_PACKAGE_STATES } },
  });
  if (busy) return { ok: false, reason: "busy" };
  const created = await prisma.accountantPackage.create({
    data: {
      shopDomain: shop,
      fromDate: period.from,
      toDate: period.to,
      locale,
      csvDecimal: period.csvDecimal ?? null,
      state: "queued",
      nextAttemptAt: now,
      createdAt: now,
    },
  });
  await signalWork();
  return { ok: true, id: created.id };
}

// ---- Signed download links

const sign = (payload: string) =>
  createHmac("sha256", env().SHOPIFY_API_SECRET).update(`accountant-package:${payload}`).digest("base64url");

/** The path part that downloads this shop's package for DOWNLOAD_LINK_TTL_MS: /accountant-package/{token}. */
export function signDownload(shop: string, id: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ s: shop, p: id, e: now + DOWNLOAD_LINK_TTL_MS })).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

export function verifyDownload(token: string, now = Date.now()): { shop: string; id: string } | null {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined || payload.length > 1024) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      s?: unknown;
      p?: unknown;
      e?: unknown;
    };
    if (
      typeof data.s !== "string" ||
      typeof data.p !== "string" ||
      !PACKAGE_ID.test(data.p) ||
      typeof data.e !== "number" ||
      data.e < now
    )
      return null;
    return { shop: data.s, id: data.p };
  } catch {
    return null;
  }
}

export type DownloadGrant =
  { ok: true; body: ReadableStream<Uint8Array>; fileName: string; size: number } | { ok: false; text: string };

/**
 * The finished, unexpired package the token names: looked up by its id AND the token's shop, and streamed from the
 * store. A package the store no longer holds whole (its files or chunks deleted by hand) is refused with words that
 * say so, in the package's language, rather than a download that breaks halfway.
 */
export async function packageForDownload(
  token: string,
  now = new Date(),
  store: PackageStore = packageStore(),
): Promise<DownloadGrant> {
  const grant = verifyDownload(token, now.getTime());
  if (!grant) return { ok: false, text: "Not Found" };
  const row = await prisma.accountantPackage.findFirst({
    where: { id: grant.id, shopDomain: grant.shop, state: "ready", expiresAt: { gt: now } },
  });
  if (!row || row.fileSize === null) return { ok: false, text: "Not Found" };
  const locale = row.locale === "en" ? "en" : "tr";
  const base = packageBaseName(row.fromDate, row.toDate, locale);
  const size = Number(row.fileSize);
  const body = await store.open(row.id, base, size);
  if (!body) {
    logger.warn({ shop: grant.shop, package: row.id, store: store.kind }, "accountant package: its ZIP is missing");
    return { ok: false, text: TEXT[locale].fileMissing };
  }
  return { ok: true, body, fileName: `${base}.zip`, size };
}

// ---- What the page shows

export interface PackageView {
  id: string;
  from: string;
  to: string;
  state: PackageState;
  total: number;
  pdfDone: number;
  pdfFailed: number;
  fileSize: number | null;
  expiresAt: string | null;
  createdAt: string;
  finishedAt: string | null;
  lastError: string | null;
  /** A signed link valid for DOWNLOAD_LINK_TTL_MS, for a ready package only. */
  downloadPath: string | null;
  /** Built on or before its period's last day (in the shop's zone): the period's later invoices are not in it. */
  builtBeforeEnd: boolean;
}

export const PACKAGES_SHOWN = 10;

export async function listPackages(shop: string, now = new Date(), zone = TURKEY_ZONE): Promise<PackageView[]> {
  const rows = await prisma.accountantPackage.findMany({
    where: { shopDomain: shop },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: PACKAGES_SHOWN,
  });
  return rows.map((row) => {
    const ready = row.state === "ready" && row.expiresAt !== null && row.expiresAt > now;
    return {
      id: row.id,
      from: row.fromDate,
      to: row.toDate,
      state: (row.state === "ready" && !ready ? "expired" : row.state) as PackageState,
      total: row.total,
      pdfDone: row.pdfDone,
      pdfFailed: row.pdfFailed,
      fileSize: row.fileSize === null ? null : Number(row.fileSize),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      lastError: row.lastError,
      downloadPath: ready ? `/accountant-package/${signDownload(shop, row.id, now.getTime())}` : null,
      builtBeforeEnd: (dateIn((row.finishedAt ?? now).toISOString(), zone) ?? "") <= row.toDate,
    };
  });
}

/** Ready packages a shop keeps at once (the page lists the last PACKAGES_SHOWN): a year of monthly packages. */
export const READY_KEPT = 12;

/**
 * A shop keeps its READY_KEPT newest ready packages: an older one's file goes and it is marked expired, so a shop
 * asking for package after package cannot fill the disk (issue 35, point 11). Returns how many went.
 */
export async function keepNewestReady(
  shop: string,
  keep = READY_KEPT,
  store: PackageStore = packageStore(),
): Promise<number> {
  const older = await prisma.accountantPackage.findMany({
    where: { shopDomain: shop, state: "ready" },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    skip: keep,
    select: { id: true },
  });
  for (const { id } of older) {
    await store.remove(id);
    await prisma.accountantPackage.updateMany({
      where: { id, state: "ready" },
      data: { state: "expired", fileSize: null },
    });
  }
  if (older.length > 0)
    logger.info({ shop, packages: older.length }, "older accountant packages removed: a shop keeps 12");
  return older.length;
}

/**
 * Packages of the shop whose period holds one of these issue days (customers/redact erased a buyer of theirs): their
 * files go at once, and they are built again without the person, as a new package is (back to queued). Returns how many.
 */
export async function rebuildPackagesCovering(
  shop: string,
  days: string[],
  store: PackageStore = packageStore(),
): Promise<number> {
  if (days.length === 0) return 0;
  const packages = await prisma.accountantPackage.findMany({
    where: { shopDomain: shop, state: { in: ["ready", ...ACTIVE_PACKAGE_STATES] } },
    select: { id: true, fromDate: true, toDate: true },
  });
  const affected = packages.filter((p) => days.some((day) => day >= p.fromDate && day <= p.toDate));
  for (const { id } of affected) {
    await store.remove(id);
    await prisma.accountantPackage.updateMany({
      where: { id },
      data: {
        state: "queued",
        nextAttemptAt: new Date(),
        attempts: 0,
        leaseOwner: null,
        leaseUntil: null,
        fileSize: null,
        expiresAt: null,
        total: 0,
        pdfDone: 0,
        pdfFailed: 0,
        startedAt: null,
        finishedAt: null,
        lastError: null,
      },
    });
  }
  if (affected.length > 0) {
    logger.info({ shop, packages: affected.length }, "accountant packages built again after a customer's redaction");
    await signalWork();
  }
  return affected.length;
}

/** The package the worker builds next, if any: queued, or building with its lease run out, and its next attempt due. */
export async function nextDuePackage(now: Date): Promise<string | null> {
  const row = await prisma.accountantPackage.findFirst({
    where: {
      state: { in: ["queued", "building"] },
      OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }],
      AND: [{ OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] }],
    },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  return row?.id ?? null;
}

// ---- Housekeeping

/** Deletes the files (or chunks) of packages past their time and marks them expired. Returns how many. */
export async function expirePackages(now = new Date(), store: PackageStore = packageStore()): Promise<number> {
  const due = await prisma.accountantPackage.findMany({
    where: { state: "ready", expiresAt: { lte: now } },
    select: { id: true },
    take: 500,
  });
  let expired = 0;
  for (const { id } of due) {
    try {
      await store.remove(id);
    } catch (error) {
      logger.warn(
        { err: error, package: id },
        "accountant package: deleting its files failed; tried again at the next housekeeping",
      );
      continue;
    }
    const { count } = await prisma.accountantPackage.updateMany({
      where: { id, state: "ready" },
      data: { state: "expired", fileSize: null },
    });
    expired += count;
  }
  if (expired) logger.info({ packages: expired }, "expired accountant packages deleted");
  return expired;
}

/** A folder no package needs is left alone this long (its row may be being created, in another process). */
export const ORPHAN_GRACE_MS = 24 * 3_600_000;

/**
 * Deletes the package folders under the store's root that no package needs any more and that were not touched for
 * ORPHAN_GRACE_MS: those whose row is gone (the shop's data deleted after it uninstalled, or a row removed by hand),
 * and those left by a build that another machine finished or that failed. A queued or building package's folder
 * holds the PDFs its build goes on with; a ready one's holds its ZIP in the directory store only. Returns how many.
 */
export async function sweepOrphanDirs(now = new Date(), store: PackageStore = packageStore()): Promise<number> {
  const names = await readdir(store.root).catch(() => [] as string[]);
  const ids = names.filter((name) => PACKAGE_ID.test(name));
  if (ids.length === 0) return 0;
  const needed = new Set<string>();
  const kept: string[] = store.kind === "directory" ? [...ACTIVE_PACKAGE_STATES, "ready"] : ACTIVE_PACKAGE_STATES;
  for (let at = 0; at < ids.length; at += 500) {
    for (const row of await prisma.accountantPackage.findMany({
      where: { id: { in: ids.slice(at, at + 500) }, state: { in: kept } },
      select: { id: true },
    }))
      needed.add(row.id);
  }
  let swept = 0;
  for (const id of ids.filter((name) => !needed.has(name))) {
    const dir = packageDir(id, store.root);
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory() || now.getTime() - info.mtimeMs < ORPHAN_GRACE_MS) continue;
    await rm(dir, { recursive: true, force: true });
    swept += 1;
  }
  if (swept) logger.info({ directories: swept }, "accountant package folders no package needs deleted");
  return swept;
}
