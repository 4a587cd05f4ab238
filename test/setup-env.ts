// The app's configuration for tests, without a database: test/setup.ts runs it before each test file, and the
// mutation run's pure tests (vitest.mutation.config.ts) use it alone.
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";

/** The app's address in tests: local, and no server listens there (tests call routes in-process). */
export const TEST_APP_URL = "http://localhost:3999";

process.env.NODE_ENV = "test";
process.env.LOG_LEVEL ??= "silent";
process.env.SHOPIFY_API_KEY = API_KEY;
process.env.SHOPIFY_API_SECRET = API_SECRET_KEY;
// On localhost, as every local run: the localhost-only settings below (the sandbox and the stand-ins on 127.0.0.1)
// are refused with any other address, whatever else the environment says (app/env.server.ts).
process.env.SHOPIFY_APP_URL = TEST_APP_URL;
process.env.LOCAL_SERVICES = "1";
process.env.ENCRYPTION_KEY = "6d1a7f0c2b9e4d3a8c5f1e0b7a2d9c4e3f6a1b8d5c2e9f0a7b4d1c8e5f2a9b6c";
// Accountant packages are built under the repository's tmp/ (ignored by git), one directory per package id, a folder
// per test process: a worker's housekeeping sweeps the directories whose package row is not in its database, which
// another process's fresh ones are; a day's grace keeps them, except under libfaketime (`faketime -f "+30d"`), where
// Node's file times stay real and every folder looks weeks old.
process.env.ACCOUNTANT_PACKAGE_DIR ??= `tmp/test-accountant-packages/${process.pid}`;
