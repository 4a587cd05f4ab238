// Every test runs against SQLite; when TEST_DATABASE_URL is set (CI sets it), the tests that touch the
// database run a second time against PostgreSQL, each test file in a fresh schema. Projects: "unit" (no database,
// one module graph per worker), "sqlite" (the database tests and the files that must be isolated, each file on its
// own) and "postgresql" (the database tests again), then "browser".
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
// A file without the database shares its worker's module graph with the files before it (isolate: false): the app is
// imported once per worker instead of once per file, half the CPU of those files. A file that replaces a module
// (vi.mock) or sets the environment the app's configuration is read from once needs a graph of its own.
const isolatedTests = globSync("test/**/*.test.{ts,tsx}").filter((file) =>
  /\bvi\.(do)?[mM]ock\(|\bvi\.stubEnv\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/.test(
    readFileSync(file, "utf8"),
  ),
);
const workers = Number(process.env.TEST_WORKERS ?? 3);

/** One project: its files, the database its tests get (TEST_DB, test/setup.ts), and its place in the run. */
const project = (
  name: string,
  db: "sqlite" | "postgresql",
  include: string[],
  exclude: string[],
  { isolate = true, maxWorkers = workers, groupOrder = 0 } = {},
) => ({
  extends: true as const,
  test: {
    name,
    include,
    exclude: [...configDefaults.exclude, ...exclude],
    isolate,
    env: { TEST_DB: db },
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
      project("sqlite", "sqlite", [...databaseTests, ...isolatedTests], browserTests),
      ...(process.env.TEST_DATABASE_URL ? [project("postgresql", "postgresql", databaseTests, browserTests)] : []),
      project("browser", "sqlite", browserTests, [], { maxWorkers: Math.min(workers, 2), groupOrder: 1 }),
    ],
  },
});
