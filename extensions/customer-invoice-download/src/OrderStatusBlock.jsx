// "Faturayı indir / Download invoice" on the customer account's order status page. The invoice comes from the
// order's app-owned metafields (declared in shopify.extension.toml); see ./invoice-link.js for when it shows.
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { formatIssueDate, invoiceDownload } from "./invoice-link.js";

export default async () => {
  render(<InvoiceDownload />, document.body);
};

export function InvoiceDownload() {
  const { i18n, appMetafields, localization } = shopify;
  const download = invoiceDownload(appMetafields.value);
  if (!download) return null;
  const locale = localization?.language?.value?.isoCode ?? "tr";
  const details = [
    download.kind ? i18n.translate(`kind.${download.kind}`) : null,
    download.serial,
    download.date ? formatIssueDate(download.date, locale) : null,
  ].filter(Boolean);
  return (
    <s-section heading={i18n.translate("title")}>
      <s-stack direction="block" gap="base">
        <s-text>{i18n.translate("ready")}</s-text>
        {details.length ? <s-text color="subdued">{details.join(" · ")}</s-text> : null}
        <s-button href={download.url} target="_blank" variant="primary">
          {i18n.translate("download")}
        </s-button>
      </s-stack>
    </s-section>
  );
}
