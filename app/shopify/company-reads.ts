// A B2B order's company through the Admin GraphQL API, with a given client (the worker passes the shop's; tests and
// the bench their own). One query per order: the order's purchasing entity and, when it is a company, the company's
// name, the location's tax registration id, billing address and the tax office metafield of both. It needs a
// companies scope (app/shopify/optional-scopes.ts COMPANY_SCOPES): without one Shopify denies the company's fields.
import { metafieldKey, purchasingCompanyFrom, PurchasingEntitySchema, type PurchasingCompany } from "../orders/company";
import type { OrderPurchasingCompanyQuery } from "./admin.generated";
import { answerShape } from "./answers";
import type { AdminGraphql } from "./client.server";
import { AdminApiError } from "./errors";
import { orderGid } from "./order-reads";

const COMPANY_ADDRESS =
  "address1 address2 city province zoneCode zip country countryCode companyName firstName lastName phone";

// 8 points requested (order, purchasing entity, company, location, tax settings, address, two metafields):
// test/shopify/company-reads.test.ts measures it at the stand-in, which counts as Shopify documents.
const ORDER_PURCHASING_COMPANY = `query OrderPurchasingCompany($id: ID!, $namespace: String, $key: String!) {
  order(id: $id) {
    id
    purchasingEntity {
      __typename
      ... on PurchasingCompany {
        company { id name taxOffice: metafield(namespace: $namespace, key: $key) { value } }
        location {
          id name
          taxSettings { taxRegistrationId }
          billingAddress { ${COMPANY_ADDRESS} }
          taxOffice: metafield(namespace: $namespace, key: $key) { value }
        }
      }
    }
  }
}`;

const Answer = answerShape<OrderPurchasingCompanyQuery>()(PurchasingEntitySchema);

/**
 * The order's company, or null when a customer bought it (or Shopify has no such order). `taxOfficeMetafield` is
 * Settings' "namespace.key".
 */
export async function readPurchasingCompanyWith(
  client: AdminGraphql,
  orderId: string | number,
  taxOfficeMetafield: string,
): Promise<PurchasingCompany | null> {
  const metafield = metafieldKey(taxOfficeMetafield);
  if (!metafield) throw new AdminApiError("graphql", `not a metafield namespace.key: ${taxOfficeMetafield}`);
  const data = await client.graphql(ORDER_PURCHASING_COMPANY, { id: orderGid(orderId), ...metafield }, Answer);
  return purchasingCompanyFrom(data);
}
