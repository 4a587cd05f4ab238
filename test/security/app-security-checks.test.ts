// Shopify's published "App security checks" (shopify.dev, Apps > Security > App security checks) that can be decided
// from the code, as tests: each `describe` is named by the check's ID. docs/security-checks.md lists every check of
// Shopify's list, with the test or file that shows the app passes it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { API_VERSION } from "../../app/shopify/api-version";

const tracked = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" }).split("\0").filter(Boolean);
const read = (file: string) => fs.readFileSync(file, "utf8");
const appSources = tracked.filter((f) => /^app\/.*\.tsx?$/.test(f) && !f.endsWith("admin.generated.ts"));
const extensionSources = tracked.filter((f) => /^extensions\/.*\.(tsx?|jsx?|liquid)$/.test(f));
const appToml = parseToml(read("shopify.app.toml")) as {
  access_scopes: { scopes: string; optional_scopes?: string[] };
  auth?: { redirect_urls?: string[] };
  webhooks: {
    api_version: string;
    subscriptions: Array<{ topics?: string[]; compliance_topics?: string[]; uri: string }>;
  };
};

describe("COMMITTED_SECRET", () => {
  it("no tracked file holds a Shopify credential in its real format, and no secret file is tracked", () => {
    // Shopify's token formats (access, refresh, shared secret, custom app, partner): a prefix and 32 hex characters.
    const credential = /\bshp(at|rt|ss|ca|pa|ua)_[a-f0-9]{32}\b/;
    const found = tracked
      .filter((file) => fs.existsSync(file) && fs.statSync(file).size < 2_000_000)
      .filter((file) => credential.test(read(file)));
    expect(found).toEqual([]);
    const secretFiles = tracked.filter((file) =>
      /(^|\/)(\.env|\.env\.secrets|\.env\.keys|secrets\.json|credentials\.json)$/.test(file),
    );
    expect(secretFiles).toEqual([]);
    expect(read(".gitignore")).toMatch(/^\.env$/m);
  });
});

describe("EXPIRING_OFFLINE_TOKEN", () => {
  it("shopifyApp asks for expiring offline tokens, and the session table keeps their expiry and refresh token", () => {
    expect(read("app/shopify.server.ts")).toMatch(/expiringOfflineAccessTokens:\s*true/);
    const model = /model Session \{([^}]*)\}/.exec(read("prisma/models.prisma"))![1];
    expect(model).toMatch(/^\s*expires\s+DateTime\?/m);
    expect(model).toMatch(/^\s*refreshToken\s+String\?/m);
    expect(model).toMatch(/^\s*refreshTokenExpires\s+DateTime\?/m);
  });
});

describe("EOL_API_VERSION", () => {
  /** A quarterly version is supported 12 months from its release, then 30 days of grace (shopify.dev, API versioning). */
  const endOfSupport = (version: string) => {
    const [year, month] = version.split("-").map(Number);
    return Date.UTC(year + 1, month - 1, 1) + 30 * 86_400_000;
  };
  const extensionVersions = tracked
    .filter((f) => /^extensions\/[^/]+\/shopify\.extension\.toml$/.test(f))
    .map((f) => [f, (parseToml(read(f)) as { api_version?: string }).api_version] as const)
    // Theme app extensions and Flow triggers have no API version.
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);

  it("the server, the webhooks and every extension use a version still supported today", () => {
    const declared = [
      ["app/shopify/api-version.ts", API_VERSION],
      ["shopify.app.toml [webhooks]", appToml.webhooks.api_version],
      ...extensionVersions,
    ] as const;
    expect(declared.length).toBeGreaterThan(3);
    const ended = declared.filter(
      ([, version]) => !/^\d{4}-(01|04|07|10)$/.test(version) || endOfSupport(version) < Date.now(),
    );
    expect(ended).toEqual([]);
  });

  it("the webhooks use the server's version", () => {
    expect(appToml.webhooks.api_version).toBe(API_VERSION);
  });
});

describe("MISSING_COMPLIANCE_WEBHOOKS and INSECURE_WEBHOOK_URL", () => {
  it("subscribes the three compliance topics, each to a route that answers it", () => {
    const compliance = appToml.webhooks.subscriptions.flatMap((s) => s.compliance_topics ?? []);
    expect(compliance.sort()).toEqual(["customers/data_request", "customers/redact", "shop/redact"]);
    for (const subscription of appToml.webhooks.subscriptions) {
      const route = `app/routes/${subscription.uri.slice(1).replaceAll("/", ".")}.tsx`;
      expect(fs.existsSync(route), route).toBe(true);
    }
  });

  it("every webhook address is a relative path or https, and every OAuth redirect is https", () => {
    for (const { uri } of appToml.webhooks.subscriptions) expect(uri).toMatch(/^(\/|https:\/\/)/);
    for (const url of appToml.auth?.redirect_urls ?? []) expect(url).toMatch(/^https:\/\//);
  });
});

describe("DEPRECATED_SCRIPT_TAG_SCOPE and SCRIPT_TAG_URL_INJECTION", () => {
  it("asks for no script tag scope and writes no script tag", () => {
    const scopes = [appToml.access_scopes.scopes, ...(appToml.access_scopes.optional_scopes ?? [])].join(",");
    expect(scopes).not.toMatch(/script_tags/);
    expect(appSources.filter((f) => /scriptTag(Create|Update)/.test(read(f)))).toEqual([]);
  });
});

describe("UNAUTHENTICATED_ENDPOINT, CSRF_MISSING_PROTECTION and REQUEST_DERIVED_SHOP_SCOPE", () => {
  // How each route verifies its caller before anything else. A new route is refused until it is named here.
  const ADMIN = /^await authenticate\.admin\(request\)/;
  const GUARDS: Record<string, { how: string; first?: RegExp; handler?: RegExp }> = {
    "_index.tsx": {
      how: "public page without data; ?shop= goes to /app, which authenticates",
      first: /^new URL\(request\.url\);$/,
    },
    "healthz.tsx": {
      how: "public up/down for load balancers; details only with HEALTH_TOKEN",
      first: /^await healthOf\(request\)/,
    },
    "auth.$.tsx": { how: "Shopify's auth paths", first: ADMIN },
    "auth.login.tsx": {
      how: "Shopify's login: takes a shop's address only and redirects to that shop's admin; reads and writes nothing",
      first: /=> answer\(request\);$/,
    },
    "accountant-package.$token.tsx": { how: "signed, expiring download token", first: /^await packageForDownload\(/ },
    "invoice-pdf.$id.$signature.tsx": { how: "HMAC-signed customer link", first: /^await verifyCustomerPdf\(/ },
    "print.invoices.$token.tsx": { how: "HMAC-signed print token, minutes long", first: /^verifyPrintToken\(/ },
    "callbacks.invoices.$id.tsx": { how: "HMAC-SHA512 of the shop's API key", first: /^await answerCallback\(/ },
    "callbacks.account.$shop.$secret.tsx": {
      how: "the shop's secret in the path",
      first: /^await receiveAccountWebhook\(/,
    },
  };
  const routes = fs.readdirSync("app/routes").filter((f) => /\.tsx?$/.test(f));

  /** Each exported loader/action: its first statement that does anything (awaits, or calls a guard). */
  const handlers = (source: string) => {
    const lines = source.split("\n");
    return lines.flatMap((line, at) => {
      const head = /^export const (loader|action) = (.*)$/.exec(line);
      if (!head) return [];
      // A handler written on one line is its own first statement.
      if (head[2].trim().endsWith(";")) return [{ name: head[1], inline: head[2].trim(), first: head[2].trim() }];
      const end = lines.findIndex((l, i) => i > at && /^\};?$/.test(l));
      const body = lines
        .slice(at + 1, end)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("//") && !/^if \(request\.method !== "POST"\)/.test(l));
      const first = (body.find((l) => /await |verify|^const .* = /.test(l)) ?? "").replace(/^const .*? = /, "");
      return [{ name: head[1], inline: head[2].trim(), first }];
    });
  };

  it("every loader and action verifies its caller first: a session token, Shopify's HMAC, or a signature", () => {
    const unverified: string[] = [];
    for (const file of routes) {
      const source = read(`app/routes/${file}`);
      if (!/export const (loader|action)/.test(source)) continue;
      if (/^webhooks\./.test(file)) {
        // webhookAction verifies Shopify's HMAC of the raw body before anything else (app/webhooks/receive.server.ts).
        if (!/^export const action = webhookAction\("[a-z_/]+"\);$/m.test(source)) unverified.push(file);
        continue;
      }
      const guard = GUARDS[file] ?? { how: "the admin's session token", first: ADMIN };
      for (const handler of handlers(source)) {
        // `() => json(... 405)`: a loader that only refuses.
        if (/^\(\) => json\(\{ error: "method not allowed" \}, \{ status: 405 \}\);$/.test(handler.inline)) continue;
        if (!guard.first!.test(handler.first)) unverified.push(`${file} ${handler.name}: ${handler.first}`);
      }
    }
    expect(unverified).toEqual([]);
  });

  it("the admin's routes take the shop from the verified session, never from the request", () => {
    const fromRequest = routes.filter((file) => {
      const source = read(`app/routes/${file}`);
      return (
        /authenticate\.admin/.test(source) &&
        /(searchParams|formData|params|body)[^;\n]*\.?(get\()?["']?shop["']?\)?/.test(
          source.replace(/session\.shop/g, ""),
        )
      );
    });
    expect(fromRequest).toEqual([]);
  });
});

describe("REQUEST_CONTROLLED_ADMIN_CONTEXT and UNSCOPED_SHOP_CONFIG_WRITE", () => {
  it("no code asks the library for a shop's Admin API context by a shop name (unauthenticated.admin)", () => {
    expect(appSources.filter((f) => /unauthenticated\.admin\(/.test(read(f)))).toEqual([]);
  });
});

describe("CREDENTIAL_BROWSER_LEAKAGE and CREDENTIAL_LOG_LEAKAGE", () => {
  it("no route or component reads a session's tokens", () => {
    const ui = appSources.filter((f) => f.startsWith("app/routes/") || f.endsWith(".tsx"));
    expect(ui.filter((f) => /\b(accessToken|refreshToken)\b/.test(read(f)))).toEqual([]);
  });

  it("no log call is given a token or a secret, and the logger redacts them by name wherever they are passed", () => {
    const leaks = appSources.flatMap((file) =>
      read(file)
        .split("\n")
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        .filter(({ line }) => /\b(logger|log|console)\.\w+\(/.test(line))
        .filter(({ line }) =>
          /\b(accessToken|refreshToken|apiSecret|client_secret|SHOPIFY_API_SECRET|apiKey)\b/.test(line),
        )
        .map(({ at }) => at),
    );
    expect(leaks).toEqual([]);
    const logger = read("app/logger.server.ts");
    for (const name of ["accessToken", "refreshToken", "access_token", "refresh_token", "client_secret", "apiKey"])
      expect(logger).toContain(`"*.${name}"`);
  });
});

describe("WEAK_SHOP_VALIDATION", () => {
  it("every myshopify.com pattern is anchored at both ends", () => {
    const patterns = [...appSources, ...extensionSources].flatMap((file) =>
      [...read(file).matchAll(/\/([^/\n]*\\\.myshopify\\\.com[^/\n]*)\/[gimsuy]*/g)].map((m) => ({
        file,
        pattern: m[1],
      })),
    );
    expect(patterns.length).toBeGreaterThan(0);
    expect(patterns.filter(({ pattern }) => !pattern.startsWith("^") || !pattern.endsWith("$"))).toEqual([]);
  });
});

describe("UNSAFE_INNERHTML, TEXT_SETTING_HTML_SMUGGLING and CROSS_SITE_SCRIPTING", () => {
  it("no HTML is written from a value: no innerHTML, outerHTML, insertAdjacentHTML, dangerouslySetInnerHTML, eval", () => {
    const sink =
      /\b(innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write)\b|\beval\(|new Function\(/;
    const sources = [
      ...appSources,
      ...extensionSources,
      ...tracked.filter((f) => /^extensions\/.*\/assets\/.*\.js$/.test(f)),
    ];
    expect(sources.filter((f) => sink.test(read(f)))).toEqual([]);
  });
});

describe("LIQUID_UNSAFE_RENDER and THEME_EXTENSION_XSS", () => {
  it("the theme app extension escapes every value it outputs from the cart, a setting or a metafield", () => {
    const liquid = tracked.filter((f) => /^extensions\/.*\.liquid$/.test(f));
    expect(liquid.length).toBeGreaterThan(0);
    const unescaped = liquid.flatMap((file) =>
      [...read(file).matchAll(/\{\{-?\s*([^}]+?)\s*-?\}\}/g)]
        .map((m) => m[1])
        // Translations, asset URLs, Shopify's own attributes and the block's id are Shopify's; the rest must escape.
        .filter((output) => !/\|\s*(t|asset_url|escape|json|url_escape)\b/.test(output))
        .filter((output) => !/^(block\.shopify_attributes|uid|name_(tckn|vkn|office|title))$/.test(output))
        .map((output) => `${file}: {{ ${output} }}`),
    );
    expect(unescaped).toEqual([]);
  });
});

describe("STATIC_FRAME_ANCESTORS and MISSING_EMBEDDED_CSP", () => {
  it("documents get Shopify's frame-ancestors from the library, and nothing in the app writes its own", () => {
    expect(read("app/entry.server.tsx")).toMatch(/addDocumentResponseHeaders\(request, responseHeaders\)/);
    expect(appSources.filter((f) => /frame-ancestors/i.test(read(f)))).toEqual([]);
  });
});

describe("MISSING_DEPENDENCY_SECURITY_AUTOMATION", () => {
  it("has a Dependabot configuration for npm at the repository's root", () => {
    const config = read(".github/dependabot.yml");
    expect(config).toMatch(/package-ecosystem:\s*"?npm"?/);
    expect(tracked).toContain(".github/dependabot.yml");
  });
});
