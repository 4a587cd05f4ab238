// The shops that installed the app: what we record about them and how they leave.
import prisma from "../db.server";
import type { ShopProfileQuery } from "../shopify/admin.generated";
import { signalWork } from "../jobs/signal.server";
import { fromStates } from "../invoice-state/transitions";
import { zoneOrTurkey } from "../orders/dates";
import { installStateAtShopify, type InstallState } from "../shopify/install-check.server";

export interface ShopProfile {
  name?: string | null;
  email?: string | null;
  currency?: string | null;
  timezone?: string | null;
  storefrontUrl?: string | null;
  /** Shopify's "all prices include tax" setting. */
  taxesIncluded?: boolean | null;
}

type GraphqlClient = (query: string) => Promise<Response>;

// Shop fields of the Admin GraphQL API: currencyCode, ianaTimezone, taxesIncluded (Boolean!), primaryDomain
// (docs/decisions/0012-cart-block-and-setup.md says where they were checked).
const SHOP_QUERY = `#graphql
  query ShopProfile { shop { name email currencyCode ianaTimezone taxesIncluded primaryDomain { url } } }`;

/** Reads the shop's name, currency, IANA time zone, tax setting and storefront address from the Admin API. */
export async function fetchShopProfile(graphql: GraphqlClient): Promise<ShopProfile> {
  const response = await graphql(SHOP_QUERY);
  // Read defensively (a field may be missing when a scope is), typed by the generated answer of the document.
  const { data } = (await response.json()) as { data?: ShopProfileQuery };
  const shop: Partial<ShopProfileQuery["shop"]> = data?.shop ?? {};
  return {
    name: shop.name,
    email: shop.email,
    currency: shop.currencyCode,
    timezone: shop.ianaTimezone,
    storefrontUrl: shop.primaryDomain?.url,
    taxesIncluded: typeof shop.taxesIncluded === "boolean" ? shop.taxesIncluded : null,
  };
}

/** The shop's IANA time zone, Turkey's when unknown: the zone every date a page shows is in. */
export async function shopZone(domain: string): Promise<string> {
  const row = await prisma.shop.findUnique({ where: { domain }, select: { timezone: true } });
  return zoneOrTurkey(row?.timezone);
}

/**
 * Creates or refreshes the shop's row; a re-install clears the uninstall mark and resumes the invoices that
 * waited while the app was uninstalled (queued, not due: the worker parks them so). Shopify's tax setting becomes
 * the default of "prices include VAT" (applyTaxDefault).
 */
export async function recordShop(domain: string, profile: ShopProfile) {
  const data = {
    name: profile.name ?? undefined,
    email: profile.email ?? undefined,
    currency: profile.currency ?? undefined,
    timezone: profile.timezone ?? undefined,
    storefrontUrl: profile.storefrontUrl ?? undefined,
    taxesIncluded: profile.taxesIncluded ?? undefined,
  };
  const before = await prisma.shop.findUnique({
    where: { domain },
    select: { taxesIncluded: true, uninstalledAt: true },
  });
  const shop = await prisma.shop.upsert({
    where: { domain },
    create: { domain, ...data },
    // A shop back before its data was erased keeps it: a pending shop/redact is dropped.
    update: { ...data, uninstalledAt: null, redactRequestedAt: null },
  });
  if (typeof profile.taxesIncluded === "boolean")
    await applyTaxDefault(domain, profile.taxesIncluded, before?.taxesIncluded ?? null);
  if (before?.uninstalledAt && (await resumeParkedInvoices(domain)) > 0) await signalWork();
  return shop;
}

/**
 * The invoices that waited for the shop (uninstalled, or its Shopify connection lost) before they were posted:
 * queued without a due time and without a remote id. Due now.
 */
export async function resumeParkedInvoices(domain: string, now = new Date()): Promise<number> {
  const resumed = await prisma.invoice.updateMany({
    where: { shopDomain: domain, state: { in: fromStates("resume") }, nextAttemptAt: null, remoteId: null },
    data: { nextAttemptAt: now },
  });
  return resumed.count;
}

/**
 * "Prices include VAT" (for orders without tax lines) follows Shopify's tax setting, so a new shop's first
 * invoice is right without a visit to Settings. It follows only while the stored value still equals what
 * Shopify said before: a value the merchant changed in Settings is theirs and a later authentication keeps it.
 */
export async function applyTaxDefault(domain: string, taxesIncluded: boolean, previous: boolean | null) {
  const row = await prisma.shopSettings.findUnique({ where: { shopDomain: domain }, select: { mapping: true } });
  const mapping =
    row?.mapping && typeof row.mapping === "object" && !Array.isArray(row.mapping)
      ? (row.mapping as Record<string, unknown>)
      : {};
  const stored = mapping.pricesIncludeVat;
  const merchantsChoice = typeof stored === "boolean" && stored !== previous;
  if (merchantsChoice || stored === taxesIncluded) return;
  // Only this one field is written; the other mapping settings keep their stored values or code defaults.
  const next = { ...mapping, pricesIncludeVat: taxesIncluded };
  await prisma.shopSettings.upsert({
    where: { shopDomain: domain },
    create: { shopDomain: domain, mapping: next },
    update: { mapping: next },
  });
}

/** afterAuth: the shop's profile from the Admin API, recorded with its defaults. */
export async function onAuthenticated({
  session,
  admin,
}: {
  session: { shop: string };
  admin: { graphql: GraphqlClient };
}) {
  const profile = await fetchShopProfile(admin.graphql);
  await recordShop(session.shop, profile);
}

/**
 * The app is uninstalled: the access tokens are dead, so the sessions go at once. Invoices stay until shop/redact (48
 * hours later), so a merchant who reinstalls by mistake loses nothing; meanwhile nothing is posted for the shop (the
 * worker parks its rows until recordShop sees it again).
 */
export async function markUninstalled(domain: string, now = new Date()) {
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop: domain } }),
    prisma.shop.updateMany({ where: { domain }, data: { uninstalledAt: now } }),
  ]);
}

/**
 * app/uninstalled. Its signed body is the same for every delivery to a shop and the event id that tells deliveries
 * apart is not signed, so a delivery sent again later could log an installed shop out. Shopify revokes the app's
 * tokens when it is uninstalled: if the shop's token still opens the Admin API, the app is installed and the delivery
 * is refused (answered 200, logged). When Shopify cannot be asked, the uninstall is believed: a shop logged out by
 * mistake is back at its merchant's next visit, one left installed would keep work going for a shop that left.
 */
export async function uninstallReported(
  domain: string,
  probe: (shop: string) => Promise<InstallState> = installStateAtShopify,
): Promise<"uninstalled" | "refused_installed"> {
  const hasSession = await prisma.session.findFirst({ where: { shop: domain, isOnline: false }, select: { id: true } });
  if (hasSession && (await probe(domain)) === "installed") return "refused_installed";
  await markUninstalled(domain);
  return "uninstalled";
}
