// The optional scopes (shopify.app.toml `optional_scopes`), granted by the merchant from the app: write_orders
// (without it the app writes nothing to the orders; its grant makes the waiting write-backs due) and read_companies (without it a B2B order is invoiced from its
// notes, app/orders/company.ts). The offline session's recorded scope is what the worker goes by.
import prisma from "../db.server";
import { hasCompanyScope, includesWriteScope } from "../shopify/optional-scopes";
import { signalWork } from "../jobs/signal.server";

/** The shop's offline token's scopes as last recorded (comma-separated), or null without a session. */
async function recordedScopes(shop: string): Promise<string | null> {
  const session = await prisma.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } });
  return session?.scope ?? null;
}

/** Whether the shop's offline token carries write_orders, as last recorded. */
export async function hasWriteScope(shop: string): Promise<boolean> {
  return includesWriteScope(await recordedScopes(shop));
}

/**
 * What Shopify says is granted now (the library's Scopes API, read by the admin pages): recorded on the offline
 * session, and when write_orders has just been granted, the write-backs that waited for it become due.
 */
export async function recordGrantedScopes(shop: string, granted: string[], now = new Date()): Promise<void> {
  const session = await prisma.session.findFirst({
    where: { shop, isOnline: false },
    select: { id: true, scope: true },
  });
  if (!session) return;
  const scope = [...new Set(granted.map((s) => s.trim()).filter(Boolean))].sort().join(",");
  if (scope === session.scope) return;
  const before = includesWriteScope(session.scope);
  await prisma.session.update({ where: { id: session.id }, data: { scope } });
  if (!before && includesWriteScope(scope)) await resumeWriteBacks(shop, now);
}

/** The library's Scopes API (authenticate.admin's `scopes`), as far as it is used here. */
export interface ScopesQuery {
  query(): Promise<{ granted: string[] }>;
}

const QUERY_TIMEOUT_MS = 3_000;
const RECHECK_MS = 60_000;
const lastChecked = new Map<string, number>();

export interface OptionalScopes {
  /** write_orders: invoices are written back to the orders. */
  canWrite: boolean;
  /** A companies scope: B2B orders are invoiced to their company. */
  canReadCompanies: boolean;
}

const optionalScopesIn = (scopes: string | null | undefined): OptionalScopes => ({
  canWrite: includesWriteScope(scopes),
  canReadCompanies: hasCompanyScope(scopes),
});

/**
 * Which optional scopes the shop granted, for the admin pages. The stored scope is stale after a grant (the
 * token gains the scope, the session row does not), so while one is missing Shopify is asked, at most once a minute
 * per shop and within 3 s; a failed question keeps the stored answer.
 */
export async function refreshScopes(
  shop: string,
  scopes: ScopesQuery | undefined,
  now = Date.now(),
): Promise<OptionalScopes> {
  const stored = optionalScopesIn(await recordedScopes(shop));
  if (stored.canWrite && stored.canReadCompanies) return stored;
  if (!scopes || now - (lastChecked.get(shop) ?? 0) < RECHECK_MS) return stored;
  lastChecked.set(shop, now);
  try {
    const result = await Promise.race([
      scopes.query(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("scopes query timed out")), QUERY_TIMEOUT_MS).unref(),
      ),
    ]);
    await recordGrantedScopes(shop, result.granted);
    return optionalScopesIn(result.granted.join(","));
  } catch {
    return stored;
  }
}

/** After the merchant granted write_orders: every write-back that waited for it becomes due. */
export async function resumeWriteBacks(shop: string, now = new Date()): Promise<number> {
  const updated = await prisma.orderWriteBack.updateMany({
    where: { shopDomain: shop, status: "no_scope" },
    data: { status: "pending", attempts: 0, nextAttemptAt: now, lastError: null },
  });
  if (updated.count > 0) await signalWork();
  return updated.count;
}
