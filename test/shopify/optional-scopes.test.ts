import { describe, expect, it } from "vitest";
import { COMPANY_SCOPE, hasCompanyScope, includesWriteScope, WRITE_SCOPE } from "../../app/shopify/optional-scopes";

describe("the optional scopes", () => {
  it("write_orders is read from a comma-separated list, as a whole name only", () => {
    expect(includesWriteScope("read_orders, write_orders")).toBe(true);
    expect(includesWriteScope(WRITE_SCOPE)).toBe(true);
    for (const scopes of ["read_orders", "write_orders_extra", "", null, undefined])
      expect(includesWriteScope(scopes), String(scopes)).toBe(false);
  });

  it("B2B companies may be read with any scope that reads companies (a write scope grants read), and with no other", () => {
    for (const scopes of [
      "read_orders,read_companies",
      "read_customers",
      " write_companies ,read_orders",
      "write_customers",
    ])
      expect(hasCompanyScope(scopes), scopes).toBe(true);
    for (const scopes of ["read_orders,write_orders", "read_companies_extra", "", null, undefined])
      expect(hasCompanyScope(scopes), String(scopes)).toBe(false);
    // The scope the app asks for (shopify.app.toml optional_scopes) is one of them.
    expect(hasCompanyScope(COMPANY_SCOPE)).toBe(true);
  });
});
