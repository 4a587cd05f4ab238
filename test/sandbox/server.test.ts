// Sandbox details that the contract tests do not reach through the app's client.
import { describe, expect, it } from "vitest";
import { makePdf } from "../../sandbox/pdf";
import { E_INVOICE_TAX_NUMBERS, isValidTckn, isValidVkn, startSandbox } from "../../sandbox/server";
import { exampleInvoiceBody } from "../../sandbox/examples";
import { todayInIstanbul } from "../../sandbox/rules";
import { withSandbox } from "../helpers/sandbox";

const sandbox = withSandbox({ formalizeDelayMs: 10 });

const headers = () => ({
  Accept: "application/json",
  Authorization: `Bearer ${sandbox.account.apiKey}`,
  "Content-Type": "application/json",
});
const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...exampleInvoiceBody(sandbox.account, todayInIstanbul(new Date())),
  order_id: `o-${Math.random()}`,
  ...overrides,
});
const post = async (path: string, payload: unknown) => {
  const res = await fetch(sandbox.url + path, { method: "POST", headers: headers(), body: JSON.stringify(payload) });
  return { status: res.status, json: await res.json() };
};

describe("tax numbers", () => {
  it("checks VKN and TCKN check digits", () => {
    expect(isValidVkn("9860008925")).toBe(true); // Yurtiçi Kargo
    for (const vkn of E_INVOICE_TAX_NUMBERS) expect(isValidVkn(vkn)).toBe(true);
    expect(isValidVkn("9860008926")).toBe(false);
    expect(isValidTckn("12345678950")).toBe(true);
    expect(isValidTckn("12345678901")).toBe(false);
    expect(isValidTckn("11111111111")).toBe(false); // valid only as the anonymous consumer, by exception
  });
});

describe("pdf", () => {
  it("writes a cross-reference table whose offsets point at the objects", () => {
    const pdf = makePdf("Fatura İŞĞ (1)", ["Satır ı"]).toString("latin1");
    const xrefAt = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xrefAt, xrefAt + 4)).toBe("xref");
    const offsets = [...pdf.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    offsets.forEach((offset, i) => expect(pdf.slice(offset, offset + 8)).toBe(`${i + 1} 0 obj\n`));
    expect(pdf).toContain("(Fatura ISG \\(1\\)) Tj");
  });
});

describe("http", () => {
  it("redirects an unauthenticated request that does not ask for JSON, like Laravel", async () => {
    const res = await fetch(`${sandbox.url}/invoices/1001`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${sandbox.origin}/login`);
  });

  it("answers unknown routes and wrong methods in JSON", async () => {
    expect((await fetch(`${sandbox.url}/nothing`, { headers: headers() })).status).toBe(404);
    expect(
      (await fetch(`${sandbox.url}/invoices/1001/formal-pdf`, { method: "POST", headers: headers() })).status,
    ).toBe(405);
    expect((await fetch(`${sandbox.origin}/pdf/00000000-0000-4000-8000-000000000000.pdf`)).status).toBe(404);
  });

  it("reuses the customer card matched by external id, e-mail or tax number (never 11111111111)", async () => {
    const a = await post(
      "/invoices",
      body({ customer: { ...(body().customer as object), id: "c-9", email: "x@example.com" } }),
    );
    const b = await post("/invoices", body({ customer: { ...(body().customer as object), id: "c-9" } }));
    const c = await post(
      "/invoices",
      body({ customer: { ...(body().customer as object), id: "c-10", email: "X@example.com" } }),
    );
    const d = await post("/invoices", body({ customer: { ...(body().customer as object), id: "c-11" } }));
    expect(b.json.data.receiver.id).toBe(a.json.data.receiver.id);
    expect(c.json.data.receiver.id).toBe(a.json.data.receiver.id);
    expect(d.json.data.receiver.id).not.toBe(a.json.data.receiver.id);
    const byId = await post("/invoices", body({ customer: undefined, customer_id: a.json.data.receiver.id }));
    expect(byId.status).toBe(201);
    expect(byId.json.data.receiver.tax_number).toBe("11111111111");
  });

  it("keeps a predraft invoice out of the workflow until it is formalised", async () => {
    const quota = sandbox.quotaUsed(sandbox.account.apiKey);
    const draft = await post("/invoices", body({ workflow_status: "predraft" }));
    expect(draft.status).toBe(201);
    expect(draft.json.data.workflow_status).toBe("predraft");
    await new Promise((r) => setTimeout(r, 50));
    expect(sandbox.invoices.get(draft.json.data.id)!.workflow_status).toBe("predraft");
    expect(sandbox.quotaUsed(sandbox.account.apiKey)).toBe(quota);
    const started = await post(`/invoices/${draft.json.data.id}/formalize`, {});
    expect(started.json.data.workflow_status).toBe("processing");
    expect(sandbox.quotaUsed(sandbox.account.apiKey)).toBe(quota + 1);
    expect((await post(`/invoices/${draft.json.data.id}/formalize`, {})).status).toBe(422);
  });

  it("filters the invoice list by any of $or and all of plain filters, newest first, limited", async () => {
    const a = await post("/invoices", body());
    const b = await post("/invoices", body());
    const q = new URLSearchParams({
      limit: "10",
      "filters[$or][0][order_id][$eq]": a.json.data.order_id,
      "filters[$or][1][order_id][$eq]": b.json.data.order_id,
    });
    const list = await (await fetch(`${sandbox.url}/invoices?${q}`, { headers: headers() })).json();
    expect(list.data.map((i: { id: number }) => i.id)).toEqual([b.json.data.id, a.json.data.id]);
    q.set("limit", "1");
    expect((await (await fetch(`${sandbox.url}/invoices?${q}`, { headers: headers() })).json()).data).toHaveLength(1);
    q.set("filters[type][$eq]", "IADE");
    expect((await (await fetch(`${sandbox.url}/invoices?${q}`, { headers: headers() })).json()).data).toEqual([]);
  });

  it("stops with timers pending, and stop() may be called twice", async () => {
    const s = await startSandbox({ port: 0, formalizeDelayMs: 60_000 });
    await fetch(`${s.url}/invoices`, {
      method: "POST",
      headers: { ...headers(), Authorization: `Bearer ${s.account.apiKey}` },
      body: JSON.stringify(exampleInvoiceBody(s.account, todayInIstanbul(new Date()))),
    });
    await Promise.all([s.stop(), s.stop()]);
    await expect(fetch(`${s.url}/check/auth`, { method: "POST" })).rejects.toThrow();
  });
});
