// "Fatura kes / Create invoices" in Shopify's order list (bulk) and on the order page. The admin's fetch to the
// app's own path carries a session token, which /api/orders/invoice verifies; the app reads every order through
// the Admin API and answers what became of each: queued, already invoiced, or refused and why.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useState } from "preact/hooks";
import { invoiceRequest, invoiceSummary } from "./invoice-request.js";

export default async () => {
  render(<CreateInvoices />, document.body);
};

export function CreateInvoices() {
  const { i18n, data, close } = shopify;
  const request = invoiceRequest(data.selected);
  const [state, setState] = useState({ sending: false, summary: null, error: false });

  const send = () => {
    if (!request) return;
    setState({ sending: true, summary: null, error: false });
    fetch("/api/orders/invoice", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request.body),
    })
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((body) => setState({ sending: false, summary: invoiceSummary(body), error: false }))
      .catch(() => setState({ sending: false, summary: null, error: true }));
  };

  const summary = state.summary;
  return (
    <s-admin-action heading={i18n.translate("title")}>
      <s-stack direction="block" gap="base">
        {!request ? <s-text>{i18n.translate("none")}</s-text> : null}
        {request && !summary ? (
          <s-text>{i18n.translate("intro", { count: request.body.orderIds.length })}</s-text>
        ) : null}
        {request && request.skipped ? (
          <s-banner tone="warning">
            {i18n.translate("tooMany", { max: request.body.orderIds.length, count: request.skipped })}
          </s-banner>
        ) : null}
        {state.error ? <s-banner tone="critical">{i18n.translate("error")}</s-banner> : null}
        {summary ? <s-text>{i18n.translate("queued", { count: summary.queued })}</s-text> : null}
        {summary && summary.already.length ? (
          <s-banner tone="info">
            {i18n.translate("already", { count: summary.already.length })}{" "}
            {summary.already.map((a) => `${a.order} (${i18n.translate(a.state)})`).join(", ")}
          </s-banner>
        ) : null}
        {summary && summary.refused.length ? (
          <s-banner tone="warning">
            <s-stack direction="block" gap="small">
              <s-text>{i18n.translate("refused.title", { count: summary.refused.length })}</s-text>
              {summary.refused.map((r) => (
                <s-text key={r.order}>{`${r.order}: ${i18n.translate(r.reason)}`}</s-text>
              ))}
            </s-stack>
          </s-banner>
        ) : null}
      </s-stack>
      {summary ? (
        <s-button slot="primary-action" onClick={() => close()}>
          {i18n.translate("done")}
        </s-button>
      ) : (
        <s-button slot="primary-action" onClick={send} loading={state.sending} disabled={!request}>
          {i18n.translate("create")}
        </s-button>
      )}
      {/* Once it is done there is nothing to cancel: the result offers Close only. */}
      {summary ? null : (
        <s-button slot="secondary-actions" onClick={() => close()}>
          {i18n.translate("cancel")}
        </s-button>
      )}
    </s-admin-action>
  );
}
