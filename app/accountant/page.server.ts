// The accountant package page's server side: the shop's packages with their progress and download links, the months
// to choose from (in the shop's time zone), and the merchant's request. The shop always comes from the session.
import { DateTime } from "luxon";
import { z } from "zod";
import prisma from "../db.server";
import { env } from "../env.server";
import { zoneOrTurkey } from "../orders/dates";
import type { Locale } from "../i18n/i18n";
import { listPackages, monthPeriod, requestPackage, type RequestResult } from "./packages.server";

/** Months offered in the picker: this one and the 23 before it. */
const MONTHS_SHOWN = 24;

export async function accountantPage(shop: string, now = new Date()) {
  const row = await prisma.shop.findUnique({ where: { domain: shop }, select: { timezone: true } });
  const zone = zoneOrTurkey(row?.timezone);
  const today = DateTime.fromJSDate(now, { zone });
  const months = Array.from({ length: MONTHS_SHOWN }, (_, i) =>
    today.startOf("month").minus({ months: i }).toFormat("yyyy-MM"),
  );
  return {
    zone,
    today: today.toISODate()!,
    months,
    // The month an accountant asks for: the one that ended (this one on its last day).
    defaultMonth: months[1],
    defaultFrom: today.startOf("month").toISODate()!,
    ttlHours: env().ACCOUNTANT_PACKAGE_TTL_HOURS,
    packages: await listPackages(shop, now, zone),
  };
}

const Decimal = z.enum(["comma", "point"]).optional();
const ActionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("month"), month: z.string().max(7), decimal: Decimal }),
  z.object({ kind: z.literal("range"), from: z.string().max(10), to: z.string().max(10), decimal: Decimal }),
]);

export type AccountantActionResult = RequestResult | { ok: false; reason: "invalid" };

export async function accountantAction(
  shop: string,
  input: unknown,
  locale: Locale,
  now = new Date(),
): Promise<AccountantActionResult> {
  const parsed = ActionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, reason: "invalid" };
  const period =
    parsed.data.kind === "month" ? monthPeriod(parsed.data.month) : { from: parsed.data.from, to: parsed.data.to };
  if (!period) return { ok: false, reason: "invalid" };
  return requestPackage(shop, { ...period, csvDecimal: parsed.data.decimal }, locale, now);
}
