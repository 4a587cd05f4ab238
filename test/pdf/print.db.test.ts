// Printing invoices from the admin's print actions, against the sandbox: which selected orders print, the signed
// address of their merged PDF (this shop and these invoices only, expiring), and the merged document itself.
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { loader as apiLoader } from "../../app/routes/api.print.invoices";
import { loader as printLoader } from "../../app/routes/print.invoices.$token";
import { PRINT_TOKEN_TTL_MS, signPrintToken, verifyPrintToken } from "../../app/pdf/print.server";
import { PDF_SHOP, PRINTS } from "../../app/http/throttle.server";
import { printQuery, printSummary } from "../../extensions/order-invoice-print/src/print-summary.js";
import { sandboxForEachTest } from "../helpers/pipeline";
import { createInvoiceRow, prisma } from "../helpers/db";
import { formalisedInvoice } from "../helpers/formalised-invoice";
import { callRoute } from "../helpers/routes";
import { adminFetchRequest, APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";

const sandbox = sandboxForEachTest({ formalizeDelayMs: 10, shops: [SHOP, OTHER_SHOP] });

const completedInvoice = async (orderId: string, shop = SHOP) => (await formalisedInvoice(sandbox, shop, orderId)).row;

const ask = async (orders: string, shop = SHOP) =>
  callRoute(
    apiLoader,
    await adminFetchRequest(`/api/print/invoices?orders=${encodeURIComponent(orders)}`, shop, {
      headers: { Origin: "https://extensions.shopifycdn.com" },
    }),
  );

describe("print actions", () => {
  it("prints the completed invoices of the selected orders as one PDF, and names the orders without one", async () => {
    const first = await completedInvoice("7001");
    const second = await completedInvoice("7002");
    const processing = await createInvoiceRow(SHOP, { orderId: "7003" });
    await prisma.invoice.update({ where: { id: processing.id }, data: { state: "processing", remoteId: 99 } });
    const response = await ask(
      "gid://shopify/Order/7001,gid://shopify/Order/7002,gid://shopify/Order/7003,gid://shopify/Order/7004",
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeTruthy();
    const body = (await response.json()) as { url: string; orders: Array<{ orderId: string; status: string }> };
    expect(body.orders.map((o) => [o.orderId, o.status])).toEqual([
      ["7001", "ready"],
      ["7002", "ready"],
      ["7003", "not_yet"],
      ["7004", "none"],
    ]);
    // What the extension says about it.
    const summary = printSummary(body);
    expect(summary).toMatchObject({ ready: 2, waiting: [processing.orderName], without: ["#7004"] });

    const token = new URL(body.url).pathname.split("/").pop()!;
    expect(verifyPrintToken(token)).toEqual({ shop: SHOP, invoiceIds: [first.id, second.id] });
    const pdf = await callRoute(printLoader, new Request(body.url), { token });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const document = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(document.getPageCount()).toBe(2);
  });

  it("a shop's prints are throttled: five at once, then 429 with Retry-After; the PDFs are read from the service once (issue 35, point 3)", async () => {
    await PRINTS.clear();
    await PDF_SHOP.clear();
    const invoice = await completedInvoice("7201");
    const token = signPrintToken(SHOP, [invoice.id]);
    const statuses = [];
    let refused: Response | undefined;
    for (let i = 0; i < 7; i++) {
      const response = await callRoute(printLoader, new Request(`${APP_ORIGIN}/print/invoices/${token}`), { token });
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(
      sandbox.requests.filter((line) => line.includes(`/api/invoices/${invoice.remoteId}/formal-pdf`)),
    ).toHaveLength(1);
  });

  it("offers nothing to print when no selected order has a completed invoice", async () => {
    const body = (await (await ask("7100")).json()) as { url: string | null };
    expect(body.url).toBeNull();
    expect(printSummary(body)).toMatchObject({ ready: 0, without: ["#7100"], url: null });
  });

  it("never prints another shop's invoice: its orders are 'without invoice' and a token cannot be moved to it", async () => {
    const theirs = await completedInvoice("7200", OTHER_SHOP);
    const body = (await (await ask("7200")).json()) as { url: string | null; orders: Array<{ status: string }> };
    expect(body.url).toBeNull();
    expect(body.orders[0].status).toBe("none");
    // A token of this shop naming the other shop's invoice finds nothing to print.
    const forged = signPrintToken(SHOP, [theirs.id]);
    expect(
      (await callRoute(printLoader, new Request(`${APP_ORIGIN}/print/invoices/x`), { token: forged })).status,
    ).not.toBe(200);
  });

  it("refuses a tampered, expired or malformed token, and a request without a session token", async () => {
    const invoice = await completedInvoice("7300");
    const token = signPrintToken(SHOP, [invoice.id]);
    const [payload, signature] = token.split(".");
    const otherPayload = Buffer.from(
      JSON.stringify({ s: OTHER_SHOP, i: [invoice.id], e: Date.now() + 60_000 }),
    ).toString("base64url");
    for (const bad of [
      `${otherPayload}.${signature}`,
      `${payload}.${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`,
      "nonsense",
      `${payload}.${signature}.x`,
    ]) {
      expect(
        (await callRoute(printLoader, new Request(`${APP_ORIGIN}/print/invoices/x`), { token: bad })).status,
        bad,
      ).toBe(404);
    }
    expect(verifyPrintToken(token, Date.now() + PRINT_TOKEN_TTL_MS + 1)).toBeNull();
    expect((await callRoute(apiLoader, new Request(`${APP_ORIGIN}/api/print/invoices?orders=7300`))).status).not.toBe(
      200,
    );
    expect((await ask("not-an-order")).status).toBe(400);
  });

  it("the extension asks for the selected orders, at most 50", () => {
    expect(printQuery([{ id: "gid://shopify/Order/1" }, { id: "gid://shopify/Order/2" }])).toBe(
      `/api/print/invoices?orders=${encodeURIComponent("gid://shopify/Order/1,gid://shopify/Order/2")}`,
    );
    expect(printQuery([])).toBeNull();
    expect(
      printQuery(Array.from({ length: 60 }, (_, i) => ({ id: `gid://shopify/Order/${i}` })))!.split("%2C"),
    ).toHaveLength(50);
  });
});
