// Every GraphQL document the app, its scripts and its extensions send is valid against Shopify's published Admin
// schema of the API version the app declares: a wrong field, argument or variable type fails here, not in a shop.
import { readFileSync } from "node:fs";
import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { API_VERSION } from "../../app/shopify.server";
import { collectDocuments } from "../../scripts/lib/graphql-documents";
import { declaredApiVersion, publishedAdminSchema } from "../../scripts/lib/shopify-schema";
import { generatedTypes, TYPES_FILE } from "../../scripts/shopify-types";

const { documents, unresolved } = collectDocuments();

function errorsOf(text: string): string[] {
  return validate(publishedAdminSchema(), parse(text)).map((error) => error.message);
}

function operationName(text: string): string | undefined {
  return /^\s*(?:#graphql\s*)?(?:query|mutation)\s+([A-Za-z_]\w*)/.exec(text)?.[1];
}

describe("the app's GraphQL documents against Shopify's published Admin schema", () => {
  it("checks the version the app queries: shopify.app.toml and the API client agree", () => {
    expect(String(API_VERSION)).toBe(declaredApiVersion());
  });

  it("finds every document as a constant it can evaluate", () => {
    expect(unresolved).toEqual([]);
    // The collector must see the documents known to exist; a collector that finds nothing would pass everything.
    const names = documents.map((d) => operationName(d.text));
    for (const known of [
      "ReadOrder",
      "ListOrders",
      "OrderLineItems",
      "OrderShippingLines",
      "RefundLineItems",
      "RefundOrderAdjustments",
      "OrderRefunds",
      "ShopProfile",
      "WriteBackMetafields",
      "WriteBackTagsAdd",
      "WriteBackTagsRemove",
      "WriteBackFlowTrigger",
    ]) {
      expect(names, known).toContain(known);
    }
  });

  it.each(documents.map((d) => [`${operationName(d.text) ?? "anonymous"} (${d.at})`, d.text] as const))(
    "%s is valid",
    (_name, text) => {
      expect(errorsOf(text)).toEqual([]);
    },
  );

  it("is a check that can fail: a misspelt field and a wrong variable type are refused", () => {
    const readOrder = documents.find((d) => operationName(d.text) === "ReadOrder")!.text;
    expect(errorsOf(readOrder.replace("currentQuantity", "currentQty")).join("\n")).toMatch(
      /Cannot query field "currentQty" on type "LineItem"/,
    );
    expect(errorsOf(readOrder.replace("$id: ID!", "$id: String!")).join("\n")).toMatch(
      /Variable "\$id" of type "String!" used in position expecting type "ID!"/,
    );
  });

  it("generates the answer types the app reads with from these documents and this schema (npm run shopify:types)", async () => {
    expect(readFileSync(TYPES_FILE, "utf8")).toBe(await generatedTypes());
  });
});
