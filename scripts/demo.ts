// npm run demo: the app's main job, locally, with no network. Starts the invoicing sandbox and the app
// (production build, SQLite, in-process worker), installs a demo shop, sends realistic signed orders/paid
// webhooks, waits until every invoice is final, and prints a table. Then it keeps serving the embedded
// admin page for a person to open, until Ctrl+C (or exits at once with --exit).
import { randomBytes } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { LOCAL_API_KEY, startLocalStack, stopLocalStacks } from "./lib/local-stack";
import { SETTLED_STATES } from "../app/invoice-state/transitions";
import { shorten } from "./lib/shorten";
import { E_INVOICE_TAX_NUMBERS } from "../sandbox/taxnumbers";
import { startStandin } from "../shopify-standin/server";

const { values } = parseArgs({
  options: {
    exit: { type: "boolean", default: false },
    orders: { type: "string", default: "test/fixtures/orders" },
    all: { type: "boolean", default: false },
    "timeout-s": { type: "string", default: "90" },
    logs: { type: "boolean", default: false },
  },
});

const FINAL = new Set<string>(SETTLED_STATES);

// A realistic day of a Turkish shop: citizens, a company, anonymous and foreign buyers, discounts,
// cash on delivery, bank transfer, gift cards, a refund, a POS sale, and two orders a merchant must fix.
const DEMO_ORDERS = [
  "01-single-item-citizen",
  "02-mixed-rates-free-shipping",
  "03-taxes-excluded",
  "04-line-discount",
  "05-order-discount-code",
  "09-company-buyer",
  "12-anonymous-consumer",
  "13-foreign-buyer",
  "14-cash-on-delivery",
  "15-bank-transfer",
  "16-digital-goods",
  "17-gift-card-with-item",
  "19-partial-refund",
  "20-rounding-3x33.33",
  "21-pos-sale",
  "24-guest-order",
  "10-company-without-tax-office",
  "26-unsupported-tax-rate",
];

function loadOrders(dir: string): Array<{ file: string; order: Record<string, unknown> }> {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json") && (values.all || DEMO_ORDERS.includes(file.replace(/\.json$/, ""))))
    .sort()
    .map((file) => ({ file, order: JSON.parse(readFileSync(path.join(dir, file), "utf8")) }));
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column])).join("  ");
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

// Ctrl+C (SIGINT) or SIGTERM at any moment, even while starting, stops everything the demo started: the app's
// process, the sandbox and the stand-in (test/demo/demo-stop.test.ts). `npm run demo` execs node, so npm's
// forwarded signal reaches this process (an `sh -c` in between would die alone and leave the demo serving).
const aborted = new AbortController();
const stoppers: Array<() => Promise<void>> = [];
let stopping: Promise<never> | undefined;
function stop(code = 0): Promise<never> {
  stopping ??= (async () => {
    aborted.abort();
    await Promise.all([stopLocalStacks(), ...stoppers.map((fn) => fn().catch(() => undefined))]);
    process.exit(code);
  })();
  return stopping;
}
process.once("SIGINT", () => void stop());
process.once("SIGTERM", () => void stop());

const started = Date.now();
const SHOP = "demo-magaza.myshopify.com";
const orders = loadOrders(values.orders);
// Shopify's Admin API, stood in locally with the same orders: the app writes each invoice back to its order there
// (tags, metafields, Flow events; the demo shop granted write_orders).
// One order's webhook is "lost" (Shopify gives up after 8 failed deliveries): only reconciliation brings it in.
// It was updated just now in Shopify, so the pass after the webhooks finds it.
const missed = orders.find((o) => o.file === "24-guest-order.json") ?? orders.at(-1)!;
missed.order = { ...missed.order, updated_at: new Date().toISOString() };
// The app's secret is the stand-in's too: it checks the session tokens the app exchanges there (a reconnect).
const apiSecret = `local-secret-${randomBytes(8).toString("hex")}`;
const standin = await startStandin({
  port: 0,
  shop: SHOP,
  orders: orders.map((o) => o.order),
  clientId: LOCAL_API_KEY,
  clientSecret: apiSecret,
});
stoppers.push(() => standin.stop());
console.log("Starting the invoicing sandbox and the app (building it first if needed)...");
// The demo's B2B buyer (Anadolu Tekstil, VKN 0720039666) has an e-invoice mailbox: it gets an e-Fatura.
const stack = await startLocalStack({
  apiSecret,
  name: "demo",
  shop: SHOP,
  adminApi: { url: standin.url, accessToken: standin.accessToken, scopes: "read_orders,write_orders" },
  formalizeDelayMs: 600,
  logs: values.logs,
  // The demo runs its reconciliation pass itself (below), after the webhooks, to show it.
  env: { RECONCILE_INTERVAL_MINUTES: "0" },
  eInvoiceTaxNumbers: [...E_INVOICE_TAX_NUMBERS, "0720039666"],
}).catch((error: unknown) => (aborted.signal.aborted ? stop() : Promise.reject(error)));

try {
  // Read the app's database from this process too (SQLite in WAL mode allows it).
  process.env.DATABASE_URL = stack.databaseUrl;
  const { createDb } = await import("../app/db/client");
  const { problemText } = await import("../app/problems");
  const db = createDb(stack.databaseUrl);

  console.log(`Sandbox ${stack.sandbox.url} · app ${stack.appUrl} · shop ${stack.shop}`);
  console.log(`Sending ${orders.length} signed orders/paid webhooks...`);
  for (const { file, order } of orders) {
    if (file === missed.file) continue;
    const response = await stack.deliver("orders/paid", order);
    if (response.status !== 200) console.log(`  ${file}: HTTP ${response.status} ${await response.text()}`);
  }
  const missedName = String(missed.order.name);
  console.log(
    `The webhook of ${missedName} (${missed.file}) was "lost". Reconciliation: npm run reconcile -- --shop ${SHOP}`,
  );
  // Asynchronously: the Admin API stand-in answering the pass runs in this process.
  const pass = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/reconcile.ts", "--shop", SHOP],
    { env: { ...stack.env, LOG_LEVEL: "warn" }, signal: aborted.signal },
  ).catch((error: { stdout?: string; stderr?: string }) => ({
    stdout: error.stdout ?? "",
    stderr: error.stderr ?? "",
  }));
  console.log(`  ${(pass.stdout || pass.stderr).trim().split("\n").at(-1)}`);

  const deadline = Date.now() + Number(values["timeout-s"]) * 1000;
  let invoices = await db.invoice.findMany({ orderBy: { orderName: "asc" } });
  while (Date.now() < deadline && invoices.some((invoice) => !FINAL.has(invoice.state))) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    invoices = await db.invoice.findMany({ orderBy: { orderName: "asc" } });
  }

  const describe = (problems: unknown) =>
    (Array.isArray(problems) ? problems : [])
      .filter((p) => p.severity !== "warning")
      .map((p) => problemText(p, "en"))
      .join(" ");
  const reconciled = new Set(
    (
      await db.invoiceEvent.findMany({
        where: { type: "received", message: { startsWith: "found by reconciliation" } },
        select: { invoiceId: true },
      })
    ).map((e) => e.invoiceId),
  );
  const rows = [["order", "via", "state", "kind", "serial number", "total", "PDF", "problem"]];
  for (const invoice of invoices) {
    const totals = invoice.remoteTotals as { grand_total?: string } | null;
    rows.push([
      invoice.orderName,
      reconciled.has(invoice.id) ? "reconciliation" : "webhook",
      invoice.state,
      invoice.documentKind === "e_invoice" ? "e-Fatura" : invoice.documentKind === "e_archive" ? "e-Arşiv" : "-",
      invoice.serialNumber ?? "-",
      `${totals?.grand_total ?? invoice.orderTotal} ${invoice.currency}`,
      invoice.pdfUrl ?? "-",
      shorten(describe(invoice.problems), 120),
    ]);
  }
  console.log("\n" + table(rows) + "\n");
  const found = invoices
    .filter((invoice) => reconciled.has(invoice.id))
    .map((invoice) => `${invoice.orderName} (${invoice.state})`);
  console.log(
    found.length
      ? `Reached the app only through reconciliation, no webhook: ${found.join(", ")}`
      : `Reconciliation found no missed order (expected ${missedName}).`,
  );
  const pending = invoices.filter((invoice) => !FINAL.has(invoice.state)).length;
  const byState = invoices.reduce<Record<string, number>>(
    (acc, i) => ({ ...acc, [i.state]: (acc[i.state] ?? 0) + 1 }),
    {},
  );
  console.log(
    `${invoices.length} invoices in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(byState)}${pending ? ` (${pending} not final before the timeout)` : ""}`,
  );

  // What reached Shopify: each completed order's tags and the app's metafields, as the Admin API stand-in holds them.
  const completed = invoices.filter((invoice) => invoice.state === "completed");
  const writeDeadline = Date.now() + 15_000;
  const pendingWrites = () => db.orderWriteBack.count({ where: { status: "pending" } });
  while (Date.now() < writeDeadline && (await pendingWrites()) > 0)
    await new Promise((resolve) => setTimeout(resolve, 300));
  const written = [
    [
      "order",
      "tags",
      "invoice_state",
      "invoice_serial",
      "invoice_kind",
      "invoice_date",
      "invoice_ettn",
      "invoice_pdf_url",
    ],
  ];
  for (const invoice of completed) {
    const { json } = await standin.request({
      query: `query DemoWrittenBack($id: ID!) { order(id: $id) { tags metafields(first: 20, namespace: "$app") { nodes { key value } } } }`,
      variables: { id: `gid://shopify/Order/${invoice.orderId}` },
    });
    const order = json?.data?.order as {
      tags: string[];
      metafields: { nodes: Array<{ key: string; value: string }> };
    } | null;
    const m = Object.fromEntries((order?.metafields.nodes ?? []).map((node) => [node.key, node.value]));
    written.push([
      invoice.orderName,
      (order?.tags ?? []).join(", ") || "-",
      ...written[0].slice(2).map((key) => m[key] ?? "-"),
    ]);
  }
  const flows = standin.mutations().filter((m) => m.field === "flowTriggerReceive").length;
  console.log(
    `Written to Shopify (Admin API stand-in ${standin.url}): ${completed.length} completed orders, ${flows} Flow events\n`,
  );
  console.log(table(written) + "\n");
  await db.$disconnect();

  if (values.exit) await stop();
  console.log(`\nOpen the embedded admin page: ${stack.appUrl}/local-admin?shop=${stack.shop}&locale=tr`);
  console.log(`(English: ${stack.appUrl}/local-admin?shop=${stack.shop}&locale=en) · Ctrl+C stops the demo.`);
} catch (error) {
  console.error(`The demo failed: ${(error as Error).message}`);
  await stop(1);
}
