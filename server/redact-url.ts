// What the access log may print of a request's URL. Some addresses carry a secret: the account webhook's
// per-shop secret (/callbacks/account/{shop}/{secret}, docs/decisions/0014), the print preview's signed token
// (/print/invoices/{token}), the customer's signed PDF link (/invoice-pdf/{invoice}/{signature}) and the accountant
// package's signed download (/accountant-package/{token}); and
// Shopify's embedded loads and OAuth carry session tokens, HMACs and codes in the query (id_token, session,
// hmac, code, state...). The log keeps the path's shape and the query's keys, and drops those values
// (docs/decisions/0020). The path logged is the one the router matches, not the request line's spelling of it:
// `/./callbacks/…`, `/x/../invoice-pdf/…`, `%2e` segments, backslashes and absolute-form targets
// (`http://host/callbacks/…`) reach the same routes, and a secret route reached by any such spelling is answered
// 404 before the app sees it (nonCanonicalSecretTarget).

export const REDACTED = "[redacted]";

/**
 * Paths with a secret segment: the leading segments that name the route, and how many segments (shop...) come
 * before the secret. Matched the way the router matches: decoded, case-insensitive, ignoring empty segments.
 */
const SECRET_PATHS: Array<{ prefix: string[]; skip: number }> = [
  { prefix: ["callbacks", "account"], skip: 1 },
  { prefix: ["print", "invoices"], skip: 0 },
  { prefix: ["invoice-pdf"], skip: 1 },
  { prefix: ["accountant-package"], skip: 0 },
];

/**
 * Query keys whose values are never secret and help to read a log. Every other key's value is redacted, so a
 * token parameter nobody thought of (or one Shopify adds tomorrow) stays out of the log.
 */
const SAFE_QUERY_KEYS = new Set([
  "shop",
  "host",
  "embedded",
  "locale",
  "timestamp",
  "path",
  "decimal",
  "index",
  "_data",
]);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** The secret route `pathname` names, matched loosely (decoded, any case, empty segments ignored), if any. */
function secretRouteOf(pathname: string) {
  const segments = pathname.split("/");
  const named = segments.map((segment, index) => ({ index, name: decode(segment) })).filter((s) => s.name !== "");
  for (const route of SECRET_PATHS) {
    if (named.length > route.prefix.length && route.prefix.every((name, i) => named[i].name === name))
      return { route, segments, named };
  }
  return null;
}

function redactPath(pathname: string): string {
  const match = secretRouteOf(pathname);
  if (!match) return pathname;
  const { route, segments, named } = match;
  // The segments before the secret (a shop, an invoice id) are kept unless one hides a slash; the secret and
  // anything after it go (nothing legitimate follows it).
  let from = route.prefix.length;
  while (from < route.prefix.length + route.skip && from < named.length && !/[/\\]/.test(named[from].name)) from += 1;
  if (from >= named.length) return pathname;
  return [...segments.slice(0, named[from].index), REDACTED].join("/");
}

/**
 * The path the router matches for a request target, parsed as the Remix adapter parses it (a WHATWG URL: dot
 * segments and their %2e spellings resolved, backslashes read as slashes), an absolute-form target's own path;
 * null when it is no URL.
 */
function routerPath(target: string): string | null {
  try {
    return (target.startsWith("/") ? new URL(`http://app.invalid${target}`) : new URL(target)).pathname;
  } catch {
    return null;
  }
}

/**
 * The secret route a target names as it is spelled, wherever its name stands: `..` and `.` segments, backslashes and
 * an absolute form's scheme and host can move the secret to where the router reads something else
 * (`/x/../callbacks/account/../{secret}` routes to `/callbacks/{secret}`), but the spelling still gives it away.
 */
function secretRouteSpelled(target: string) {
  const named = target
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/\\]*/i, "")
    .split(/[/\\]/)
    .map(decode)
    .filter((name) => name !== "" && name !== ".");
  for (let start = 0; start < named.length; start += 1) {
    for (const route of SECRET_PATHS) {
      if (named.length > start + route.prefix.length && route.prefix.every((name, i) => named[start + i] === name))
        return route;
    }
  }
  return null;
}

const PLAIN_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;

/**
 * The secret route a request path (without its query) reaches, read as the router reads it or as it is spelled,
 * and whether it is spelled as the app writes its links: origin-form, the route's own lower-case name, plain
 * segments (no percent-encoding, no `.` or `..`, no empty segment, no trailing slash).
 */
function secretTarget(requested: string) {
  const routed = routerPath(requested);
  const route = (routed === null ? null : secretRouteOf(routed)?.route) ?? secretRouteSpelled(requested);
  if (!route) return null;
  const match = { route };
  const segments = requested.split("/");
  const canonical =
    segments[0] === "" &&
    match.route.prefix.every((name, i) => segments[i + 1] === name) &&
    segments.slice(1).every((segment) => PLAIN_SEGMENT.test(segment) && segment !== "." && segment !== "..");
  return { route: match.route, canonical };
}

/**
 * A request for a secret route spelled otherwise than the app writes its links. Nothing legitimate sends another
 * spelling, and each one is a way around a log or proxy rule that reads the path: the server answers it 404.
 */
export function nonCanonicalSecretTarget(target: string): boolean {
  const cut = target.search(/[?#]/);
  return secretTarget(cut === -1 ? target : target.slice(0, cut))?.canonical === false;
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
  const requested = question === -1 ? withoutHash : withoutHash.slice(0, question);
  const query = question === -1 ? null : withoutHash.slice(question + 1);
  // The path the router reads (a target that is no URL as it came); a secret route spelled otherwise, its name only
  // (after a `.` or `..` the secret can sit where a shop would).
  const secret = secretTarget(requested);
  const path =
    secret?.canonical === false
      ? `/${secret.route.prefix.join("/")}/${REDACTED}`
      : redactPath(routerPath(requested) ?? requested);
  return path + (query === null ? "" : `?${redactQuery(query)}`) + (hash === -1 ? "" : `#${REDACTED}`);
}
