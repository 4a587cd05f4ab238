// Every test runs against SQLite; when TEST_DATABASE_URL is set (CI sets it), the tests that touch the
// database run a second time against PostgreSQL, each test file in a fresh schema. Projects: "unit" (no database),
// "sqlite" and "postgresql" (the database tests), "isolated" and "isolated-postgresql" (the files that replace a
// module or set the environment, each file in a process of its own), then "browser".
//
// Workers: Vitest's default for a run is one less than the cores, which on CI's 2 cores ran every file one after the
// other while most of them wait (on a sandbox, a stand-in, a database, a child process). The unit, database and
// process tests run TEST_WORKERS files at once (default 3); then the browser tests, each with its own stack and
// Chromium, 2 at once. Measured before and after: docs/development.md ("How long the suite and CI take").
import { globSync, readFileSync } from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";

// A test that reads or writes the database is named *.db.test.ts, wherever it sits (test/ mirrors app/).
const databaseTests = ["test/**/*.db.test.ts"];
const browserTests = ["test/browser/**/*.test.ts"];
// A worker runs its files in one process (isolate: false): the packages (Prisma's clients, Shopify's libraries, React)
// are loaded once per worker instead of once per file, half the CPU of those files. A file without the database
// shares the app's modules too; a database file gets them afresh (freshAppModules: test/setup.ts resets the module
// registry), since the app binds its database client and keeps per-shop state in its modules. A file that replaces a
// module (vi.mock) or sets the environment the app's configuration is read from once needs a process of its own.
const isolatedTests = globSync("test/**/*.test.{ts,tsx}").filter((file) =>
  /\bvi\.(do)?[mM]ock\(|\bvi\.stubEnv\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/.test(
    readFileSync(file, "utf8"),
  ),
);
const isolatedDatabaseTests = isolatedTests.filter((file) => file.endsWith(".db.test.ts"));
/** The database projects: one process per worker, the app's modules afresh for each file. */
const sharedProcess = { isolate: false, freshAppModules: true };
const workers = Number(process.env.TEST_WORKERS ?? 3);

/**
 * One project: its files, the database its tests get (TEST_DB, test/setup.ts), whether its files share a process
 * (and then whether each gets the app's modules afresh: TEST_FRESH_APP_MODULES), and its place in the run.
 */
const project = (
  name: string,
  db: "sqlite" | "postgresql",
  include: string[],
  exclude: string[],
  { isolate = true, freshAppModules = false, maxWorkers = workers, groupOrder = 0 } = {},
) => ({
  extends: true as const,
  test: {
    name,
    include,
    exclude: [...configDefaults.exclude, ...exclude],
    isolate,
    env: { TEST_DB: db, ...(freshAppModules ? { TEST_FRESH_APP_MODULES: "1" } : {}) },
    maxWorkers,
    sequence: { groupOrder },
  },
});

export default defineConfig({
  test: {
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // expect.poll waits for what a page or a process does next; on a loaded CI machine (2 cores shared) a save's
    // round trip takes seconds, so wait up to 15 s (the default 1 s made the browser tests fail under load).
    expect: { poll: { timeout: 15_000 } },
    reporters: ["default"],
    projects: [
      project("unit", "sqlite", ["test/**/*.test.{ts,tsx}"], [...browserTests, ...databaseTests, ...isolatedTests], {
        isolate: false,
      }),
      project("sqlite", "sqlite", databaseTests, [...browserTests, ...isolatedTests], sharedProcess),
      project("isolated", "sqlite", isolatedTests, browserTests),
      ...(process.env.TEST_DATABASE_URL
        ? [
            project("postgresql", "postgresql", databaseTests, [...browserTests, ...isolatedTests], sharedProcess),
            project("isolated-postgresql", "postgresql", isolatedDatabaseTests, browserTests),
          ]
        : []),
      project("browser", "sqlite", browserTests, [], { maxWorkers: Math.min(workers, 2), groupOrder: 1 }),
    ],
  },
});
