// Maps 100,000 fixture-like orders (cycling test/fixtures/orders) and prints orders per second, next to a
// baseline in the same run: a JSON deep copy of each order, the cheapest thing any handler does with it.
// Run: npx tsx bench/mapping.bench.ts [count]   (writes bench/results/mapping.md)
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mapOrderToInvoice } from "../app/orders/map-order";
import { parseShopifyOrder } from "../app/orders/order";
import { fixtureContext, fixtureNames, fixtureOrder } from "../test/orders/fixture-loader";

const COUNT = Number(process.argv[2] ?? 100_000);
const loadAtStart = os.loadavg()[0];
const fixtures = fixtureNames().map((name) => ({ name, json: fixtureOrder(name), context: fixtureContext(name) }));
const lineCount = fixtures.reduce((sum, f) => sum + (f.json as { line_items: unknown[] }).line_items.length, 0);

function time(label: string, work: (i: number) => void): number {
  for (let i = 0; i < Math.min(2_000, COUNT); i++) work(i); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < COUNT; i++) work(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const perSecond = COUNT / seconds;
  console.log(
    `${label.padEnd(36)} ${COUNT} orders in ${seconds.toFixed(2)} s = ${Math.round(perSecond).toLocaleString("en-US")} orders/s`,
  );
  return perSecond;
}

let invoices = 0;
let sink = 0;
const baseline = time("baseline JSON.parse(JSON.stringify)", (i) => {
  sink += (JSON.parse(JSON.stringify(fixtures[i % fixtures.length].json)) as { id: number }).id > 0 ? 1 : 0;
});
const mapping = time("parseShopifyOrder + mapOrderToInvoice", (i) => {
  const f = fixtures[i % fixtures.length];
  const parsed = parseShopifyOrder(f.json);
  if (parsed.ok && mapOrderToInvoice(parsed.order, f.context).ok) invoices++;
});
const parsedOrders = fixtures.map((f) => {
  const parsed = parseShopifyOrder(f.json);
  if (!parsed.ok) throw new Error(`fixture ${f.name} does not parse`);
  return parsed.order;
});
const mapOnly = time("mapOrderToInvoice (parsed order)", (i) => {
  sink += mapOrderToInvoice(parsedOrders[i % fixtures.length], fixtures[i % fixtures.length].context).ok ? 1 : 0;
});
const ratio = baseline / mapping;
console.log(
  `mapping is ${ratio.toFixed(1)}× the baseline's time per order (${invoices} bodies, ${COUNT - invoices} refused with problems; sink ${sink})`,
);

const results = `# Order mapping benchmark

Command: \`npx tsx bench/mapping.bench.ts\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores, one thread).

${COUNT.toLocaleString("en-US")} orders, cycling the ${fixtures.length} fixture orders of \`test/fixtures/orders\` (${lineCount} line items in all,
one order of 120 lines; ${Math.round((100 * invoices) / COUNT)} % become bodies, the rest are refused with problems).
Each order is validated with \`parseShopifyOrder\` (zod) and mapped with \`mapOrderToInvoice\`.

| what | orders per second |
|---|---|
| baseline: \`JSON.parse(JSON.stringify(order))\` | ${Math.round(baseline).toLocaleString("en-US")} |
| parse + map (\`parseShopifyOrder\` + \`mapOrderToInvoice\`) | ${Math.round(mapping).toLocaleString("en-US")} |
| map only (order parsed beforehand) | ${Math.round(mapOnly).toLocaleString("en-US")} |

Parsing and mapping cost ${ratio.toFixed(1)}× a JSON deep copy of the same order. The figures vary with the machine's load
(1-minute load average at the start of this run: ${loadAtStart.toFixed(1)} on ${os.cpus().length} cores). Invoicing is bounded by the service's
HTTP round trip (hundreds of milliseconds), so the mapping is never the bottleneck.
`;
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "results", "mapping.md");
writeFileSync(out, results);
console.log(`wrote ${path.relative(process.cwd(), out)}`);
