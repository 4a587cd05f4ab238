// Every test runs against SQLite; when TEST_DATABASE_URL is set (CI sets it), the tests that touch the
// database run a second time against PostgreSQL, each test file in a fresh schema.
import { defineConfig } from "vitest/config";

// A test that reads or writes the database is named *.db.test.ts, wherever it sits (test/ mirrors app/).
const databaseTests = ["test/**/*.db.test.ts"];

export default defineConfig({
  test: {
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // expect.poll waits for what a page or a process does next; on a loaded CI machine (2 cores shared) a save's
    // round trip takes seconds, so wait up to 15 s (the default 1 s made the browser tests fail under load).
    expect: { poll: { timeout: 15_000 } },
    reporters: process.env.CI ? ["default"] : ["default"],
    projects: [
      {
        extends: true as const,
        test: { name: "sqlite", include: ["test/**/*.test.{ts,tsx}"], env: { TEST_DB: "sqlite" } },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: { name: "postgresql", include: databaseTests, env: { TEST_DB: "postgresql" } },
            },
          ]
        : []),
    ],
  },
});
