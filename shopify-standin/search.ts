// Shopify's search syntax for `orders(query:)`, the part the app uses: terms joined by spaces (AND) or `OR`,
// `-term` / `NOT term`, `field:value`, `field:>value` `>=` `<` `<=`, values quoted with ' or ". Fields:
// id, created_at, updated_at, processed_at (ISO date-times, or dates read in the shop's time zone),
// financial_status, name, test, tag. An unknown field matches nothing and is reported in
// `extensions.search[].warnings`, as Shopify does.
import { DateTime } from "luxon";
import type { StoredOrder } from "./rest-to-graphql";

type Comparator = ":" | ">" | ">=" | "<" | "<=";
interface Term {
  negate: boolean;
  field: string | null;
  op: Comparator;
  value: string;
}
export interface SearchWarning {
  field: string;
  message: string;
}
export interface ParsedSearch {
  /** Alternatives (OR) of conjunctions (AND) of terms. */
  any: Term[][];
  warnings: SearchWarning[];
}

const FIELDS = new Set(["id", "created_at", "updated_at", "processed_at", "financial_status", "name", "test", "tag"]);
const DATE_FIELDS: Record<string, keyof StoredOrder> = {
  created_at: "createdAt",
  updated_at: "updatedAt",
  processed_at: "processedAt",
};
const UNPAID = new Set(["PENDING", "AUTHORIZED", "PARTIALLY_PAID", "EXPIRED"]);

function tokens(query: string): string[] {
  const out: string[] = [];
  const re = /\s*((?:[^\s"']|"[^"]*"|'[^']*')+)/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(query))) out.push(match[1]);
  return out;
}

const unquote = (value: string) => value.replace(/^(["'])(.*)\1$/, "$2");

export function parseSearch(query: string | null | undefined): ParsedSearch {
  const any: Term[][] = [[]];
  const warnings: SearchWarning[] = [];
  let negateNext = false;
  for (const token of tokens(query ?? "")) {
    if (token === "AND") continue;
    if (token === "OR") {
      any.push([]);
      continue;
    }
    if (token === "NOT") {
      negateNext = true;
      continue;
    }
    let text = token;
    let negate = negateNext;
    negateNext = false;
    if (text.startsWith("-")) {
      negate = true;
      text = text.slice(1);
    }
    const match = /^([a-z_]+):(>=|<=|>|<)?(.*)$/.exec(text);
    if (!match) {
      any[any.length - 1].push({ negate, field: null, op: ":", value: unquote(text) });
      continue;
    }
    const [, field, op, value] = match;
    if (!FIELDS.has(field)) warnings.push({ field, message: "Invalid search field for this query." });
    any[any.length - 1].push({ negate, field, op: (op ?? ":") as Comparator, value: unquote(value) });
  }
  return { any: any.filter((terms) => terms.length > 0), warnings };
}

/** A date or date-time value as an instant; a bare date (or a time without offset) is read in the shop's zone. */
function instant(value: string, zone: string): number {
  const parsed = DateTime.fromISO(value, { zone, setZone: false });
  return parsed.isValid ? parsed.toMillis() : Number.NaN;
}

function compare(a: number | string, b: number | string, op: Comparator): boolean {
  if (op === ">") return a > b;
  if (op === ">=") return a >= b;
  if (op === "<") return a < b;
  if (op === "<=") return a <= b;
  return a === b;
}

function matchesTerm(order: StoredOrder, term: Term, zone: string): boolean {
  const { field, op, value } = term;
  if (field === null) {
    const needle = value.toLowerCase();
    return [order.name, order.email, order.legacyResourceId].some(
      (v) => typeof v === "string" && v.toLowerCase().includes(needle),
    );
  }
  if (field === "id") {
    if (!/^\d+$/.test(value)) return false;
    const a = BigInt(order.legacyResourceId);
    const b = BigInt(value);
    return op === ":" ? a === b : compare(a > b ? 1 : a < b ? -1 : 0, 0, op);
  }
  if (field in DATE_FIELDS) {
    const at = Date.parse(order[DATE_FIELDS[field]] as string);
    const bound = instant(value, zone);
    if (Number.isNaN(bound)) return false;
    // `created_at:2026-11-20` means that day.
    if (op === ":" && /^\d{4}-\d{2}-\d{2}$/.test(value))
      return at >= bound && at < DateTime.fromMillis(bound, { zone }).plus({ days: 1 }).toMillis();
    return compare(at, bound, op);
  }
  if (field === "financial_status") {
    const status = (order.displayFinancialStatus ?? "") as string;
    const wanted = value.toUpperCase();
    return wanted === "UNPAID" ? UNPAID.has(status) : status === wanted;
  }
  if (field === "name")
    return (
      String(order.name).toLowerCase() === value.toLowerCase() ||
      String(order.name).toLowerCase() === `#${value.toLowerCase()}`
    );
  if (field === "test") return String(order.test) === value.toLowerCase();
  if (field === "tag") return (order.tags as string[]).some((tag) => tag.toLowerCase() === value.toLowerCase());
  return false;
}

export function matches(order: StoredOrder, search: ParsedSearch, zone = "UTC"): boolean {
  if (search.any.length === 0) return true;
  return search.any.some((terms) => terms.every((term) => matchesTerm(order, term, zone) !== term.negate));
}
