// The account's side of the invoicing service: the API key's check, its invoice integrations, its sale channels
// (listed and created) and its account-level webhook.
import { z } from "zod";
import { InvoiceIntegrationSchema, SaleChannelSchema, type InvoiceIntegration, type SaleChannel } from "./schemas";
import type { InvoicingTransport } from "./transport";

/** Resolves when the API key works; a rejected key throws AuthenticationError. */
export async function checkAuth(transport: InvoicingTransport): Promise<void> {
  await transport.send({ method: "POST", path: "/check/auth", create: false }, {});
}

export async function listInvoiceIntegrations(transport: InvoicingTransport): Promise<InvoiceIntegration[]> {
  return transport.json(
    { method: "GET", path: "/integrations/invoice", create: false },
    z.array(InvoiceIntegrationSchema),
  );
}

export async function listSaleChannels(transport: InvoicingTransport): Promise<SaleChannel[]> {
  return transport.json(
    { method: "GET", path: "/integrations/sale-channel", create: false },
    z.array(SaleChannelSchema),
  );
}

/**
 * POST /integrations/sale-channel: a Shopify sales channel for the shop `domain`. Not idempotent (a lost answer
 * may leave a channel behind): callers list the channels first and reuse one for the same domain.
 */
export async function createSaleChannel(transport: InvoicingTransport, domain: string): Promise<SaleChannel> {
  const body = { sale_channel: "shopify", settings: { domain } };
  return transport.json({ method: "POST", path: "/integrations/sale-channel", create: false }, SaleChannelSchema, {
    body,
  });
}

/** Account-level webhook (update-or-create keyed on the URL, so repeating it is harmless). The body may be empty. */
export async function saveAccountWebhook(transport: InvoicingTransport, url: string): Promise<void> {
  await transport.send(
    { method: "POST", path: "/helpers/settings-webhook", create: false },
    { body: { webhook_url: url } },
  );
}
