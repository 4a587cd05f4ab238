// `npm run --silent shopify:standin -- --port 0 [--orders FILE.json] [--shop NAME.myshopify.com]`: starts the
// stand-in of Shopify's Admin GraphQL API. The FIRST line on stdout is one JSON object {"url","shop","accessToken"};
// human-readable logs go to stderr.
import { readFileSync } from "node:fs";
import { SHOP_DOMAIN } from "../app/shopify/shop-domain";
import { commandLine, stopOnSignals } from "../scripts/lib/cli";
import { startStandin } from "./server";

const { values, usage, intOption } = commandLine(
  [
    "Usage: npm run --silent shopify:standin -- [--port N] [--orders FILE.json] [--shop NAME.myshopify.com] [options]",
    "  --port             listening port; 0 picks a free one (default 4020)",
    "  --host             listening address (default 127.0.0.1)",
    "  --orders           a JSON file with an array of webhook-shaped (REST) orders to serve (or one order)",
    "  --shop             the shop's myshopify domain (default standin-shop.myshopify.com)",
    "  --access-token     the shop's non-expiring offline token, valid until the app migrates it (default: random)",
    "  --client-id        the app's client id (SHOPIFY_API_KEY): the token endpoint checks it",
    "  --client-secret    the app's client secret (SHOPIFY_API_SECRET): checked, and session tokens are signed with it",
    "  --token-lifetime   lifetime of an expiring access token in seconds (default 3600, as Shopify)",
    "  --reject-legacy-tokens  refuse non-expiring tokens, as Shopify does from 1 January 2027",
    "  --scopes           granted scopes, comma-separated (default read_orders,write_orders)",
    "  --latency-ms       fixed latency added to every GraphQL request (default 0)",
    "  --bucket-size      query-cost bucket size (default 2000)",
    "  --restore-rate     points restored per second (default 100)",
    "  --timezone         the shop's IANA time zone, for dates in search queries (default Europe/Istanbul)",
    "  --bulk-ms-per-object  how long a bulk operation takes to build per order, in ms (default 1)",
    "  --webhook-url      the app's origin: bulk_operations/finish is delivered to {url}/webhooks/bulk_operations/finish",
    "  --webhook-secret   the app's API secret, which signs that delivery",
    "  --quiet            no request logs on stderr",
  ],
  {
    port: { type: "string" },
    host: { type: "string" },
    orders: { type: "string" },
    shop: { type: "string" },
    "access-token": { type: "string" },
    "client-id": { type: "string" },
    "client-secret": { type: "string" },
    "token-lifetime": { type: "string" },
    "reject-legacy-tokens": { type: "boolean" },
    scopes: { type: "string" },
    "latency-ms": { type: "string" },
    "bucket-size": { type: "string" },
    "restore-rate": { type: "string" },
    timezone: { type: "string" },
    "bulk-ms-per-object": { type: "string" },
    "webhook-url": { type: "string" },
    "webhook-secret": { type: "string" },
    quiet: { type: "boolean" },
  },
);
if (values.shop !== undefined && !SHOP_DOMAIN.test(values.shop)) {
  console.error(`--shop must be a NAME.myshopify.com domain, got ${JSON.stringify(values.shop)}`);
  usage();
}

let orders: unknown[] = [];
if (values.orders) {
  try {
    const json: unknown = JSON.parse(readFileSync(values.orders, "utf8"));
    // An array of orders, or one order (such as a file of test/fixtures/orders/).
    if (Array.isArray(json)) orders = json;
    else if (typeof json === "object" && json !== null && "id" in json) orders = [json];
    else throw new Error("the file must hold a JSON array of webhook-shaped orders, or one order");
  } catch (error) {
    console.error(`--orders ${values.orders}: ${(error as Error).message}`);
    process.exit(2);
  }
}

const stderrLog = (line: string) => process.stderr.write(`[shopify-standin ${new Date().toISOString()}] ${line}\n`);
const standin = await startStandin({
  port: intOption(values.port, "port", 4020),
  host: values.host ?? "127.0.0.1",
  shop: values.shop,
  accessToken: values["access-token"],
  clientId: values["client-id"],
  clientSecret: values["client-secret"],
  tokenLifetimeSeconds: intOption(values["token-lifetime"], "token-lifetime", 3600),
  legacyTokensRejected: values["reject-legacy-tokens"] ?? false,
  orders,
  scopes: values.scopes
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean),
  latencyMs: intOption(values["latency-ms"], "latency-ms", 0),
  bucketSize: intOption(values["bucket-size"], "bucket-size", 2000),
  restoreRate: intOption(values["restore-rate"], "restore-rate", 100),
  timezone: values.timezone,
  bulkMsPerObject: values["bulk-ms-per-object"] === undefined ? undefined : Number(values["bulk-ms-per-object"]),
  webhookUrl: values["webhook-url"],
  webhookSecret: values["webhook-secret"],
  log: values.quiet ? undefined : stderrLog,
}).catch((error: unknown) => {
  console.error(`The Shopify stand-in could not start: ${(error as Error).message}`);
  process.exit(1);
});

process.stdout.write(`${JSON.stringify({ url: standin.url, shop: standin.shop, accessToken: standin.accessToken })}\n`);
stderrLog(
  `Admin GraphQL stand-in for ${standin.shop} at ${standin.graphqlUrl()} (${orders.length} orders); mutations: GET ${standin.url}/__standin/mutations; Ctrl-C stops it`,
);

stopOnSignals(() => standin.stop());
