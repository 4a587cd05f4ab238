// The settings page's sections, in the annotated layout merchants know from Shopify's own settings.
import type { ReactNode } from "react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Checkbox,
  InlineError,
  InlineGrid,
  InlineStack,
  Select,
  Text,
  TextField,
  useBreakpoints,
} from "@shopify/polaris";
import { PAYMENT_METHODS, TRIGGERS, UNITS, VAT_RATES, type SettingsForm } from "./schema";
import { useT } from "../i18n/react";
import { AnnotatedCard } from "../ui/AnnotatedCard";
import { formatDateTime } from "../ui/format";
import { accountsFor, type AccountKind } from "./accounts";

export type SetField = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => void;
export type ErrorOf = (field: string) => string | undefined;
type TextKey = { [K in keyof SettingsForm]: SettingsForm[K] extends string ? K : never }[keyof SettingsForm];

/** What a text field or select of the form takes from its field name: id, value, change and error. */
export const binder = (form: SettingsForm, set: SetField, error: ErrorOf) => (key: TextKey) => ({
  id: key,
  value: form[key],
  onChange: (value: string) => set(key, value),
  error: error(key),
});

interface Option {
  id: number;
  name: string;
}

interface AccountOption extends Option {
  kind: AccountKind;
}

interface ConnectionProps {
  form: SettingsForm;
  set: SetField;
  error: ErrorOf;
  hasApiKey: boolean;
  lists: { integrations: AccountOption[]; saleChannels: Option[]; error: string | null } | null;
  /** Shown under the sales channel (the offer to create one). */
  saleChannelExtra?: ReactNode;
  /** When the account-level webhook address was last registered with the service (ISO), or null. */
  webhookRegisteredAt?: string | null;
  /** The shop's time zone, for the dates shown. */
  zone?: string;
}

function idOptions(
  list: Array<Option & { kind?: AccountKind }> | undefined,
  current: number | null,
  choose: string,
  testTag?: string,
) {
  const label = (item: Option & { kind?: AccountKind }) =>
    `${item.name} (#${item.id})${item.kind === "test" && testTag ? ` · ${testTag}` : ""}`;
  const options = [
    { label: choose, value: "" },
    ...(list ?? []).map((item) => ({ label: label(item), value: String(item.id) })),
  ];
  if (current !== null && !options.some((option) => option.value === String(current)))
    options.push({ label: `#${current}`, value: String(current) });
  return options;
}

const toId = (value: string) => (value ? Number(value) : null);

export function ConnectionSection({
  form,
  set,
  error,
  hasApiKey,
  lists,
  saleChannelExtra,
  webhookRegisteredAt,
  zone = "Europe/Istanbul",
}: ConnectionProps) {
  const t = useT();
  const bind = binder(form, set, error);
  const listsReady = lists !== null && lists.error === null;
  const listHelp = lists === null ? t("settings.listsNeedKey") : undefined;
  return (
    <AnnotatedCard id="connection" title={t("settings.connection")} description={t("settings.connection.help")}>
      <InlineStack gap="200" blockAlign="center">
        <Text as="span" fontWeight="semibold">
          {t("settings.apiKey")}
        </Text>
        {hasApiKey ? (
          <Badge tone="success">{t("settings.apiKey.status.saved")}</Badge>
        ) : (
          <Badge tone="attention">{t("settings.apiKey.status.none")}</Badge>
        )}
      </InlineStack>
      <TextField
        {...bind("apiKey")}
        label={t("settings.apiKey")}
        labelHidden
        type="password"
        autoComplete="new-password"
        placeholder={hasApiKey ? t("settings.apiKey.placeholderSet") : t("settings.apiKey.placeholderEmpty")}
        helpText={t("settings.apiKey.help")}
      />
      <TextField
        {...bind("baseUrl")}
        label={t("settings.baseUrl")}
        autoComplete="off"
        helpText={t("settings.baseUrl.help")}
      />
      {lists?.error && <Banner tone="warning">{t("settings.listsError", { error: lists.error })}</Banner>}
      <Select
        id="saleChannelId"
        label={t("settings.saleChannel")}
        options={idOptions(lists?.saleChannels, form.saleChannelId, t("settings.choose"))}
        value={form.saleChannelId === null ? "" : String(form.saleChannelId)}
        onChange={(value) => set("saleChannelId", toId(value))}
        disabled={!listsReady && form.saleChannelId === null}
        helpText={listHelp}
        error={error("saleChannelId")}
      />
      {saleChannelExtra}
      <Checkbox
        id="testMode"
        label={t("settings.testMode")}
        helpText={t("settings.testMode.help")}
        checked={form.testMode}
        onChange={(checked) => set("testMode", checked)}
      />
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
        <Select
          id="dummyIntegrationId"
          label={t("settings.dummyIntegration")}
          options={idOptions(
            lists?.integrations && accountsFor(lists.integrations, "test", form.dummyIntegrationId),
            form.dummyIntegrationId,
            t("settings.choose"),
            t("settings.account.test"),
          )}
          value={form.dummyIntegrationId === null ? "" : String(form.dummyIntegrationId)}
          onChange={(value) => set("dummyIntegrationId", toId(value))}
          disabled={!listsReady && form.dummyIntegrationId === null}
          error={error("dummyIntegrationId")}
        />
        <Select
          id="invoiceIntegrationId"
          label={t("settings.invoiceIntegration")}
          options={idOptions(
            lists?.integrations && accountsFor(lists.integrations, "live", form.invoiceIntegrationId),
            form.invoiceIntegrationId,
            t("settings.choose"),
            t("settings.account.test"),
          )}
          value={form.invoiceIntegrationId === null ? "" : String(form.invoiceIntegrationId)}
          onChange={(value) => set("invoiceIntegrationId", toId(value))}
          disabled={!listsReady && form.invoiceIntegrationId === null}
          error={error("invoiceIntegrationId")}
        />
      </InlineGrid>
      <Select
        {...bind("trigger")}
        label={t("settings.trigger")}
        options={TRIGGERS.map((value) => ({ value, label: t.dyn(`settings.trigger.${value}`, value) }))}
      />
      {hasApiKey && (
        <Text as="p" tone="subdued" variant="bodySm" id="account-webhook-status">
          {webhookRegisteredAt
            ? t("settings.webhook.registered", { date: formatDateTime(webhookRegisteredAt, t.locale, zone) })
            : t("settings.webhook.none")}
        </Text>
      )}
    </AnnotatedCard>
  );
}

// Table rows: each field takes a share of the card and the remove button only its own width, so a payment
// method's name is never cut; on a phone the fields stack.
const PAYMENT_ROW = { xs: 1, sm: "minmax(0, 1fr) minmax(0, 1fr) auto" };
// A carrier's short name and tax number share a row; its legal name (long) has the next line to itself.
const CARRIER_ROW = { xs: 1, md: "minmax(0, 1fr) minmax(0, 1fr) auto" };

function RemoveButton({ onClick }: { onClick: () => void }) {
  const t = useT();
  return (
    <Button variant="tertiary" tone="critical" accessibilityLabel={t("settings.remove")} onClick={onClick}>
      ✕
    </Button>
  );
}

export function MappingSections({ form, set, error }: { form: SettingsForm; set: SetField; error: ErrorOf }) {
  const t = useT();
  // Table rows show their labels once, above the first row, only while a row is one line; stacked (a phone), every
  // field keeps its label.
  const { smUp, mdUp } = useBreakpoints();
  const bind = binder(form, set, error);
  const units = (UNITS as readonly string[]).includes(form.unit) ? [...UNITS] : [form.unit, ...UNITS];
  const methodOptions = PAYMENT_METHODS.map((value) => ({ value, label: t.dyn(`settings.payment.${value}`, value) }));

  const setPayment = (index: number, change: Partial<SettingsForm["paymentMethodMap"][number]>) =>
    set(
      "paymentMethodMap",
      form.paymentMethodMap.map((row, i) => (i === index ? { ...row, ...change } : row)),
    );
  const setCarrier = (index: number, change: Partial<SettingsForm["carriers"][number]>) =>
    set(
      "carriers",
      form.carriers.map((row, i) => (i === index ? { ...row, ...change } : row)),
    );

  return (
    <>
      <AnnotatedCard id="vat" title={t("settings.taxes")}>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <Select
            {...bind("defaultTaxRate")}
            label={t("settings.defaultTaxRate")}
            helpText={t("settings.defaultTaxRate.help")}
            options={VAT_RATES.map((rate) => ({ value: rate, label: `%${rate}` }))}
          />
          <Select
            {...bind("unit")}
            label={t("settings.unit")}
            helpText={t("settings.unit.help")}
            options={units.map((unit) => ({ value: unit, label: unit }))}
          />
        </InlineGrid>
        <Checkbox
          id="pricesIncludeVat"
          label={t("settings.pricesIncludeVat")}
          helpText={t("settings.pricesIncludeVat.help")}
          checked={form.pricesIncludeVat}
          onChange={(checked) => set("pricesIncludeVat", checked)}
        />
        <InlineGrid columns={{ xs: 1, md: ["oneThird", "twoThirds"] }} gap="300">
          <TextField
            {...bind("exemptionCode")}
            label={t("settings.exemptionCode")}
            helpText={t("settings.exemptionCode.help")}
            autoComplete="off"
          />
          <TextField
            {...bind("exemptionReason")}
            label={t("settings.exemptionReason")}
            helpText={t("settings.exemptionReason.help")}
            autoComplete="off"
          />
        </InlineGrid>
        <InlineGrid columns={{ xs: 1, md: ["oneThird", "twoThirds"] }} gap="300">
          <TextField
            {...bind("exportExemptionCode")}
            label={t("settings.exportExemptionCode")}
            helpText={t("settings.exportExemptionCode.help")}
            autoComplete="off"
            inputMode="numeric"
          />
          <TextField
            {...bind("exportExemptionReason")}
            label={t("settings.exportExemptionReason")}
            helpText={t("settings.exportExemptionReason.help")}
            autoComplete="off"
          />
        </InlineGrid>
      </AnnotatedCard>

      <AnnotatedCard id="buyer" title={t("settings.customer")}>
        <TextField
          {...bind("taxNumberAttributes")}
          label={t("settings.taxNumberAttributes")}
          helpText={t("settings.taxNumberAttributes.help")}
          autoComplete="off"
        />
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField
            {...bind("citizenNumberAttributes")}
            label={t("settings.citizenNumberAttributes")}
            autoComplete="off"
          />
          <TextField {...bind("taxOfficeAttributes")} label={t("settings.taxOfficeAttributes")} autoComplete="off" />
        </InlineGrid>
        <TextField
          {...bind("companyTitleAttributes")}
          label={t("settings.companyTitleAttributes")}
          helpText={t("settings.companyTitleAttributes.help")}
          autoComplete="off"
        />
        <Checkbox
          id="useBillingCompany"
          label={t("settings.useBillingCompany")}
          checked={form.useBillingCompany}
          onChange={(checked) => set("useBillingCompany", checked)}
        />
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField
            {...bind("foreignBuyerTaxNumber")}
            label={t("settings.foreignBuyerTaxNumber")}
            helpText={t("settings.foreignBuyerTaxNumber.help")}
            autoComplete="off"
            inputMode="numeric"
          />
          <Select
            {...bind("invoiceCurrency")}
            label={t("settings.invoiceCurrency")}
            options={[
              { value: "shop", label: t("settings.invoiceCurrency.shop") },
              { value: "presentment", label: t("settings.invoiceCurrency.presentment") },
            ]}
          />
        </InlineGrid>
      </AnnotatedCard>

      <AnnotatedCard
        id="payment"
        title={t("settings.payment")}
        description={t("settings.payment.help")}
        gap="300"
        contentId="payment-methods"
      >
        {form.paymentMethodMap.map((row, index) => (
          <InlineGrid key={index} columns={PAYMENT_ROW} gap="200" alignItems="end">
            <TextField
              id={`paymentMethodMap.${index}.match`}
              label={t("settings.payment.match")}
              labelHidden={smUp && index > 0}
              autoComplete="off"
              value={row.match}
              onChange={(value) => setPayment(index, { match: value })}
              error={error(`paymentMethodMap.${index}.match`)}
            />
            <Select
              id={`paymentMethodMap.${index}.method`}
              label={t("settings.payment.method")}
              labelHidden={smUp && index > 0}
              options={methodOptions}
              value={row.method}
              onChange={(value) => setPayment(index, { method: value })}
              error={error(`paymentMethodMap.${index}.method`)}
            />
            <RemoveButton
              onClick={() =>
                set(
                  "paymentMethodMap",
                  form.paymentMethodMap.filter((_, i) => i !== index),
                )
              }
            />
          </InlineGrid>
        ))}
        {error("paymentMethodMap") && <InlineError fieldID="payment-methods" message={error("paymentMethodMap")!} />}
        <InlineStack>
          <Button
            onClick={() =>
              set("paymentMethodMap", [...form.paymentMethodMap, { match: "", method: "credit_or_debit" }])
            }
          >
            {t("settings.payment.add")}
          </Button>
        </InlineStack>
      </AnnotatedCard>

      <AnnotatedCard id="carriers" title={t("settings.carriers")} description={t("settings.carriers.help")} gap="300">
        {form.carriers.map((row, index) => (
          <BlockStack key={index} gap="100">
            <InlineGrid columns={CARRIER_ROW} gap="200" alignItems="end">
              <TextField
                id={`carriers.${index}.name`}
                label={t("settings.carriers.name")}
                labelHidden={mdUp && index > 0}
                autoComplete="off"
                value={row.name}
                onChange={(value) => setCarrier(index, { name: value })}
                error={error(`carriers.${index}.name`)}
              />
              <TextField
                id={`carriers.${index}.taxNumber`}
                label={t("settings.carriers.taxNumber")}
                labelHidden={mdUp && index > 0}
                autoComplete="off"
                inputMode="numeric"
                value={row.taxNumber}
                onChange={(value) => setCarrier(index, { taxNumber: value })}
                error={error(`carriers.${index}.taxNumber`)}
              />
              <RemoveButton
                onClick={() =>
                  set(
                    "carriers",
                    form.carriers.filter((_, i) => i !== index),
                  )
                }
              />
            </InlineGrid>
            {/* The legal name on a line of its own: company titles are long and must read in full. */}
            <TextField
              id={`carriers.${index}.title`}
              label={t("settings.carriers.title")}
              labelHidden={mdUp && index > 0}
              autoComplete="off"
              value={row.title}
              onChange={(value) => setCarrier(index, { title: value })}
              error={error(`carriers.${index}.title`)}
            />
          </BlockStack>
        ))}
        {error("carriers") && <InlineError fieldID="carriers" message={error("carriers")!} />}
        <InlineStack>
          <Button onClick={() => set("carriers", [...form.carriers, { name: "", title: "", taxNumber: "" }])}>
            {t("settings.carriers.add")}
          </Button>
        </InlineStack>
        <Text as="h3" variant="headingSm">
          {t("settings.defaultCarrier")}
        </Text>
        <InlineGrid columns={{ xs: 1, md: ["twoThirds", "oneThird"] }} gap="200">
          <TextField
            {...bind("defaultCarrierTitle")}
            label={t("settings.carriers.title")}
            autoComplete="off"
            helpText={t("settings.defaultCarrier.help")}
          />
          <TextField
            {...bind("defaultCarrierTaxNumber")}
            label={t("settings.carriers.taxNumber")}
            autoComplete="off"
            inputMode="numeric"
          />
        </InlineGrid>
      </AnnotatedCard>
    </>
  );
}
