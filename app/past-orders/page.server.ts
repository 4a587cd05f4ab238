// The past-orders page's server side: the shop's latest run and reconciliation, and the merchant's actions.
// Every function takes the shop from the authenticated session; a run id of another shop finds nothing.
import { DateTime } from "luxon";
import { z } from "zod";
import prisma from "../db.server";
import { zoneOrTurkey } from "../orders/dates";
import { env } from "../env.server";
import { DRY_RUNS, RUN_STARTS, RECONCILE_NOW } from "../http/throttle.server";
import { logger } from "../logger.server";
import {
  discardRun,
  latestRun,
  pauseRun,
  resumeRun,
  startDryRun,
  startRun,
  DAYS_WITHOUT_ALL_ORDERS,
  type RunActionResult,
} from "./runs.server";
import { reconcileShop, reconciliationStatus, type ReconcileResult } from "../reconciliation/reconcile.server";
import type { OrderReader } from "../shopify/order-reader";

/** The scopes the shop granted (the offline session's), else the ones the app asks for. */
async function grantedScopes(shop: string): Promise<string[]> {
  const session = await prisma.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } });
  return (session?.scope ?? env().SCOPES)
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
}

async function zoneOf(shop: string): Promise<string> {
  const row = await prisma.shop.findUnique({ where: { domain: shop }, select: { timezone: true } });
  return zoneOrTurkey(row?.timezone);
}

export async function pastOrdersPage(shop: string, now = new Date()) {
  const zone = await zoneOf(shop);
  const today = DateTime.fromJSDate(now, { zone });
  const scopes = await grantedScopes(shop);
  return {
    run: await latestRun(shop),
    reconciliation: await reconciliationStatus(shop),
    zone,
    today: today.toISODate()!,
    defaultFrom: today.minus({ days: 30 }).toISODate()!,
    // Without read_all_orders, the earliest day Shopify serves.
    earliest: scopes.includes("read_all_orders")
      ? null
      : today.minus({ days: DAYS_WITHOUT_ALL_ORDERS }).plus({ days: 1 }).toISODate()!,
    days: DAYS_WITHOUT_ALL_ORDERS,
  };
}

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("dry_run"), from: z.iso.date(), to: z.iso.date() }),
  z.object({ intent: z.enum(["start", "pause", "resume", "discard"]), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("reconcile") }),
]);

export type PastOrdersActionResult =
  | { intent: "reconcile"; result: ReconcileResult }
  | { intent: string; result: RunActionResult }
  | { intent: "invalid"; result: { ok: false; reason: "invalid" } };

/** Dry runs read the shop's orders, starts and resumes queue them: a burst of either is throttled per shop. */
async function throttled(shop: string, intent: "dry_run" | "start" | "resume", now: Date): Promise<boolean> {
  const verdict = await (intent === "dry_run" ? DRY_RUNS : RUN_STARTS).take(shop, now.getTime());
  if (verdict.allowed) {
    if (verdict.refusedBefore > 0)
      logger.info({ shop, intent, refused: verdict.refusedBefore }, "past orders: a burst of requests is over");
    return false;
  }
  if (verdict.firstRefusal)
    logger.warn({ shop, intent }, "past orders: too many requests in a short time; refused until they slow down");
  return true;
}

export async function pastOrdersAction(
  shop: string,
  input: unknown,
  reader: OrderReader,
  owner: string,
  now = new Date(),
): Promise<PastOrdersActionResult> {
  const parsed = ActionSchema.safeParse(input);
  if (!parsed.success) return { intent: "invalid", result: { ok: false, reason: "invalid" } };
  const action = parsed.data;
  if (
    (action.intent === "dry_run" || action.intent === "start" || action.intent === "resume") &&
    (await throttled(shop, action.intent, now))
  ) {
    return { intent: action.intent, result: { ok: false, reason: "throttled" } };
  }
  switch (action.intent) {
    case "dry_run": {
      const zone = await zoneOf(shop);
      // Whole days in the shop's time zone: from the first day's start to the last day's end.
      const from = DateTime.fromISO(action.from, { zone }).startOf("day").toJSDate();
      const to = DateTime.fromISO(action.to, { zone }).plus({ days: 1 }).startOf("day").toJSDate();
      const end = to > now ? now : to;
      return { intent: action.intent, result: await startDryRun(shop, from, end, await grantedScopes(shop), now) };
    }
    case "start":
      return { intent: action.intent, result: await startRun(shop, action.id, now) };
    case "pause":
      return { intent: action.intent, result: await pauseRun(shop, action.id, now) };
    case "resume":
      return { intent: action.intent, result: await resumeRun(shop, action.id, now) };
    case "discard":
      return { intent: action.intent, result: await discardRun(shop, action.id, now) };
    case "reconcile":
      // Each pass reads the shop's orders through the Admin API: a burst of "check now" is refused (issue 35, point 11).
      if (!(await RECONCILE_NOW.take(shop, now.getTime())).allowed)
        return { intent: "reconcile", result: { status: "throttled" } };
      // Asked for: the worker runs it too if this pass is turned away (another is running).
      await prisma.reconciliation.upsert({
        where: { shopDomain: shop },
        create: { shopDomain: shop, requestedAt: now },
        update: { requestedAt: now },
      });
      return { intent: "reconcile", result: await reconcileShop(shop, { reader, owner }) };
  }
}
