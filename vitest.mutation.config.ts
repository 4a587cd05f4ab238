// The tests Stryker runs against the fiscal core's mutants (stryker.config.mjs): the pure tests of the mapping,
// the totals and the after-sale rules. No database: these tests need none, and a migration per test file per
// mutant would dominate the run. Left out: the CLI test of invoice:preview (it runs the code in a child process,
// where no mutant is ever active) and the two mapping property tests (thousands of random orders, 6-8 s each
// for every mutant they reach, which made a run of app/orders take hours on 2 cores): the example tests must
// catch a fiscal bug on their own.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/orders/**/*.test.ts", "test/invoicing-service/totals.test.ts", "test/after-sale/rules.test.ts"],
    exclude: [
      "test/orders/invoice-preview.test.ts",
      "test/orders/mapping.property.test.ts",
      "test/orders/mapping-shapes.property.test.ts",
    ],
    testTimeout: 60_000,
    setupFiles: ["test/setup-env.ts"],
  },
});
