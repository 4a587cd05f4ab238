// The invoice of the order on the order page. `fetch` to the app's own path carries a session token,
// which the app's /api/orders/:id/invoice route verifies (authenticate.admin) before answering.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";

export default async () => {
  render(<InvoiceBlock />, document.body);
};

function InvoiceBlock() {
  const { i18n, data } = shopify;
  const orderId = data.selected?.[0]?.id ?? "";
  const [state, setState] = useState({ loading: true, invoice: null, error: false });

  useEffect(() => {
    fetch(`/api/orders/${encodeURIComponent(orderId)}/invoice`)
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((body) => setState({ loading: false, invoice: body.invoice, error: false }))
      .catch(() => setState({ loading: false, invoice: null, error: true }));
  }, [orderId]);

  if (state.loading)
    return (
      <s-admin-block heading={i18n.translate("title")}>
        <s-text>{i18n.translate("loading")}</s-text>
      </s-admin-block>
    );
  if (state.error)
    return (
      <s-admin-block heading={i18n.translate("title")}>
        <s-text tone="critical">{i18n.translate("error")}</s-text>
      </s-admin-block>
    );
  const invoice = state.invoice;
  if (!invoice)
    return (
      <s-admin-block heading={i18n.translate("title")}>
        <s-text>{i18n.translate("none")}</s-text>
      </s-admin-block>
    );
  return (
    <s-admin-block heading={i18n.translate("title")}>
      <s-stack direction="block" gap="base">
        <s-text>
          {i18n.translate(`state.${invoice.state}`)}
          {invoice.documentKind ? ` · ${i18n.translate(`kind.${invoice.documentKind}`)}` : ""}
        </s-text>
        {invoice.test ? <s-text tone="caution">{i18n.translate("test")}</s-text> : null}
        {invoice.serialNumber ? <s-text type="strong">{invoice.serialNumber}</s-text> : null}
        {invoice.pdfUrl ? (
          <s-link href={invoice.pdfUrl} target="_blank">
            {i18n.translate("pdf")}
          </s-link>
        ) : null}
        <s-link href={`app:app/invoices/${invoice.invoiceId}`}>{i18n.translate("details")}</s-link>
      </s-stack>
    </s-admin-block>
  );
}
