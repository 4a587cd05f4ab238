// What the access log may print of a request's URL. Some addresses carry a secret: the account webhook's
// per-shop secret (/callbacks/account/{shop}/{secret}, docs/decisions/0014), the print preview's signed token
// (/print/invoices/{token}) and the customer's signed PDF link (/invoice-pdf/{invoice}/{signature}); and
// Shopify's embedded loads and OAuth carry session tokens, HMACs and codes in the query (id_token, session,
// hmac, code, state...). The log keeps the path's shape and the query's keys, and drops those values
// (docs/decisions/0020).

export const REDACTED = "[redacted]";

/**
 * Paths with a secret segment: the leading segments that name the route, and how many segments (shop...) come
 * before the secret. Matched the way the router matches: decoded, case-insensitive, ignoring empty segments.
 */
const SECRET_PATHS: Array<{ prefix: string[]; skip: number }> = [
  { prefix: ["callbacks", "account"], skip: 1 },
  { prefix: ["print", "invoices"], skip: 0 },
  { prefix: ["invoice-pdf"], skip: 1 },
];

/**
 * Query keys whose values are never secret and help to read a log. Every other key's value is redacted, so a
 * token parameter nobody thought of (or one Shopify adds tomorrow) stays out of the log.
 */
const SAFE_QUERY_KEYS = new Set(["shop", "host", "embedded", "locale", "timestamp", "path", "decimal", "index", "_data"]);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

function redactPath(pathname: string): string {
  const segments = pathname.split("/");
  const named = segments.map((segment, index) => ({ index, name: decode(segment) })).filter((s) => s.name !== "");
  for (const { prefix, skip } of SECRET_PATHS) {
    if (named.length <= prefix.length + skip) continue;
    if (!prefix.every((name, i) => named[i].name === name)) continue;
    // The secret and anything after it (nothing legitimate follows it).
    const from = named[prefix.length + skip].index;
    return [...segments.slice(0, from), REDACTED].join("/");
  }
  return pathname;
}

function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      if (pair === "") return pair;
      const equals = pair.indexOf("=");
      const key = equals === -1 ? pair : pair.slice(0, equals);
      return SAFE_QUERY_KEYS.has(decode(key.replace(/\+/g, " "))) ? pair : `${key}=${REDACTED}`;
    })
    .join("&");
}

/** The request target (path and query, as in the request line) with its secrets replaced by "[redacted]". */
export function redactUrl(target: string): string {
  // A fragment never reaches the server; a '#' in the target is part of a malformed path, so it is cut too.
  const hash = target.indexOf("#");
  const withoutHash = hash === -1 ? target : target.slice(0, hash);
  const question = withoutHash.indexOf("?");
  const pathname = question === -1 ? withoutHash : withoutHash.slice(0, question);
  const query = question === -1 ? null : withoutHash.slice(question + 1);
  return redactPath(pathname) + (query === null ? "" : `?${redactQuery(query)}`) + (hash === -1 ? "" : `#${REDACTED}`);
}
