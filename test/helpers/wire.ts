// The invoice body as the service receives it: the client's JSON text (amounts as JSON numbers), parsed.
import { invoiceBodyJson } from "../../app/invoicing-service/client";
import type { InvoiceRequest } from "../../app/invoicing-service/schemas";

export const onTheWire = (body: InvoiceRequest): Record<string, unknown> =>
  JSON.parse(invoiceBodyJson(body).text) as Record<string, unknown>;
