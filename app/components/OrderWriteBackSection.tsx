// Settings: writing invoices back to Shopify orders. Whether the app may (the optional write_orders scope,
// granted through App Bridge's scopes API), and the tags it puts on orders.
import { Badge, Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Layout, TextField } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useRevalidator } from "@remix-run/react";
import type { SettingsForm } from "../settings/schema";
import { binder, type ErrorOf, type SetField } from "./SettingsSections";
import { useT } from "../i18n/react";

interface Props {
  form: SettingsForm;
  set: SetField;
  error: ErrorOf;
  canWrite: boolean;
}

export function OrderWriteBackSection({ form, set, error, canWrite }: Props) {
  const t = useT();
  const shopify = useAppBridge();
  const revalidator = useRevalidator();
  const bind = binder(form, set, error);
  const grant = async () => {
    // App Bridge shows Shopify's own grant dialog; the page then reads the scopes again.
    await (shopify as unknown as { scopes?: { request(scopes: string[]): Promise<unknown> } }).scopes?.request(["write_orders"]).catch(() => undefined);
    revalidator.revalidate();
  };
  return (
    <Layout.AnnotatedSection id="write-back" title={t("writeBack.title")} description={t("writeBack.help")}>
      <Card>
        <BlockStack gap="400">
          {canWrite ? (
            <InlineStack gap="200" blockAlign="center">
              <Badge tone="success">{t("writeBack.scope.granted")}</Badge>
            </InlineStack>
          ) : (
            <Banner tone="info" title={t("writeBack.scope.missingTitle")}>
              <BlockStack gap="200">
                <p>{t("writeBack.scope.missing")}</p>
                <InlineStack>
                  <Button id="grant-write-orders" onClick={grant}>
                    {t("writeBack.scope.grant")}
                  </Button>
                </InlineStack>
              </BlockStack>
            </Banner>
          )}
          <TextField
            {...bind("orderTag")}
            label={t("writeBack.orderTag")}
            helpText={t("writeBack.orderTag.help")}
            autoComplete="off"
          />
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
            <TextField
              {...bind("eArchiveTag")}
              label={t("writeBack.eArchiveTag")}
              helpText={t("writeBack.kindTag.help")}
              autoComplete="off"
            />
            <TextField
              {...bind("eInvoiceTag")}
              label={t("writeBack.eInvoiceTag")}
              helpText={t("writeBack.kindTag.help")}
              autoComplete="off"
            />
          </InlineGrid>
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}
