// The outbound guard: where the app may send a shop's invoicing API key. Calls to the invoicing service go
//   - over https only,
//   - to a host on the operator's allow-list (INVOICING_ALLOWED_HOSTS; by default the vendor's live and staging
//     hosts), never to one a merchant typed,
//   - never to an address in a loopback, private, link-local (cloud metadata), shared or otherwise non-public range,
//     checked on every connection with the very DNS answer that is connected to, so a name that resolves to a
//     public address when the settings are saved and to 169.254.169.254 later (DNS rebinding) cannot pass.
// The development setting LOCAL_SERVICES=1 (refused unless the app runs on localhost, app/env.server.ts) also
// allows http and loopback addresses, so the demo, the tests and `npm run shop:setup` reach the local sandbox.
// Why this shape: docs/decisions/0007-outbound-allow-list.md.
import dns, { type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import type { Agent, Dispatcher } from "undici";
import { env } from "../env.server";

type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface OutboundPolicy {
  /** Lower-case host names, each optionally with ":port" (without a port, only https's default port matches). */
  allowedHosts: readonly string[];
  /** Development only: http and loopback addresses are allowed too. */
  allowLocal: boolean;
  /** Name resolution (tests replace it); node's dns.lookup by default. */
  resolve?: Resolver;
}

export type OutboundRefusal = "invalid_url" | "scheme" | "host" | "address";

/** Thrown (or passed to the socket) when a call would leave for a place the policy does not allow. */
export class OutboundBlockedError extends Error {
  readonly code = "E_OUTBOUND_BLOCKED";
  constructor(
    readonly reason: OutboundRefusal,
    readonly target: string,
  ) {
    super(`outbound call refused (${reason}): ${target}`);
    this.name = "OutboundBlockedError";
  }
}

const LOOPBACK_NAMES = new Set(["localhost"]);

/** The policy this process runs with, from the validated configuration. */
export function outboundPolicy(): OutboundPolicy {
  const config = env();
  return { allowedHosts: config.INVOICING_ALLOWED_HOSTS, allowLocal: config.LOCAL_SERVICES };
}

/** Public unicast addresses only; loopback too when local services are allowed. IPv4-mapped IPv6 counts as IPv4. */
export function isAllowedAddress(address: string, policy: Pick<OutboundPolicy, "allowLocal">): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === "unicast" || (policy.allowLocal && range === "loopback");
}

function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK_NAMES.has(hostname)) return true;
  const bare = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === "loopback";
}

/** The static part of the check (scheme, host, literal address), for settings and before each call. */
export function checkOutboundUrl(
  value: string,
  policy: OutboundPolicy,
): { ok: true; url: URL } | { ok: false; reason: OutboundRefusal } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: "invalid_url" };
  }
  if (url.username || url.password) return { ok: false, reason: "invalid_url" };
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  const local = policy.allowLocal && isLoopbackHost(hostname);
  if (url.protocol !== "https:" && !(local && url.protocol === "http:")) return { ok: false, reason: "scheme" };
  if (!local && !policy.allowedHosts.includes(host)) return { ok: false, reason: "host" };
  const literal = hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(literal) && !isAllowedAddress(literal, policy)) return { ok: false, reason: "address" };
  return { ok: true, url };
}

/**
 * A `lookup` for sockets: resolves every address of the name and refuses the connection unless all of them are
 * allowed. The socket connects to exactly the addresses checked here.
 */
export function checkingLookup(policy: OutboundPolicy) {
  const resolve: Resolver =
    policy.resolve ?? ((hostname, options, callback) => dns.lookup(hostname, options, callback));
  return (hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error);
      const refused = addresses.length === 0 || addresses.some((entry) => !isAllowedAddress(entry.address, policy));
      if (refused)
        return callback(
          new OutboundBlockedError(
            "address",
            `${hostname} → ${addresses.map((a) => a.address).join(", ") || "nothing"}`,
          ),
        );
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

type Undici = typeof import("undici");
let undiciLoading: Promise<Undici> | undefined;
/** undici is loaded by the first outbound call, not at import: it was a sixth of a new worker's start-up (issue 38). */
const undici = () => (undiciLoading ??= import("undici"));

function guardedAgent({ Agent, buildConnector }: Undici, policy: OutboundPolicy): Agent {
  const connect = buildConnector({ lookup: checkingLookup(policy) as never });
  return new Agent({
    connect: (options, callback) => {
      // A literal address skips `lookup`; check it here so no path reaches a socket unchecked.
      const literal = options.hostname.replace(/^\[|\]$/g, "");
      if (net.isIP(literal) && !isAllowedAddress(literal, policy)) {
        return callback(new OutboundBlockedError("address", literal), null);
      }
      connect(options, callback);
    },
  });
}

const agents = new Map<string, Agent>();

/** One connection pool per policy; a test's own resolver gets its own. */
async function agentFor(policy: OutboundPolicy): Promise<Agent> {
  const library = await undici();
  const key = policy.resolve ? null : JSON.stringify([policy.allowedHosts, policy.allowLocal]);
  let agent = key ? agents.get(key) : undefined;
  if (!agent) {
    agent = guardedAgent(library, policy);
    if (key) agents.set(key, agent);
  }
  return agent;
}

/**
 * `fetch` for calls that carry a shop's secret: the static check before sending, the address check on every
 * connection. Refusals reject with an OutboundBlockedError (directly, or as the `cause` of fetch's TypeError).
 */
export function guardedFetch(policy: OutboundPolicy = outboundPolicy()): typeof fetch {
  let dispatcher: Promise<Agent> | undefined;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const target = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const check = checkOutboundUrl(target, policy);
    if (!check.ok) throw new OutboundBlockedError(check.reason, target.split("?")[0]);
    // Redirects are never followed: the next hop would escape the check.
    const [{ fetch: undiciFetch }, agent] = await Promise.all([undici(), (dispatcher ??= agentFor(policy))]);
    return undiciFetch(target, { ...(init as object), redirect: "manual", dispatcher: agent } as never);
  }) as typeof fetch;
}

export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** An answer once its headers are in; its body must be read or destroyed (it holds the connection). */
export type OutboundAnswer = Pick<Dispatcher.ResponseData, "statusCode" | "headers" | "body">;

export type GuardedRequest = (url: string, init: OutboundRequest) => Promise<OutboundAnswer>;

/**
 * The same guard as guardedFetch, through undici's `request`: no WHATWG Request, Response and web streams per call,
 * which cost most of fetch's CPU (decision 0021). It never follows a redirect; a 3xx is answered as it is.
 */
export function guardedRequest(policy: OutboundPolicy = outboundPolicy()): GuardedRequest {
  let dispatcher: Promise<Agent> | undefined;
  return async (url, init) => {
    const check = checkOutboundUrl(url, policy);
    if (!check.ok) throw new OutboundBlockedError(check.reason, url.split("?")[0]);
    const [{ request }, agent] = await Promise.all([undici(), (dispatcher ??= agentFor(policy))]);
    return request(url, { ...init, dispatcher: agent });
  };
}

/** The OutboundBlockedError somewhere in an error's cause chain, if any. */
export function outboundRefusalOf(error: unknown, depth = 0): OutboundBlockedError | null {
  if (error instanceof OutboundBlockedError) return error;
  if (typeof error !== "object" || error === null || depth > 5) return null;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = outboundRefusalOf(inner, depth + 1);
      if (found) return found;
    }
  }
  return outboundRefusalOf(cause, depth + 1);
}

/** Links from the service (app/invoicing-service/links.ts) may be http only where local services are allowed. */
export function linkOptions(): { allowHttp: boolean } {
  return { allowHttp: outboundPolicy().allowLocal };
}
