// Another process renewing a shop's offline token, for test/shopify/offline-tokens.db.test.ts. It runs with the
// test's environment (database, stand-in, keys) and:
//   renew SHOP N      prints "ready", waits for a line on stdin (so that processes start together), then calls
//                     offlineSession(SHOP) N times at once and prints the tokens it got as one JSON line;
//   hang SHOP         renews once, prints "answered" when Shopify's answer is in, and never stores it (the test
//                     kills it there: a crash between the answer and the store).
import { offlineSession } from "../../app/shopify/offline-tokens.server";
import { requestOfflineToken } from "../../app/shopify/token-endpoint.server";

const [mode, shop, times] = process.argv.slice(2);
if (mode === "renew") {
  process.stdout.write("ready\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  const sessions = await Promise.all(Array.from({ length: Number(times) }, () => offlineSession(shop)));
  process.stdout.write(`${JSON.stringify(sessions.map((session) => session.accessToken))}\n`);
  process.exit(0);
}
if (mode === "hang") {
  await offlineSession(shop, {
    request: async (target, grant) => {
      await requestOfflineToken(target, grant);
      process.stdout.write("answered\n");
      return new Promise(() => undefined);
    },
  });
}
process.exit(2);
