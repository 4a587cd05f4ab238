// The Liquid snippets of docs/notification-emails.md, rendered with liquidjs against sample orders shaped as
// Shopify's notification templates see them (order.metafields[namespace][key].value).
import { readFileSync } from "node:fs";
import { Liquid } from "liquidjs";
import { describe, expect, it } from "vitest";
import { desiredMetafields, type WriteBackInvoice } from "../../app/write-back/plan";

const doc = readFileSync("docs/notification-emails.md", "utf8");
const snippets = [...doc.matchAll(/```liquid\n([\s\S]*?)```/g)].map((match) => match[1]);
const engine = new Liquid({ strictFilters: true });

const invoice: WriteBackInvoice = {
  id: "inv1",
  orderId: "5001",
  orderName: "#1001",
  state: "completed",
  documentKind: "e_archive",
  serialNumber: "ARS2026000000123",
  ettn: "11111111-2222-3333-4444-555555555555",
  pdfUrl: "https://service.example/pdf/ARS2026000000123.pdf",
  issueDate: "2026-11-23",
  postedInTestMode: false,
  orderTotal: "120.00",
  currency: "TRY",
  problemCodes: [],
  deadline: null,
};

/** An order as the template sees it, with the metafields the app writes for `written` (none: no invoice yet). */
function order(written: WriteBackInvoice | null) {
  const values = written ? desiredMetafields(written) : {};
  const namespace = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]));
  return { name: "#1001", metafields: { "app--123456": namespace } };
}

const render = (snippet: string, written: WriteBackInvoice | null) =>
  engine.parseAndRender(snippet, { order: order(written) });

describe("notification e-mail snippets", () => {
  it("the document gives a Turkish and an English snippet", () => {
    expect(snippets).toHaveLength(2);
  });

  it("print the link to a completed invoice with its serial number", async () => {
    const [tr, en] = await Promise.all(snippets.map((s) => render(s, invoice)));
    expect(tr).toContain('<a href="https://service.example/pdf/ARS2026000000123.pdf">Faturayı indir</a>');
    expect(tr).toContain("Faturanız hazır (ARS2026000000123)");
    expect(en).toContain('<a href="https://service.example/pdf/ARS2026000000123.pdf">Download invoice</a>');
    expect(en).toContain("Your invoice is ready (ARS2026000000123)");
  });

  it("escape what they print: markup in a metafield stays text", async () => {
    const hostile = {
      ...invoice,
      serialNumber: '<img src=x onerror="alert(1)">',
      pdfUrl: 'https://x.example/a"onmouseover="alert(1)',
    };
    for (const html of await Promise.all(snippets.map((s) => render(s, hostile)))) {
      // Shopify's escape writes &quot;, liquidjs &#34;: either keeps the quote inside the text or the attribute.
      expect(html).not.toContain("<img");
      expect(html).toMatch(/&lt;img src=x onerror=&(quot|#34);alert\(1\)&(quot|#34);&gt;/);
      expect(html).toMatch(/href="https:\/\/x\.example\/a&(quot|#34);onmouseover=&(quot|#34);alert\(1\)"/);
    }
  });

  it("print nothing without an invoice, for one in progress, cancelled or needing attention, or a test invoice", async () => {
    const cases: Array<WriteBackInvoice | null> = [
      null,
      { ...invoice, state: "processing", serialNumber: null, pdfUrl: null },
      { ...invoice, state: "cancelled" },
      { ...invoice, state: "needs_attention", serialNumber: null, pdfUrl: null },
      { ...invoice, postedInTestMode: true },
      { ...invoice, pdfUrl: null },
    ];
    for (const snippet of snippets) {
      for (const written of cases)
        expect((await render(snippet, written)).trim(), JSON.stringify(written?.state)).toBe("");
    }
  });
});
