// The client against a small local HTTP server that answers as the test says (not the sandbox): which
// HTTP answer becomes which typed error, and whether the request may be repeated.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { InvoicingClient, settleUnknownCreate } from "../../app/invoicing-service/client";
import {
  AuthenticationError,
  DuplicateOrderError,
  InvoicingError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  RejectedError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  ValidationError,
  isRetryable,
  parseRetryAfter,
} from "../../app/invoicing-service/errors";
import type { InvoiceRecord, InvoiceRequest } from "../../app/invoicing-service/schemas";
import type { GuardedRequest } from "../../app/http/outbound-guard.server";

const API_KEY = "sk_test_0123456789abcdef";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

/** Starts a server on a free port; every request is recorded after its body was read completely. */
async function serve(handler: Handler): Promise<{ baseUrl: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api`, received };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
}

function client(baseUrl: string, timeoutMs?: number): InvoicingClient {
  return new InvoicingClient({ baseUrl, apiKey: API_KEY, timeoutMs });
}

/** The rejection of `promise`, which must reject. */
async function failure(promise: Promise<unknown>): Promise<InvoicingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvoicingError);
  return error as InvoicingError;
}

const request: InvoiceRequest = {
  type: "SATIS",
  invoice_integration_id: 3,
  sale_channel_id: 8,
  order_id: "5551234",
  order_created_at: "2025-11-07",
  currency: "TRY",
  currency_rate: "1",
  issue_date: "2025-11-07",
  issue_time: "09:15",
  cash_sale: true,
  payment_date: "2025-11-07",
  lines: [{ id: "variant-1", name: "Kupa", quantity: "2", unit: "C62", unit_price: "41.67", tax_rate: "20" }],
  customer: {
    id: "customer-9",
    type: "person",
    tax_number: "11111111111",
    name: "Ayşe",
    surname: "Yılmaz",
    title: "Ayşe Yılmaz",
    country: "Türkiye",
    city: "İstanbul",
    district: "Kadıköy",
    address: "Moda Cad. 1",
  },
};

function record(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 501,
    team_id: 1,
    type: "SATIS",
    invoice_integration_id: 3,
    sale_channel_id: 8,
    order_id: "5551234",
    workflow_status: "processing",
    formal_status: "pending",
    ettn: null,
    serial_number: null,
    pdf_url: null,
    currency: "TRY",
    currency_rate: 1,
    issue_date: "2025-11-07",
    issue_time: "09:15",
    cash_sale: true,
    payment_date: "2025-11-07",
    due_date: null,
    callback_url: null,
    lines_total: "83.34",
    discount_total: "0.00",
    tax_total: "16.67",
    extra_tax_total: "0.00",
    grand_total: "100.01",
    is_internet_sale: false,
    is_need_shipment: false,
    receiver: { name: "Ayşe", surname: "Yılmaz", tax_number: "11111111111" },
    lines: [{ id: 9001, name: "Kupa", quantity: "2.00", unit_price: "41.67", grand_total: "100.01" }],
    errors: [],
    internet_sale: null,
    shipment: null,
    created_at: "2025-11-07T06:15:35.000000Z",
    updated_at: "2025-11-07T06:15:35.000000Z",
    ...overrides,
  };
}

describe("requests", () => {
  it("POST sends Authorization, Accept and Content-Type, and the body as JSON below the /api base", async () => {
    const { baseUrl, received } = await serve(json(201, { data: record() }));
    await client(baseUrl).createInvoice(request);
    expect(received).toHaveLength(1);
    const [sent] = received;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/api/invoices");
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.headers.accept).toBe("application/json");
    expect(sent.headers["content-type"]).toBe("application/json");
    // The spec types the amounts as numbers: they travel as JSON numbers, tax_rate stays a string.
    expect(JSON.parse(sent.body)).toEqual({
      ...request,
      currency_rate: 1,
      lines: [{ ...request.lines[0], quantity: 2, unit_price: 41.67 }],
    });
    expect(sent.body).toContain('"quantity":2,"unit":"C62","unit_price":41.67,"tax_rate":"20"');
  });

  it("writes each amount as a JSON number with the decimal's own digits, however many (spec: quantity, unit_price, discount, currency_rate are numbers)", async () => {
    const { baseUrl, received } = await serve(json(201, { data: record() }));
    const line = {
      ...request.lines[0],
      quantity: "1000000.5",
      unit_price: "1234567.123456789012",
      discount_type: "amount" as const,
      discount: "0.10",
    };
    // Buyer text that looks like an amount or like JSON stays text.
    const tricky = { ...request, currency_rate: "34.56789", description: '"27.775" \\u0000num1:0', lines: [line] };
    await client(baseUrl).createInvoice(tricky);
    const sent = received[0].body;
    expect(sent).toContain('"currency_rate":34.56789');
    expect(sent).toContain('"quantity":1000000.5');
    // More digits than a double holds, written as they are: no binary float on our side.
    expect(sent).toContain('"unit_price":1234567.123456789012');
    expect(sent).toContain('"discount":0.1');
    const parsed = JSON.parse(sent);
    expect(parsed.description).toBe(tricky.description);
    for (const key of ["quantity", "unit_price", "discount"]) expect(typeof parsed.lines[0][key]).toBe("number");
    expect(parsed.lines[0].tax_rate).toBe("20");
  });

  it("a request without a body sends no Content-Type", async () => {
    const { baseUrl, received } = await serve(json(200, { data: record() }));
    const api = client(baseUrl + "/");
    await api.getInvoice(501);
    await api.checkAuth();
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /api/invoices/501", "POST /api/check/auth"]);
    for (const r of received) {
      expect(r.headers["content-type"]).toBeUndefined();
      expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(r.headers.accept).toBe("application/json");
      expect(r.body).toBe("");
    }
  });

  it("an invalid body is refused before sending, as a ValidationError without status", async () => {
    const { baseUrl, received } = await serve(json(201, { data: record() }));
    const bad = { ...request, lines: [{ ...request.lines[0], quantity: "0" }], payment_date: undefined };
    const error = await failure(client(baseUrl).createInvoice(bad));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.status).toBeUndefined();
    expect((error as ValidationError).fieldErrors).toHaveProperty(["lines.0.quantity"]);
    expect((error as ValidationError).fieldErrors).toHaveProperty(["payment_date"]);
    expect(received).toHaveLength(0);
  });

  it("findInvoicesByOrderId sends the filter URL-encoded and returns the list", async () => {
    const { baseUrl, received } = await serve(json(200, { data: [record()], meta: { total: 1 } }));
    const found = await client(baseUrl).findInvoicesByOrderId("#1001 & co");
    expect(found.map((r) => r.id)).toEqual([501]);
    const url = new URL(received[0].url, "http://x");
    expect(url.pathname).toBe("/api/invoices");
    expect(url.searchParams.get("filters[$or][0][order_id][$eq]")).toBe("#1001 & co");
    expect(Number(url.searchParams.get("limit"))).toBeGreaterThan(0);
    // Brackets, $, #, & and the space are escaped, so the value cannot break the query.
    expect(received[0].url).toContain("filters%5B%24or%5D%5B0%5D%5Border_id%5D%5B%24eq%5D=%231001+%26+co");
  });

  it("createInvoiceFromWaybill posts to /waybills/{id}/invoice; getWaybill reads the waybill", async () => {
    const waybill = {
      id: 44,
      document_number: "IRS2025000000044",
      status: "completed",
      invoice_id: null,
      parties: [{ role: "delivery", title: "Alıcı A.Ş." }],
      lines: [{ id: 1, unit_price: "10.00" }],
      direction: "outgoing",
    };
    const { baseUrl, received } = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({ data: req.method === "GET" ? waybill : record({ waybill_number: "IRS2025000000044" }) }),
      );
    });
    const api = client(baseUrl);
    const invoice = await api.createInvoiceFromWaybill(44, {
      ...request,
      waybill_number: "2025000000044",
      waybill_date: "2025-11-06",
    });
    const read = await api.getWaybill(44);
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /api/waybills/44/invoice",
      "GET /api/waybills/44",
    ]);
    expect(invoice.waybill_number).toBe("IRS2025000000044");
    expect(read.document_number).toBe("IRS2025000000044");
    expect(read.parties?.[0].role).toBe("delivery");
    expect(read.direction).toBe("outgoing");
  });

  it("deleteInvoice sends DELETE; saveAccountWebhook posts webhook_url and accepts an empty 200", async () => {
    const { baseUrl, received } = await serve((_req, res) => {
      res.writeHead(200);
      res.end();
    });
    const api = client(baseUrl);
    await expect(api.deleteInvoice(501)).resolves.toBeUndefined();
    await expect(api.saveAccountWebhook("https://shop.example/webhooks/invoicing")).resolves.toBeUndefined();
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      "DELETE /api/invoices/501",
      "POST /api/helpers/settings-webhook",
    ]);
    expect(JSON.parse(received[1].body)).toEqual({ webhook_url: "https://shop.example/webhooks/invoicing" });
    expect(received[1].headers["content-type"]).toBe("application/json");
  });

  it("getFormalPdf returns the bytes unchanged; a 200 that is not a PDF is a ResponseFormatError", async () => {
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from([0, 255, 128, 10])]);
    const { baseUrl, received } = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": req.url!.includes("/501/") ? "application/pdf" : "application/json" });
      res.end(req.url!.includes("/501/") ? pdf : JSON.stringify({ message: "not ready" }));
    });
    const bytes = await client(baseUrl).getFormalPdf(501);
    expect(Buffer.from(bytes).equals(pdf)).toBe(true);
    expect(received[0].url).toBe("/api/invoices/501/formal-pdf");
    expect(await failure(client(baseUrl).getFormalPdf(502))).toBeInstanceOf(ResponseFormatError);
  });
});

describe("openFormalPdf (streamed)", () => {
  const chunked =
    (chunks: Buffer[], headers: Record<string, string> = {}) =>
    async (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { "Content-Type": "application/pdf", ...headers });
      for (const chunk of chunks) {
        res.write(chunk);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      res.end();
    };

  it("recognises a PDF sent one byte at a time and passes every byte on unchanged, in order", async () => {
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n");
    const { baseUrl } = await serve(
      chunked([...pdf.subarray(0, 6)].map((b) => Buffer.from([b])).concat([pdf.subarray(6)])),
    );
    const { body, length } = await client(baseUrl).openFormalPdf(7);
    expect(length).toBeNull();
    expect(Buffer.from(await new Response(body).arrayBuffer()).equals(pdf)).toBe(true);
  });

  it("refuses a 2xx that is not a PDF before handing anything on, and a service error keeps its type", async () => {
    const html = await serve(chunked([Buffer.from("<html>login</html>")], { "Content-Type": "text/html" }));
    expect(await failure(client(html.baseUrl).openFormalPdf(7))).toBeInstanceOf(ResponseFormatError);
    const missing = await serve(json(404, { message: "Not found." }));
    expect(await failure(client(missing.baseUrl).openFormalPdf(7))).toBeInstanceOf(NotFoundError);
  });

  it("refuses a declared size over the limit at once, and ends the stream with an error when the bytes exceed it", async () => {
    const declared = await serve(
      chunked([Buffer.from("%PDF-1.4 "), Buffer.alloc(100, 1)], { "Content-Length": "109" }),
    );
    expect(await failure(client(declared.baseUrl).openFormalPdf(7, { maxBytes: 50 }))).toBeInstanceOf(
      ResponseFormatError,
    );
    const undeclared = await serve(chunked([Buffer.from("%PDF-1.4 "), Buffer.alloc(100, 1), Buffer.alloc(100, 2)]));
    const { body } = await client(undeclared.baseUrl).openFormalPdf(7, { maxBytes: 150 });
    await expect(new Response(body).arrayBuffer()).rejects.toThrow(/larger than 150 bytes/);
  });
});

describe("responses", () => {
  it("accepts extra fields and wrappers, keeps decimal strings and null fields", async () => {
    const body = { success: true, message: "ok", data: record({ new_field: { nested: 1 }, profile: "EARSIVFATURA" }) };
    const { baseUrl } = await serve(json(201, body));
    const invoice: InvoiceRecord = await client(baseUrl).createInvoice(request);
    expect(invoice.id).toBe(501);
    expect(invoice.grand_total).toBe("100.01");
    expect(invoice.ettn).toBeNull();
    expect(invoice.workflow_status).toBe("processing");
    expect(invoice.new_field).toEqual({ nested: 1 });
  });

  it("lists invoice accounts (name or title, as name) and sale channels", async () => {
    const { baseUrl } = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const data = req.url!.endsWith("/invoice")
        ? [
            { id: 3, title: "Dummy entegrasyon", provider: "dummy" },
            { id: 4, name: "Canlı" },
          ]
        : [{ id: 8, name: "shopify", settings: { domain: "x.myshopify.com" } }];
      res.end(JSON.stringify({ data }));
    });
    const api = client(baseUrl);
    expect((await api.listInvoiceIntegrations()).map((i) => [i.id, i.name])).toEqual([
      [3, "Dummy entegrasyon"],
      [4, "Canlı"],
    ]);
    expect((await api.listSaleChannels()).map((c) => [c.id, c.name])).toEqual([[8, "shopify"]]);
  });

  it("creates a Shopify sales channel with the shop's domain and reads the new channel's id", async () => {
    const { baseUrl, received } = await serve(
      json(201, { success: true, data: { id: 17, name: "yeni-magaza.myshopify.com" } }),
    );
    expect(await client(baseUrl).createSaleChannel("yeni-magaza.myshopify.com")).toMatchObject({
      id: 17,
      name: "yeni-magaza.myshopify.com",
    });
    expect(received[0]).toMatchObject({ method: "POST", url: "/api/integrations/sale-channel" });
    expect(JSON.parse(received[0].body)).toEqual({
      sale_channel: "shopify",
      settings: { domain: "yeni-magaza.myshopify.com" },
    });
  });

  it.each([
    ["a record without id", { data: { workflow_status: "processing" } }],
    ["a list where a record is expected", { data: [record()] }],
    ["a wrongly typed field", { data: record({ lines: "none" }) }],
  ])("%s is a ResponseFormatError whose create outcome is unknown", async (_label, body) => {
    const { baseUrl } = await serve(json(201, body));
    const error = await failure(client(baseUrl).createInvoice(request));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.retry).toBe("unknown");
    expect(error.status).toBe(201);
  });

  it("a 2xx that is not JSON is a ResponseFormatError: unknown for a create, safe for a read", async () => {
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<html>maintenance</html>");
    });
    const create = await failure(client(baseUrl).createInvoice(request));
    expect(create).toBeInstanceOf(ResponseFormatError);
    expect(create.retry).toBe("unknown");
    const read = await failure(client(baseUrl).getInvoice(501));
    expect(read).toBeInstanceOf(ResponseFormatError);
    expect(read.retry).toBe("safe");
  });

  it("checkAuth resolves on 200 and throws AuthenticationError on 401", async () => {
    const ok = await serve(json(200, { message: "ok" }));
    await expect(client(ok.baseUrl).checkAuth()).resolves.toBeUndefined();
    const bad = await serve(json(401, { message: "Unauthenticated." }));
    const error = await failure(client(bad.baseUrl).checkAuth());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.serviceMessage).toBe("Unauthenticated.");
  });
});

describe("error answers", () => {
  it("422 with Laravel's {message, errors} is a ValidationError carrying the field messages", async () => {
    const body = {
      message: "The lines.0.exemption_code field is required. (and 1 more error)",
      errors: {
        "lines.0.exemption_code": ["KDV oranı 0 olan ürünler için istisna kodu gereklidir."],
        issue_date: ["The issue date must be a date before or equal to today.", "x"],
      },
    };
    const { baseUrl } = await serve(json(422, body));
    const error = await failure(client(baseUrl).createInvoice(request));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      kind: "validation",
      status: 422,
      retry: "never",
      method: "POST",
      path: "/invoices",
      serviceMessage: body.message,
    });
    expect((error as ValidationError).fieldErrors).toEqual(body.errors);
    expect(isRetryable(error)).toBe(false);
  });

  it.each([
    ["401", 401, { message: "Unauthenticated." }, AuthenticationError],
    ["403", 403, { message: "Forbidden" }, AuthenticationError],
    ["404", 404, { message: "Not Found" }, NotFoundError],
    ["409", 409, { message: "Conflict" }, DuplicateOrderError],
    [
      "422 with an order_id field error",
      422,
      {
        message: "The order id has already been taken.",
        errors: { order_id: ["The order id has already been taken."] },
      },
      DuplicateOrderError,
    ],
    [
      "422 saying 'daha önce' in Turkish",
      422,
      { message: "Bu sipariş için daha önce fatura oluşturulmuş." },
      DuplicateOrderError,
    ],
    ["400 saying 'zaten mevcut'", 400, { message: "Fatura zaten mevcut" }, DuplicateOrderError],
    ["422 saying 'mevcut değil' (does not exist)", 422, { message: "Satış kanalı mevcut değil." }, ValidationError],
    [
      "422 blaming another field",
      422,
      { message: "already used", errors: { sale_channel_id: ["already used by another account"] } },
      ValidationError,
    ],
    ["410", 410, { message: "Gone" }, RejectedError],
  ])("a create answered %s is %o with retry never", async (_label, status, body, type) => {
    const { baseUrl } = await serve(json(status, body));
    const error = await failure(client(baseUrl).createInvoice(request));
    expect(error).toBeInstanceOf(type);
    expect(error.status).toBe(status);
    expect(error.retry).toBe("never");
    expect(error.serviceMessage).toBe(body.message);
  });

  it("a 409 on a read is not a duplicate", async () => {
    const { baseUrl } = await serve(json(409, { message: "Conflict" }));
    expect(await failure(client(baseUrl).getInvoice(1))).toBeInstanceOf(RejectedError);
  });

  it("429 is RateLimitedError, safe even for a create, with Retry-After in seconds", async () => {
    const { baseUrl } = await serve(json(429, { message: "Too Many Attempts." }, { "Retry-After": "7" }));
    const error = await failure(client(baseUrl).createInvoice(request));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retry).toBe("safe");
    expect(isRetryable(error)).toBe(true);
    expect((error as RateLimitedError).retryAfterMs).toBe(7000);
  });

  it("Retry-After as an HTTP date becomes the time left; unreadable or absent is undefined", () => {
    const now = Date.parse("2025-11-07T10:00:00Z");
    expect(parseRetryAfter("Fri, 07 Nov 2025 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Fri, 07 Nov 2025 09:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("a 429 without Retry-After has no delay", async () => {
    const { baseUrl } = await serve(json(429, {}));
    const error = (await failure(client(baseUrl).getInvoice(1))) as RateLimitedError;
    expect(error.retryAfterMs).toBeUndefined();
  });

  it.each([500, 502, 503])("%i is ServerError: unknown outcome for a create, safe for a read", async (status) => {
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(status, { "Content-Type": "text/html" });
      res.end("<h1>Server Error</h1>");
    });
    const create = await failure(client(baseUrl).createInvoice(request));
    expect(create).toBeInstanceOf(ServerError);
    expect(create).toMatchObject({ status, retry: "unknown" });
    expect(isRetryable(create)).toBe(false);
    const waybill = await failure(client(baseUrl).createInvoiceFromWaybill(44, request));
    expect(waybill.retry).toBe("unknown");
    const read = await failure(client(baseUrl).getInvoice(501));
    expect(read).toBeInstanceOf(ServerError);
    expect(read.retry).toBe("safe");
    expect(isRetryable(read)).toBe(true);
  });

  it("a body that is not JSON never reaches the error (the merchant sees only the service's JSON message)", async () => {
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(400, { "Content-Type": "text/html" });
      res.end("<html><body>Internal host db-7.internal refused: secret-ish details</body></html>");
    });
    const error = await failure(client(baseUrl).getInvoice(1));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.serviceMessage).toBeUndefined();
    expect(error.message).not.toMatch(/html|db-7|details/);
  });

  it("keeps the service's JSON message, cut to a readable length", async () => {
    const { baseUrl } = await serve(
      json(422, { message: "x".repeat(5000), errors: { "customer.tax_number": ["y".repeat(5000)] } }),
    );
    const error = (await failure(client(baseUrl).createInvoice(request))) as ValidationError;
    expect(error.serviceMessage!.length).toBeLessThanOrEqual(500);
    expect(error.fieldErrors["customer.tax_number"][0].length).toBeLessThanOrEqual(300);
  });

  it("a redirect is not followed (it would turn the POST into a GET)", async () => {
    const { baseUrl, received } = await serve((_req, res) => {
      res.writeHead(301, { Location: "https://elsewhere.example/api/invoices" });
      res.end();
    });
    const error = await failure(client(baseUrl).createInvoice(request));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.status).toBe(301);
    // Where it points is not the service's message: it is not passed on to the merchant.
    expect(error.serviceMessage).toBeUndefined();
    expect(error.message).not.toContain("elsewhere.example");
    expect(received).toHaveLength(1);
  });

  it("never puts the API key into an error, even when the service echoes it", async () => {
    const { baseUrl } = await serve((req, res) => {
      res.writeHead(401, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: `Invalid token ${req.headers.authorization}` }));
    });
    const error = await failure(client(baseUrl).getInvoice(1));
    expect(error.message).not.toContain(API_KEY);
    expect(error.serviceMessage).not.toContain(API_KEY);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });
});

describe("lost answers", () => {
  it("a server that never answers gives TimeoutError: unknown for a create, safe for a read", async () => {
    const { baseUrl, received } = await serve(() => {
      /* never answers */
    });
    const started = Date.now();
    const create = await failure(client(baseUrl, 150).createInvoice(request));
    expect(create).toBeInstanceOf(TimeoutError);
    expect(create.retry).toBe("unknown");
    expect(Date.now() - started).toBeLessThan(5_000);
    const read = await failure(client(baseUrl, 150).getInvoice(501));
    expect(read).toBeInstanceOf(TimeoutError);
    expect(read.retry).toBe("safe");
    // The create did reach the server: exactly why its outcome is unknown.
    expect(received.map((r) => r.method)).toEqual(["POST", "GET"]);
  });

  it("a body that stalls after the headers is a timeout too", async () => {
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(201, { "Content-Type": "application/json" });
      res.write('{"data": {"id": 5');
    });
    const error = await failure(client(baseUrl, 150).createInvoice(request));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.retry).toBe("unknown");
  });

  it("a connection reset after the server read the body: unknown for a create, safe for a read", async () => {
    const { baseUrl, received } = await serve((req) => req.socket.destroy());
    const create = await failure(client(baseUrl).createInvoice(request));
    expect(create).toBeInstanceOf(NetworkError);
    expect((create as NetworkError).sent).toBe(true);
    expect(create.retry).toBe("unknown");
    expect(JSON.parse(received[0].body).order_id).toBe("5551234");
    const read = await failure(client(baseUrl).getInvoice(501));
    expect(read).toBeInstanceOf(NetworkError);
    expect(read.retry).toBe("safe");
  });

  it("connection refused means never sent: safe even for a create", async () => {
    const { baseUrl } = await serve(json(200, {}));
    await Promise.all(servers.splice(0).map((close) => close()));
    const error = await failure(client(baseUrl).createInvoice(request));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).sent).toBe(false);
    expect(error.retry).toBe("safe");
    expect(isRetryable(error)).toBe(true);
  });
});

describe("failures before sending (errors as undici's request reports them, and wrapped as its fetch does)", () => {
  const failing =
    (error: unknown): GuardedRequest =>
    () =>
      Promise.reject(error);
  const withCode = (code: string) => Object.assign(new Error(code), { code });

  it.each([
    ["a DNS failure", withCode("ENOTFOUND"), false, "safe"],
    ["a DNS timeout", withCode("EAI_AGAIN"), false, "safe"],
    [
      "every address refused (happy eyeballs)",
      new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]),
      false,
      "safe",
    ],
    [
      "one address refused, another reset",
      new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNRESET")]),
      true,
      "unknown",
    ],
    ["a reset", withCode("ECONNRESET"), true, "unknown"],
    ["an unrecognised failure", new Error("something"), true, "unknown"],
  ])("%s: sent=%s, create retry %s", async (_label, cause, sent, retry) => {
    for (const thrown of [cause, new TypeError("fetch failed", { cause })]) {
      const api = new InvoicingClient({
        baseUrl: "https://app.faturaentegrator.com/api",
        apiKey: API_KEY,
        request: failing(thrown),
      });
      const error = await failure(api.createInvoice(request));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).sent).toBe(sent);
      expect(error.retry).toBe(retry);
    }
  });
});

describe("settleUnknownCreate", () => {
  it("finds the invoice of the given sale channel among the order's invoices", async () => {
    const { baseUrl, received } = await serve(
      json(200, {
        data: [
          record({ id: 600, sale_channel_id: 7 }),
          record({ id: 601, sale_channel_id: 8 }),
          record({ id: 602, sale_channel_id: 9 }),
        ],
      }),
    );
    const found = await settleUnknownCreate(client(baseUrl), { saleChannelId: 8, orderId: "5551234" });
    expect(found?.id).toBe(601);
    expect(received).toHaveLength(1);
    expect(received[0].method).toBe("GET");
    expect(new URL(received[0].url, "http://x").searchParams.get("filters[$or][0][order_id][$eq]")).toBe("5551234");
  });

  it("returns null when the order has no invoice on that channel, so posting again is safe", async () => {
    const none = await serve(json(200, { data: [] }));
    expect(await settleUnknownCreate(client(none.baseUrl), { saleChannelId: 8, orderId: "5551234" })).toBeNull();
    const otherChannel = await serve(json(200, { data: [record({ id: 600, sale_channel_id: 7 })] }));
    expect(
      await settleUnknownCreate(client(otherChannel.baseUrl), { saleChannelId: 8, orderId: "5551234" }),
    ).toBeNull();
  });

  it("ignores records of another order, should the service ignore the filter", async () => {
    const { baseUrl } = await serve(json(200, { data: [record({ id: 700, order_id: "999" }), record({ id: 701 })] }));
    expect((await settleUnknownCreate(client(baseUrl), { saleChannelId: 8, orderId: "5551234" }))?.id).toBe(701);
  });

  it("a record that does not say its order (the spec's record has no order_id) is this order's only when it echoes the callback address posted with", async () => {
    const ours = "https://app.example/callbacks/invoices/row-1";
    const { baseUrl } = await serve(
      json(200, {
        data: [
          record({ id: 900, order_id: null, callback_url: "https://app.example/callbacks/invoices/row-2" }),
          record({ id: 901, order_id: null, callback_url: ours }),
        ],
      }),
    );
    expect(
      (await settleUnknownCreate(client(baseUrl), { saleChannelId: 8, orderId: "5551234", callbackUrl: ours }))?.id,
    ).toBe(901);
    // Without the address nothing tells which order such a record is for: none is taken (another order's invoice is worse).
    expect(await settleUnknownCreate(client(baseUrl), { saleChannelId: 8, orderId: "5551234" })).toBeNull();
    const silent = await serve(json(200, { data: [record({ id: 902, order_id: null, callback_url: null })] }));
    expect(
      await settleUnknownCreate(client(silent.baseUrl), { saleChannelId: 8, orderId: "5551234", callbackUrl: ours }),
    ).toBeNull();
  });

  it("matches the integration the create was posted with: a test (dummy) invoice of the order is not the live one", async () => {
    const { baseUrl } = await serve(
      json(200, {
        data: [
          record({ id: 800, sale_channel_id: 8, invoice_integration_id: 99 }),
          record({ id: 801, sale_channel_id: 8, invoice_integration_id: 21 }),
        ],
      }),
    );
    expect(
      (await settleUnknownCreate(client(baseUrl), { saleChannelId: 8, invoiceIntegrationId: 21, orderId: "5551234" }))
        ?.id,
    ).toBe(801);
    expect(
      await settleUnknownCreate(client(baseUrl), { saleChannelId: 8, invoiceIntegrationId: 22, orderId: "5551234" }),
    ).toBeNull();
    // Unknown integration (a row posted before it was recorded): any integration of the channel.
    expect(
      (await settleUnknownCreate(client(baseUrl), { saleChannelId: 8, invoiceIntegrationId: null, orderId: "5551234" }))
        ?.id,
    ).toBe(800);
  });

  it("passes a lookup failure on instead of guessing", async () => {
    const { baseUrl } = await serve(json(503, { message: "down" }));
    const error = await failure(settleUnknownCreate(client(baseUrl), { saleChannelId: 8, orderId: "5551234" }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.retry).toBe("safe");
  });
});
