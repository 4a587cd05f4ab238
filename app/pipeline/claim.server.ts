// Claiming due rows with a lease, safely with many worker processes.
// - Fairness: candidates are picked per shop, oldest first, and no shop gets more than `perShopLimit`
//   rows in flight (counted over all workers by live leases), so one large shop cannot starve the rest.
// - Exclusivity: on PostgreSQL the chosen rows are locked with FOR UPDATE SKIP LOCKED and leased in the
//   same transaction; on SQLite, where writes are serialised, each row is leased with an atomic
//   conditional update that only succeeds while the row is still due.
// - Priority: live rows (priority 0: webhooks, reconciliation, the bulk action) are picked first, over all
//   shops; past-orders rows (priority 1) only fill the slots left, so a backfill of thousands of orders
//   never holds up an order paid a minute ago. The per-shop share counts both.
import { randomUUID } from "node:crypto";
import prisma, { dbProvider, hot, type Db } from "../db.server";

export interface ClaimOptions {
  workerId: string;
  now: Date;
  limit: number;
  perShopLimit: number;
  leaseMs: number;
}

export interface ClaimedRow {
  id: string;
  shopDomain: string;
  leaseOwner: string;
}

export const newWorkerId = () => `worker-${process.pid}-${randomUUID().slice(0, 8)}`;

function dueWhere(now: Date) {
  return { nextAttemptAt: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] };
}

type Pick = { id: string; shopDomain: string };

/**
 * Up to `limit` due row ids of one priority, oldest first, at most each shop's free share (its live leases
 * and the rows `taken` already count against it).
 */
async function candidates(db: Db, options: ClaimOptions, priority: number, limit: number, taken: Pick[]): Promise<Pick[]> {
  const { now, perShopLimit } = options;
  if (limit <= 0) return [];
  const [dueShops, busy] = await Promise.all([
    db.invoice.groupBy({
      by: ["shopDomain"],
      where: { priority, ...dueWhere(now) },
      _min: { nextAttemptAt: true },
      orderBy: { _min: { nextAttemptAt: "asc" } },
      take: 200,
    }),
    db.invoice.groupBy({ by: ["shopDomain"], where: { leaseUntil: { gte: now } }, _count: { _all: true } }),
  ]);
  const inFlight = new Map(busy.map((row) => [row.shopDomain, row._count._all]));
  for (const pick of taken) inFlight.set(pick.shopDomain, (inFlight.get(pick.shopDomain) ?? 0) + 1);
  const perShop = await Promise.all(
    dueShops.map(async ({ shopDomain }) => {
      const free = perShopLimit - (inFlight.get(shopDomain) ?? 0);
      if (free <= 0) return [];
      return db.invoice.findMany({
        where: { shopDomain, priority, ...dueWhere(now) },
        orderBy: { nextAttemptAt: "asc" },
        take: Math.min(free, limit),
        select: { id: true, shopDomain: true },
      });
    }),
  );
  // Round-robin over shops: every shop's first row before any shop's second.
  const picked: Pick[] = [];
  for (let round = 0; picked.length < limit; round++) {
    let any = false;
    for (const rows of perShop) {
      if (rows[round]) {
        any = true;
        picked.push(rows[round]);
        if (picked.length === limit) break;
      }
    }
    if (!any) break;
  }
  return picked;
}

/** Live rows first, then past-orders rows into the slots left. */
async function prioritisedCandidates(db: Db, options: ClaimOptions): Promise<Pick[]> {
  const live = await candidates(db, options, 0, options.limit, []);
  const past = await candidates(db, options, 1, options.limit - live.length, live);
  return [...live, ...past];
}

export async function claimDueRows(options: ClaimOptions, db: Db = prisma): Promise<ClaimedRow[]> {
  const picks = await prioritisedCandidates(db, options);
  if (picks.length === 0) return [];
  const ids = picks.map((pick) => pick.id);
  const shopOf = new Map(picks.map((pick) => [pick.id, pick.shopDomain]));
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const lease = { leaseOwner: options.workerId, leaseUntil };

  if (dbProvider() === "postgresql") {
    return db.$transaction(async (tx) => {
      const locked = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id FROM "Invoice" WHERE id = ANY($1::text[]) FOR UPDATE SKIP LOCKED`,
        ids,
      );
      // Under the row locks, keep only rows still due (another worker may have just finished one).
      const due = await tx.invoice.findMany({
        where: { id: { in: locked.map((row) => row.id) }, ...dueWhere(options.now) },
        select: { id: true, shopDomain: true, remoteId: true },
      });
      // A post shows "sending"; a status read keeps the state the merchant sees.
      const toPost = due.filter((row) => row.remoteId === null).map((row) => row.id);
      const toRead = due.filter((row) => row.remoteId !== null).map((row) => row.id);
      if (toPost.length) await tx.invoice.updateMany({ where: { id: { in: toPost } }, data: { ...lease, state: "sending" } });
      if (toRead.length) await tx.invoice.updateMany({ where: { id: { in: toRead } }, data: lease });
      // In the order picked (live rows first): the caller starts them in this order.
      const won = new Set(due.map((row) => row.id));
      return picks.filter((pick) => won.has(pick.id)).map((pick) => ({ ...pick, leaseOwner: options.workerId }));
    });
  }

  // SQLite: one prepared conditional update per row (a post shows "sending"; a status read keeps its state).
  const claimed: ClaimedRow[] = [];
  for (const id of ids) {
    if (await hot().leaseRow(id, options.workerId, leaseUntil, options.now)) claimed.push({ id, shopDomain: shopOf.get(id)!, leaseOwner: options.workerId });
  }
  return claimed;
}

/** The earliest moment a row becomes due, to sleep until then. */
export async function nextDueAt(db: Db = prisma): Promise<Date | null> {
  const row = await db.invoice.findFirst({
    where: { nextAttemptAt: { not: null } },
    orderBy: { nextAttemptAt: "asc" },
    select: { nextAttemptAt: true, leaseUntil: true },
  });
  if (!row?.nextAttemptAt) return null;
  return row.leaseUntil && row.leaseUntil > row.nextAttemptAt ? row.leaseUntil : row.nextAttemptAt;
}
