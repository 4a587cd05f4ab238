// What the access log prints of a request's URL: secrets in paths and query values never (server/redact-url.ts).
import { describe, expect, it } from "vitest";
import { nonCanonicalSecretTarget, redactUrl } from "../../server/redact-url";

describe("redactUrl", () => {
  it("hides the account webhook's secret, however the path is spelled", () => {
    expect(redactUrl("/callbacks/account/demo.myshopify.com/s3cr3t")).toBe(
      "/callbacks/account/demo.myshopify.com/[redacted]",
    );
    // Any other spelling the router still reads as this route: only the route's name is logged.
    expect(redactUrl("/callbacks/account/demo.myshopify.com/s3cr3t/")).toBe("/callbacks/account/[redacted]");
    expect(redactUrl("/Callbacks/ACCOUNT/demo.myshopify.com/s3cr3t")).toBe("/callbacks/account/[redacted]");
    expect(redactUrl("//callbacks//account/demo.myshopify.com//s3cr3t")).toBe("/callbacks/account/[redacted]");
    expect(redactUrl("/callbacks/%61ccount/demo.myshopify.com/s3cr3t?x=1")).toBe(
      "/callbacks/account/[redacted]?x=[redacted]",
    );
    // Only the shop: nothing secret to hide.
    expect(redactUrl("/callbacks/account/demo.myshopify.com")).toBe("/callbacks/account/demo.myshopify.com");
  });

  const NON_CANONICAL = [
    ["/./callbacks/account/demo.myshopify.com/s3cr3t", "/callbacks/account/[redacted]"],
    ["/callbacks/./account/demo.myshopify.com/s3cr3t", "/callbacks/account/[redacted]"],
    ["/callbacks\\account\\demo.myshopify.com\\s3cr3t", "/callbacks/account/[redacted]"],
    [
      "http://evil.example/callbacks/account/demo.myshopify.com/s3cr3t?x=1",
      "/callbacks/account/[redacted]?x=[redacted]",
    ],
    ["/x/../invoice-pdf/cm123/s3cr3t", "/invoice-pdf/[redacted]"],
    ["/%2e/print/invoices/s3cr3t", "/print/invoices/[redacted]"],
    ["/x/%2E%2e/callbacks/account/demo.myshopify.com/s3cr3t", "/callbacks/account/[redacted]"],
    ["/callbacks/account/demo.myshopify.com%2Fs3cr3t", "/callbacks/account/[redacted]"],
    ["/callbacks/account/./s3cr3t", "/callbacks/account/[redacted]"],
    ["/callbacks/account/../s3cr3t", "/callbacks/account/[redacted]"],
    // Absolute form with a dot segment: the router reads /callbacks/s3cr3t, the spelling still names the route.
    ["http://h/callbacks/account/../s3cr3t", "/callbacks/account/[redacted]"],
    ["https://h:443/invoice-pdf/../s3cr3t", "/invoice-pdf/[redacted]"],
    // The route's name before a `..`, spelled with backslashes, `.` segments or after another `..`: the router reads
    // another path, the spelling still names the secret route.
    ["/callbacks\\account\\..\\s3cr3t", "/callbacks/account/[redacted]"],
    ["/./invoice-pdf/../s3cr3t", "/invoice-pdf/[redacted]"],
    ["/callbacks/./account/./.././s3cr3t", "/callbacks/account/[redacted]"],
    ["/x/../callbacks/account/../s3cr3t", "/callbacks/account/[redacted]"],
    ["/callbacks/account/demo.myshopify.com/s3cr3t/x/..", "/callbacks/account/[redacted]"],
    ["/invoice-pdf/cm123/s3cr3t/", "/invoice-pdf/[redacted]"],
  ];

  it.each(NON_CANONICAL)(
    "logs %s, a secret route spelled otherwise, by the route's name only, and refuses it",
    (target, logged) => {
      expect(redactUrl(target)).toBe(logged);
      expect(nonCanonicalSecretTarget(target)).toBe(true);
    },
  );

  it("takes the spellings the app writes in its links, and leaves every other address to the router", () => {
    for (const target of [
      "/callbacks/account/demo.myshopify.com/s3cr3t",
      "/invoice-pdf/cm123/Zm9v_-",
      "/print/invoices/eyJ.c2ln?download=1",
      "/callbacks/account/demo.myshopify.com",
    ]) {
      expect(nonCanonicalSecretTarget(target), target).toBe(false);
    }
    for (const target of [
      "/app/./settings",
      "/x/../app",
      "//healthz",
      "/webhooks/orders/paid/",
      "http://h/app",
      "*",
      "/print/invoices",
    ])
      expect(nonCanonicalSecretTarget(target), target).toBe(false);
  });

  it("hides the print preview's signed token", () => {
    expect(redactUrl("/print/invoices/eyJzaG9wIjoi.c2lnbmF0dXJl")).toBe("/print/invoices/[redacted]");
    expect(redactUrl("/print/invoices/abc?download=1")).toBe("/print/invoices/[redacted]?download=[redacted]");
  });

  it("hides the accountant package's signed download token", () => {
    expect(redactUrl("/accountant-package/eyJzIjoiZGVtbyJ9.c2lnbmF0dXJl")).toBe("/accountant-package/[redacted]");
    expect(redactUrl("/Accountant-Package/abc")).toBe("/accountant-package/[redacted]");
  });

  it("hides the signature of a customer's PDF link, keeps the invoice id", () => {
    expect(redactUrl("/invoice-pdf/cm123abc/Zm9vYmFyYmF6cXV4cXV1eHh5enp5eHh5enp5eHh5enp5eH")).toBe(
      "/invoice-pdf/cm123abc/[redacted]",
    );
  });

  it("keeps harmless query values and hides every other one (session tokens, HMACs, OAuth codes)", () => {
    const embedded =
      "/app?embedded=1&hmac=abc123&host=YWRtaW4&id_token=eyJ.x.y&locale=tr&session=f00&shop=demo.myshopify.com&timestamp=1700000000";
    expect(redactUrl(embedded)).toBe(
      "/app?embedded=1&hmac=[redacted]&host=YWRtaW4&id_token=[redacted]&locale=tr&session=[redacted]&shop=demo.myshopify.com&timestamp=1700000000",
    );
    expect(redactUrl("/auth/callback?code=c0de&state=n0nce&shop=demo.myshopify.com")).toBe(
      "/auth/callback?code=[redacted]&state=[redacted]&shop=demo.myshopify.com",
    );
    // Encoded keys are recognised; a key without a value is kept, its name only.
    expect(redactUrl("/app?id%5Ftoken=eyJ&flag")).toBe("/app?id%5Ftoken=[redacted]&flag=[redacted]");
    expect(redactUrl("/app/invoices/12?_data=routes%2Fapp.invoices.%24id")).toBe(
      "/app/invoices/12?_data=routes%2Fapp.invoices.%24id",
    );
  });

  it("leaves ordinary paths alone", () => {
    for (const path of [
      "/",
      "/healthz",
      "/app/settings",
      "/webhooks/orders/paid",
      "/callbacks/invoices/clx123",
      "/assets/entry.client-abc.js",
    ]) {
      expect(redactUrl(path)).toBe(path);
    }
  });

  it("never lets a secret through, whatever the path and query (property)", async () => {
    const fc = (await import("fast-check")).default;
    const secret = "S3CRET-VALUE";
    const segment = fc.stringMatching(/^[a-zA-Z0-9._~%-]{0,12}$/);
    fc.assert(
      fc.property(
        segment,
        segment,
        fc.constantFrom("", "/", "?x=1"),
        fc.constantFrom("", "/.", "/x/..", "/%2e", "/x/%2E%2e", "http://h", "/"),
        fc.constantFrom("/", "\\", "//", "/./"),
        (shop, tail, suffix, before, slash) => {
          const logged = [
            redactUrl(`/callbacks/account/${shop || "s"}/${secret}${tail ? `/${tail}` : ""}${suffix}`),
            redactUrl(
              `${before}/callbacks${slash}account${slash}${shop || "s"}${slash}${secret}${tail ? `${slash}${tail}` : ""}${suffix}`,
            ),
            redactUrl(`${before}/invoice-pdf${slash}${shop || "s"}${slash}${secret}${suffix}`),
            redactUrl(`/print/invoices/${secret}${suffix}`),
            redactUrl(`/${tail}?${shop}_k=${secret}&shop=demo.myshopify.com`),
          ];
          for (const line of logged) expect(line).not.toContain(secret);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
