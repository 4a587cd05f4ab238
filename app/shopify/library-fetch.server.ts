// The fetch the Shopify library sends its own requests with (token exchange when a merchant opens the app, the
// afterAuth hook's shop query): through the outbound guard to the shop's own myshopify.com host only, with a time
// limit, and in development to the stand-in that SHOPIFY_ADMIN_API_URL names, as the app's own Admin API and token
// requests (refused unless the app runs on localhost, app/env.server.ts). Installed by shopify.server.ts with the
// library's setAbstractFetchFunc; without it the library uses the global fetch to any host it builds.
import { env } from "../env.server";
import { guardedFetch, OutboundBlockedError } from "../http/outbound-guard.server";
import { isShopDomain } from "./shop-domain";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function libraryFetch(base: string | undefined = env().SHOPIFY_ADMIN_API_URL, timeoutMs = 15_000): Fetch {
  return async (input, init) => {
    const requested = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (!isShopDomain(requested.hostname.toLowerCase()) || requested.protocol !== "https:")
      throw new OutboundBlockedError("host", `${requested.origin}${requested.pathname}`);
    const target = base ? new URL(`${requested.pathname}${requested.search}`, base) : requested;
    const send = guardedFetch({ allowedHosts: [target.host.toLowerCase()], allowLocal: Boolean(base) });
    // The library passes a URL and options; a Request is taken apart the same way.
    const request = input instanceof Request ? input : undefined;
    const method = init?.method ?? request?.method ?? "GET";
    const body = init?.body ?? (request && !["GET", "HEAD"].includes(method) ? await request.text() : undefined);
    return send(target.href, {
      method,
      headers: init?.headers ?? request?.headers,
      body,
      signal: init?.signal ?? AbortSignal.timeout(timeoutMs),
    });
  };
}
