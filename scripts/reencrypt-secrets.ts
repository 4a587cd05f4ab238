// npm run secrets:reencrypt
// Rewrites every secret stored in the database (the shops' invoicing API keys, account-webhook secrets, Shopify
// access and refresh tokens) under the current ENCRYPTION_KEY, reading older ones with ENCRYPTION_KEY_PREVIOUS, and
// encrypts tokens an earlier version stored in clear. Safe to run again and beside the running app. Prints one JSON
// line: {"rewritten","current","unreadable":[{"table","id","field"}]}. Exit 0 when every value is now under the
// current key (ENCRYPTION_KEY_PREVIOUS can then go), 1 when some value no configured key reads.
// Uses DATABASE_URL, ENCRYPTION_KEY and ENCRYPTION_KEY_PREVIOUS; the Shopify app settings are not used here.
// docs/decisions/0025-secrets-key-rotation-and-tokens-at-rest.md
process.env.SHOPIFY_API_KEY ??= "secrets-reencrypt";
process.env.SHOPIFY_API_SECRET ??= "secrets-reencrypt";
process.env.SHOPIFY_APP_URL ??= "http://localhost:3000";

const { env } = await import("../app/env.server");
const { createDb } = await import("../app/db/client");
const { reencryptSecrets } = await import("../app/secrets/reencrypt.server");

const db = createDb(env().DATABASE_URL);
try {
  const report = await reencryptSecrets(db);
  console.log(JSON.stringify(report));
  if (report.unreadable.length) {
    console.error(
      `${report.unreadable.length} stored value(s) could not be read with ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS; keep the previous key until they are entered again.`,
    );
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`secrets:reencrypt failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}

export {};
