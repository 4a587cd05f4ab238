// The write_orders scope: optional (shopify.app.toml `optional_scopes`), granted by the merchant from the app.
// Without it the app works as before and writes nothing to the orders.
import prisma from "../db.server";
import { resumeWriteBacks } from "./run.server";

export const WRITE_SCOPE = "write_orders";

/** write_orders also grants read_orders; a scope list is comma-separated. */
export function includesWriteScope(scopes: string | null | undefined): boolean {
  return (scopes ?? "").split(",").some((scope) => scope.trim() === WRITE_SCOPE);
}

/** Whether the shop's offline token carries write_orders, as last recorded. */
export async function hasWriteScope(shop: string): Promise<boolean> {
  const session = await prisma.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } });
  return includesWriteScope(session?.scope);
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

/**
 * Whether the shop granted write_orders, for the admin pages. The stored scope is stale after a grant (the
 * token gains the scope, the session row does not), so while it lacks write_orders Shopify is asked, at most
 * once a minute per shop and within 3 s; a failed question keeps the stored answer.
 */
export async function refreshWriteScope(shop: string, scopes: ScopesQuery | undefined, now = Date.now()): Promise<boolean> {
  if (await hasWriteScope(shop)) return true;
  if (!scopes || now - (lastChecked.get(shop) ?? 0) < RECHECK_MS) return false;
  lastChecked.set(shop, now);
  try {
    const result = await Promise.race([
      scopes.query(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("scopes query timed out")), QUERY_TIMEOUT_MS).unref()),
    ]);
    await recordGrantedScopes(shop, result.granted);
    return includesWriteScope(result.granted.join(","));
  } catch {
    return false;
  }
}
