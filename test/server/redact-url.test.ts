// What the access log prints of a request's URL: secrets in paths and query values never (server/redact-url.ts).
import { describe, expect, it } from "vitest";
import { redactUrl } from "../../server/redact-url";

describe("redactUrl", () => {
  it("hides the account webhook's secret, however the path is spelled", () => {
    expect(redactUrl("/callbacks/account/demo.myshopify.com/s3cr3t")).toBe("/callbacks/account/demo.myshopify.com/[redacted]");
    expect(redactUrl("/callbacks/account/demo.myshopify.com/s3cr3t/")).toBe("/callbacks/account/demo.myshopify.com/[redacted]");
    expect(redactUrl("/Callbacks/ACCOUNT/demo.myshopify.com/s3cr3t")).toBe("/Callbacks/ACCOUNT/demo.myshopify.com/[redacted]");
    expect(redactUrl("//callbacks//account/demo.myshopify.com//s3cr3t")).toBe("//callbacks//account/demo.myshopify.com//[redacted]");
    expect(redactUrl("/callbacks/%61ccount/demo.myshopify.com/s3cr3t?x=1")).toBe("/callbacks/%61ccount/demo.myshopify.com/[redacted]?x=[redacted]");
    // Only the shop: nothing secret to hide.
    expect(redactUrl("/callbacks/account/demo.myshopify.com")).toBe("/callbacks/account/demo.myshopify.com");
  });

  it("hides the print preview's signed token", () => {
    expect(redactUrl("/print/invoices/eyJzaG9wIjoi.c2lnbmF0dXJl")).toBe("/print/invoices/[redacted]");
    expect(redactUrl("/print/invoices/abc?download=1")).toBe("/print/invoices/[redacted]?download=[redacted]");
  });

  it("hides the signature of a customer's PDF link, keeps the invoice id", () => {
    expect(redactUrl("/invoice-pdf/cm123abc/Zm9vYmFyYmF6cXV4cXV1eHh5enp5eHh5enp5eHh5enp5eH")).toBe("/invoice-pdf/cm123abc/[redacted]");
  });

  it("keeps harmless query values and hides every other one (session tokens, HMACs, OAuth codes)", () => {
    const embedded = "/app?embedded=1&hmac=abc123&host=YWRtaW4&id_token=eyJ.x.y&locale=tr&session=f00&shop=demo.myshopify.com&timestamp=1700000000";
    expect(redactUrl(embedded)).toBe(
      "/app?embedded=1&hmac=[redacted]&host=YWRtaW4&id_token=[redacted]&locale=tr&session=[redacted]&shop=demo.myshopify.com&timestamp=1700000000",
    );
    expect(redactUrl("/auth/callback?code=c0de&state=n0nce&shop=demo.myshopify.com")).toBe("/auth/callback?code=[redacted]&state=[redacted]&shop=demo.myshopify.com");
    // Encoded keys are recognised; a key without a value is kept, its name only.
    expect(redactUrl("/app?id%5Ftoken=eyJ&flag")).toBe("/app?id%5Ftoken=[redacted]&flag=[redacted]");
    expect(redactUrl("/app/invoices/12?_data=routes%2Fapp.invoices.%24id")).toBe("/app/invoices/12?_data=routes%2Fapp.invoices.%24id");
  });

  it("leaves ordinary paths alone", () => {
    for (const path of ["/", "/healthz", "/app/settings", "/webhooks/orders/paid", "/callbacks/invoices/clx123", "/assets/entry.client-abc.js"]) {
      expect(redactUrl(path)).toBe(path);
    }
  });

  it("never lets a secret through, whatever the path and query (property)", async () => {
    const fc = (await import("fast-check")).default;
    const secret = "S3CRET-VALUE";
    const segment = fc.stringMatching(/^[a-zA-Z0-9._~%-]{0,12}$/);
    fc.assert(
      fc.property(segment, segment, fc.constantFrom("", "/", "?x=1"), (shop, tail, suffix) => {
        const logged = [
          redactUrl(`/callbacks/account/${shop || "s"}/${secret}${tail ? `/${tail}` : ""}${suffix}`),
          redactUrl(`/print/invoices/${secret}${suffix}`),
          redactUrl(`/${tail}?${shop}_k=${secret}&shop=demo.myshopify.com`),
        ];
        for (const line of logged) expect(line).not.toContain(secret);
      }),
    );
  });
});
