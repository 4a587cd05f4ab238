// The B2B company read (app/shopify/company-reads.ts) against the Admin API stand-in: one query per order,
// its cost by the stand-in's model of Shopify's published rules (an object 1 point, scalars 0), the answer in the
// mapping's terms, and Shopify's refusal without a companies scope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BucketState, createAdminClient } from "../../app/shopify/client.server";
import { readPurchasingCompanyWith } from "../../app/shopify/company-reads";
import { AdminApiError } from "../../app/shopify/errors";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { paidOrder } from "../helpers/orders";

let standin: Standin;
const b2b = paidOrder({ company: { id: 9001, location_id: 9101 } });
const consumer = paidOrder();

beforeAll(async () => {
  standin = await startStandin({
    orders: [b2b, consumer],
    scopes: ["read_orders", "read_all_orders", "read_companies"],
    companies: [
      {
        id: 9001,
        name: "Acme Makine A.Ş.",
        locations: [
          {
            id: 9101,
            name: "Ankara Merkez",
            taxRegistrationId: "9860008925",
            billingAddress: { address1: "Atatürk Bulv. 100", city: "Çankaya", province: "Ankara", countryCode: "TR" },
            metafields: [{ namespace: "custom", key: "tax_office", value: "Çankaya" }],
          },
        ],
      },
    ],
  });
});
afterAll(() => standin.stop());

const client = () =>
  createAdminClient({
    shop: standin.shop,
    endpoint: standin.graphqlUrl(),
    accessToken: standin.accessToken,
    bucket: new BucketState(),
  });

describe("reading a B2B order's company", () => {
  it("is one query of at most 7 points, answering the company in the mapping's terms", async () => {
    const before = standin.stats();
    const company = await readPurchasingCompanyWith(client(), b2b.id, "custom.tax_office");
    const after = standin.stats();
    expect(after.queries - before.queries).toBe(1);
    // order, purchasingEntity, company, two metafields, location, taxSettings, billingAddress: 8 objects requested,
    // 7 answered here (the company has no such metafield).
    expect(after.pointsSpent - before.pointsSpent).toBeLessThanOrEqual(7);
    expect(company).toMatchObject({
      companyId: "gid://shopify/Company/9001",
      name: "Acme Makine A.Ş.",
      taxRegistrationId: "9860008925",
      taxOffice: "Çankaya",
      billingAddress: { province: "Ankara", city: "Çankaya", company: "Acme Makine A.Ş." },
    });
  });

  it("is none for a customer's order", async () => {
    expect(await readPurchasingCompanyWith(client(), consumer.id, "custom.tax_office")).toBeNull();
  });

  it("is refused with ACCESS_DENIED without a companies scope, and a metafield that is no namespace.key is not sent", async () => {
    standin.setScopes(["read_orders", "read_all_orders"]);
    try {
      await expect(readPurchasingCompanyWith(client(), b2b.id, "custom.tax_office")).rejects.toMatchObject({
        kind: "access_denied",
      });
    } finally {
      standin.setScopes(["read_orders", "read_all_orders", "read_companies"]);
    }
    const before = standin.stats().requests;
    await expect(readPurchasingCompanyWith(client(), b2b.id, "tax_office")).rejects.toBeInstanceOf(AdminApiError);
    expect(standin.stats().requests).toBe(before);
  });
});
