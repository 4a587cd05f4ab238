// The queries behind the invoices page: one page of a shop's invoices (keyset pagination, newest first),
// the dashboard counts and the onboarding checklist. Every query is scoped by the shop of the
// authenticated session; nothing here takes a shop from the browser.
//
// Why keyset and not OFFSET: a shop with 100,000 invoices would make OFFSET walk every earlier row on a
// deep page. The list is in order date order (the order's own date, not when the app received it: a past order
// invoiced today sits among its own days). The cursor is the last row's (orderCreatedAt, id); the next page is a
// range seek on the [shopDomain, orderCreatedAt] / [shopDomain, state, orderCreatedAt] indexes. No COUNT(*) of the shop's rows either:
// the pager only needs to know whether one more row exists (we read pageSize + 1).
import { DateTime } from "luxon";
import prisma from "../db.server";
import { zoneOrTurkey } from "../orders/dates";
import { safeLink } from "../invoicing-service/links";
import { linkOptions } from "../http/outbound-guard.server";
import { INVOICE_STATES, IN_FLIGHT_STATES, type InvoiceState } from "../invoice-state/transitions";
import { ISSUABLE_TEST_INVOICES } from "./actions.server";
import { foldForSearch } from "../i18n/search-fold";
import { closureFrom } from "./closure";
import { deadlineStatus, nearBefore, runningDeadline, runningStates } from "./deadline";
import { STATE } from "../invoice-state/transitions";
import { isGiftCardSale } from "./history";
import { DEFAULT_TRIGGER } from "../settings/schema";
import { Decimal } from "../invoicing-service/money";

export const PAGE_SIZE = 25;
export const SEARCH_MAX_LENGTH = 100;

/** Filter values a merchant can pick: one state, or "in_flight" for queued + sending + processing. */
export const STATE_FILTERS = [...INVOICE_STATES, "in_flight"] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];

export interface InvoiceListFilters {
  state: StateFilter | null;
  /** Inclusive calendar days (YYYY-MM-DD) of the order date, in the shop's time zone. */
  from: string | null;
  to: string | null;
  q: string | null;
  /** "near": only invoices not issued yet whose 7-day deadline is within 48 h or past (app/invoices/deadline.ts). */
  deadline: "near" | null;
}

export interface InvoiceListParams extends InvoiceListFilters {
  /** Opaque cursors: rows after (older than) / before (newer than) the given row. */
  after: string | null;
  before: string | null;
}

export interface InvoiceListRow {
  id: string;
  orderId: string;
  orderName: string;
  customerName: string | null;
  /** The order's date (a waybill's date for an invoice made from one): what the list shows and filters by. */
  orderCreatedAt: string;
  /** What the order paid (Shopify's total). */
  orderTotal: string;
  /**
   * The invoice's own total (the service's grand total, in the order's currency), once known and when it differs from
   * what was paid: gift cards, tips and refunds before invoicing are not invoiced (issue 36, point 5).
   */
  invoiceTotal: string | null;
  currency: string;
  documentKind: string | null;
  state: string;
  serialNumber: string | null;
  /** Closed by hand as issued in the invoicing panel: its serial is the panel's (issued outside the app). */
  issuedInPanel: boolean;
  /** Cancelled because the order sold gift cards only: no invoice was due (history.ts isGiftCardSale). */
  giftCardSale: boolean;
  pdfUrl: string | null;
  /** The onboarding's sample invoice (no Shopify order behind it). */
  isTest: boolean;
  /** Invoiced through the test (dummy) integration while test mode was on: not a legal invoice. */
  postedInTestMode: boolean;
  /** Made from a waybill (no Shopify order). */
  waybillId: number | null;
  /** Queued again after a failed try: the app repeats it by itself. */
  retrying: boolean;
  /** Not issued yet, and its legal deadline is within 48 h or past: when, and which. */
  deadline: { at: string; status: "near" | "passed" } | null;
}

export interface InvoicePage {
  rows: InvoiceListRow[];
  /** Cursor for the next (older) page, or null on the last page. */
  next: string | null;
  /** Cursor for the previous (newer) page, or null on the first page. */
  previous: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the list parameters from the page's URL; anything malformed is ignored, never an error page. */
export function parseListParams(search: URLSearchParams): InvoiceListParams {
  const state = search.get("state");
  const day = (name: string) => {
    const value = search.get(name);
    return value && DAY.test(value) && DateTime.fromISO(value).isValid ? value : null;
  };
  const q = (search.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const cursor = (name: string) => {
    const value = search.get(name);
    return value && decodeCursor(value) ? value : null;
  };
  // A range given the wrong way round means the same days: never an empty list for it.
  const [from, to] = [day("from"), day("to")];
  const inverted = from !== null && to !== null && from > to;
  return {
    state: state && (STATE_FILTERS as readonly string[]).includes(state) ? (state as StateFilter) : null,
    from: inverted ? to : from,
    to: inverted ? from : to,
    q: q || null,
    deadline: search.get("deadline") === "near" ? "near" : null,
    after: cursor("after"),
    before: cursor("after") ? null : cursor("before"),
  };
}

interface Cursor {
  orderCreatedAt: Date;
  id: string;
}

export function encodeCursor(row: { orderCreatedAt: Date; id: string }): string {
  return Buffer.from(`${row.orderCreatedAt.toISOString()}|${row.id}`, "utf8").toString("base64url");
}

export function decodeCursor(value: string): Cursor | null {
  const text = Buffer.from(value, "base64url").toString("utf8");
  const [iso, id, extra] = text.split("|");
  if (!iso || !id || extra !== undefined || !/^[\w-]{1,64}$/.test(id)) return null;
  const orderCreatedAt = new Date(iso);
  return Number.isNaN(orderCreatedAt.getTime()) ? null : { orderCreatedAt, id };
}

/** What the deadline filter and badges are read against: the shop's trigger (which states' clocks run) and now. */
interface DeadlineContext {
  trigger: string;
  now: Date;
}

/** The filter part of the WHERE clause (shop, state, dates, search, deadline), without the cursor. */
function filterWhere(shop: string, filters: InvoiceListFilters, timezone: string, context: DeadlineContext) {
  const orderCreatedAt: { gte?: Date; lt?: Date } = {};
  if (filters.from) orderCreatedAt.gte = DateTime.fromISO(filters.from, { zone: timezone }).startOf("day").toJSDate();
  if (filters.to)
    orderCreatedAt.lt = DateTime.fromISO(filters.to, { zone: timezone }).plus({ days: 1 }).startOf("day").toJSDate();
  const chosen: string[] | null =
    filters.state === "in_flight" ? IN_FLIGHT_STATES : filters.state ? [filters.state] : null;
  let states = chosen;
  if (filters.deadline === "near") {
    // The states whose clock runs (within the tab chosen), ordered before the bound: an index range like the rest.
    const running = runningStates(context.trigger) as string[];
    states = (chosen ?? running).filter((state) => running.includes(state));
    const bound = nearBefore(context.now);
    if (!orderCreatedAt.lt || bound < orderCreatedAt.lt) orderCreatedAt.lt = bound;
  }
  const state = states === null ? undefined : states.length === 1 ? states[0] : { in: states };
  return {
    shopDomain: shop,
    ...(filters.deadline === "near" ? { isTest: false } : {}),
    ...(state ? { state } : {}),
    ...(orderCreatedAt.gte || orderCreatedAt.lt ? { orderCreatedAt } : {}),
    ...(filters.q ? searchWhere(filters.q) : {}),
  };
}

/** Everything that starts with `prefix`, as an index range (LIKE 'x%' cannot use a BINARY index in SQLite). */
const startsWith = (prefix: string) => ({ gte: prefix, lt: `${prefix}\uffff` });

/**
 * The search, by the shape of what was typed. An order number ("1001", "#1001") and a serial number
 * ("EFA2026000000012" or its start) are prefix ranges on their own indexes: instant at any size. Anything
 * else is a customer name (contains), or the start of an order name or serial number of another shape,
 * read from the list index that holds those three columns, newest first. One LIKE per row, not three:
 * a search that matches nothing reads every index entry of the shop (bench/results/admin-list.md).
 */
export function searchWhere(q: string) {
  const orderNumber = /^#?(\d+)$/.exec(q);
  if (orderNumber)
    return { OR: [{ orderName: startsWith(`#${orderNumber[1]}`) }, { orderName: startsWith(orderNumber[1]) }] };
  if (/^[A-Za-z0-9]{3}\d{4,}$/.test(q)) return { serialNumber: startsWith(q.toUpperCase()) };
  // The name is matched folded (case, Turkish letters, punctuation: app/i18n/search-fold.ts), so `%` and `_` never reach
  // LIKE; what folds to nothing matches no name.
  const name = foldForSearch(q);
  return {
    OR: [
      ...(name ? [{ customerSearch: { contains: name } }] : []),
      { orderName: startsWith(q) },
      { serialNumber: startsWith(q.toUpperCase()) },
    ],
  };
}

const listSelect = {
  id: true,
  orderId: true,
  orderName: true,
  customerName: true,
  orderCreatedAt: true,
  orderTotal: true,
  currency: true,
  documentKind: true,
  state: true,
  serialNumber: true,
  pdfUrl: true,
  isTest: true,
  postedInTestMode: true,
  waybillId: true,
  attempts: true,
  lastError: true,
  remoteTotals: true,
  closure: true,
} as const;

/** One page of the shop's invoices, newest first. */
export async function listInvoices(
  shop: string,
  params: InvoiceListParams,
  timezone: string,
  pageSize = PAGE_SIZE,
  context: DeadlineContext = { trigger: DEFAULT_TRIGGER, now: new Date() },
): Promise<InvoicePage> {
  const where = filterWhere(shop, params, timezone, context);
  const backwards = !params.after && Boolean(params.before);
  const cursor = decodeCursor((params.after ?? params.before) || "");
  // Rows strictly after the cursor in the chosen direction. The range on orderCreatedAt alone lets SQLite and
  // PostgreSQL seek in the index; the NOT excludes the cursor row and its ties on the other side of the id.
  const cursorWhere = cursor
    ? backwards
      ? {
          orderCreatedAt: { gte: cursor.orderCreatedAt },
          NOT: { orderCreatedAt: cursor.orderCreatedAt, id: { lte: cursor.id } },
        }
      : {
          orderCreatedAt: { lte: cursor.orderCreatedAt },
          NOT: { orderCreatedAt: cursor.orderCreatedAt, id: { gte: cursor.id } },
        }
    : {};
  const direction = backwards ? "asc" : "desc";
  const found = await prisma.invoice.findMany({
    where: cursor ? { AND: [where, cursorWhere] } : where,
    orderBy: [{ orderCreatedAt: direction }, { id: direction }],
    take: pageSize + 1,
    select: listSelect,
  });
  const more = found.length > pageSize;
  const page = found.slice(0, pageSize);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  // Why the page's cancelled rows were cancelled: their "cancelled" events, one small read for the page.
  const cancelled = page.filter((row) => row.state === STATE.cancelled).map((row) => row.id);
  const cancellations = cancelled.length
    ? await prisma.invoiceEvent.findMany({
        where: { invoiceId: { in: cancelled }, type: "cancelled" },
        select: { invoiceId: true, type: true, data: true },
      })
    : [];
  return {
    rows: page.map(({ attempts, lastError, remoteTotals, closure, ...row }) => ({
      ...row,
      issuedInPanel: row.state === STATE.closed && closureFrom(closure)?.as === "panel",
      giftCardSale: isGiftCardSale(
        row.state,
        cancellations.filter((event) => event.invoiceId === row.id),
      ),
      invoiceTotal: differingTotal(row.orderTotal, remoteTotals),
      retrying: row.state === STATE.queued && attempts > 0 && lastError !== null,
      orderCreatedAt: row.orderCreatedAt.toISOString(),
      pdfUrl: safeLink(row.pdfUrl, linkOptions()),
      deadline: nearDeadline(row, context),
    })),
    // Going forwards: a next page exists if we read one row too many; a previous one if we came from a cursor.
    // Going backwards: the other way round.
    next: last && (backwards ? Boolean(cursor) : more) ? encodeCursor(last) : null,
    previous: first && (backwards ? more : Boolean(cursor)) ? encodeCursor(first) : null,
  };
}

/** The service's grand total when it is a number and not what the order paid; null otherwise. */
function differingTotal(orderTotal: string, remoteTotals: unknown): string | null {
  const grand = (remoteTotals as { grand_total?: unknown } | null)?.grand_total;
  const text = typeof grand === "number" ? String(grand) : typeof grand === "string" ? grand.trim() : "";
  if (!/^-?\d+(\.\d+)?$/.test(text) || !/^-?\d+(\.\d+)?$/.test(orderTotal)) return null;
  return new Decimal(text).eq(new Decimal(orderTotal)) ? null : new Decimal(text).toFixed(2);
}

/** A row's deadline when it is near or past (a running one far off says nothing in the list). */
function nearDeadline(
  row: { state: string; orderCreatedAt: Date; isTest: boolean },
  context: DeadlineContext,
): InvoiceListRow["deadline"] {
  const deadline = runningDeadline(row, context.trigger);
  if (!deadline) return null;
  const status = deadlineStatus(deadline, context.now);
  return status === "running" ? null : { at: deadline.toISOString(), status };
}

/** How many of the shop's invoices are not issued yet with their deadline within 48 h or past (the home banner). */
async function countNearDeadline(shop: string, context: DeadlineContext): Promise<number> {
  return prisma.invoice.count({
    where: filterWhere(shop, { state: null, from: null, to: null, q: null, deadline: "near" }, "UTC", context),
  });
}

export interface DashboardCounts {
  today: number;
  inFlight: number;
  needsAttention: number;
  failed: number;
}

/** Test invoices (the onboarding's sample, and orders invoiced in test mode) are never counted as live ones. */
const LIVE_ONLY = { isTest: false, postedInTestMode: false } as const;

/** The strip above the table. Each count is an index range of the shop's rows, not a table scan. */
export async function dashboardCounts(shop: string, timezone: string, now = new Date()): Promise<DashboardCounts> {
  const startOfToday = DateTime.fromJSDate(now, { zone: timezone }).startOf("day").toJSDate();
  const [today, byState] = await Promise.all([
    prisma.invoice.count({ where: { shopDomain: shop, createdAt: { gte: startOfToday }, ...LIVE_ONLY } }),
    prisma.invoice.groupBy({
      by: ["state"],
      where: {
        shopDomain: shop,
        state: { in: [...IN_FLIGHT_STATES, STATE.needs_attention, STATE.failed] },
        ...LIVE_ONLY,
      },
      _count: { _all: true },
    }),
  ]);
  const count = (states: InvoiceState[]) =>
    byState
      .filter((group) => states.includes(group.state as InvoiceState))
      .reduce((sum, group) => sum + group._count._all, 0);
  return {
    today,
    inFlight: count(IN_FLIGHT_STATES),
    needsAttention: count([STATE.needs_attention]),
    failed: count([STATE.failed]),
  };
}

export interface Onboarding {
  apiKey: boolean;
  saleChannel: boolean;
  integration: boolean;
  /** The test (dummy) integration is chosen: a test invoice can be sent. */
  dummyIntegration: boolean;
  /** State of the newest test invoice, or null if none was sent. */
  testInvoice: string | null;
  /** Invoices go to the test (dummy) integration: nothing legal is issued yet. */
  testMode: boolean;
  /** Settings complete and a test invoice (or a real one) went through: the connection works end to end. */
  complete: boolean;
}

interface ShopFacts {
  timezone: string;
  /** When the shop's invoices are issued (paid, fulfilled, manual): which states' deadline clocks run. */
  trigger: string;
  settings: {
    apiKeyEncrypted: string | null;
    saleChannelId: number | null;
    testMode: boolean;
    dummyIntegrationId: number | null;
    invoiceIntegrationId: number | null;
    accountProblem?: string | null;
  } | null;
}

/** The shop's time zone and the connection fields the checklist needs, in one query. */
async function shopFacts(shop: string): Promise<ShopFacts> {
  const row = await prisma.shop.findUnique({
    where: { domain: shop },
    select: {
      timezone: true,
      settings: {
        select: {
          apiKeyEncrypted: true,
          saleChannelId: true,
          testMode: true,
          dummyIntegrationId: true,
          invoiceIntegrationId: true,
          accountProblem: true,
          trigger: true,
        },
      },
    },
  });
  return {
    timezone: zoneOrTurkey(row?.timezone),
    trigger: row?.settings?.trigger ?? DEFAULT_TRIGGER,
    settings: row?.settings ?? null,
  };
}

/** What is still missing before the shop's invoices flow: the checklist shown instead of an empty table. */
export async function onboarding(shop: string, facts?: ShopFacts): Promise<Onboarding> {
  const [{ settings }, test, real] = await Promise.all([
    facts ?? shopFacts(shop),
    prisma.invoice.findFirst({
      where: { shopDomain: shop, isTest: true },
      orderBy: { createdAt: "desc" },
      select: { state: true },
    }),
    // A real order already invoiced proves the connection as well as a test invoice does.
    prisma.invoice.findFirst({
      where: { shopDomain: shop, state: STATE.completed, isTest: false },
      select: { id: true },
    }),
  ]);
  const apiKey = Boolean(settings?.apiKeyEncrypted);
  const saleChannel = Boolean(settings?.saleChannelId);
  const testMode = settings?.testMode ?? true;
  const dummyIntegration = Boolean(settings?.dummyIntegrationId);
  const integration = testMode ? dummyIntegration : Boolean(settings?.invoiceIntegrationId);
  const testInvoice = test?.state ?? null;
  const proven = testInvoice === STATE.completed || real !== null;
  return {
    apiKey,
    saleChannel,
    integration,
    dummyIntegration,
    testInvoice,
    testMode,
    complete: apiKey && saleChannel && integration && proven,
  };
}

/** The shop's IANA time zone (for "today" and the date filter); Istanbul when the row is missing. */
export async function shopTimezone(shop: string): Promise<string> {
  const row = await prisma.shop.findUnique({ where: { domain: shop }, select: { timezone: true } });
  return zoneOrTurkey(row?.timezone);
}

export interface InvoicesPageData {
  filters: InvoiceListFilters;
  page: InvoicePage;
  counts: DashboardCounts;
  onboarding: Onboarding;
  /** Whether the shop has any invoice at all (for the empty state), without counting them. */
  hasInvoices: boolean;
  timezone: string;
  /** Live now, with orders invoiced in test mode: how many can be issued for real (each uses one unit of quota). */
  testInvoicesToIssue: number;
  /** Test and live accounts swapped, as the last check against the service found (app/settings/accounts.server.ts). */
  accountProblem: string | null;
  /** Invoices not issued yet whose 7-day deadline is within 48 h or past. */
  nearDeadline: number;
}

/** Everything the invoices page shows, in one call for the loader. */
export async function loadInvoicesPage(
  shop: string,
  search: URLSearchParams,
  now = new Date(),
): Promise<InvoicesPageData> {
  const params = parseListParams(search);
  const facts = await shopFacts(shop);
  const timezone = facts.timezone;
  const filtered = Boolean(
    params.state || params.from || params.to || params.q || params.deadline || params.after || params.before,
  );
  const live = facts.settings !== null && !facts.settings.testMode;
  const context = { trigger: facts.trigger, now };
  const [page, counts, steps, any, testInvoicesToIssue, nearDeadlines] = await Promise.all([
    listInvoices(shop, params, timezone, PAGE_SIZE, context),
    dashboardCounts(shop, timezone, now),
    onboarding(shop, facts),
    filtered ? prisma.invoice.findFirst({ where: { shopDomain: shop }, select: { id: true } }) : Promise.resolve(null),
    live ? prisma.invoice.count({ where: { shopDomain: shop, ...ISSUABLE_TEST_INVOICES } }) : Promise.resolve(0),
    countNearDeadline(shop, context),
  ]);
  const { state, from, to, q, deadline } = params;
  return {
    filters: { state, from, to, q, deadline },
    page,
    counts,
    onboarding: steps,
    hasInvoices: filtered ? any !== null : page.rows.length > 0,
    timezone,
    testInvoicesToIssue,
    accountProblem: facts.settings?.accountProblem ?? null,
    nearDeadline: nearDeadlines,
  };
}
