// Settings: writing invoices back to Shopify orders. Whether the app may (the optional write_orders scope), and the
// tags it puts on orders.
import { InlineGrid, TextField } from "@shopify/polaris";
import type { SettingsForm } from "./schema";
import { OptionalScopeStatus } from "./OptionalScopeStatus";
import { binder, type ErrorOf, type SetField } from "./SettingsSections";
import { useT } from "../i18n/react";
import { AnnotatedCard } from "../ui/AnnotatedCard";

interface Props {
  form: SettingsForm;
  set: SetField;
  error: ErrorOf;
  canWrite: boolean;
}

export function OrderWriteBackSection({ form, set, error, canWrite }: Props) {
  const t = useT();
  const bind = binder(form, set, error);
  return (
    <AnnotatedCard id="write-back" title={t("writeBack.title")} description={t("writeBack.help")}>
      <OptionalScopeStatus
        scope="write_orders"
        granted={canWrite}
        grantedText={t("writeBack.scope.granted")}
        missingTitle={t("writeBack.scope.missingTitle")}
        missingText={t("writeBack.scope.missing")}
        grantLabel={t("writeBack.scope.grant")}
        buttonId="grant-write-orders"
      />
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
    </AnnotatedCard>
  );
}
