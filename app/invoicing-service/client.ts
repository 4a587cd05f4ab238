// Typed client of the invoicing service's REST API (docs/spec/invoicing-service.md and -facts.md).
// It sends exactly one HTTP request per call and never repeats a create on its own: what may be repeated
// is stated by each error's `retry` (errors.ts). It does not log; the API key appears only in the
// Authorization header, never in an error.
// The class is the one entry point; each call is made by its resource's module (invoices.ts, invoice-pdf.ts,
// waybills.ts, integrations.ts) over the shared transport (transport.ts: headers, deadline, typed errors).
import * as integrations from "./integrations";
import * as pdf from "./invoice-pdf";
import * as invoices from "./invoices";
import type { InvoiceIntegration, InvoiceRecord, InvoiceRequest, SaleChannel, WaybillRecord } from "./schemas";
import { InvoicingTransport, type InvoicingClientOptions } from "./transport";
import * as waybills from "./waybills";

export { LIVE_BASE_URL } from "./schemas";
export { DEFAULT_TIMEOUT_MS, type InvoicingClientOptions } from "./transport";
export { MAX_PDF_BYTES } from "./invoice-pdf";
export { invoiceBodyJson, settleUnknownCreate, type PostedWith } from "./invoices";
export { settleWaybillCreate } from "./waybills";

export class InvoicingClient {
  private readonly transport: InvoicingTransport;

  constructor(options: InvoicingClientOptions) {
    this.transport = new InvoicingTransport(options);
  }

  /**
   * POST /invoices. Every string of the body is cleaned of invisible characters first (text.ts). On an "unknown" or
   * duplicate failure, call settleUnknownCreate before posting again.
   */
  async createInvoice(body: InvoiceRequest): Promise<InvoiceRecord> {
    return invoices.createInvoice(this.transport, body);
  }

  /** POST /waybills/{id}/invoice: same body and rules as createInvoice. */
  async createInvoiceFromWaybill(waybillId: number, body: InvoiceRequest): Promise<InvoiceRecord> {
    return waybills.createInvoiceFromWaybill(this.transport, waybillId, body);
  }

  async getInvoice(id: number): Promise<InvoiceRecord> {
    return invoices.getInvoice(this.transport, id);
  }

  /** Invoices whose order_id is `orderId`, of any sale channel of the account. */
  async findInvoicesByOrderId(orderId: string, limit?: number): Promise<InvoiceRecord[]> {
    return invoices.findInvoicesByOrderId(this.transport, orderId, limit);
  }

  async getWaybill(id: number): Promise<WaybillRecord> {
    return waybills.getWaybill(this.transport, id);
  }

  /** The formal PDF's bytes (GET /invoices/{id}/formal-pdf). */
  async getFormalPdf(id: number): Promise<Uint8Array> {
    const { body } = await this.openFormalPdf(id);
    return new Uint8Array(await new Response(body).arrayBuffer());
  }

  /**
   * The formal PDF as a stream, to pass on without holding it in memory. Resolves once its first bytes
   * are read and are a PDF's (a JSON or HTML answer with a 2xx status is not handed on as one); the rest
   * flows under the same deadline, and a body over `maxBytes` ends the stream with an error.
   */
  async openFormalPdf(
    id: number,
    options: { maxBytes?: number } = {},
  ): Promise<{ body: ReadableStream<Uint8Array>; length: number | null }> {
    return pdf.openFormalPdf(this.transport, id, options);
  }

  async deleteInvoice(id: number): Promise<void> {
    return invoices.deleteInvoice(this.transport, id);
  }

  /** Resolves when the API key works; a rejected key throws AuthenticationError. */
  async checkAuth(): Promise<void> {
    return integrations.checkAuth(this.transport);
  }

  async listInvoiceIntegrations(): Promise<InvoiceIntegration[]> {
    return integrations.listInvoiceIntegrations(this.transport);
  }

  async listSaleChannels(): Promise<SaleChannel[]> {
    return integrations.listSaleChannels(this.transport);
  }

  /**
   * POST /integrations/sale-channel: a Shopify sales channel for the shop `domain`. Not idempotent (a lost answer
   * may leave a channel behind): callers list the channels first and reuse one for the same domain.
   */
  async createSaleChannel(domain: string): Promise<SaleChannel> {
    return integrations.createSaleChannel(this.transport, domain);
  }

  /** Account-level webhook (update-or-create keyed on the URL, so repeating it is harmless). The body may be empty. */
  async saveAccountWebhook(url: string): Promise<void> {
    return integrations.saveAccountWebhook(this.transport, url);
  }
}
