// "Print → e-Fatura invoice" on the order page and for a selection of orders. Asks the app which orders have a
// completed invoice (the admin's fetch to the app's own path carries a session token) and hands the merged PDF's
// signed address to the print preview; orders without an invoice are named in words.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { printQuery, printSummary } from "./print-summary.js";

export default async () => {
  render(<PrintInvoices />, document.body);
};

export function PrintInvoices() {
  const { i18n, data } = shopify;
  const query = printQuery(data.selected);
  const [state, setState] = useState({ loading: Boolean(query), summary: null, error: false });

  useEffect(() => {
    if (!query) return;
    fetch(query)
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((body) => setState({ loading: false, summary: printSummary(body), error: false }))
      .catch(() => setState({ loading: false, summary: null, error: true }));
  }, [query]);

  const summary = state.summary;
  return (
    <s-admin-print-action src={summary?.url ?? undefined}>
      <s-stack direction="block" gap="base">
        {state.loading ? <s-text>{i18n.translate("loading")}</s-text> : null}
        {state.error ? <s-banner tone="critical">{i18n.translate("error")}</s-banner> : null}
        {summary && summary.ready > 0 ? <s-text>{i18n.translate("ready", { count: summary.ready })}</s-text> : null}
        {summary && summary.waiting.length ? (
          <s-banner tone="warning">{i18n.translate("waiting", { orders: summary.waiting.join(", ") })}</s-banner>
        ) : null}
        {summary && summary.without.length ? (
          <s-banner tone="warning">{i18n.translate("without", { orders: summary.without.join(", ") })}</s-banner>
        ) : null}
      </s-stack>
    </s-admin-print-action>
  );
}
