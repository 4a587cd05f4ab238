// Settings: B2B companies. Whether the app may read them (the optional read_companies scope) and which metafield
// holds a company's tax office (app/orders/company.ts).
import { TextField } from "@shopify/polaris";
import type { SettingsForm } from "./schema";
import { COMPANY_SCOPE } from "../shopify/optional-scopes";
import { binder, type ErrorOf, type SetField } from "./SettingsSections";
import { OptionalScopeStatus } from "./OptionalScopeStatus";
import { useT } from "../i18n/react";
import { AnnotatedCard } from "../ui/AnnotatedCard";

interface Props {
  form: SettingsForm;
  set: SetField;
  error: ErrorOf;
  canReadCompanies: boolean;
}

export function B2bCompaniesSection({ form, set, error, canReadCompanies }: Props) {
  const t = useT();
  const bind = binder(form, set, error);
  return (
    <AnnotatedCard id="b2b" title={t("b2b.title")} description={t("b2b.help")}>
      <OptionalScopeStatus
        scope={COMPANY_SCOPE}
        granted={canReadCompanies}
        grantedText={t("b2b.scope.granted")}
        missingTitle={t("b2b.scope.missingTitle")}
        missingText={t("b2b.scope.missing")}
        grantLabel={t("b2b.scope.grant")}
        buttonId="grant-read-companies"
      />
      <TextField
        {...bind("companyTaxOfficeMetafield")}
        label={t("settings.companyTaxOfficeMetafield")}
        helpText={t("settings.companyTaxOfficeMetafield.help")}
        autoComplete="off"
      />
    </AnnotatedCard>
  );
}
