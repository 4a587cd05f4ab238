// A call to the shop's account-level webhook. Its payload is not documented, so its content is never
// trusted or used: after the path secret is verified, a call only asks for the shop's invoices at the
// service to be read again now (at most once per HINT_INTERVAL_MS per shop, over all processes), and the
// shape of what arrived is logged, without a single value, so that the payload can be learned.
import prisma from "../db.server";
import { BODY_LIMITS, readBodyLimited } from "../http/body-limit.server";
import { ACCOUNT_WEBHOOK_FAILURES } from "../http/throttle.server";
import { isShopDomain } from "../shopify/shop-domain";
import { logger } from "../logger.server";
import { verifyAccountWebhook } from "../settings/account-webhook.server";
import { signalWork } from "../jobs/signal.server";
import { fromStates } from "../invoice-state/transitions";

export const HINT_INTERVAL_MS = 30_000;
/** Invoices made due by one call; the next call (after the interval) takes the next ones. */
export const HINT_BATCH = 200;

export type HintOutcome = {
  status: 200 | 401 | 429;
  body: { ok: boolean; error?: string; reread?: number; throttled?: boolean };
  /** With a 429: seconds until the shop's address is read again. */
  retryAfter?: number;
};

export async function receiveAccountWebhook(
  shop: string,
  secret: string,
  request: Request,
  now = new Date(),
  caller = "unknown caller",
): Promise<HintOutcome> {
  // The address is checked first, so a call with the right one always goes through. Failed calls are counted per
  // caller (the peer's address), never per shop of the path, which anyone can name: a flood of wrong addresses for a
  // shop slows its sender down, not the service's calls for that shop (issue 35, point 4). A caller over its budget
  // is answered 429, and the burst is logged once when it starts and once when it ends. The path's secret part is
  // never logged.
  const logShop = shop.slice(0, 100);
  if (!isShopDomain(shop) || !(await verifyAccountWebhook(shop, secret))) {
    const failure = await ACCOUNT_WEBHOOK_FAILURES.take(caller, now.getTime());
    if (!failure.allowed) {
      if (failure.firstRefusal)
        logger.warn(
          { shop: logShop, caller },
          "account webhook: too many calls with an unknown address from one caller; refused (429) and not logged until they stop",
        );
      return {
        status: 429,
        body: { ok: false, error: "too many failed calls" },
        retryAfter: Math.ceil(failure.retryAfterMs / 1000),
      };
    }
    if (failure.refusedBefore > 0)
      logger.warn(
        { caller, refused: failure.refusedBefore },
        "account webhook: a burst of calls with an unknown address is over",
      );
    // The first failure after a quiet time is logged; the rest of a burst is counted, and logged as a burst.
    else if (failure.quiet) logger.warn({ shop: logShop, caller }, "account webhook with an unknown address rejected");
    return { status: 401, body: { ok: false, error: "unknown address" } };
  }
  // A body over the limit throws the shared 413 answer (app/http/body-limit.server.ts).
  const raw = await readBodyLimited(request, BODY_LIMITS.accountWebhook);

  // The rate limit is a conditional write on the shop's settings row, so it holds across processes.
  const admitted = await prisma.shopSettings.updateMany({
    where: {
      shopDomain: shop,
      OR: [
        { accountWebhookHintAt: null },
        { accountWebhookHintAt: { lte: new Date(now.getTime() - HINT_INTERVAL_MS) } },
      ],
    },
    data: { accountWebhookHintAt: now },
  });
  if (admitted.count !== 1) {
    logger.debug({ shop }, "account webhook within the rate limit; nothing re-read");
    return { status: 200, body: { ok: true, throttled: true } };
  }
  const due = await prisma.invoice.findMany({
    where: { shopDomain: shop, state: { in: fromStates("read_now") }, remoteId: { not: null } },
    orderBy: { nextAttemptAt: "asc" },
    take: HINT_BATCH,
    select: { id: true },
  });
  const marked = due.length
    ? await prisma.invoice.updateMany({
        where: { id: { in: due.map((row) => row.id) }, state: { in: fromStates("read_now") } },
        data: { nextAttemptAt: now },
      })
    : { count: 0 };
  if (marked.count > 0) await signalWork();
  logger.info(
    {
      shop,
      bytes: raw.length,
      contentType: (request.headers.get("content-type") ?? "").slice(0, 80),
      shape: shapeOfBody(raw),
      reread: marked.count,
    },
    "account webhook received",
  );
  return { status: 200, body: { ok: true, reread: marked.count } };
}

/** The body's structure with types and sizes instead of values: `{"invoice_id":"number","hash":"string(128)"}`. */
export function shapeOfBody(raw: Uint8Array): unknown {
  if (raw.length === 0) return "empty";
  try {
    return shapeOf(JSON.parse(new TextDecoder().decode(raw)));
  } catch {
    return `text(${raw.length})`;
  }
}

const MAX_DEPTH = 4;
const MAX_KEYS = 30;

export function shapeOf(value: unknown, depth = 0): unknown {
  if (value === null) return "null";
  if (typeof value === "string") return `string(${value.length})`;
  if (typeof value !== "object") return typeof value;
  if (Array.isArray(value))
    return depth >= MAX_DEPTH
      ? `array(${value.length})`
      : [`array(${value.length})`, value.length ? shapeOf(value[0], depth + 1) : "empty"];
  if (depth >= MAX_DEPTH) return "object";
  const keys = Object.keys(value);
  const shape: Record<string, unknown> = {};
  // Key names are kept (they are the shape), cut short and limited to harmless characters.
  for (const key of keys.slice(0, MAX_KEYS))
    shape[key.replace(/[^\w.$-]/g, "?").slice(0, 40)] = shapeOf((value as Record<string, unknown>)[key], depth + 1);
  if (keys.length > MAX_KEYS) shape["…"] = `${keys.length - MAX_KEYS} more keys`;
  return shape;
}
