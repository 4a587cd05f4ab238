// The optional scopes (shopify.app.toml `optional_scopes`), granted by the merchant from the app: write_orders
// (without it the app writes nothing to the orders) and read_companies (without it a B2B order is invoiced from its
// notes, app/orders/company.ts). The offline session's recorded scope is what the worker goes by.
import prisma from "../db.server";
import type { WriteBackStart } from "../db/hot.server";
import { hasCompanyScope } from "../orders/company";
import { resumeWriteBacks } from "./run.server";

export const WRITE_SCOPE = "write_orders";

/** write_orders also grants read_orders; a scope list is comma-separated. */
export function includesWriteScope(scopes: string | null | undefined): boolean {
  return (scopes ?? "").split(",").some((scope) => scope.trim() === WRITE_SCOPE);
}

/** The shop's offline token's scopes as last recorded (comma-separated), or null without a session. */
async function recordedScopes(shop: string): Promise<string | null> {
  const session = await prisma.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } });
  return session?.scope ?? null;
}

/**
 * A write-back made due at `now`: pending when the offline token's scopes include write_orders, else waiting for them
 * (no_scope: not retried until the merchant grants it, app/writeback/run.server.ts).
 */
export function writeBackStart(scopes: string | null, now: Date): WriteBackStart {
  return includesWriteScope(scopes)
    ? { status: "pending", nextAttemptAt: now, lastError: null }
    : { status: "no_scope", nextAttemptAt: null, lastError: `missing scope ${WRITE_SCOPE}` };
}

/** Whether the shop's offline token carries write_orders, as last recorded. */
export async function hasWriteScope(shop: string): Promise<boolean> {
  return includesWriteScope(await recordedScopes(shop));
}

/** Whether the shop's offline token may read B2B companies, as last recorded. */
export async function hasCompaniesScope(shop: string): Promise<boolean> {
  return hasCompanyScope(await recordedScopes(shop));
}

/**
 * What Shopify says is granted now (the library's Scopes API, read by the admin pages): recorded on the offline
 * session, and when write_orders has just been granted, the write-backs that waited for it become due.
 */
export async function recordGrantedScopes(shop: string, granted: string[], now = new Date()): Promise<void> {
  const session = await prisma.session.findFirst({ where: { shop, isOnline: false }, select: { id: true, scope: true } });
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

const optionalScopesIn = (scopes: string | null | undefined): OptionalScopes => ({ canWrite: includesWriteScope(scopes), canReadCompanies: hasCompanyScope(scopes) });

/**
 * Which optional scopes the shop granted, for the admin pages. The stored scope is stale after a grant (the
 * token gains the scope, the session row does not), so while one is missing Shopify is asked, at most once a minute
 * per shop and within 3 s; a failed question keeps the stored answer.
 */
export async function refreshScopes(shop: string, scopes: ScopesQuery | undefined, now = Date.now()): Promise<OptionalScopes> {
  const stored = optionalScopesIn(await recordedScopes(shop));
  if (stored.canWrite && stored.canReadCompanies) return stored;
  if (!scopes || now - (lastChecked.get(shop) ?? 0) < RECHECK_MS) return stored;
  lastChecked.set(shop, now);
  try {
    const result = await Promise.race([
      scopes.query(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("scopes query timed out")), QUERY_TIMEOUT_MS).unref()),
    ]);
    await recordGrantedScopes(shop, result.granted);
    return optionalScopesIn(result.granted.join(","));
  } catch {
    return stored;
  }
}
