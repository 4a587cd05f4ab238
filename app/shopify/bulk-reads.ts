// Orders read through a bulk query operation (shopify.dev/docs/api/usage/bulk-operations/queries): one
// `bulkOperationRunQuery` over the range, the operation followed to its end (app/shopify/bulk-operations.server.ts, the finish webhook or
// polling `node(id:)`), then one JSONL file read as a stream with a size limit. Nested connections (line items,
// shipping lines) come back as lines of their own with `__parentId`, in no promised order, so lines are gathered
// per order before any order is returned. An order with refunds is read again in full with the paged query:
// Shopify refuses a connection (refund lines) inside a list field (refunds) in a bulk query.
// No configuration is read here: the caller gives the client and the fetch the file is read with.
import { z } from "zod";
import { BULK_ORDER_FIELDS, GraphqlOrderSchema, toWebhookOrder, type GraphqlOrder } from "../orders/graphql-order";
import type { BulkOperationStatusQuery, BulkOrdersRunMutation, OrdersCountQuery } from "./admin.generated";
import { answerShape } from "./answers";
import type { AdminGraphql } from "./client.server";
import { AdminApiError } from "./errors";
import { readOrderWith, type Order } from "./order-reads";

/** Bulk query operations an app may run at once per shop: one before API 2026-01, five from it. */
export function bulkQueriesAtOnce(apiVersion: string): number {
  return apiVersion === "unstable" || apiVersion >= "2026-01" ? 5 : 1;
}

/** The largest bulk file read (its orders are held in memory until recorded); a larger range is read page by page. */
export const BULK_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** Where Shopify serves bulk operation files (signed Google Cloud Storage links). */
export const BULK_FILE_HOSTS = ["storage.googleapis.com"];

/** Where the search string goes in BULK_ORDERS (a bulk query takes no variables). */
const SEARCH = "__SEARCH__";
/** The bulk query: the fields of the paged read, by creation time. */
export const BULK_ORDERS = `query BulkOrders { orders(query: "${SEARCH}", sortKey: CREATED_AT) { edges { node { ${BULK_ORDER_FIELDS} } } } }`;
const RUN = `mutation BulkOrdersRun($query: String!) {
  bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { code field message } } }`;
const STATUS = `query BulkOperationStatus($id: ID!) { node(id: $id) { ... on BulkOperation { id status errorCode objectCount url } } }`;
const COUNT = `query OrdersCount($query: String) { ordersCount(query: $query, limit: 10000) { count precision } }`;

const RunData = answerShape<BulkOrdersRunMutation>()(
  z.object({
    bulkOperationRunQuery: z
      .object({
        bulkOperation: z.object({ id: z.string(), status: z.string() }).nullable(),
        userErrors: z.array(
          z.object({ code: z.string().nullable(), field: z.array(z.string()).nullable(), message: z.string() }),
        ),
      })
      .nullable(),
  }),
);
const StatusData = answerShape<BulkOperationStatusQuery>()(
  z.object({
    node: z
      .object({
        id: z.string().optional(),
        status: z.string().optional(),
        errorCode: z.string().nullable().optional(),
        objectCount: z.union([z.string(), z.number()]).optional(),
        url: z.string().nullable().optional(),
      })
      .nullable(),
  }),
);
const CountData = answerShape<OrdersCountQuery>()(
  z.object({ ordersCount: z.object({ count: z.number().int(), precision: z.string() }).nullable() }),
);

/** The bulk query for orders matching a Shopify search (the string is written as a GraphQL string literal). */
export function bulkOrdersQuery(search: string): string {
  // JSON's string escapes are GraphQL's: the quoted placeholder becomes the quoted, escaped search.
  return BULK_ORDERS.replace(`"${SEARCH}"`, () => JSON.stringify(search));
}

export type BulkStart = { ok: true; id: string } | { ok: false; code: string | null; message: string };

/** Starts a bulk operation over the orders matching `search`. Refusals (the limit of operations at once, an invalid query) are answers, not errors. */
export async function startBulkOrdersWith(client: AdminGraphql, search: string): Promise<BulkStart> {
  const data = await client.graphql(RUN, { query: bulkOrdersQuery(search) }, RunData);
  const payload = data.bulkOperationRunQuery;
  if (payload?.bulkOperation && payload.userErrors.length === 0) return { ok: true, id: payload.bulkOperation.id };
  const error = payload?.userErrors[0];
  return {
    ok: false,
    code: error?.code ?? null,
    message: error?.message ?? "Shopify did not start the bulk operation",
  };
}

export interface BulkOperationState {
  status: "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "EXPIRED" | "CANCELED" | "CANCELING";
  errorCode: string | null;
  objectCount: number;
  url: string | null;
}

const STATUSES = new Set(["CREATED", "RUNNING", "COMPLETED", "FAILED", "EXPIRED", "CANCELED", "CANCELING"]);

/** The operation as Shopify reports it now, or null if Shopify does not know it (for this app and shop). */
export async function bulkOperationWith(client: AdminGraphql, id: string): Promise<BulkOperationState | null> {
  const data = await client.graphql(STATUS, { id }, StatusData);
  const node = data.node;
  if (!node?.status) return null;
  if (!STATUSES.has(node.status))
    throw new AdminApiError("invalid_response", `unknown bulk operation status ${node.status}`);
  return {
    status: node.status as BulkOperationState["status"],
    errorCode: node.errorCode ?? null,
    objectCount: Number(node.objectCount ?? 0) || 0,
    url: node.url ?? null,
  };
}

/** How many orders match `search` (at most 10,000: a larger count is reported as 10,000). */
export async function countOrdersWith(client: AdminGraphql, search: string): Promise<number> {
  const data = await client.graphql(COUNT, { query: search }, CountData);
  return data.ordersCount?.count ?? 0;
}

export interface DownloadOptions {
  /** The most bytes read before the download is given up (a file this large is not read in bulk). */
  maxBytes: number;
  timeoutMs?: number;
  /** The longest line (default BULK_LINE_MAX_CHARS). */
  maxLineBytes?: number;
}

/** A line of a bulk file is one node (an order without its connections, a line item): far below this. */
export const BULK_LINE_MAX_CHARS = 1024 * 1024;

type Line = Record<string, unknown> & { id?: unknown; __parentId?: unknown; __typename?: unknown };

/**
 * The orders of a bulk operation's JSONL file, each with all its line items and shipping lines, read as a stream.
 * Throws AdminApiError: `unavailable` if the download fails or stops half-way (the file may be read again),
 * `invalid_response` for a file over the limit or a line that is not an order or one of its children.
 */
export async function downloadBulkOrders(
  fetchFile: typeof fetch,
  url: string,
  options: DownloadOptions,
): Promise<Array<Record<string, unknown>>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10 * 60_000);
  const orders = new Map<string, Line & { lineItems: { nodes: Line[] }; shippingLines: { nodes: Line[] } }>();
  const children: Line[] = [];
  let bytes = 0;
  let lines = 0;
  const take = (text: string) => {
    if (!text.trim()) return;
    lines++;
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      throw new AdminApiError("invalid_response", `line ${lines} of the bulk file is not JSON`);
    }
    if (typeof line !== "object" || line === null)
      throw new AdminApiError("invalid_response", `line ${lines} of the bulk file is not an object`);
    if (line.__parentId === undefined) {
      if (typeof line.id !== "string" || !line.id.startsWith("gid://shopify/Order/"))
        throw new AdminApiError("invalid_response", `line ${lines} of the bulk file is not an order`);
      orders.set(line.id, { ...line, lineItems: { nodes: [] }, shippingLines: { nodes: [] } });
    } else children.push(line);
  };
  try {
    let response: Response;
    try {
      response = await fetchFile(url, { signal: controller.signal });
    } catch (error) {
      throw new AdminApiError("unavailable", `the bulk file could not be downloaded (${(error as Error).message})`);
    }
    if (!response.ok || !response.body)
      throw new AdminApiError("unavailable", `the bulk file answered ${response.status}`);
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new AdminApiError(
        "invalid_response",
        `the bulk file is ${declared} bytes, over the ${options.maxBytes}-byte limit`,
      );
    }
    const decoder = new TextDecoder();
    // The line being read: its pieces so far, joined once its end is found. Each chunk is searched for line ends once
    // (a long line grows by pieces, never rescanned or copied again: linear in the file's length), and no line may
    // grow past the limit.
    let pieces: string[] = [];
    let partLength = 0;
    const lineLimit = options.maxLineBytes ?? BULK_LINE_MAX_CHARS;
    const tooLong = () =>
      new AdminApiError(
        "invalid_response",
        `line ${lines + 1} of the bulk file is over the ${lineLimit}-character limit`,
      );
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        if (bytes > options.maxBytes) {
          controller.abort();
          throw new AdminApiError("invalid_response", `the bulk file is over the ${options.maxBytes}-byte limit`);
        }
        const text = decoder.decode(chunk, { stream: true });
        let start = 0;
        let newline: number;
        while ((newline = text.indexOf("\n", start)) >= 0) {
          const piece = text.slice(start, newline);
          if (partLength + piece.length > lineLimit) throw tooLong();
          take(partLength ? pieces.join("") + piece : piece);
          pieces = [];
          partLength = 0;
          start = newline + 1;
        }
        if (start < text.length) {
          partLength += text.length - start;
          if (partLength > lineLimit) {
            controller.abort();
            throw tooLong();
          }
          pieces.push(text.slice(start));
        }
      }
    } catch (error) {
      if (error instanceof AdminApiError) throw error;
      throw new AdminApiError(
        "unavailable",
        `the bulk file's download stopped after ${bytes} bytes (${(error as Error).message})`,
      );
    }
    const rest = pieces.join("") + decoder.decode();
    if (Number.isFinite(declared) && declared > 0 && bytes < declared)
      throw new AdminApiError("unavailable", `the bulk file's download stopped after ${bytes} of ${declared} bytes`);
    // A file cut exactly between lines is still detected by its length; a cut inside a line leaves a partial line.
    if (rest.trim()) {
      try {
        JSON.parse(rest);
      } catch {
        throw new AdminApiError("unavailable", `the bulk file ends inside a line after ${bytes} bytes`);
      }
      take(rest);
    }
  } finally {
    clearTimeout(timer);
  }
  for (const child of children) {
    const parent = orders.get(String(child.__parentId));
    if (!parent)
      throw new AdminApiError(
        "invalid_response",
        `a line of the bulk file belongs to no order of it (${String(child.__parentId)})`,
      );
    const { __parentId: _parent, __typename: type, ...node } = child;
    if (type === "LineItem") parent.lineItems.nodes.push(node);
    else if (type === "ShippingLine") parent.shippingLines.nodes.push(node);
    else
      throw new AdminApiError(
        "invalid_response",
        `a line of the bulk file is a ${String(type)}, not a line item or shipping line`,
      );
  }
  return [...orders.values()];
}

const DONE = { hasNextPage: false, endCursor: null };
const BulkRefunds = z.array(z.object({ id: z.string() }));

/**
 * The orders of a bulk file in the webhook's shape, as the paged read returns them: an order with refunds is read
 * again with `client` (its refund lines cannot be in the file), one without is converted as it is.
 */
export async function bulkOrdersToWebhook(client: AdminGraphql, raw: Array<Record<string, unknown>>): Promise<Order[]> {
  const out: Order[] = [];
  for (const line of raw) {
    const refunds = BulkRefunds.safeParse(line.refunds ?? []);
    if (!refunds.success)
      throw new AdminApiError(
        "invalid_response",
        `${String(line.name)}: refunds of the bulk file are not a list of ids`,
      );
    if (refunds.data.length > 0) {
      const full = await readOrderWith(client, String(line.id));
      if (full) out.push(full);
      continue;
    }
    const parsed = GraphqlOrderSchema.safeParse({
      ...line,
      lineItems: { nodes: (line.lineItems as { nodes: unknown[] }).nodes, pageInfo: DONE },
      shippingLines: { nodes: (line.shippingLines as { nodes: unknown[] }).nodes, pageInfo: DONE },
      refunds: [],
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AdminApiError(
        "invalid_response",
        `${String(line.name)} of the bulk file at ${issue?.path.join(".")}: ${issue?.message}`,
      );
    }
    out.push(convert(parsed.data));
  }
  return out;
}

function convert(order: GraphqlOrder): Order {
  try {
    return toWebhookOrder(order);
  } catch (error) {
    throw new AdminApiError(
      "invalid_response",
      `${order.name} could not be read as an order: ${(error as Error).message.slice(0, 300)}`,
    );
  }
}
