import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/api.orders.$orderId.invoice";
import { callRoute } from "../helpers/routes";
import { adminFetchRequest, APP_ORIGIN, OTHER_SHOP, SHOP } from "../helpers/shopify";
import { createInvoiceRow, freshShopsForEachTest, prisma } from "../helpers/db";

describe("the order block's API", () => {
  freshShopsForEachTest();

  it("answers the shop's invoice of an order, by numeric id or gid, with CORS headers", async () => {
    const row = await createInvoiceRow(SHOP, { orderId: "5550100" });
    await prisma.invoice.update({
      where: { id: row.id },
      data: {
        state: "completed",
        serialNumber: "ARS2026000000042",
        pdfUrl: "https://x/pdf/1.pdf",
        documentKind: "e_archive",
      },
    });
    for (const id of ["5550100", encodeURIComponent("gid://shopify/Order/5550100")]) {
      // Admin extensions call from Shopify's extension origin.
      const request = await adminFetchRequest(`/api/orders/${id}/invoice`, SHOP, {
        headers: { Origin: "https://extensions.shopifycdn.com" },
      });
      const response = await callRoute(loader, request, { orderId: decodeURIComponent(id) });
      expect(response.status).toBe(200);
      expect(response.headers.get("Access-Control-Allow-Origin")).toBeTruthy();
      expect(await response.json()).toEqual({
        invoice: {
          invoiceId: row.id,
          state: "completed",
          documentKind: "e_archive",
          serialNumber: "ARS2026000000042",
          pdfUrl: "https://x/pdf/1.pdf",
          test: false,
        },
      });
    }
  });

  it("never answers another shop's invoice", async () => {
    await createInvoiceRow(OTHER_SHOP, { orderId: "5550200" });
    const response = await callRoute(loader, await adminFetchRequest("/api/orders/5550200/invoice", SHOP), {
      orderId: "5550200",
    });
    expect(await response.json()).toEqual({ invoice: null });
  });

  it("refuses a request without a session token", async () => {
    const response = await callRoute(loader, new Request(`${APP_ORIGIN}/api/orders/1/invoice`), { orderId: "1" });
    expect(response.status).not.toBe(200);
  });
});
