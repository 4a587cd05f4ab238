import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "generated/**",
      "node_modules/**",
      "tmp/**",
      "data/**",
      "extensions/**/dist/**",
      "extensions/*/shopify.d.ts",
      "public/build/**",
      "test-results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  // No import cycles in the app (docs/decisions/0042-layout-by-feature.md); test/layout.test.ts also refuses two
  // folders of app/ that import each other.
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    // TypeScript files parsed by typescript-eslint's parser, imports resolved as tsconfig.json resolves them.
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".jsx", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver()],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    files: [
      "scripts/**",
      "bench/**",
      "sandbox/cli.ts",
      "sandbox/storefront/cli.ts",
      "shopify-standin/cli.ts",
      "test/**",
    ],
    rules: { "no-console": "off" },
  },
);
