// The customer's signed link to an invoice PDF (order status page, e-mails, Flow): it opens exactly one legal,
// formalised invoice of one shop, streamed from the service with that shop's key; anything else is a 404 or 409.
import { beforeEach, describe, expect, it } from "vitest";
import { PDF_LINK, PDF_SHOP } from "../../app/http/throttle.server";
import { loader } from "../../app/routes/invoice-pdf.$id.$signature";
import { customerPdfUrl, verifyCustomerPdf } from "../../app/pdf/customer-pdf.server";
import { redactCustomer } from "../../app/privacy/compliance.server";
import { writeBackInvoiceOf } from "../../app/write-back/run.server";
import { NOTHING_WRITTEN, planWriteBack } from "../../app/write-back/plan";
import { sandboxForEachTest } from "../helpers/pipeline";
import { prisma } from "../helpers/db";
import { formalisedInvoice } from "../helpers/formalised-invoice";
import { callRoute } from "../helpers/routes";
import { APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";

const sandbox = sandboxForEachTest({ formalizeDelayMs: 10, shops: [SHOP, OTHER_SHOP] });

const completedInvoice = async (orderId: string, shop = SHOP) => (await formalisedInvoice(sandbox, shop, orderId)).row;

/** The link as the app gives it out for a fresh invoice (link version 1). */
const linkOf = (shop: string, invoiceId: string, version = 1) => customerPdfUrl(shop, invoiceId, version)!;

const open = (url: string) => {
  const [, , id, signature] = new URL(url).pathname.split("/");
  return callRoute(loader, new Request(url), { id, signature });
};

describe("the customer's PDF link", () => {
  beforeEach(async () => {
    await PDF_LINK.clear();
    await PDF_SHOP.clear();
  });

  it("100 GETs of one link at once ask the service once, the rest of the burst is refused 429, and the kept copy serves later reads (issue 35, point 3)", async () => {
    const invoice = await completedInvoice("8101");
    const url = linkOf(SHOP, invoice.id);
    const pdfReads = () =>
      sandbox.requests.filter((line) => line.startsWith(`GET /api/invoices/${invoice.remoteId}/formal-pdf`)).length;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 100 }, () => open(url)));
    // The bucket refills one token per refillMs while the burst is served: on a busy machine the burst can outlast
    // one, so what may pass is the capacity plus the refills its own duration allowed (on a quiet one, the capacity).
    const refills = Math.floor((Date.now() - started) / PDF_LINK.rule.refillMs);
    const statuses = answers.map((r) => r.status);
    const passed = statuses.filter((s) => s === 200).length;
    expect(passed).toBeGreaterThanOrEqual(PDF_LINK.rule.capacity);
    expect(passed).toBeLessThanOrEqual(PDF_LINK.rule.capacity + refills);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - passed);
    expect(Number(answers.find((r) => r.status === 429)!.headers.get("retry-after"))).toBeGreaterThan(0);
    const bodies = await Promise.all(
      answers.filter((r) => r.status === 200).map(async (r) => Buffer.from(await r.arrayBuffer())),
    );
    expect(new Set(bodies.map((b) => b.toString("base64"))).size).toBe(1);
    expect(pdfReads()).toBe(1);
    // The copy is kept in the database for every process; later reads do not reach the service.
    expect(await prisma.invoicePdf.count({ where: { invoiceId: invoice.id } })).toBe(1);
    await PDF_LINK.clear();
    expect((await open(url)).status).toBe(200);
    expect(pdfReads()).toBe(1);
    // customers/redact drops the copy (it names the buyer).
    await redactCustomer(SHOP, { shop_domain: SHOP, customer: { id: 7001 }, orders_to_redact: [8101] });
    expect(await prisma.invoicePdf.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it("streams the formal PDF, named by the serial number, from an address of the app", async () => {
    const invoice = await completedInvoice("8001");
    const url = linkOf(SHOP, invoice.id);
    expect(url.startsWith(`${APP_ORIGIN}/invoice-pdf/${invoice.id}/`)).toBe(true);
    const response = await open(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${invoice.serialNumber}.pdf"`);
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("a changed signature, another invoice's signature or another shop's signature opens nothing", async () => {
    const mine = await completedInvoice("8002");
    const theirs = await completedInvoice("8003", OTHER_SHOP);
    const signatureOf = (url: string) => new URL(url).pathname.split("/")[3];
    const good = signatureOf(linkOf(SHOP, mine.id));
    const flipped = `${good[0] === "A" ? "B" : "A"}${good.slice(1)}`;
    for (const [id, signature] of [
      [mine.id, flipped],
      [mine.id, signatureOf(linkOf(OTHER_SHOP, theirs.id))],
      [theirs.id, good],
      // The right signature computed for the wrong shop.
      [theirs.id, signatureOf(linkOf(SHOP, theirs.id))],
      ["no-such-invoice", good],
      [mine.id, "short"],
    ]) {
      expect(
        (await callRoute(loader, new Request(`${APP_ORIGIN}/invoice-pdf/x/y`), { id, signature })).status,
        `${id} ${signature}`,
      ).toBe(404);
    }
  });

  it("a test-mode invoice is never offered; one not yet formalised or cancelled answers 409", async () => {
    const test = await completedInvoice("8004");
    await prisma.invoice.update({ where: { id: test.id }, data: { postedInTestMode: true } });
    expect((await open(linkOf(SHOP, test.id))).status).toBe(404);
    for (const state of ["processing", "cancelled"]) {
      const row = await completedInvoice(`8005-${state}`);
      await prisma.invoice.update({ where: { id: row.id }, data: { state } });
      expect(await verifyCustomerPdf(row.id, new URL(linkOf(SHOP, row.id)).pathname.split("/")[3])).toEqual({
        ok: false,
        status: 409,
      });
      expect((await open(linkOf(SHOP, row.id))).status).toBe(409);
    }
  });

  it("customers/redact revokes the customer's link: it answers 404 like an unknown one, another customer's link still opens", async () => {
    const redacted = await completedInvoice("8006"); // customer 7001
    const kept = await prisma.invoice.update({
      where: { id: (await completedInvoice("8007")).id },
      data: { customerId: "7002" },
    });
    const link = linkOf(SHOP, redacted.id);
    expect((await open(link)).status).toBe(200);

    expect((await redactCustomer(SHOP, { shop_domain: SHOP, customer: { id: 7001 } })).invoices).toBe(1);
    expect((await open(link)).status).toBe(404);
    expect(await verifyCustomerPdf(redacted.id, new URL(link).pathname.split("/")[3])).toEqual({
      ok: false,
      status: 404,
    });
    expect((await open(linkOf(SHOP, kept.id))).status).toBe(200);
  });

  it("the write-back's metafield and Flow payload carry the invoice's current link, and none once it is revoked", async () => {
    const tags = { orderTag: "e-fatura", eArchiveTag: "", eInvoiceTag: "" };
    const planFor = async (id: string) =>
      planWriteBack(
        writeBackInvoiceOf(await prisma.invoice.findUniqueOrThrow({ where: { id } })),
        tags,
        NOTHING_WRITTEN,
      );
    const linksOf = (plan: Awaited<ReturnType<typeof planFor>>) => ({
      metafield: plan.metafields.find((m) => m.key === "invoice_pdf_url")?.value ?? null,
      flow: plan.flow.map((event) => event.payload["PDF URL"]),
    });
    const invoice = await completedInvoice("8008");

    // A link of another version than the invoice's opens nothing; the plan carries the current one, which opens.
    await prisma.invoice.update({ where: { id: invoice.id }, data: { pdfLinkVersion: 2 } });
    expect((await open(linkOf(SHOP, invoice.id, 1))).status).toBe(404);
    const current = linksOf(await planFor(invoice.id));
    expect(current).toEqual({ metafield: linkOf(SHOP, invoice.id, 2), flow: [linkOf(SHOP, invoice.id, 2)] });
    expect((await open(current.metafield!)).status).toBe(200);

    await redactCustomer(SHOP, { shop_domain: SHOP, customer: { id: 7001 } });
    expect((await prisma.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).pdfLinkVersion).toBeNull();
    expect(linksOf(await planFor(invoice.id))).toEqual({ metafield: null, flow: [""] });
    expect((await open(current.metafield!)).status).toBe(404);
  });
});
