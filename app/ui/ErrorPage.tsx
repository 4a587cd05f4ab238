// The page shown when anything outside a route's own error handling fails (the root error boundary): Polaris,
// in Turkish and in English at once, because the admin's language may be what could not be read.
import { AppProvider, Banner, BlockStack, Page, Text } from "@shopify/polaris";
import polarisTr from "@shopify/polaris/locales/tr.json";
import { translate, type Locale } from "../i18n/i18n";

export function ErrorPage({ status }: { status: number }) {
  const part = (locale: Locale) => (
    <Banner
      key={locale}
      tone={status === 404 ? "warning" : "critical"}
      title={status === 404 ? translate(locale, "error.notFound") : translate(locale, "error.title")}
    >
      <BlockStack gap="200">
        <Text as="p">{translate(locale, "error.body", { status })}</Text>
        <a href="/app">{translate(locale, "error.back")}</a>
      </BlockStack>
    </Banner>
  );
  return (
    <AppProvider i18n={polarisTr}>
      <main>
        <Page title={`${translate("tr", "error.title")} · ${translate("en", "error.title")}`}>
          <BlockStack gap="400">
            <div lang="tr">{part("tr")}</div>
            <div lang="en">{part("en")}</div>
          </BlockStack>
        </Page>
      </main>
    </AppProvider>
  );
}
