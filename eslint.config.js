import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", "tmp/**", "data/**", "extensions/**/dist/**", "extensions/*/shopify.d.ts", "public/build/**", "test-results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // eslint-plugin-react-hooks 7's recommended set adds the React Compiler's rules; all hold but this one, which
      // flags the seven effects that reset a form's state when the loader's data changes (docs/decisions/0033-node-22-floor.md).
      "react-hooks/set-state-in-effect": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  { files: ["scripts/**", "bench/**", "sandbox/cli.ts", "sandbox/storefront/cli.ts", "shopify-standin/cli.ts", "test/**"], rules: { "no-console": "off" } },
);
