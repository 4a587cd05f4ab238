// What the customer account shows for an order, from the app-owned metafields of the order (shopify.appMetafields
// entries: { target: { type, id }, metafield: { namespace, key, value } }). Pure, so it is unit tested.
// A download only for a completed, legal invoice with a web address: nothing for an order without an invoice,
// in progress, cancelled, or a test-mode invoice (state "test").

/** The order's invoice fields by key ("invoice_state", ...), from the $app namespace only. */
export function invoiceFields(entries) {
  const fields = {};
  for (const entry of Array.isArray(entries) ? entries : []) {
    const metafield = entry && entry.metafield;
    if (!metafield || typeof metafield.key !== "string" || typeof metafield.value !== "string") continue;
    if (entry.target && entry.target.type && entry.target.type !== "order") continue;
    if (metafield.namespace !== "$app" && !/^app--\d+$/.test(String(metafield.namespace))) continue;
    fields[metafield.key] = metafield.value;
  }
  return fields;
}

/** { url, serial, kind, date } to offer, or null when there is nothing to download. */
export function invoiceDownload(entries) {
  const fields = invoiceFields(entries);
  if (fields.invoice_state !== "completed") return null;
  const url = fields.invoice_pdf_url;
  if (typeof url !== "string" || !/^https:\/\//i.test(url)) return null;
  return {
    url,
    serial: fields.invoice_serial || null,
    kind: fields.invoice_kind === "e_invoice" ? "e_invoice" : fields.invoice_kind === "e_archive" ? "e_archive" : null,
    date: /^\d{4}-\d{2}-\d{2}$/.test(fields.invoice_date || "") ? fields.invoice_date : null,
  };
}

/** "2026-11-23" as the customer's locale writes a date (23.11.2026 in Turkish), without time zones. */
export function formatIssueDate(date, locale) {
  const [year, month, day] = date.split("-").map(Number);
  return new Intl.DateTimeFormat(locale, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(
    Date.UTC(year, month - 1, day),
  );
}
