// A local host page for the app's UI extensions (customer account block, admin print action, admin action): the extension's own
// module bundled with Preact, Shopify's `shopify` global stood in (i18n from the extension's locale files, the
// metafields or selection it reads, a fetch answering the app's API), and the s-* web components given a plain look.
// For browser tests and screenshots only (test/browser/extensions.test.ts); never part of the app.
import { readFileSync } from "node:fs";
import path from "node:path";
import { build } from "vite";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

export interface HostOptions {
  /** The extension's directory name under extensions/. */
  extension: string;
  /** Its module, relative to the extension directory. */
  module: string;
  locale: "tr" | "en";
  /** What `shopify` carries besides i18n (appMetafields, data, localization...), as JSON. */
  api: Record<string, unknown>;
  /** Answers of the stood-in fetch: path prefix → JSON body. */
  fetchAnswers?: Record<string, unknown>;
  /** A frame around the extension, as Shopify shows it. */
  frame: "customer-account" | "admin-print" | "admin-action";
  title: string;
}

async function bundle(entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "silent",
    root,
    esbuild: { jsx: "automatic", jsxImportSource: "preact" },
    resolve: { alias: { "@shopify/ui-extensions/preact": path.join(root, "sandbox/extensions/preact-stub.js") } },
    build: { write: false, minify: false, lib: { entry, formats: ["iife"], name: "extension", fileName: () => "extension.js" } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Array<{ output: Array<{ type: string; code?: string }> }>;
  const chunk = outputs[0].output.find((item) => item.type === "chunk");
  if (!chunk?.code) throw new Error(`no bundle for ${entry}`);
  return chunk.code;
}

const STYLE = `
  body { margin: 0; font: 14px/1.5 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #303030; }
  .page { padding: 24px; max-width: 720px; margin: 0 auto; }
  .customer-account { background: #f5f5f5; min-height: 100vh; }
  .customer-account header { background: #fff; border-bottom: 1px solid #e3e3e3; padding: 16px 24px; font-weight: 600; }
  .order-summary { background: #fff; border-radius: 12px; padding: 20px; margin-bottom: 16px; border: 1px solid #e3e3e3; }
  .order-summary h2 { margin: 0 0 4px; font-size: 20px; }
  .admin-print { background: #f1f1f1; min-height: 100vh; padding: 32px 0; box-sizing: border-box; }
  .modal { background: #fff; border-radius: 12px; box-shadow: 0 4px 24px rgba(0,0,0,.15); margin: 0 auto; max-width: 620px; overflow: hidden; }
  .modal header { padding: 14px 20px; border-bottom: 1px solid #e3e3e3; font-weight: 650; }
  .modal footer { padding: 12px 20px; border-top: 1px solid #e3e3e3; display: flex; justify-content: flex-end; gap: 8px; }
  .modal footer span { border-radius: 8px; padding: 6px 12px; background: #303030; color: #fff; font-weight: 600; }
  .modal footer span.disabled { background: #d4d4d4; }
  .modal .body { padding: 20px; }
  s-section { display: block; background: #fff; border: 1px solid #e3e3e3; border-radius: 12px; padding: 20px; }
  s-section::before { content: attr(heading); display: block; font-weight: 650; font-size: 16px; margin-bottom: 12px; }
  s-stack { display: flex; flex-direction: column; gap: 12px; align-items: flex-start; }
  s-text { display: block; }
  s-text[color="subdued"] { color: #616161; }
  s-button { display: inline-block; background: #1a1a1a; color: #fff; border-radius: 8px; padding: 10px 18px; font-weight: 600; cursor: pointer; }
  s-banner { display: block; border-radius: 8px; padding: 12px 14px; background: #fff4d4; align-self: stretch; }
  s-banner[tone="critical"] { background: #fee9e8; }
  s-admin-print-action { display: block; }
  .admin-action { background: #f1f1f1; min-height: 100vh; padding: 32px 0; box-sizing: border-box; }
  .admin-action .modal { padding: 0; }
  s-admin-action { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 8px; padding-bottom: 12px; }
  s-admin-action::before { content: attr(heading); flex-basis: 100%; padding: 14px 20px; border-bottom: 1px solid #e3e3e3; font-weight: 650; box-sizing: border-box; }
  s-admin-action > s-stack { flex-basis: 100%; padding: 16px 20px; border-bottom: 1px solid #e3e3e3; box-sizing: border-box; }
  s-admin-action > s-button[slot="secondary-actions"] { order: 1; background: #fff; color: #303030; border: 1px solid #d4d4d4; padding: 6px 12px; }
  s-admin-action > s-button[slot="primary-action"] { order: 2; margin-right: 20px; padding: 6px 12px; }
  s-button[disabled] { background: #d4d4d4; }
  s-banner[tone="info"] { background: #eaf4ff; }
  .print-source { margin-top: 16px; padding: 12px; border: 1px dashed #b5b5b5; border-radius: 8px; color: #616161; font-size: 12px; word-break: break-all; }
`;

/** The page's HTML: the frame, the stood-in globals, and the extension's bundle rendering into #root. */
export async function extensionPage(options: HostOptions): Promise<string> {
  const dir = path.join(root, "extensions", options.extension);
  const locale = JSON.parse(readFileSync(path.join(dir, "locales", options.locale === "en" ? "en.default.json" : "tr.json"), "utf8"));
  const code = await bundle(path.join(dir, options.module));
  const frame =
    options.frame === "customer-account"
      ? `<div class="customer-account"><header>${options.title}</header><div class="page"><div class="order-summary"><h2>${options.locale === "tr" ? "Sipariş #1001" : "Order #1001"}</h2><div>${options.locale === "tr" ? "Teslim edildi · 549,70 ₺" : "Delivered · ₺549.70"}</div></div><div id="root"></div></div></div>`
      : options.frame === "admin-action"
        ? `<div class="admin-action"><div class="modal"><div id="root"></div></div></div>`
        : `<div class="admin-print"><div class="modal"><header>${options.title}</header><div class="body"><div id="root"></div><div class="print-source" id="print-source"></div></div><footer><span id="print-button" class="disabled">${options.locale === "tr" ? "Yazdır" : "Print"}</span></footer></div></div>`;
  const globals = `
    const messages = ${JSON.stringify(locale)};
    const lookup = (key) => key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), messages);
    const translate = (key, params = {}) => {
      let value = lookup(key);
      if (value && typeof value === "object") value = value[params.count === 1 ? "one" : "other"];
      if (typeof value !== "string") return key;
      return value.replace(/{{\\s*(\\w+)\\s*}}/g, (m, name) => (name in params ? String(params[name]) : m));
    };
    window.shopify = Object.assign({ i18n: { translate } }, ${JSON.stringify(options.api)});
    const answers = ${JSON.stringify(options.fetchAnswers ?? {})};
    window.fetch = async (input) => {
      const url = String(input);
      const key = Object.keys(answers).find((prefix) => url.startsWith(prefix));
      return new Response(JSON.stringify(key ? answers[key] : { error: "unknown" }), { status: key ? 200 : 404, headers: { "content-type": "application/json" } });
    };
    // Shopify's print dialog previews the document at the component's src; here its address is shown instead.
    new MutationObserver(() => {
      const action = document.querySelector("s-admin-print-action");
      const source = document.getElementById("print-source");
      const button = document.getElementById("print-button");
      if (!action || !source) return;
      const src = action.getAttribute("src") || action.src;
      const text = src ? "src: " + src : "src: —";
      // Only on change: these writes are mutations too.
      if (source.textContent !== text) source.textContent = text;
      if (button && button.className !== (src ? "" : "disabled")) button.className = src ? "" : "disabled";
    }).observe(document.getElementById("root"), { subtree: true, childList: true, attributes: true });
  `;
  // The bundle's default export renders into document.body; the host gives it #root instead.
  return `<!doctype html><html lang="${options.locale}"><head><meta charset="utf-8"><style>${STYLE}</style></head><body>${frame}
<script>${globals}</script>
<script>${code}
(async () => {
  const root = document.getElementById("root");
  const bodyDescriptor = Object.getOwnPropertyDescriptor(Document.prototype, "body");
  Object.defineProperty(document, "body", { configurable: true, get: () => root });
  await extension.default();
  Object.defineProperty(document, "body", bodyDescriptor);
  document.documentElement.dataset.rendered = "1";
})();
</script></body></html>`;
}
