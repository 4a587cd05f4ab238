// The app's Admin API code (client, queries, GraphQL-to-webhook conversion) against the local stand-in of
// Shopify's Admin GraphQL API, as an OrderReader for reconciliation, past-orders runs and the bulk action.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stopProcess } from "./processes";
import { createAdminClient, BucketState } from "../../app/shopify/client.server";
import { listOrdersWith, readOrderWith } from "../../app/shopify/orders.server";
import type { BulkReader, OrderReader } from "../../app/shopify/order-reader";
import {
  BULK_FILE_MAX_BYTES,
  bulkOperationWith,
  bulkOrdersToWebhook,
  bulkQueriesAtOnce,
  countOrdersWith,
  downloadBulkOrders,
  startBulkOrdersWith,
} from "../../app/shopify/bulk-reads";
import type { AdminGraphql } from "../../app/shopify/client.server";
import type { Standin } from "../../shopify-standin/server";

/** The app's bulk reads (app/shopify/bulk-reads.ts) with this client; the file is read with the global fetch. */
export function bulkReaderOf(client: AdminGraphql, apiVersion = "2026-10"): BulkReader {
  return {
    atOnce: bulkQueriesAtOnce(apiVersion),
    countOrders: (_shop, query) => countOrdersWith(client, query),
    start: (_shop, query) => startBulkOrdersWith(client, query),
    status: (_shop, id) => bulkOperationWith(client, id),
    download: async (_shop, url) =>
      bulkOrdersToWebhook(client, await downloadBulkOrders(fetch, url, { maxBytes: BULK_FILE_MAX_BYTES })),
  };
}

/** `bulk: false`: a reader that reads page by page only (as before bulk reading existed). */
export function standinReader(
  standin: Standin,
  options: { bulk?: boolean; apiVersion?: string } = {},
): OrderReader & { requests: () => number } {
  const client = createAdminClient({
    shop: standin.shop,
    endpoint: standin.graphqlUrl(options.apiVersion),
    accessToken: standin.accessToken,
    bucket: new BucketState(),
  });
  return {
    listOrders: (_shop, { query, first, after, sortKey }) => listOrdersWith(client, { query, first, after, sortKey }),
    readOrder: (_shop, orderId) => readOrderWith(client, orderId),
    ...(options.bulk === false ? {} : { bulk: bulkReaderOf(client, options.apiVersion) }),
    requests: () => client.stats.requests,
  };
}

export interface StandinProcess {
  url: string;
  shop: string;
  accessToken: string;
  reader: OrderReader & { requests: () => number };
  control(path: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * The stand-in as its own process (`npm run shopify:standin`), as the demo and support work run it: its
 * GraphQL execution then does not share the event loop with the app under test.
 */
export async function spawnStandin(orders: unknown[], args: string[] = []): Promise<StandinProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), "standin-"));
  const file = path.join(dir, "orders.json");
  writeFileSync(file, JSON.stringify(orders));
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "shopify-standin/cli.ts", "--port", "0", "--orders", file, "--quiet", ...args],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const first = await new Promise<string>((resolve, reject) => {
    let buffer = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes("\n")) resolve(buffer.split("\n")[0]);
    });
    child.once("exit", (code) => reject(new Error(`the stand-in exited (${code})`)));
  });
  const info = JSON.parse(first) as { url: string; shop: string; accessToken: string };
  const client = createAdminClient({
    shop: info.shop,
    endpoint: `${info.url}/admin/api/2026-10/graphql.json`,
    accessToken: info.accessToken,
    bucket: new BucketState(),
  });
  return {
    ...info,
    reader: {
      listOrders: (_shop, { query, first, after, sortKey }) => listOrdersWith(client, { query, first, after, sortKey }),
      readOrder: (_shop, orderId) => readOrderWith(client, orderId),
      requests: () => client.stats.requests,
    },
    async control(route, body) {
      const response = await fetch(
        `${info.url}/__standin/${route}`,
        body === undefined
          ? {}
          : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
      );
      return response.json();
    },
    async stop() {
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
