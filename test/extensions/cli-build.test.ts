// What scripts/lib/extensions.ts takes from Shopify CLI 4.7 (ui_extension specification, type generation): the
// generated entry per api_version, the @shopify/ui-extensions release line, and the shopify.d.ts it writes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliEntry, extendsTargets, shopifyTypes, uiExtensions, uiExtensionsLine } from "../../scripts/lib/extensions";

describe("the CLI's generated entry", () => {
  const targets = [
    { target: "admin.order-details.print-action.render", module: "./src/PrintAction.jsx" },
    { target: "admin.order-index.selection-print-action.render", module: "./src/Other.jsx" },
  ];

  it("registers each target's default export with shopify.extend from api_version 2025-10 on", () => {
    for (const version of ["2025-10", "2026-01", "2026-07"]) expect(extendsTargets(version), version).toBe(true);
    expect(cliEntry("2026-07", targets)).toBe(
      "import Target_0 from './src/PrintAction.jsx';shopify.extend('admin.order-details.print-action.render', (...args) => Target_0(...args));\n" +
        "import Target_1 from './src/Other.jsx';shopify.extend('admin.order-index.selection-print-action.render', (...args) => Target_1(...args));",
    );
  });

  it("only imports the modules before 2025-10, whose modules registered themselves", () => {
    for (const version of ["2025-07", "2025-04", "2024-10"]) expect(extendsTargets(version), version).toBe(false);
    expect(cliEntry("2025-07", targets)).toBe("import './src/PrintAction.jsx';\nimport './src/Other.jsx';");
  });

  it("maps an api_version to the @shopify/ui-extensions release line", () => {
    expect(uiExtensionsLine("2026-07")).toBe("2026.7");
    expect(uiExtensionsLine("2025-10")).toBe("2025.10");
  });
});

describe("shopify.d.ts as the CLI writes it", () => {
  const extensions = uiExtensions();

  it("is committed for every UI extension and current", () => {
    expect(extensions.map((e) => e.folder)).toEqual([
      "customer-invoice-download",
      "invoice-orders-action",
      "order-invoice-block",
      "order-invoice-print",
    ]);
    for (const extension of extensions)
      expect(readFileSync(path.join(extension.dir, "shopify.d.ts"), "utf8"), extension.folder).toBe(
        shopifyTypes(extension),
      );
  });

  it("types the module and the files it imports with the Api of each entry's target", () => {
    const print = extensions.find((e) => e.folder === "order-invoice-print")!;
    const types = shopifyTypes(print);
    expect(types.startsWith("import '@shopify/ui-extensions';\n")).toBe(true);
    for (const file of ["./src/PrintAction.jsx", "./src/print-summary.js"]) {
      for (const target of [
        "admin.order-details.print-action.render",
        "admin.order-index.selection-print-action.render",
      ]) {
        expect(types).toContain(
          `declare module '${file}' {\n  const shopify: import('@shopify/ui-extensions/${target}').Api;`,
        );
      }
    }
  });

  it("gives a file that one entry's targets share the union of their Apis", () => {
    const [extension] = extensions;
    const joined = {
      ...extension,
      entries: [
        {
          handle: "x",
          name: "x",
          targets: [
            { target: "a.render", module: "./src/OrderStatusBlock.jsx" },
            { target: "b.render", module: "./src/OrderStatusBlock.jsx" },
          ],
        },
      ],
    };
    expect(shopifyTypes(joined)).toContain(
      "const shopify: (import('@shopify/ui-extensions/a.render').Api | import('@shopify/ui-extensions/b.render').Api);",
    );
  });
});
