// Mutation testing of the fiscal core (issue 28): `npm run test:mutation`, or one file with
// `npm run test:mutation -- --mutate app/orders/lines.ts`. Scores and equivalent mutants: bench/results/mutation.md.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // The pure tests only (no database): see vitest.mutation.config.ts.
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  coverageAnalysis: "perTest",
  mutate: [
    "app/orders/**/*.ts",
    "app/invoicing-service/totals.ts",
    "app/after-sale/rules.ts",
    "app/after-sale/returns-csv.ts",
  ],
  // 2 cores, shared: one test runner per core.
  concurrency: 2,
  // Below 90 % the run fails (CI); the report colours a file under 85 % red.
  thresholds: { high: 90, low: 85, break: 90 },
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  // Committed, so that CI's `--incremental` run tests only the mutants whose code or tests changed.
  incrementalFile: "reports/stryker-incremental.json",
  tempDirName: "tmp/stryker",
  // The sandbox copy needs the code and the tests, not the build, the databases, the docs or CI's Node 22 tree.
  ignorePatterns: [
    "/.node",
    "/tmp",
    "/data",
    "/build",
    "/.cache",
    "/test-results",
    "/coverage",
    "/docs",
    "/bench",
    "/reports",
  ],
  cleanTempDir: true,
};
