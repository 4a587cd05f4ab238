// The customer's signed link to an invoice PDF (order status page, e-mails, Flow): it opens exactly one legal,
// formalised invoice of one shop, streamed from the service with that shop's key; anything else is a 404 or 409.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loader } from "../../app/routes/invoice-pdf.$id.$signature";
import { customerPdfUrl, verifyCustomerPdf } from "../../app/print/customer-pdf.server";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { connectShop } from "../helpers/pipeline";
import { prisma } from "../helpers/db";
import { formalisedInvoice } from "../helpers/formalised-invoice";
import { callRoute } from "../helpers/routes";
import { APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, formalizeDelayMs: 10 });
});
afterAll(async () => {
  await sandbox.stop();
});
beforeEach(async () => {
  await prisma.shop.deleteMany();
  await connectShop(sandbox, SHOP);
  await connectShop(sandbox, OTHER_SHOP);
});


const completedInvoice = async (orderId: string, shop = SHOP) => (await formalisedInvoice(sandbox, shop, orderId)).row;

const open = (url: string) => {
  const [, , id, signature] = new URL(url).pathname.split("/");
  return callRoute(loader, new Request(url), { id, signature });
};

describe("the customer's PDF link", () => {
  it("streams the formal PDF, named by the serial number, from an address of the app", async () => {
    const invoice = await completedInvoice("8001");
    const url = customerPdfUrl(SHOP, invoice.id);
    expect(url.startsWith(`${APP_ORIGIN}/invoice-pdf/${invoice.id}/`)).toBe(true);
    const response = await open(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${invoice.serialNumber}.pdf"`);
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("a changed signature, another invoice's signature or another shop's signature opens nothing", async () => {
    const mine = await completedInvoice("8002");
    const theirs = await completedInvoice("8003", OTHER_SHOP);
    const signatureOf = (url: string) => new URL(url).pathname.split("/")[3];
    const good = signatureOf(customerPdfUrl(SHOP, mine.id));
    const flipped = `${good[0] === "A" ? "B" : "A"}${good.slice(1)}`;
    for (const [id, signature] of [
      [mine.id, flipped],
      [mine.id, signatureOf(customerPdfUrl(OTHER_SHOP, theirs.id))],
      [theirs.id, good],
      // The right signature computed for the wrong shop.
      [theirs.id, signatureOf(customerPdfUrl(SHOP, theirs.id))],
      ["no-such-invoice", good],
      [mine.id, "short"],
    ]) {
      expect((await callRoute(loader, new Request(`${APP_ORIGIN}/invoice-pdf/x/y`), { id, signature })).status, `${id} ${signature}`).toBe(404);
    }
  });

  it("a test-mode invoice is never offered; one not yet formalised or cancelled answers 409", async () => {
    const test = await completedInvoice("8004");
    await prisma.invoice.update({ where: { id: test.id }, data: { postedInTestMode: true } });
    expect((await open(customerPdfUrl(SHOP, test.id))).status).toBe(404);
    for (const state of ["processing", "cancelled"]) {
      const row = await completedInvoice(`8005-${state}`);
      await prisma.invoice.update({ where: { id: row.id }, data: { state } });
      expect(await verifyCustomerPdf(row.id, new URL(customerPdfUrl(SHOP, row.id)).pathname.split("/")[3])).toEqual({ ok: false, status: 409 });
      expect((await open(customerPdfUrl(SHOP, row.id))).status).toBe(409);
    }
  });
});
