// Claiming due rows with a lease, safely with many worker processes.
// - Fairness: each shop's rows are taken oldest first, the shops in rounds (a shop with fewer rows in flight
//   first, ties in random order, so every shop with due rows gets an equal part of the slots over time), and no
//   shop gets more than `perShopLimit` rows in flight (counted over all workers by live leases), so one large
//   shop, or the shops whose orders came first, cannot starve the rest.
// - Exclusivity: on PostgreSQL the chosen rows are locked with FOR UPDATE SKIP LOCKED and leased in the
//   same statement; on SQLite, where writes are serialised, the one statement that picks them leases them.
// - Cost: the choice and the lease are one prepared statement (app/db/hot.server.ts claimRows), not the two
//   groupBy per priority and one findMany per shop it took through Prisma: every wake-up of a worker claims. It
//   reads only each shop's first due rows per priority (an index on shopDomain, priority, nextAttemptAt, id),
//   not every due row: its cost grows with the number of shops, not with the backlog.
// - Priority: live rows (priority 0: webhooks, reconciliation, the bulk action) are picked first, over all
//   shops; past-orders rows (priority 1) only fill the slots left, so a backfill of thousands of orders
//   never holds up an order paid a minute ago. The per-shop share counts both.
import { randomUUID } from "node:crypto";
import { hot } from "../db.server";
import { PRIORITIES } from "./states";

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

export async function claimDueRows(options: ClaimOptions): Promise<ClaimedRow[]> {
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const claimed = await hot().claimRows({
    owner: options.workerId,
    now: options.now,
    leaseUntil,
    limit: options.limit,
    perShopLimit: options.perShopLimit,
    priorities: PRIORITIES,
  });
  return claimed.map((row) => ({ ...row, leaseOwner: options.workerId }));
}
