// The shops that installed the app: what we record about them and how they leave.
import prisma from "../db.server";

export interface ShopProfile {
  name?: string | null;
  email?: string | null;
  currency?: string | null;
  timezone?: string | null;
  storefrontUrl?: string | null;
}

type GraphqlClient = (query: string) => Promise<Response>;

const SHOP_QUERY = `#graphql
  query ShopProfile { shop { name email currencyCode ianaTimezone primaryDomain { url } } }`;

/** Reads the shop's name, currency, IANA time zone and storefront address from the Admin API. */
export async function fetchShopProfile(graphql: GraphqlClient): Promise<ShopProfile> {
  const response = await graphql(SHOP_QUERY);
  const { data } = (await response.json()) as {
    data?: { shop?: { name?: string; email?: string; currencyCode?: string; ianaTimezone?: string; primaryDomain?: { url?: string } } };
  };
  const shop = data?.shop ?? {};
  return {
    name: shop.name,
    email: shop.email,
    currency: shop.currencyCode,
    timezone: shop.ianaTimezone,
    storefrontUrl: shop.primaryDomain?.url,
  };
}

/** Creates or refreshes the shop's row; a re-install clears the uninstall mark. */
export async function recordShop(domain: string, profile: ShopProfile) {
  const data = {
    name: profile.name ?? undefined,
    email: profile.email ?? undefined,
    currency: profile.currency ?? undefined,
    timezone: profile.timezone ?? undefined,
    storefrontUrl: profile.storefrontUrl ?? undefined,
  };
  return prisma.shop.upsert({
    where: { domain },
    create: { domain, ...data },
    update: { ...data, uninstalledAt: null },
  });
}

/**
 * app/uninstalled: the access tokens are dead, so the sessions go at once. Invoices stay until
 * shop/redact (48 hours later), so a merchant who reinstalls by mistake loses nothing.
 */
export async function markUninstalled(domain: string) {
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop: domain } }),
    prisma.shop.updateMany({ where: { domain }, data: { uninstalledAt: new Date() } }),
  ]);
}
