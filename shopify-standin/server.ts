// A local stand-in of Shopify's Admin GraphQL API for tests, the demo and support work: one shop, its orders
// (given in the webhook's REST shape, served in the GraphQL shape), a real graphql-js schema (./schema.ts),
// query cost in `extensions.cost` with a leaky bucket and THROTTLED answers when it is empty, the access token
// checked on every call, the mutations the app sends (tagsAdd, tagsRemove, metafieldsSet,
// metafieldDefinitionCreate, flowTriggerReceive) answered as Shopify answers them and recorded.
// The token endpoint (POST /admin/oauth/access_token) issues expiring offline tokens and refreshes them as Shopify
// does (./tokens.ts).
// Test controls under /__standin/ (never part of Shopify's API): faults, orders, B2B companies, recorded mutations,
// tokens.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  buildSchema,
  execute,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { operationCost } from "./cost";
import { restToGraphqlOrder, gid, storedCompany, utc, type StandinCompany, type StoredOrder } from "./rest-to-graphql";
import { SCHEMA_SDL } from "./schema";
import { matches, parseSearch, type SearchWarning } from "./search";
import { readBodyUpTo } from "../scripts/lib/cli";
import { webhookHeaders } from "../scripts/lib/shopify-signing";
import { bulkQueryLimit, checkBulkQuery, jsonlLines } from "./bulk";
import { createTokenAuthority, type TokenAuthority } from "./tokens";

/* eslint-disable @typescript-eslint/no-explicit-any -- resolvers receive graphql-js's untyped sources and arguments */

export interface StandinOptions {
  port?: number;
  host?: string;
  shop?: string;
  /** The shop's non-expiring offline token, as an app installed before expiring tokens holds it (default: random). */
  accessToken?: string;
  /** The app's client id and secret, which the token endpoint checks and session tokens are signed with. */
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of an expiring access token in seconds (Shopify: 3600). */
  tokenLifetimeSeconds?: number;
  /** Non-expiring tokens are refused, as from 1 January 2027. */
  legacyTokensRejected?: boolean;
  /** Webhook-shaped (REST) orders to serve. */
  orders?: unknown[];
  /** B2B companies and their locations; an order names one with its REST `company: { id, location_id }`. */
  companies?: StandinCompany[];
  /** Granted access scopes (default read_orders,write_orders). Without read_all_orders only 60 days are visible. */
  scopes?: string[];
  /** Added to every GraphQL request. */
  latencyMs?: number;
  /** The leaky bucket: size and points restored per second (Shopify's standard plan: 2000 and 100). */
  bucketSize?: number;
  restoreRate?: number;
  /** The largest cost of one query (Shopify: 1000). */
  maxQueryCost?: number;
  timezone?: string;
  now?: () => Date;
  log?: (line: string) => void;
  /** How long a bulk operation takes to build, per root object (an order): default 1 ms. */
  bulkMsPerObject?: number;
  /** Where `bulk_operations/finish` is delivered (the app's origin; the topic's address is /webhooks/bulk_operations/finish). */
  webhookUrl?: string;
  /** The app's API secret that signs deliveries. */
  webhookSecret?: string;
}

export interface RecordedMutation {
  at: string;
  field: string;
  arguments: Record<string, unknown>;
  userErrors: unknown[];
}

export interface Faults {
  /** The next n GraphQL requests answer THROTTLED, whatever the bucket holds. */
  throttled?: number;
  /** The next n GraphQL requests answer with an HTTP 5xx (status, default 503). */
  serverErrors?: number;
  status?: number;
  latencyMs?: number;
  /** Added to every token request (a slow token endpoint: renewals that overlap in time). */
  tokenLatencyMs?: number;
  /** The next n bulk operations end FAILED with `bulkErrorCode` (default INTERNAL_SERVER_ERROR). */
  bulkFailures?: number;
  bulkErrorCode?: "ACCESS_DENIED" | "INTERNAL_SERVER_ERROR" | "TIMEOUT";
  /** The next n bulk operations complete, but their file has expired by the time it is asked for (status EXPIRED, url null). */
  bulkExpired?: number;
  /** The next n downloads of a bulk file stop half-way (the connection is cut). */
  bulkCutDownloads?: number;
  /** The next n bulk operations finish without their `bulk_operations/finish` webhook. */
  bulkDroppedWebhooks?: number;
  bulkMsPerObject?: number;
}

interface BulkOperationRecord {
  id: string;
  status: "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "EXPIRED" | "CANCELED";
  errorCode: string | null;
  objectCount: number;
  rootObjectCount: number;
  query: string;
  type: "QUERY";
  createdAt: string;
  createdAtMs: number;
  completedAt: string | null;
  failWith: string | null;
  dropWebhook: boolean;
  expire: boolean;
  /** Settles once the file is made (the mutation answers before). */
  built: Promise<void>;
  /** The file, built when the operation was created; served once the operation completes. */
  lines: string[];
  roots: number;
  token: string;
  expired: boolean;
  finishAt: number;
}

export interface Standin {
  url: string;
  shop: string;
  /** The shop's non-expiring offline token (valid until migrated). */
  accessToken: string;
  /** The shop's offline tokens: stats, the active pair, revoke (./tokens.ts). */
  tokens: TokenAuthority;
  /** POST target of GraphQL requests for an API version. */
  graphqlUrl(version?: string): string;
  /** One GraphQL request in-process (no HTTP, no token check), as the HTTP endpoint answers it. */
  request(body: {
    query: string;
    variables?: Record<string, unknown>;
    operationName?: string;
  }): Promise<{ status: number; json: any }>;
  setFaults(faults: Faults): void;
  /** Ends every bulk operation still building now, as if its build time had passed (test control). */
  finishBulkOperations(): Promise<void>;
  upsertOrders(orders: unknown[]): void;
  /** B2B companies and their locations (replacing those with the same ids). */
  upsertCompanies(companies: StandinCompany[]): void;
  /** The scopes the app's token carries from now on (a grant, or a scope taken back in Shopify's admin). */
  setScopes(scopes: string[]): void;
  mutations(): RecordedMutation[];
  /** Requests, THROTTLED and 5xx answers, and the query cost paid (actual points, summed over answered queries). */
  stats(): {
    requests: number;
    throttled: number;
    serverErrors: number;
    queries: number;
    pointsSpent: number;
    bulkOperations: number;
    bulkDownloads: number;
    webhooks: number;
  };
  stop(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

/** The token request's fields, from a JSON or form body; null when it is neither. */
function tokenRequestFields(raw: Buffer, contentType: string | undefined): Record<string, unknown> | null {
  const text = raw.toString("utf8");
  if ((contentType ?? "").includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
const MAX_PAGE = 250;
const READ_WINDOW_DAYS = 60;
const APP_NAMESPACE = "app--1";

class Bucket {
  private available: number;
  private at: number;
  constructor(
    readonly size: number,
    readonly restoreRate: number,
    private readonly clock: () => number,
  ) {
    this.available = size;
    this.at = clock();
  }
  private refill() {
    const now = this.clock();
    this.available = Math.min(this.size, this.available + ((now - this.at) / 1000) * this.restoreRate);
    this.at = now;
  }
  take(cost: number): boolean {
    this.refill();
    if (cost > this.available) return false;
    this.available -= cost;
    return true;
  }
  giveBack(points: number) {
    this.refill();
    this.available = Math.min(this.size, this.available + points);
  }
  status() {
    this.refill();
    return {
      maximumAvailable: this.size,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.restoreRate,
    };
  }
}

const encodeCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
function decodeCursor(cursor: string): any {
  try {
    return JSON.parse(Buffer.from(cursor, "base64").toString("utf8"));
  } catch {
    throw new GraphQLError("Invalid cursor for current pagination sort.", { extensions: { code: "BAD_REQUEST" } });
  }
}

function pageSize(args: { first?: number | null; last?: number | null }, context?: { bulk?: boolean }): number {
  // A bulk operation reads whole connections; page sizes do not apply.
  if (context?.bulk) return Number.POSITIVE_INFINITY;
  const size = args.first ?? args.last;
  if (size === null || size === undefined)
    throw new GraphQLError("you must provide one of first or last", { extensions: { code: "BAD_REQUEST" } });
  if (size < 0 || size > MAX_PAGE)
    throw new GraphQLError(
      `The ${args.first !== undefined && args.first !== null ? "first" : "last"} argument must be between 0 and ${MAX_PAGE}.`,
      { extensions: { code: "BAD_REQUEST" } },
    );
  return size;
}

/** A connection over a list in its natural order; cursors are positions. */
function listConnection<T>(items: T[], args: any, context?: { bulk?: boolean }) {
  const size = pageSize(args, context);
  let list = args.reverse ? [...items].reverse() : items;
  let offset = 0;
  if (args.after) offset = Number(decodeCursor(args.after).i) + 1;
  let end = list.length;
  if (args.before) end = Number(decodeCursor(args.before).i);
  list = list.slice(0, end);
  const forward = args.first !== undefined && args.first !== null;
  const start = forward ? offset : Math.max(offset, list.length - size);
  const page = forward ? list.slice(offset, offset + size) : list.slice(start);
  const edges = page.map((node, k) => ({ cursor: encodeCursor({ i: start + k }), node }));
  return {
    edges,
    nodes: page,
    pageInfo: {
      hasNextPage: forward ? offset + size < list.length : end < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

const SORT_FIELDS: Record<string, (o: StoredOrder) => string | number> = {
  ID: (o) => o.legacyResourceId.padStart(20, "0"),
  CREATED_AT: (o) => o.createdAt,
  UPDATED_AT: (o) => o.updatedAt,
  PROCESSED_AT: (o) => o.processedAt,
  ORDER_NUMBER: (o) => o.number,
  TOTAL_PRICE: (o) => Number(o.totalPriceSet.shopMoney.amount),
  FINANCIAL_STATUS: (o) => o.displayFinancialStatus ?? "",
};

function sortKeyOf(order: StoredOrder, sortKey: string): [string | number, string] {
  const value = (SORT_FIELDS[sortKey] ?? SORT_FIELDS.ID)(order);
  return [value, order.legacyResourceId.padStart(20, "0")];
}

function compareKeys(a: [string | number, string], b: [string | number, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

type Keyed = { order: StoredOrder; key: [string | number, string] };

/** The orders in page order: sorted by (sort value, id), reversed if asked. */
function sortOrders(orders: StoredOrder[], sortKey: string, reverse: boolean): Keyed[] {
  const keyed = orders.map((order) => ({ order, key: sortKeyOf(order, sortKey) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  if (reverse) keyed.reverse();
  return keyed;
}

/** The first index whose key comes after `key` in page order (binary search). */
function indexAfter(list: Keyed[], key: [string | number, string], dir: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (dir * compareKeys(list[mid].key, key) > 0) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** A page of orders; the cursor holds the last (value, id), so an order added between two pages loses nothing. */
function orderConnection(sorted: Keyed[], args: any, context?: { bulk?: boolean }) {
  const size = pageSize(args, context);
  const forward = args.first !== undefined && args.first !== null;
  const dir = args.reverse ? -1 : 1;
  let start = 0;
  let end = sorted.length;
  if (args.after) {
    const c = decodeCursor(args.after);
    start = indexAfter(sorted, [c.last_value, c.last_id], dir);
  }
  if (args.before) {
    const c = decodeCursor(args.before);
    // The first index not before the cursor: everything from there on is cut.
    let low = start;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (dir * compareKeys(sorted[mid].key, [c.last_value, c.last_id]) >= 0) high = mid;
      else low = mid + 1;
    }
    end = Math.max(start, low);
  }
  const list = sorted.slice(start, end);
  const page = forward ? list.slice(0, size) : list.slice(Math.max(0, list.length - size));
  const edges = page.map(({ order, key }) => ({
    cursor: encodeCursor({ last_id: key[1], last_value: key[0] }),
    node: order,
  }));
  return {
    edges,
    nodes: page.map((p) => p.order),
    pageInfo: {
      hasNextPage: forward ? list.length > size : end < sorted.length,
      hasPreviousPage: forward ? start > 0 : list.length > size || start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

function accessDenied(field: string, scope: string) {
  return new GraphQLError(`Access denied for ${field} field. Required access: \`${scope}\` access scope.`, {
    extensions: {
      code: "ACCESS_DENIED",
      documentation: "https://shopify.dev/api/usage/access-scopes",
      requiredAccess: `\`${scope}\` access scope.`,
    },
  });
}

const METAFIELD_TYPES = new Set([
  "boolean",
  "color",
  "date",
  "date_time",
  "json",
  "money",
  "multi_line_text_field",
  "number_decimal",
  "number_integer",
  "rating",
  "rich_text_field",
  "single_line_text_field",
  "url",
  "file_reference",
  "product_reference",
  "list.single_line_text_field",
  "id",
]);

function metafieldValueError(type: string, value: string): string | null {
  if (type === "json") {
    try {
      JSON.parse(value);
      return null;
    } catch {
      return "Value is invalid JSON.";
    }
  }
  if (type === "single_line_text_field" && /[\r\n]/.test(value)) return "Value must be a single line text string.";
  if (type === "number_integer" && !/^-?\d+$/.test(value)) return "Value must be an integer.";
  if (type === "boolean" && !/^(true|false)$/.test(value)) return "Value must be true or false.";
  if (type === "url" && !/^(https?|mailto|sms|tel):/.test(value)) return "Value must be a valid URL.";
  return null;
}

export async function startStandin(options: StandinOptions = {}): Promise<Standin> {
  const shop = options.shop ?? "standin-shop.myshopify.com";
  const accessToken = options.accessToken ?? `shpat_${randomBytes(16).toString("hex")}`;
  let scopes = new Set(options.scopes ?? ["read_orders", "write_orders"]);
  const now = options.now ?? (() => new Date());
  const tokens = createTokenAuthority({
    shop,
    legacyToken: accessToken,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    lifetimeSeconds: options.tokenLifetimeSeconds,
    legacyRejected: options.legacyTokensRejected,
    scopes: () => [...scopes],
    now: () => now().getTime(),
  });
  const timezone = options.timezone ?? "Europe/Istanbul";
  const log = options.log ?? (() => undefined);
  const maxQueryCost = options.maxQueryCost ?? 1000;
  const bucket = new Bucket(options.bucketSize ?? 2000, options.restoreRate ?? 100, () => now().getTime());
  const orders = new Map<string, StoredOrder>();
  const recorded: RecordedMutation[] = [];
  const definitions = new Map<string, any>();
  /** Bumped whenever an order changes, so cached page lists are never stale. */
  let version = 0;
  const sortedCache = new Map<string, Keyed[]>();
  const faults: Required<Omit<Faults, "status">> & { status: number } = {
    throttled: 0,
    serverErrors: 0,
    status: 503,
    latencyMs: options.latencyMs ?? 0,
    tokenLatencyMs: 0,
    bulkFailures: 0,
    bulkErrorCode: "INTERNAL_SERVER_ERROR",
    bulkExpired: 0,
    bulkCutDownloads: 0,
    bulkDroppedWebhooks: 0,
    bulkMsPerObject: options.bulkMsPerObject ?? 1,
  };
  const bulkOperations = new Map<string, BulkOperationRecord>();
  const bulkTimers = new Set<NodeJS.Timeout>();
  let baseUrl = "";
  let webhookTarget =
    options.webhookUrl && options.webhookSecret ? { url: options.webhookUrl, secret: options.webhookSecret } : null;
  const counters = {
    requests: 0,
    throttled: 0,
    serverErrors: 0,
    queries: 0,
    pointsSpent: 0,
    bulkOperations: 0,
    bulkDownloads: 0,
    webhooks: 0,
  };
  let ids = 1;

  const upsertOrders = (list: unknown[]) => {
    for (const raw of list) {
      const order = restToGraphqlOrder(raw as Record<string, any>);
      const old = orders.get(order.id);
      if (old) order.metafields = old.metafields;
      orders.set(order.id, order);
      version++;
    }
  };
  upsertOrders(options.orders ?? []);

  const companyLocations = new Map<string, any>();
  const upsertCompanies = (list: StandinCompany[]) => {
    for (const company of list)
      for (const location of storedCompany(company).locations) companyLocations.set(location.id, location);
  };
  upsertCompanies(options.companies ?? []);
  /** Companies are customers' data: Shopify asks read_customers or read_companies (or a write scope, which grants read). */
  const requireCompanies = (field: string) =>
    requireScope(field, "read_companies", "read_customers", "write_companies", "write_customers");

  const visible = (order: StoredOrder) =>
    scopes.has("read_all_orders") || Date.parse(order.createdAt) >= now().getTime() - READ_WINDOW_DAYS * 86_400_000;
  const requireScope = (field: string, ...wanted: string[]) => {
    if (!wanted.some((scope) => scopes.has(scope))) throw accessDenied(field, wanted[0]);
  };
  const touch = (order: StoredOrder) => {
    order.updatedAt = utc(now().toISOString());
    version++;
  };
  const record = (field: string, args: Record<string, unknown>, userErrors: unknown[]) => {
    recorded.push({ at: now().toISOString(), field, arguments: args, userErrors });
  };

  const schema: GraphQLSchema = buildSchema(SCHEMA_SDL);
  const resolvers: Record<string, Record<string, GraphQLFieldResolver<any, any, any>>> = {
    QueryRoot: {
      order: (_src, args) => {
        requireScope("order", "read_orders");
        const order = orders.get(args.id);
        return order && visible(order) ? order : null;
      },
      orders: (_src, args, context) => {
        requireScope("orders", "read_orders");
        const search = parseSearch(args.query);
        searchWarnings.push(...search.warnings.map((w) => ({ ...w, query: args.query })));
        // The filtered, sorted list is kept while no order changes: a backfill pages through the same one.
        const cacheKey = JSON.stringify([
          version,
          Math.floor(now().getTime() / 60_000),
          args.query ?? "",
          args.sortKey ?? "ID",
          Boolean(args.reverse),
        ]);
        let sorted = sortedCache.get(cacheKey);
        if (!sorted) {
          sorted = sortOrders(
            [...orders.values()].filter((o) => visible(o) && matches(o, search, timezone)),
            args.sortKey ?? "ID",
            Boolean(args.reverse),
          );
          if (sortedCache.size > 20) sortedCache.clear();
          sortedCache.set(cacheKey, sorted);
        }
        return orderConnection(sorted, args, context);
      },
      refund: (_src, args) => {
        requireScope("refund", "read_orders");
        for (const order of orders.values()) {
          const refund = order.refunds.find((r: any) => r.id === args.id);
          if (refund) return visible(order) ? refund : null;
        }
        return null;
      },
      ordersCount: (_src, args) => {
        requireScope("ordersCount", "read_orders");
        const search = parseSearch(args.query);
        const count = [...orders.values()].filter((o) => visible(o) && matches(o, search, timezone)).length;
        const limit = args.limit ?? 10_000;
        return count > limit ? { count: limit, precision: "AT_LEAST" } : { count, precision: "EXACT" };
      },
      currentBulkOperation: (_src, args) => {
        if ((args.type ?? "QUERY") !== "QUERY") return null;
        const list = [...bulkOperations.values()];
        return list.length ? bulkView(list[list.length - 1]) : null;
      },
      node: (_src, args) => {
        const operation = bulkOperations.get(args.id);
        if (operation) return bulkView(operation);
        const order = orders.get(args.id);
        if (order) {
          requireScope("node", "read_orders");
          return visible(order) ? order : null;
        }
        return null;
      },
      shop: () => ({
        name: shop.split(".")[0],
        email: `owner@${shop}`,
        myshopifyDomain: shop,
        ianaTimezone: timezone,
        currencyCode: "TRY",
        taxesIncluded: true,
        primaryDomain: { url: `https://${shop}` },
      }),
    },
    Order: {
      // A B2B order's buyer is its company location (unknown to the stand-in: none, as for a deleted company); any
      // other order's is its customer.
      purchasingEntity: (o) => {
        if (o.companyRef) {
          const location = companyLocations.get(o.companyRef.locationId);
          return location ? { __typename: "PurchasingCompany", location } : null;
        }
        return o.customer ? { __typename: "Customer", ...o.customer } : null;
      },
      lineItems: (o, args, context) => listConnection(o.lineItems, args, context),
      shippingLines: (o, args, context) =>
        listConnection(
          args.includeRemovals ? o.shippingLines : o.shippingLines.filter((s: any) => !s.isRemoved),
          args,
          context,
        ),
      fulfillments: (o, args) => (args.first ? o.fulfillments.slice(0, args.first) : o.fulfillments),
      refunds: (o, args) => (args.first ? o.refunds.slice(0, args.first) : o.refunds),
      metafield: (o, args) =>
        o.metafields.find((m: any) => m.namespace === resolveNamespace(args.namespace) && m.key === args.key) ?? null,
      metafields: (o, args) =>
        listConnection(
          o.metafields.filter(
            (m: any) =>
              (!args.namespace || m.namespace === resolveNamespace(args.namespace)) &&
              (!args.keys || args.keys.includes(`${m.namespace}.${m.key}`)),
          ),
          args,
        ),
    },
    PurchasingCompany: {
      company: (p) => {
        requireCompanies("company");
        return p.location.company;
      },
      location: (p) => {
        requireCompanies("location");
        return p.location;
      },
    },
    Company: {
      metafield: (c, args) =>
        c.metafields.find((m: any) => m.namespace === resolveNamespace(args.namespace) && m.key === args.key) ?? null,
    },
    CompanyLocation: {
      metafield: (l, args) =>
        l.metafields.find((m: any) => m.namespace === resolveNamespace(args.namespace) && m.key === args.key) ?? null,
    },
    Refund: {
      refundLineItems: (r, args, context) => listConnection(r.refundLineItems, args, context),
      orderAdjustments: (r, args, context) => listConnection(r.orderAdjustments, args, context),
    },
    LineItem: { taxLines: (l, args) => (args.first ? l.taxLines.slice(0, args.first) : l.taxLines) },
    Fulfillment: { trackingInfo: (f, args) => (args.first ? f.trackingInfo.slice(0, args.first) : f.trackingInfo) },
    Mutation: {
      tagsAdd: (_src, args) =>
        changeTags("tagsAdd", args, (tags, given) => [...tags, ...given.filter((t) => !tags.includes(t))]),
      tagsRemove: (_src, args) =>
        changeTags("tagsRemove", args, (tags, given) => tags.filter((t) => !given.includes(t))),
      metafieldsSet: (_src, args) => metafieldsSet(args),
      metafieldDefinitionCreate: (_src, args) => metafieldDefinitionCreate(args),
      bulkOperationRunQuery: (_src, args, context) => bulkOperationRunQuery(args, context),
      flowTriggerReceive: (_src, args) => {
        const userErrors: any[] = [];
        const size = Buffer.byteLength(JSON.stringify(args.payload ?? null));
        if (!args.handle && !args.body) userErrors.push({ field: ["handle"], message: "Handle can't be blank" });
        if (size > 50_000)
          userErrors.push({
            field: ["payload"],
            message: "Errors validating schema:\n  Properties size exceeds the limit of 50000 bytes.\n",
          });
        record("flowTriggerReceive", args, userErrors);
        return { userErrors };
      },
    },
  };
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName) as any;
    for (const [name, resolve] of Object.entries(fields)) type.getFields()[name].resolve = resolve;
  }
  (schema.getType("Node") as any).resolveType = (value: any) =>
    String(value.id).startsWith("gid://shopify/Order/")
      ? "Order"
      : String(value.id).startsWith("gid://shopify/BulkOperation/")
        ? "BulkOperation"
        : undefined;
  (schema.getType("DiscountApplication") as any).resolveType = (value: any) => value.__typename;
  (schema.getType("PurchasingEntity") as any).resolveType = (value: any) => value.__typename;

  let searchWarnings: Array<SearchWarning & { query: string }> = [];
  const documents = new Map<string, { document: DocumentNode; errors: readonly GraphQLError[] }>();

  function resolveNamespace(namespace: string | null | undefined): string {
    if (!namespace || namespace === "$app") return APP_NAMESPACE;
    return namespace.startsWith("$app:") ? `${APP_NAMESPACE}--${namespace.slice(5)}` : namespace;
  }

  function changeTags(field: string, args: any, change: (tags: string[], given: string[]) => string[]) {
    requireScope(field, "write_orders");
    const order = orders.get(args.id);
    const given = (args.tags as string[])
      .flatMap((t) => t.split(","))
      .map((t) => t.trim())
      .filter(Boolean);
    const userErrors: any[] = [];
    if (!order) userErrors.push({ field: ["id"], message: "Order does not exist" });
    else if (given.some((t) => t.length > 40))
      userErrors.push({ field: ["tags"], message: "Tags is invalid: a tag must be 40 characters or fewer" });
    else {
      order.tags = change(order.tags, given);
      touch(order);
    }
    record(field, args, userErrors);
    return { node: userErrors.length ? null : order, userErrors };
  }

  function metafieldsSet(args: any) {
    requireScope("metafieldsSet", "write_orders");
    const inputs: any[] = args.metafields;
    const userErrors: any[] = [];
    if (inputs.length > 25)
      userErrors.push({
        field: ["metafields"],
        message: "Exceeded the maximum metafields input limit of 25.",
        code: "LESS_THAN_OR_EQUAL_TO",
        elementIndex: null,
      });
    inputs.forEach((input, index) => {
      const at = (name: string) => ["metafields", String(index), name];
      const order = orders.get(input.ownerId);
      const namespace = resolveNamespace(input.namespace);
      const definition = definitions.get(`ORDER/${namespace}/${input.key}`);
      const type = input.type ?? definition?.type?.name;
      if (!order)
        userErrors.push({
          field: at("ownerId"),
          message: "Owner does not exist.",
          code: "INVALID",
          elementIndex: index,
        });
      if (!/^[a-zA-Z0-9_-]{2,64}$/.test(input.key))
        userErrors.push({ field: at("key"), message: "Key is invalid.", code: "INVALID", elementIndex: index });
      if (!type)
        userErrors.push({ field: at("type"), message: "Type can't be blank.", code: "BLANK", elementIndex: index });
      else if (!METAFIELD_TYPES.has(type))
        userErrors.push({
          field: at("type"),
          message: "Type must be one of the following: …",
          code: "INCLUSION",
          elementIndex: index,
        });
      else {
        const problem = metafieldValueError(type, input.value);
        if (problem)
          userErrors.push({ field: at("value"), message: problem, code: "INVALID_VALUE", elementIndex: index });
      }
    });
    let metafields: any[] | null = null;
    if (userErrors.length === 0) {
      // All or nothing, as on Shopify.
      metafields = inputs.map((input) => {
        const order = orders.get(input.ownerId)!;
        const namespace = resolveNamespace(input.namespace);
        const stamp = utc(now().toISOString());
        const existing = order.metafields.find((m: any) => m.namespace === namespace && m.key === input.key);
        const type = input.type ?? definitions.get(`ORDER/${namespace}/${input.key}`)?.type?.name;
        const digest = createHash("sha256").update(input.value).digest("hex");
        if (existing) Object.assign(existing, { value: input.value, type, compareDigest: digest, updatedAt: stamp });
        else
          order.metafields.push({
            id: gid("Metafield", ids++),
            namespace,
            key: input.key,
            value: input.value,
            type,
            compareDigest: digest,
            createdAt: stamp,
            updatedAt: stamp,
          });
        touch(order);
        return order.metafields.find((m: any) => m.namespace === namespace && m.key === input.key);
      });
    }
    record("metafieldsSet", args, userErrors);
    return { metafields, userErrors };
  }

  function metafieldDefinitionCreate(args: any) {
    const input = args.definition;
    if (input.ownerType === "ORDER") requireScope("metafieldDefinitionCreate", "write_orders");
    const namespace = resolveNamespace(input.namespace);
    const key = `${input.ownerType}/${namespace}/${input.key}`;
    const userErrors: any[] = [];
    if (definitions.has(key))
      userErrors.push({
        field: ["definition", "key"],
        message: `Key is in use for ${input.ownerType.toLowerCase()} metafields on the '${namespace}' namespace.`,
        code: "TAKEN",
      });
    if (!METAFIELD_TYPES.has(input.type))
      userErrors.push({ field: ["definition", "type"], message: "Type is invalid.", code: "INCLUSION" });
    if (!/^[a-zA-Z0-9_-]{2,64}$/.test(input.key))
      userErrors.push({ field: ["definition", "key"], message: "Key is invalid.", code: "INVALID_CHARACTER" });
    let createdDefinition = null;
    if (userErrors.length === 0) {
      createdDefinition = {
        id: gid("MetafieldDefinition", ids++),
        name: input.name,
        namespace,
        key: input.key,
        description: input.description ?? null,
        type: { name: input.type },
        ownerType: input.ownerType,
        access: input.access ?? null,
      };
      definitions.set(key, createdDefinition);
    }
    record("metafieldDefinitionCreate", args, userErrors);
    return { createdDefinition, userErrors };
  }

  /** What `node(id:)` and `currentBulkOperation` show of an operation now. */
  function bulkView(operation: BulkOperationRecord, justCreated = false) {
    const running = operation.status === "CREATED" || operation.status === "RUNNING";
    // Created when the mutation answers; running from the first time anyone looks.
    if (operation.status === "CREATED" && !justCreated) operation.status = "RUNNING";
    const status = operation.status;
    // The objects processed so far, as the build goes on.
    const objectCount = running
      ? Math.min(
          operation.lines.length,
          Math.floor(
            (operation.lines.length * (now().getTime() - operation.createdAtMs)) /
              Math.max(1, operation.finishAt - operation.createdAtMs),
          ),
        )
      : operation.objectCount;
    const completed = status === "COMPLETED";
    return {
      id: operation.id,
      status,
      errorCode: operation.errorCode,
      objectCount: String(Math.max(0, objectCount)),
      rootObjectCount: String(
        running
          ? Math.floor((objectCount * operation.roots) / Math.max(1, operation.lines.length))
          : operation.rootObjectCount,
      ),
      url: completed ? `${baseUrl}/__bulk/${operation.token}.jsonl` : null,
      partialDataUrl: null,
      fileSize: completed ? String(operation.lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0)) : null,
      query: operation.query,
      type: operation.type,
      createdAt: operation.createdAt,
      completedAt: operation.completedAt,
    };
  }

  async function bulkOperationRunQuery(args: any, context: { apiVersion: string }) {
    const running = [...bulkOperations.values()].filter((o) => o.status === "CREATED" || o.status === "RUNNING");
    const limit = bulkQueryLimit(context.apiVersion);
    if (running.length >= limit) {
      const userErrors =
        limit === 1
          ? [
              {
                code: "OPERATION_IN_PROGRESS",
                field: null,
                message: `A bulk query operation for this app and shop is already in progress: ${running[0].id}.`,
              },
            ]
          : [
              {
                code: "LIMIT_REACHED",
                field: null,
                message: `Bulk operations limit reached: ${limit} bulk query operations may run at once in API ${context.apiVersion}. Please try again later.`,
              },
            ];
      record("bulkOperationRunQuery", { query: args.query }, userErrors);
      return { bulkOperation: null, userErrors };
    }
    const checked = checkBulkQuery(schema, args.query);
    if ("error" in checked) {
      const userErrors = [{ code: "INVALID", field: ["query"], message: checked.error }];
      record("bulkOperationRunQuery", { query: args.query }, userErrors);
      return { bulkOperation: null, userErrors };
    }
    const id = gid("BulkOperation", ids++);
    const created = now();
    const operation: BulkOperationRecord = {
      id,
      status: "CREATED",
      errorCode: null,
      objectCount: 0,
      rootObjectCount: 0,
      query: args.query,
      type: "QUERY",
      createdAt: utc(created.toISOString()),
      createdAtMs: created.getTime(),
      completedAt: null,
      lines: [],
      roots: 0,
      token: randomBytes(16).toString("hex"),
      expired: false,
      finishAt: created.getTime(),
      failWith: faults.bulkFailures > 0 ? faults.bulkErrorCode : null,
      dropWebhook: faults.bulkDroppedWebhooks > 0,
      expire: faults.bulkExpired > 0,
      built: Promise.resolve(),
    };
    if (faults.bulkFailures > 0) faults.bulkFailures--;
    if (faults.bulkDroppedWebhooks > 0) faults.bulkDroppedWebhooks--;
    if (faults.bulkExpired > 0) faults.bulkExpired--;
    const msPerObject = faults.bulkMsPerObject;
    bulkOperations.set(id, operation);
    counters.bulkOperations++;
    // As at Shopify, the mutation answers at once and the operation builds in the background: the file is made
    // after the answer is sent, and the operation ends `msPerObject` per root object after it was created.
    operation.built = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const result = await execute({
        schema,
        document: checked.document,
        variableValues: {},
        contextValue: { apiVersion: context.apiVersion, bulk: true },
      });
      if (result.errors?.some((e) => e.extensions?.code === "ACCESS_DENIED")) operation.failWith = "ACCESS_DENIED";
      const { lines, roots } = result.data
        ? jsonlLines(schema, checked, result.data as Record<string, unknown>)
        : { lines: [], roots: 0 };
      operation.lines = lines;
      operation.roots = roots;
      operation.finishAt = created.getTime() + Math.ceil(roots * msPerObject);
      if (operation.status !== "CREATED" && operation.status !== "RUNNING") return;
      const timer = setTimeout(
        () => {
          bulkTimers.delete(timer);
          finishBulk(operation, context.apiVersion).catch((error: unknown) =>
            log(`bulk operation ${id}: ${(error as Error).message}`),
          );
        },
        Math.max(0, operation.finishAt - now().getTime()),
      );
      bulkTimers.add(timer);
    });
    record("bulkOperationRunQuery", { query: args.query }, []);
    return { bulkOperation: bulkView(operation, true), userErrors: [] };
  }

  async function finishBulk(operation: BulkOperationRecord, apiVersion: string) {
    operation.completedAt = utc(now().toISOString());
    if (operation.failWith) {
      operation.status = "FAILED";
      operation.errorCode = operation.failWith;
      operation.objectCount = Math.floor(operation.lines.length / 2);
      operation.rootObjectCount = Math.floor(operation.roots / 2);
    } else {
      operation.status = "COMPLETED";
      operation.objectCount = operation.lines.length;
      operation.rootObjectCount = operation.roots;
    }
    // The finish webhook says the operation completed; by the time the file is asked for, it has expired.
    if (operation.expire) {
      operation.expired = true;
      setImmediate(() => {
        operation.status = "EXPIRED";
      });
    }
    if (operation.dropWebhook || !webhookTarget) return;
    const rawBody = JSON.stringify({
      admin_graphql_api_id: operation.id,
      completed_at: operation.status === "COMPLETED" ? operation.completedAt : null,
      created_at: operation.createdAt,
      error_code: operation.errorCode?.toLowerCase() ?? null,
      status: operation.status.toLowerCase(),
      type: "query",
    });
    const headers = webhookHeaders({
      topic: "bulk_operations/finish",
      shop,
      rawBody,
      secret: webhookTarget.secret,
      apiVersion,
    });
    counters.webhooks++;
    const response = await fetch(`${webhookTarget.url.replace(/\/+$/, "")}/webhooks/bulk_operations/finish`, {
      method: "POST",
      headers,
      body: rawBody,
    });
    log(`bulk_operations/finish ${operation.id} → ${response.status}`);
  }

  async function finishBulkOperations() {
    await Promise.all([...bulkOperations.values()].map((o) => o.built));
    for (const timer of bulkTimers) clearTimeout(timer);
    bulkTimers.clear();
    const running = [...bulkOperations.values()].filter((o) => o.status === "CREATED" || o.status === "RUNNING");
    await Promise.all(running.map((operation) => finishBulk(operation, "2026-10").catch(() => undefined)));
  }

  /** The JSONL file of a completed operation; a cut download writes half of it and drops the connection. */
  function serveBulkFile(token: string, res: http.ServerResponse) {
    const operation = [...bulkOperations.values()].find((o) => o.token === token);
    if (!operation || operation.status !== "COMPLETED" || operation.expired) {
      res.writeHead(403, { "content-type": "application/xml" });
      res.end("<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>");
      return;
    }
    counters.bulkDownloads++;
    const body = Buffer.from(operation.lines.map((line) => line + "\n").join(""));
    res.writeHead(200, { "content-type": "application/jsonl", "content-length": String(body.length) });
    if (faults.bulkCutDownloads > 0) {
      faults.bulkCutDownloads--;
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
      return;
    }
    res.end(body);
  }

  /** One GraphQL request: validated, cost checked against the bucket, executed. */
  async function runGraphql(body: any, apiVersion = "2026-10"): Promise<{ status: number; json: unknown }> {
    if (typeof body?.query !== "string")
      return { status: 400, json: { errors: [{ message: "No query string was present" }] } };
    // Parsed and validated once per query text: a backfill sends the same few queries thousands of times.
    let checked = documents.get(body.query);
    if (!checked) {
      try {
        const document = parse(body.query);
        checked = { document, errors: validate(schema, document, specifiedRules) };
      } catch (error) {
        return {
          status: 200,
          json: {
            errors: [
              {
                message: (error as GraphQLError).message,
                locations: (error as GraphQLError).locations,
                extensions: { code: "GRAPHQL_PARSE_FAILED" },
              },
            ],
          },
        };
      }
      if (documents.size > 500) documents.clear();
      documents.set(body.query, checked);
    }
    const { document, errors } = checked;
    if (errors.length)
      return {
        status: 200,
        json: {
          errors: errors.map((e) => ({
            message: e.message,
            locations: e.locations,
            extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
          })),
        },
      };
    const operations = document.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const operation = body.operationName ? operations.find((o) => o.name?.value === body.operationName) : operations[0];
    if (!operation) return { status: 200, json: { errors: [{ message: "No operation named " + body.operationName }] } };
    const fragments = Object.fromEntries(
      document.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((f) => [f.name.value, f]),
    );
    const variables = (body.variables ?? {}) as Record<string, unknown>;
    const { requested } = operationCost(schema, operation, fragments, variables);
    if (requested > maxQueryCost) {
      return {
        status: 200,
        json: {
          errors: [
            {
              message: `Query cost is ${requested}, which exceeds the single query max cost limit (${maxQueryCost}).`,
              extensions: { code: "MAX_COST_EXCEEDED", cost: requested, maxCost: maxQueryCost },
            },
          ],
        },
      };
    }
    const throttledAnswer = () => {
      counters.throttled++;
      return {
        status: 200,
        json: {
          errors: [
            {
              message: "Throttled",
              extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
            },
          ],
          extensions: {
            cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: bucket.status() },
          },
        },
      };
    };
    if (faults.throttled > 0) {
      faults.throttled--;
      return throttledAnswer();
    }
    if (!bucket.take(requested)) return throttledAnswer();
    searchWarnings = [];
    const result = await execute({
      schema,
      document,
      operationName: body.operationName,
      variableValues: variables,
      contextValue: { apiVersion, bulk: false },
    });
    const { actual } = operationCost(schema, operation, fragments, variables, result.data ?? null);
    bucket.giveBack(Math.max(0, requested - (actual ?? requested)));
    counters.queries++;
    counters.pointsSpent += actual ?? requested;
    const json: any = {};
    if (result.errors?.length) {
      json.errors = result.errors.map((e) => ({
        message: e.message,
        locations: e.locations,
        path: e.path,
        ...(e.extensions && Object.keys(e.extensions).length ? { extensions: e.extensions } : {}),
      }));
    }
    json.data = result.data ?? null;
    json.extensions = {
      cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: bucket.status() },
      ...(searchWarnings.length
        ? {
            search: searchWarnings.map((w) => ({
              path: ["orders"],
              query: w.query,
              warnings: [{ field: w.field, message: w.message }],
            })),
          }
        : {}),
    };
    return { status: 200, json };
  }

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://standin");
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(json));
    };
    const raw = await readBodyUpTo(req, MAX_BODY);
    if (raw === null) return send(413, { errors: "Request body too large" });
    if (url.pathname === "/admin/oauth/access_token") {
      if (req.method !== "POST") return send(405, { errors: "Method Not Allowed" });
      // Shopify's libraries send JSON; other clients send a form: both are read.
      if (faults.tokenLatencyMs > 0) await sleep(faults.tokenLatencyMs);
      const fields = tokenRequestFields(raw, req.headers["content-type"]);
      if (!fields) return send(400, { error: "invalid_request", error_description: "The request body is malformed." });
      const answer = tokens.grant(fields);
      log(
        `token ${String(fields.grant_type)} → ${answer.status}${answer.status === 200 ? "" : ` ${answer.json.error}`}`,
      );
      return send(answer.status, answer.json);
    }
    let body: any = null;
    if (raw.length) {
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        return send(400, { errors: "Bad Request: the body is not JSON" });
      }
    }

    if (url.pathname.startsWith("/__standin/")) {
      const route = `${req.method} ${url.pathname}`;
      if (route === "GET /__standin/mutations") return send(200, { mutations: recorded });
      if (route === "DELETE /__standin/mutations") {
        recorded.length = 0;
        return send(200, { mutations: [] });
      }
      if (route === "POST /__standin/faults") {
        setFaults(body ?? {});
        return send(200, { faults });
      }
      if (route === "POST /__standin/orders") {
        if (!Array.isArray(body)) return send(400, { error: "an array of webhook-shaped (REST) orders" });
        try {
          upsertOrders(body);
        } catch (error) {
          return send(400, { error: (error as Error).message });
        }
        return send(200, { orders: orders.size });
      }
      if (route === "POST /__standin/companies") {
        if (!Array.isArray(body)) return send(400, { error: "an array of companies with their locations" });
        upsertCompanies(body);
        return send(200, { locations: companyLocations.size });
      }
      if (route === "POST /__standin/bulk/finish") {
        await finishBulkOperations();
        return send(200, { finished: true });
      }
      if (route === "POST /__standin/webhooks") {
        // Where bulk_operations/finish goes, when the app's address is known only after the stand-in started.
        if (typeof body?.url !== "string" || typeof body?.secret !== "string")
          return send(400, { error: '{"url","secret"}' });
        webhookTarget = { url: body.url, secret: body.secret };
        return send(200, { webhooks: webhookTarget.url });
      }
      if (route === "GET /__standin/tokens") return send(200, { ...tokens.stats(), current: tokens.current() });
      if (route === "POST /__standin/tokens") {
        if (body?.reset === true) tokens.reset();
        if (body?.revoke === true) tokens.revoke();
        if (body?.rejectLegacy === true) tokens.rejectLegacy();
        if (typeof body?.lifetimeSeconds === "number") tokens.setLifetime(body.lifetimeSeconds);
        return send(200, tokens.stats());
      }
      if (route === "GET /__standin/stats")
        return send(200, { ...counters, bucket: bucket.status(), orders: orders.size });
      return send(404, { error: "not found" });
    }

    const file = /^\/__bulk\/([a-f0-9]{32})\.jsonl$/.exec(url.pathname);
    if (file && req.method === "GET") return serveBulkFile(file[1], res);

    const match = /^\/admin\/api\/(\d{4}-\d{2}|unstable)\/graphql\.json$/.exec(url.pathname);
    if (!match) return send(404, { errors: "Not Found" });
    if (req.method !== "POST") return send(405, { errors: "Method Not Allowed" });
    counters.requests++;
    const token = req.headers["x-shopify-access-token"];
    if (tokens.check(typeof token === "string" ? token : undefined) !== "ok") {
      return send(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    }
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    if (faults.serverErrors > 0) {
      faults.serverErrors--;
      counters.serverErrors++;
      return send(faults.status, { errors: "Internal Server Error" });
    }
    const answer = await runGraphql(body, match[1]);
    log(`${match[1]} ${body?.operationName ?? ""} → ${answer.status}`);
    return send(answer.status, answer.json);
  }

  function setFaults(next: Faults) {
    if (next.throttled !== undefined) faults.throttled = Math.max(0, Math.floor(next.throttled));
    if (next.serverErrors !== undefined) faults.serverErrors = Math.max(0, Math.floor(next.serverErrors));
    if (next.status !== undefined && next.status >= 500 && next.status <= 599) faults.status = next.status;
    if (next.latencyMs !== undefined) faults.latencyMs = Math.max(0, Math.floor(next.latencyMs));
    if (next.tokenLatencyMs !== undefined) faults.tokenLatencyMs = Math.max(0, Math.floor(next.tokenLatencyMs));
    for (const key of ["bulkFailures", "bulkExpired", "bulkCutDownloads", "bulkDroppedWebhooks"] as const) {
      if (next[key] !== undefined) faults[key] = Math.max(0, Math.floor(next[key]!));
    }
    if (
      next.bulkErrorCode !== undefined &&
      ["ACCESS_DENIED", "INTERNAL_SERVER_ERROR", "TIMEOUT"].includes(next.bulkErrorCode)
    )
      faults.bulkErrorCode = next.bulkErrorCode;
    if (next.bulkMsPerObject !== undefined) faults.bulkMsPerObject = Math.max(0, Number(next.bulkMsPerObject) || 0);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`internal error: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ errors: "Internal Server Error" }));
      }
    });
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  baseUrl = url;

  return {
    url,
    shop,
    accessToken,
    tokens,
    graphqlUrl: (version = "2026-10") => `${url}/admin/api/${version}/graphql.json`,
    request: runGraphql,
    setFaults,
    finishBulkOperations,
    upsertOrders,
    upsertCompanies,
    setScopes: (next) => {
      scopes = new Set(next);
    },
    mutations: () => recorded,
    stats: () => ({ ...counters }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const timer of bulkTimers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
