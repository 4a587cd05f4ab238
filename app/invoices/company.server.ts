// Before a B2B order is mapped: its company as Shopify holds it now (app/orders/company.ts), read with the shop's
// offline session when the shop granted a companies scope (as recorded on that session, read with the job's row).
// An order the webhook says has no company costs nothing; one read through GraphQL (whose company the order read does
// not carry) costs one small query.
import { companyOf, type PurchasingCompany } from "../orders/company";
import type { ShopifyOrder } from "../orders/order";
import { problem, type Problem } from "../problems";
import { AdminApiError } from "../shopify/errors";
import { hasCompanyScope } from "../shopify/optional-scopes";

/** Reads an order's company (null: bought by a customer); default: the Admin API with the shop's session. */
export type ReadCompany = (
  shop: string,
  orderId: string,
  taxOfficeMetafield: string,
) => Promise<PurchasingCompany | null>;

/** Loaded when a B2B order first needs it, like the order reads (the Shopify library is heavy to import). */
export const readCompanyFromShopify: ReadCompany = async (shop, orderId, taxOfficeMetafield) => {
  const [{ adminGraphql }, { readPurchasingCompanyWith }] = await Promise.all([
    import("../shopify/admin.server"),
    import("../shopify/company-reads"),
  ]);
  return readPurchasingCompanyWith(await adminGraphql(shop), orderId, taxOfficeMetafield);
};

/** The company read (null: bought by a customer) with its warnings. */
export type CompanyRead = { company: PurchasingCompany | null; warnings: Problem[] };
/** `reconnect`: the shop's Shopify connection is lost, so the read waits for the merchant, not for a backoff. */
export type BuyerCompany = CompanyRead | { unread: string; reconnect: boolean };

/**
 * The company an order is invoiced to, or why the invoice must wait: Shopify could not be read (the caller retries
 * on its backoff). Without a companies scope, or when Shopify denies it, the order is invoiced as before from its
 * own fields, with a warning when the order itself names a company. `offlineScope`: the scopes recorded on the shop's
 * offline session (the job row's `offlineScope`).
 */
export async function buyerCompany(
  shop: string,
  order: ShopifyOrder,
  taxOfficeMetafield: string,
  offlineScope: string | null,
  read: ReadCompany = readCompanyFromShopify,
): Promise<BuyerCompany> {
  const named = companyOf(order);
  if (named === "none") return { company: null, warnings: [] };
  const withoutScope = {
    company: null,
    warnings: named === "unknown" ? [] : [problem("customer.b2b_without_scope", undefined, "warning")],
  };
  if (!hasCompanyScope(offlineScope)) return withoutScope;
  try {
    return { company: await read(shop, String(order.id), taxOfficeMetafield), warnings: [] };
  } catch (error) {
    // The scope was taken back since it was recorded: the order is invoiced from its own fields, as without it.
    if (error instanceof AdminApiError && error.kind === "access_denied") return withoutScope;
    return {
      unread: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
      reconnect: error instanceof AdminApiError && error.kind === "reconnect",
    };
  }
}
