// A local host page for the app's UI extensions (customer account block, admin block, print action and action): the
// bundle the Shopify CLI would deploy for the extension (scripts/lib/extensions.ts: its own clean install, the CLI's
// entry and esbuild options, the real @shopify/ui-extensions and Preact), Shopify's `shopify` global stood in
// (./page.ts: i18n from the extension's locale files, the metafields or selection it reads, a fetch answering the
// app's API), and the s-* web components given a plain look. For browser tests and screenshots only
// (test/browser/extensions.test.ts); never part of the app.
import { readFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { buildExtensions, ROOT, type Bundle } from "../../scripts/lib/extensions";

export interface HostOptions {
  /** The extension's directory name under extensions/. */
  extension: string;
  /** The handle of its [[extensions]] entry (dist/<handle>.js) and the target Shopify calls. */
  handle: string;
  target: string;
  locale: "tr" | "en";
  /** What `shopify` carries besides i18n, extend and close (appMetafields, data, localization...), as JSON. */
  api: Record<string, unknown>;
  /** Answers of the stood-in fetch: path prefix → JSON body. */
  fetchAnswers?: Record<string, unknown>;
  /** A frame around the extension, as Shopify shows it. */
  frame: "customer-account" | "admin-print" | "admin-action" | "admin-block";
  title: string;
}

const bundles = new Map<string, Promise<Bundle[]>>();

/** The extension's CLI bundles, built once per process. */
export async function extensionBundle(folder: string, handle: string): Promise<Bundle> {
  if (!bundles.has(folder))
    bundles.set(
      folder,
      buildExtensions({ folders: [folder] }).then((built) => built.flatMap((extension) => extension.bundles)),
    );
  const found = (await bundles.get(folder)!).find((bundle) => bundle.handle === handle);
  if (!found) throw new Error(`extensions/${folder} has no [[extensions]] entry ${handle}`);
  return found;
}

let pageScript: Promise<string> | undefined;

/** ./page.ts for the browser, exposing install() and render() as `extensionHost`. */
function hostScript(): Promise<string> {
  pageScript ??= build({
    entryPoints: [path.join(ROOT, "sandbox/extensions/page.ts")],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "extensionHost",
    target: "es2020",
    logLevel: "silent",
  }).then((result) => result.outputFiles[0].text);
  return pageScript;
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
  .admin-block { background: #f1f1f1; min-height: 100vh; padding: 24px; box-sizing: border-box; }
  .admin-block .card { background: #fff; border-radius: 12px; box-shadow: 0 1px 0 rgba(0,0,0,.07), 0 0 0 1px #e3e3e3; max-width: 360px; padding: 16px; }
  s-admin-block { display: block; }
  s-admin-block::before { content: attr(heading); display: block; font-weight: 650; margin-bottom: 8px; }
  s-admin-block s-stack { gap: 6px; }
  s-text[type="strong"] { font-weight: 650; }
  s-text[tone="caution"] { color: #8a6116; }
  s-text[tone="critical"] { color: #8e1f0b; }
  s-link { display: block; color: #005bd3; text-decoration: underline; cursor: pointer; }
  .print-source { margin-top: 16px; padding: 12px; border: 1px dashed #b5b5b5; border-radius: 8px; color: #616161; font-size: 12px; word-break: break-all; }
`;

/** The page's HTML: the frame, the stood-in `shopify` global, the extension's bundle, and the call of its target. */
export async function extensionPage(options: HostOptions): Promise<string> {
  const dir = path.join(ROOT, "extensions", options.extension);
  const messages = JSON.parse(
    readFileSync(path.join(dir, "locales", options.locale === "en" ? "en.default.json" : "tr.json"), "utf8"),
  );
  const bundle = await extensionBundle(options.extension, options.handle);
  if (/<\/script/i.test(bundle.code)) throw new Error(`${options.handle}: the bundle cannot be inlined in a <script>`);
  const frame =
    options.frame === "customer-account"
      ? `<div class="customer-account"><header>${options.title}</header><div class="page"><div class="order-summary"><h2>${options.locale === "tr" ? "Sipariş #1001" : "Order #1001"}</h2><div>${options.locale === "tr" ? "Teslim edildi · 549,70 ₺" : "Delivered · ₺549.70"}</div></div><div id="root"></div></div></div>`
      : options.frame === "admin-action"
        ? `<div class="admin-action"><div class="modal"><div id="root"></div></div></div>`
        : options.frame === "admin-block"
          ? `<div class="admin-block"><div class="card"><div id="root"></div></div></div>`
          : `<div class="admin-print"><div class="modal"><header>${options.title}</header><div class="body"><div id="root"></div><div class="print-source" id="print-source"></div></div><footer><span id="print-button" class="disabled">${options.locale === "tr" ? "Yazdır" : "Print"}</span></footer></div></div>`;
  const config = { messages, locale: options.locale, api: options.api, fetchAnswers: options.fetchAnswers ?? {} };
  // JSON inside <script>: "</" would end the element.
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  return `<!doctype html><html lang="${options.locale}"><head><meta charset="utf-8"><style>${STYLE}</style></head><body>${frame}
<script>${await hostScript()}
window.__host = extensionHost.install(${json(config)});</script>
<script>${bundle.code}</script>
<script>extensionHost.render(window.__host, ${json(options.target)});</script></body></html>`;
}
