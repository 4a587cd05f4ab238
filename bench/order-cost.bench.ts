// What each field of the paged order read costs (issue 26, point 3), with the stand-in's cost model, which follows
// Shopify's published rules (shopify-standin/cost.ts): the page query of the app (`ListOrders`) over the same
// orders, then the same query with one top-level field of the order left out; the difference in actual points is
// that field's cost. Also the requested cost of a page (what the bucket must hold before the query runs, and what
// limits a page to 1,000 points) and the orders per page it allows.
// Run: npx tsx bench/order-cost.bench.ts [--orders=50] [--before=<git ref>]  (--before measures that commit's
// ListOrders document too, read with `git show`, for a before/after table).
import { execFileSync } from "node:child_process";
import { Kind, parse, print, visit, type FieldNode } from "graphql";
import { startStandin } from "../shopify-standin/server";
import fc from "fast-check";
import { orderArb, shopifyOrder } from "../test/helpers/generated-orders";
import { paidOrder } from "../test/helpers/orders";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const ORDERS = Number(args.get("orders") ?? 50);
const BEFORE = args.get("before");

/** The ListOrders document of the app as the working tree has it, or as `ref` had it. */
async function listOrdersDocument(ref?: string): Promise<string> {
  if (!ref) {
    const { ORDER_FIELDS } = await import("../app/orders/graphql-order");
    return listOrders(ORDER_FIELDS);
  }
  // The old module, evaluated from its text (it is pure and imports only zod, decimal and the order schema).
  const source = execFileSync("git", ["show", `${ref}:app/orders/graphql-order.ts`], { encoding: "utf8" });
  const file = `${process.cwd()}/tmp/bench/graphql-order-${ref.replace(/\W/g, "_")}.ts`;
  const { mkdirSync, writeFileSync } = await import("node:fs");
  mkdirSync(`${process.cwd()}/tmp/bench`, { recursive: true });
  writeFileSync(
    file,
    source.replace(/from "\.\.\//g, 'from "../../app/').replace(/from "\.\//g, 'from "../../app/orders/'),
  );
  const old = (await import(file)) as { ORDER_FIELDS: string };
  return listOrders(old.ORDER_FIELDS);
}

const listOrders = (
  fields: string,
) => `query ListOrders($first: Int!, $after: String, $query: String, $sortKey: OrderSortKeys, $reverse: Boolean) {
  orders(first: $first, after: $after, query: $query, sortKey: $sortKey, reverse: $reverse) { nodes { ${fields} } pageInfo { hasNextPage endCursor } } }`;

// Ordinary orders (one line, one shipping line) and the generated mix the property tests use (discounts, refunds,
// several lines, other currencies).
const generated = fc.sample(orderArb, { numRuns: ORDERS, seed: 26 }).map((g, i) => shopifyOrder(g, i).payload);
const orders = [...Array.from({ length: ORDERS }, () => paidOrder()), ...generated];
const standin = await startStandin({
  orders,
  bucketSize: 10_000_000,
  restoreRate: 10_000_000,
  maxQueryCost: 10_000_000,
});

async function cost(document: string, subset: "ordinary" | "mixed") {
  const ids = (subset === "ordinary" ? orders.slice(0, ORDERS) : orders.slice(ORDERS))
    .map((o) => `id:${(o as { id: number }).id}`)
    .join(" OR ");
  let actual = 0;
  let requestedPage = 0;
  let read = 0;
  let after: string | null = null;
  do {
    const answer = (
      await standin.request({ query: document, variables: { first: 5, after, query: ids, sortKey: "ID" } })
    ).json as {
      data: { orders: { nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
      extensions: { cost: { requestedQueryCost: number; actualQueryCost: number } };
      errors?: unknown;
    };
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    actual += answer.extensions.cost.actualQueryCost;
    requestedPage = Math.max(requestedPage, answer.extensions.cost.requestedQueryCost);
    read += answer.data.orders.nodes.length;
    after = answer.data.orders.pageInfo.hasNextPage ? answer.data.orders.pageInfo.endCursor : null;
  } while (after);
  return { perOrder: actual / read, requestedPerOrder: (requestedPage - 2) / 5 };
}

/** The document without the order's top-level field `name`. */
function without(document: string, name: string): string {
  let depth = 0;
  return print(
    visit(parse(document), {
      Field: {
        enter(node: FieldNode) {
          if (node.name.value === "nodes") depth++;
          if (depth === 1 && node.name.value === name && node.selectionSet) return null;
          return undefined;
        },
        leave(node: FieldNode) {
          if (node.name.value === "nodes") depth--;
        },
      },
    }),
  );
}

function objectFields(document: string): string[] {
  const op = parse(document).definitions[0];
  if (op.kind !== Kind.OPERATION_DEFINITION) return [];
  const ordersField = op.selectionSet.selections[0] as FieldNode;
  const nodes = ordersField.selectionSet!.selections.find(
    (s) => s.kind === Kind.FIELD && s.name.value === "nodes",
  ) as FieldNode;
  return nodes
    .selectionSet!.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD && Boolean(s.selectionSet))
    .map((s) => s.name.value);
}

const lines: string[] = [];
const say = (line: string) => {
  console.log(line);
  lines.push(line);
};

/** The app's own paged read (ListOrders and the follow-up queries for longer orders), as the stand-in charges it. */
async function appRead(subset: "ordinary" | "mixed") {
  const { createAdminClient, BucketState } = await import("../app/shopify/client.server");
  const { listOrdersWith } = await import("../app/shopify/order-reads");
  const client = createAdminClient({
    shop: standin.shop,
    endpoint: standin.graphqlUrl(),
    accessToken: standin.accessToken,
    bucket: new BucketState(),
  });
  const ids = (subset === "ordinary" ? orders.slice(0, ORDERS) : orders.slice(ORDERS))
    .map((o) => `id:${(o as { id: number }).id}`)
    .join(" OR ");
  const before = standin.stats();
  let read = 0;
  let after: string | null = null;
  do {
    const page = await listOrdersWith(client, { query: ids, after, sortKey: "ID" });
    read += page.orders.length;
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  const stats = standin.stats();
  return { perOrder: (stats.pointsSpent - before.pointsSpent) / read, queries: stats.queries - before.queries };
}

say(`# Paged order read: points per order, ${new Date().toISOString()}`);
say(
  `${ORDERS} ordinary orders (one line, one shipping line) and ${ORDERS} generated ones (several lines, discounts, refunds, other currencies).\n`,
);
const ordinaryRead = await appRead("ordinary");
const mixedRead = await appRead("mixed");
say(
  `The app's paged read (\`listOrdersWith\`, follow-up queries included): **${ordinaryRead.perOrder.toFixed(1)} actual points per ordinary order** (${ordinaryRead.queries} queries for ${ORDERS} orders), ${mixedRead.perOrder.toFixed(1)} per mixed order (${mixedRead.queries} queries).\n`,
);
const documents: Array<[string, string]> = [["now", await listOrdersDocument()]];
if (BEFORE) documents.unshift([`before (${BEFORE})`, await listOrdersDocument(BEFORE)]);
say(`The page query alone (\`ListOrders\`, 5 orders a page, without the follow-ups for longer orders):\n`);
say(
  `| ListOrders | actual points per order, ordinary | actual, mixed (first page of lines only) | requested per order (worst case) | orders per page under 1,000 |`,
);
say(`|---|---|---|---|---|`);
for (const [label, document] of documents) {
  const ordinary = await cost(document, "ordinary");
  const mixed = await cost(document, "mixed");
  say(
    `| ${label} | ${ordinary.perOrder.toFixed(1)} | ${mixed.perOrder.toFixed(1)} | ${ordinary.requestedPerOrder.toFixed(0)} | ${Math.floor((1000 - 2) / ordinary.requestedPerOrder)} |`,
  );
}
const current = documents[documents.length - 1][1];
const base = await cost(current, "mixed");
say(`\nWhat each object field of the order costs now (actual points per order, mixed orders; scalars cost nothing):\n`);
say(`| field | points per order |`);
say(`|---|---|`);
for (const field of objectFields(current)) {
  const less = await cost(without(current, field), "mixed");
  say(`| ${field} | ${(base.perOrder - less.perOrder).toFixed(2)} |`);
}
await standin.stop();
