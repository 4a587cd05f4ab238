// Example request bodies that pass sandbox/rules.ts: used by the sandbox's tests and the README.
// Amounts are JSON numbers and tax_rate a string, as the spec's tables type them.
export interface ExampleIds {
  saleChannelId: number;
  invoiceIntegrationId: number;
}

/** A complete, valid e-archive invoice body for one person (anonymous final consumer), one 20 % line. */
export function exampleInvoiceBody(ids: ExampleIds, today: string): Record<string, unknown> {
  return {
    type: "SATIS",
    invoice_integration_id: ids.invoiceIntegrationId,
    sale_channel_id: ids.saleChannelId,
    order_id: "1001",
    order_created_at: today,
    currency: "TRY",
    currency_rate: 1,
    issue_date: today,
    issue_time: "10:15",
    cash_sale: true,
    payment_date: today,
    lines: [{ id: "gid-1", name: "Tişört", quantity: 2, unit: "C62", unit_price: 27.775, tax_rate: "20" }],
    customer: {
      id: "shopify-77",
      type: "person",
      tax_number: "11111111111",
      name: "Ayşe",
      surname: "Yılmaz",
      country: "Türkiye",
      address: "Atatürk Cad. No 1",
      city: "İstanbul",
      district: "Kadıköy",
    },
  };
}
