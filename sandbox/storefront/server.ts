// A local stand-in of a Shopify storefront's cart, for the cart block's browser tests and for trying the block
// without a store: the block's Liquid rendered by liquidjs inside a minimal cart page, its assets served the way
// Shopify injects them (the schema's stylesheet in the head, its script deferred), and the cart endpoints the
// block uses (/cart/update.js, /cart.js) with Shopify's rules for attributes (an empty value removes one).
// Checking out (the cart form's "checkout" button) turns the cart into an order whose note_attributes are the
// cart attributes, as Shopify does. Nothing is persisted; nothing leaves the machine.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Liquid, type Context } from "liquidjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const EXTENSION_DIR = path.join(root, "extensions/invoice-details");
const BLOCK_FILE = path.join(EXTENSION_DIR, "blocks/invoice-details.liquid");
const LAYOUT_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), "cart.liquid");
const MAX_BODY_BYTES = 64 * 1024;

export type StorefrontLocale = "tr" | "en";

export interface CartItem {
  title: string;
  quantity: number;
  line_price: string;
}

export interface StandInOrder {
  id: number;
  name: string;
  note_attributes: Array<{ name: string; value: string }>;
}

export interface Storefront {
  url: string;
  /** The cart as the stand-in holds it (a copy). */
  cart(): { attributes: Record<string, string>; items: CartItem[] };
  /** Orders placed by checking out. */
  orders: StandInOrder[];
  /** Every request the stand-in answered ("POST /cart/update.js"). */
  requests: string[];
  /** Block settings as a merchant would set them in the theme editor (defaults from the block's schema). */
  setBlockSettings(settings: Record<string, unknown>): void;
  stop(): Promise<void>;
}

interface BlockSchema {
  javascript?: string;
  stylesheet?: string;
  settings?: Array<{ id: string; default?: unknown }>;
}

/** The block's Liquid without its schema, and the schema as JSON. */
export function readBlock(file = BLOCK_FILE): { liquid: string; schema: BlockSchema } {
  const source = readFileSync(file, "utf8");
  const match = source.match(/{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/);
  if (!match) throw new Error(`${file} has no schema`);
  return { liquid: source.replace(match[0], ""), schema: JSON.parse(match[1]) as BlockSchema };
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}

function lookup(tree: Record<string, unknown>, key: string): unknown {
  return key
    .split(".")
    .reduce<unknown>(
      (node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined),
      tree,
    );
}

const LABELS: Record<StorefrontLocale, Record<string, string>> = {
  tr: {
    title: "Sepetiniz",
    product: "Ürün",
    quantity: "Adet",
    total: "Toplam",
    subtotal: "Ara toplam",
    checkout: "Ödeme adımına geç",
  },
  en: {
    title: "Your cart",
    product: "Product",
    quantity: "Quantity",
    total: "Total",
    subtotal: "Subtotal",
    checkout: "Check out",
  },
};

export async function startStorefront(
  options: { port?: number; host?: string; items?: CartItem[] } = {},
): Promise<Storefront> {
  const { liquid: blockLiquid, schema } = readBlock();
  const locales: Record<StorefrontLocale, Record<string, unknown>> = {
    en: readJson(path.join(EXTENSION_DIR, "locales/en.default.json")),
    tr: readJson(path.join(EXTENSION_DIR, "locales/tr.json")),
  };
  const defaults = Object.fromEntries((schema.settings ?? []).map((setting) => [setting.id, setting.default]));
  let blockSettings: Record<string, unknown> = { ...defaults };
  const attributes: Record<string, string> = {};
  const items: CartItem[] = options.items ?? [
    { title: "Osmanlıca Sözlük (Ciltli)", quantity: 1, line_price: "450,00" },
    { title: "Kurşun Kalem Seti", quantity: 2, line_price: "120,00" },
  ];
  const orders: StandInOrder[] = [];
  const requests: string[] = [];

  const engine = new Liquid({ strictFilters: true });
  const assetUrl = (file: string) => `/extensions/invoice-details/assets/${file}?v=1`;
  engine.registerFilter("asset_url", assetUrl);
  // Shopify's `t` filter: the storefront locale file of the request's language, then the default (English) one.
  engine.registerFilter("t", function (this: { context: Context }, key: string) {
    const locale = this.context.getSync(["request", "locale", "iso_code"]) === "en" ? "en" : "tr";
    const value = lookup(locales[locale], key) ?? lookup(locales.en, key);
    return typeof value === "string" ? value : `translation missing: ${locale}.${key}`;
  });

  async function renderCart(locale: StorefrontLocale): Promise<string> {
    const prefix = locale === "tr" ? "/" : `/${locale}/`;
    const cart = { attributes: { ...attributes }, items, total_price: "690,00" };
    const block = await engine.parseAndRender(blockLiquid, {
      block: {
        id: "AbCd12",
        settings: blockSettings,
        shopify_attributes: 'data-shopify-editor-block="{&quot;id&quot;:&quot;AbCd12&quot;}"',
      },
      cart,
      request: { locale: { iso_code: locale } },
    });
    // Where Shopify puts an app block's schema assets: the stylesheet in the head, the script deferred.
    const head = [
      schema.stylesheet ? `<link rel="stylesheet" href="${assetUrl(schema.stylesheet)}">` : "",
      schema.javascript ? `<script src="${assetUrl(schema.javascript)}" defer></script>` : "",
    ].join("\n    ");
    return engine.parseAndRender(readFileSync(LAYOUT_FILE, "utf8"), {
      app_block: block,
      block_head: head,
      cart,
      labels: LABELS[locale],
      page_title: LABELS[locale].title,
      request: { locale: { iso_code: locale } },
      routes: { root_url: prefix, cart_url: `${prefix}cart` },
    });
  }

  function cartJson() {
    return {
      attributes: { ...attributes },
      item_count: items.reduce((n, item) => n + item.quantity, 0),
      items,
      note: null,
    };
  }

  /** Shopify's cart attribute rules: values are strings; an empty (or null) value removes the attribute. */
  function applyAttributes(update: unknown) {
    if (!update || typeof update !== "object" || Array.isArray(update)) return;
    for (const [name, value] of Object.entries(update as Record<string, unknown>)) {
      if (value === null || value === undefined || String(value) === "") delete attributes[name];
      else attributes[name] = String(value);
    }
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://storefront.local");
    requests.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: string | Buffer, type: string) => {
      res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
      res.end(body);
    };
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        send(413, JSON.stringify({ status: 413, message: "Payload too large" }), "application/json");
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const match = url.pathname.match(/^\/(?:(en)\/)?(cart(?:\/update\.js|\.js)?)$/);
        const asset = url.pathname.match(/^\/extensions\/invoice-details\/assets\/([\w.-]+)$/);
        if (asset) {
          try {
            const file = readFileSync(path.join(EXTENSION_DIR, "assets", asset[1]));
            return send(200, file, asset[1].endsWith(".css") ? "text/css" : "application/javascript");
          } catch {
            return send(404, "not found", "text/plain");
          }
        }
        if (!match) return send(404, "not found", "text/plain");
        const locale: StorefrontLocale = match[1] === "en" ? "en" : "tr";
        const route = match[2];
        if (req.method === "GET" && route === "cart")
          return send(200, await renderCart(locale), "text/html; charset=utf-8");
        if (req.method === "GET" && route === "cart.js")
          return send(200, JSON.stringify(cartJson()), "application/json");
        if (req.method === "POST" && route === "cart/update.js") {
          try {
            const parsed = (req.headers["content-type"] ?? "").includes("application/json")
              ? (JSON.parse(body) as { attributes?: unknown })
              : {
                  attributes: Object.fromEntries(
                    [...new URLSearchParams(body)].flatMap(([k, v]) =>
                      k.match(/^attributes\[(.+)\]$/) ? [[k.slice(11, -1), v]] : [],
                    ),
                  ),
                };
            applyAttributes(parsed.attributes);
            return send(200, JSON.stringify(cartJson()), "application/json");
          } catch {
            return send(400, JSON.stringify({ status: 400, message: "Bad Request" }), "application/json");
          }
        }
        if (req.method === "POST" && route === "cart") {
          const order: StandInOrder = {
            id: 820982911946154500 + orders.length,
            name: `#${1001 + orders.length}`,
            note_attributes: Object.entries(attributes).map(([name, value]) => ({ name, value })),
          };
          orders.push(order);
          return send(
            200,
            `<!doctype html><html><body><h1 id="order">${order.name}</h1></body></html>`,
            "text/html; charset=utf-8",
          );
        }
        return send(405, "method not allowed", "text/plain");
      })().catch((error: unknown) => send(500, String(error), "text/plain"));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    cart: () => ({ attributes: { ...attributes }, items: items.map((item) => ({ ...item })) }),
    orders,
    requests,
    setBlockSettings(settings) {
      blockSettings = { ...defaults, ...settings };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
