// The optional scopes (shopify.app.toml `optional_scopes`) by name, and whether a recorded scope list carries them.
// Pure, so the settings page's sections and the server (app/shops/scopes.server.ts) read the same names.

/** Writing invoices back to the orders (tags, metafields, Flow); write_orders also grants read_orders. */
export const WRITE_SCOPE = "write_orders";

/** A scope list is comma-separated. */
export function includesWriteScope(scopes: string | null | undefined): boolean {
  return (scopes ?? "").split(",").some((scope) => scope.trim() === WRITE_SCOPE);
}

/** Any of these lets the app read companies (shopify.dev CompanyLocation: read_customers or read_companies; write grants read). */
export const COMPANY_SCOPES = ["read_companies", "read_customers", "write_companies", "write_customers"] as const;
/** The one the app asks for (shopify.app.toml optional_scopes): the narrowest that reads a company's tax details. */
export const COMPANY_SCOPE = "read_companies";

export const hasCompanyScope = (scopes: string | null | undefined): boolean =>
  (scopes ?? "").split(",").some((scope) => (COMPANY_SCOPES as readonly string[]).includes(scope.trim()));
