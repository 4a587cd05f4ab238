// The demo's server (npm run demo, the browser tests, scripts/lib/local-stack.ts): the production server on the
// production build, with the local admin (scripts/lib/local-admin.ts) in front of the app's routes, so the
// embedded pages open in a plain browser. Same environment as `npm start`; LOCAL_ADMIN=1 makes the shell load
// the App Bridge stand-in served here.
process.env.NODE_ENV ??= "production";
const { startAppServer } = await import("../server/app-server");
const { mountLocalAdmin } = await import("./lib/local-admin");

const apiKey = process.env.SHOPIFY_API_KEY ?? "";
const apiSecret = process.env.SHOPIFY_API_SECRET ?? "";
if (!apiKey || !apiSecret) {
  console.error("SHOPIFY_API_KEY and SHOPIFY_API_SECRET are needed to sign the local admin's session tokens");
  process.exit(2);
}
// It signs session tokens for any shop: only ever on this machine.
const appHost = URL.canParse(process.env.SHOPIFY_APP_URL ?? "") ? new URL(process.env.SHOPIFY_APP_URL!).hostname : "";
if (!["localhost", "127.0.0.1", "[::1]"].includes(appHost)) {
  console.error(`The local admin needs SHOPIFY_APP_URL on localhost (got ${process.env.SHOPIFY_APP_URL ?? "nothing"})`);
  process.exit(2);
}
await startAppServer({ routes: (app) => mountLocalAdmin(app, { apiKey, apiSecret }) });

// A demo or test that dies without stopping it (SIGKILL, a crash) must not leave it serving: when this process's
// parent is gone (it was adopted by another), stop as on SIGTERM.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
}, 1000).unref();

export {};
