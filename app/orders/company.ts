// A B2B order's buyer: the company and company location Shopify B2B puts on the order (`Order.purchasingEntity`).
// The location holds what the invoice needs: the tax registration id (VKN), the billing address, and, in a metafield
// the merchant names in Settings, the tax office (Shopify has no tax office field). Webhook orders carry only the
// company's and location's ids (REST `company: { id, location_id }`); the worker reads the rest through the Admin API
// (app/shopify/company-reads.ts) when the shop granted a companies scope (app/shopify/optional-scopes.ts). Pure: shapes and conversions only.
import { z } from "zod";
import type { ShopifyAddress, ShopifyOrder } from "./order";
import { clean } from "./text";
import { METAFIELD_KEY } from "../settings/schema";

/** What the invoice takes from a B2B order's company and location. */
export interface PurchasingCompany {
  companyId: string;
  locationId: string;
  /** The company's name: the invoice's title. */
  name: string;
  locationName: string;
  /** `CompanyLocation.taxSettings.taxRegistrationId`, as the merchant typed it (checked by the mapping). */
  taxRegistrationId: string | null;
  /** The chosen metafield's value, the location's before the company's. */
  taxOffice: string | null;
  /** The location's billing address in the webhook's address shape. */
  billingAddress: ShopifyAddress | null;
}

/**
 * What the order itself says about its company: `"none"` when the webhook says it has none (`company: null`),
 * the location when it names one, `"unknown"` when the field is absent (an order read through GraphQL, or a
 * payload without it): then only the Admin API can tell.
 */
export function companyOf(order: ShopifyOrder): "none" | "unknown" | { companyId: string; locationId: string } {
  if (order.company === undefined) return "unknown";
  if (order.company === null) return "none";
  const { id, location_id } = order.company;
  if (id === null || id === undefined || location_id === null || location_id === undefined) return "unknown";
  return { companyId: `gid://shopify/Company/${id}`, locationId: `gid://shopify/CompanyLocation/${location_id}` };
}

/** "namespace.key" as Settings holds it; null when it is not one. */
export function metafieldKey(value: string): { namespace: string; key: string } | null {
  const match = METAFIELD_KEY.exec(value.trim());
  return match ? { namespace: match[1], key: match[2] } : null;
}

const gidOf = (type: string) => z.string().regex(new RegExp(`^gid://shopify/${type}/\\d+$`), `a ${type} GID expected`);
const Value = z.object({ value: z.string() }).nullable();
const CompanyAddressSchema = z.object({
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  zoneCode: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
  countryCode: z.string(),
  companyName: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  phone: z.string().nullable(),
});

/** The answer of company-reads.ts's query: the order's purchasing entity, a company or a customer (or none). */
export const PurchasingEntitySchema = z.object({
  order: z
    .object({
      id: z.string(),
      purchasingEntity: z
        .discriminatedUnion("__typename", [
          z.object({ __typename: z.literal("Customer") }),
          z.object({
            __typename: z.literal("PurchasingCompany"),
            company: z.object({ id: gidOf("Company"), name: z.string(), taxOffice: Value }),
            location: z.object({
              id: gidOf("CompanyLocation"),
              name: z.string(),
              taxSettings: z.object({ taxRegistrationId: z.string().nullable() }),
              billingAddress: CompanyAddressSchema.nullable(),
              taxOffice: Value,
            }),
          }),
        ])
        .nullable(),
    })
    .nullable(),
});

/** The company the answer names, or null for an order bought by a customer (or an order Shopify does not have). */
export function purchasingCompanyFrom(answer: z.infer<typeof PurchasingEntitySchema>): PurchasingCompany | null {
  const entity = answer.order?.purchasingEntity;
  if (!entity || entity.__typename !== "PurchasingCompany") return null;
  const { company, location } = entity;
  const a = location.billingAddress;
  return {
    companyId: company.id,
    locationId: location.id,
    name: company.name,
    locationName: location.name,
    taxRegistrationId: clean(location.taxSettings.taxRegistrationId) ?? null,
    taxOffice: clean(location.taxOffice?.value) ?? clean(company.taxOffice?.value) ?? null,
    billingAddress: a
      ? {
          first_name: a.firstName,
          last_name: a.lastName,
          company: a.companyName,
          address1: a.address1,
          address2: a.address2,
          city: a.city,
          province: a.province,
          province_code: a.zoneCode,
          zip: a.zip,
          country: a.country,
          country_code: a.countryCode,
          phone: a.phone,
        }
      : null,
  };
}
