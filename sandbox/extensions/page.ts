// The script of the local extension host page (sandbox/extensions/host.ts), bundled for the browser: Shopify's
// `shopify` global stood in (./shopify-global.ts), a fetch answering the app's paths, and the call of the target
// the extension's bundle registered, rendering into the page's #root instead of the whole body.
import { shopifyGlobal, type ShopifyGlobal } from "./shopify-global";

export interface PageConfig {
  messages: Record<string, unknown>;
  locale: string;
  api: Record<string, unknown>;
  /** Answers of the stood-in fetch: path prefix → JSON body. */
  fetchAnswers: Record<string, unknown>;
}

export function install(config: PageConfig): ShopifyGlobal {
  const global = shopifyGlobal({
    messages: config.messages,
    locale: config.locale,
    api: { ...config.api, close: () => (document.documentElement.dataset.closed = "1") },
  });
  Object.assign(window, { shopify: global.shopify });
  window.fetch = async (input: RequestInfo | URL) => {
    const url = String(input);
    const key = Object.keys(config.fetchAnswers).find((prefix) => url.startsWith(prefix));
    return new Response(JSON.stringify(key ? config.fetchAnswers[key] : { error: "unknown" }), {
      status: key ? 200 : 404,
      headers: { "content-type": "application/json" },
    });
  };
  // Shopify's print dialog previews the document at the print action's src; here its address is shown instead.
  const root = document.getElementById("root")!;
  new MutationObserver(() => {
    const action = document.querySelector("s-admin-print-action");
    const source = document.getElementById("print-source");
    const button = document.getElementById("print-button");
    if (!action || !source) return;
    const src = action.getAttribute("src") || (action as unknown as { src?: string }).src;
    const text = src ? `src: ${src}` : "src: —";
    // Only on change: these writes are mutations too.
    if (source.textContent !== text) source.textContent = text;
    if (button && button.className !== (src ? "" : "disabled")) button.className = src ? "" : "disabled";
  }).observe(root, { subtree: true, childList: true, attributes: true });
  return global;
}

/** Calls the target as Shopify does once the bundle has registered it; it renders into #root. */
export async function render(global: ShopifyGlobal, target: string): Promise<void> {
  const callback = global.targets.get(target);
  if (!callback)
    throw new Error(`the bundle registered ${[...global.targets.keys()].join(", ") || "no target"}, not ${target}`);
  const root = document.getElementById("root")!;
  const body = Object.getOwnPropertyDescriptor(Document.prototype, "body")!;
  Object.defineProperty(document, "body", { configurable: true, get: () => root });
  try {
    await callback();
  } finally {
    Object.defineProperty(document, "body", body);
  }
  document.documentElement.dataset.rendered = "1";
}
