// The invoice prefilled from a waybill, as the merchant completes and corrects it: recipient, lines,
// payment, and the totals the service will compute (the same exact rule as the service: app/invoicing-service/totals).
import {
  Badge,
  BlockStack,
  Button,
  Checkbox,
  Divider,
  InlineGrid,
  InlineStack,
  Layout,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { isVatRate, VAT_RATES } from "../invoicing-service/vat-rates";
import { computeTotals } from "../invoicing-service/totals";
import { UNITS } from "../settings/schema";
import { decimalInput, type FormErrors, type WaybillFormLine, type WaybillInvoiceForm } from "./waybill-invoice";
import { useT } from "../i18n/react";
import { formatMoney } from "../ui/format";
import { SectionCard } from "../ui/SectionCard";

interface Props {
  form: WaybillInvoiceForm;
  setForm: (update: (current: WaybillInvoiceForm | null) => WaybillInvoiceForm | null) => void;
  errors: FormErrors;
  currency: string;
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** The totals of the lines as typed ("18,40" as well as "18.40"), or null while a line is not a valid amount yet. */
function liveTotals(typed: WaybillFormLine[]) {
  const lines = typed.map((l) => ({ ...l, quantity: decimalInput(l.quantity), unitPrice: decimalInput(l.unitPrice) }));
  if (
    lines.length === 0 ||
    !lines.every((l) => DECIMAL.test(l.quantity) && DECIMAL.test(l.unitPrice) && isVatRate(l.taxRate))
  )
    return null;
  return computeTotals(lines.map((l) => ({ quantity: l.quantity, unit_price: l.unitPrice, tax_rate: l.taxRate })));
}

function TotalRow({ label, amount, strong, id }: { label: string; amount: string; strong?: boolean; id?: string }) {
  const weight = strong ? "semibold" : undefined;
  return (
    <InlineStack align="space-between">
      <Text as="span" fontWeight={weight}>
        {label}
      </Text>
      <Text as="span" numeric fontWeight={weight} id={id}>
        {amount}
      </Text>
    </InlineStack>
  );
}

export function WaybillInvoiceSections({ form, setForm, errors, currency }: Props) {
  const t = useT();
  const error = (field: string) => {
    const e = errors[field];
    return e ? t.dyn(`waybill.error.${e.code}`, e.code, e.params) : undefined;
  };
  const setCustomer = (change: Partial<WaybillInvoiceForm["customer"]>) =>
    setForm((current) => (current ? { ...current, customer: { ...current.customer, ...change } } : current));
  const setLine = (index: number, change: Partial<WaybillFormLine>) =>
    setForm((current) =>
      current
        ? { ...current, lines: current.lines.map((line, i) => (i === index ? { ...line, ...change } : line)) }
        : current,
    );
  const set = (change: Partial<WaybillInvoiceForm>) =>
    setForm((current) => (current ? { ...current, ...change } : current));
  const c = form.customer;
  const company = c.type === "company";
  const totals = liveTotals(form.lines);
  const money = (amount: string) => formatMoney(amount, currency, t.locale);
  const units = (unit: string) =>
    (UNITS as readonly string[]).includes(unit) || !unit ? [...UNITS] : [unit, ...UNITS];

  return (
    <>
      <Layout.Section>
        <SectionCard title={t("waybill.recipient")}>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
            <Select
              id="customer-type"
              label={t("waybill.customerType")}
              options={[
                { value: "company", label: t("waybill.customerType.company") },
                { value: "person", label: t("waybill.customerType.person") },
              ]}
              value={c.type}
              onChange={(value) => setCustomer({ type: value === "company" ? "company" : "person" })}
            />
            <TextField
              id="customer-taxNumber"
              label={company ? t("waybill.taxNumber.company") : t("waybill.taxNumber.person")}
              autoComplete="off"
              inputMode="numeric"
              value={c.taxNumber}
              onChange={(value) => setCustomer({ taxNumber: value })}
              error={error("customer.taxNumber")}
            />
          </InlineGrid>
          {company ? (
            <InlineGrid columns={{ xs: 1, md: ["twoThirds", "oneThird"] }} gap="300">
              <TextField
                id="customer-title"
                label={t("waybill.title.company")}
                autoComplete="off"
                value={c.title}
                onChange={(value) => setCustomer({ title: value })}
                error={error("customer.title")}
              />
              <TextField
                id="customer-taxOffice"
                label={t("waybill.taxOffice")}
                autoComplete="off"
                value={c.taxOffice}
                onChange={(value) => setCustomer({ taxOffice: value })}
                error={error("customer.taxOffice")}
              />
            </InlineGrid>
          ) : (
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              <TextField
                id="customer-name"
                label={t("waybill.name")}
                autoComplete="off"
                value={c.name}
                onChange={(value) => setCustomer({ name: value })}
                error={error("customer.name")}
              />
              <TextField
                id="customer-surname"
                label={t("waybill.surname")}
                autoComplete="off"
                value={c.surname}
                onChange={(value) => setCustomer({ surname: value })}
                error={error("customer.surname")}
              />
            </InlineGrid>
          )}
          <TextField
            id="customer-address"
            label={t("waybill.address")}
            autoComplete="off"
            value={c.address}
            onChange={(value) => setCustomer({ address: value })}
            error={error("customer.address")}
          />
          <InlineGrid columns={{ xs: 1, md: 3 }} gap="300">
            <TextField
              id="customer-district"
              label={t("waybill.district")}
              autoComplete="off"
              value={c.district}
              onChange={(value) => setCustomer({ district: value })}
              error={error("customer.district")}
            />
            <TextField
              id="customer-city"
              label={t("waybill.city")}
              autoComplete="off"
              value={c.city}
              onChange={(value) => setCustomer({ city: value })}
              error={error("customer.city")}
            />
            <TextField
              id="customer-country"
              label={t("waybill.country")}
              autoComplete="off"
              value={c.country}
              onChange={(value) => setCustomer({ country: value })}
              error={error("customer.country")}
            />
          </InlineGrid>
          <TextField
            id="customer-email"
            label={t("waybill.email")}
            type="email"
            autoComplete="off"
            value={c.email}
            onChange={(value) => setCustomer({ email: value })}
            error={error("customer.email")}
            helpText={t("waybill.email.help")}
          />
        </SectionCard>
      </Layout.Section>

      <Layout.Section>
        <SectionCard
          title={t("waybill.lines")}
          badge={<Badge>{t("waybill.lineCount", { count: form.lines.length })}</Badge>}
          badgeAtEnd
        >
          {error("lines") && (
            <Text as="p" tone="critical">
              {error("lines")}
            </Text>
          )}
          {form.lines.map((line, index) => (
            <BlockStack gap="200" key={index}>
              {index > 0 && <Divider />}
              <InlineGrid columns={{ xs: 1, md: ["oneThird", "twoThirds"] }} gap="200">
                <TextField
                  label={t("waybill.line.id")}
                  autoComplete="off"
                  value={line.id}
                  onChange={(value) => setLine(index, { id: value })}
                  error={error(`lines.${index}.id`)}
                />
                <TextField
                  label={t("waybill.line.name")}
                  autoComplete="off"
                  value={line.name}
                  onChange={(value) => setLine(index, { name: value })}
                  error={error(`lines.${index}.name`)}
                />
              </InlineGrid>
              <InlineGrid columns={{ xs: 2, md: 4 }} gap="200">
                <TextField
                  label={t("waybill.line.quantity")}
                  autoComplete="off"
                  inputMode="decimal"
                  value={line.quantity}
                  onChange={(value) => setLine(index, { quantity: value })}
                  error={error(`lines.${index}.quantity`)}
                />
                <Select
                  label={t("waybill.line.unit")}
                  options={units(line.unit)}
                  value={line.unit}
                  onChange={(value) => setLine(index, { unit: value })}
                  error={error(`lines.${index}.unit`)}
                />
                <TextField
                  label={t("waybill.line.unitPrice")}
                  autoComplete="off"
                  inputMode="decimal"
                  value={line.unitPrice}
                  onChange={(value) => setLine(index, { unitPrice: value })}
                  error={error(`lines.${index}.unitPrice`)}
                  suffix={currency}
                />
                <Select
                  label={t("waybill.line.taxRate")}
                  options={[
                    ...(isVatRate(line.taxRate) ? [] : [{ value: line.taxRate, label: line.taxRate || "—" }]),
                    ...VAT_RATES.map((rate) => ({ value: rate, label: `%${rate}` })),
                  ]}
                  value={line.taxRate}
                  onChange={(value) => setLine(index, { taxRate: value })}
                  error={error(`lines.${index}.taxRate`)}
                />
              </InlineGrid>
              {line.taxRate === "0" && (
                <InlineGrid columns={{ xs: 1, md: ["oneThird", "twoThirds"] }} gap="200">
                  <TextField
                    label={t("settings.exemptionCode")}
                    autoComplete="off"
                    inputMode="numeric"
                    value={line.exemptionCode}
                    onChange={(value) => setLine(index, { exemptionCode: value })}
                    error={error(`lines.${index}.exemptionCode`)}
                  />
                  <TextField
                    label={t("settings.exemptionReason")}
                    autoComplete="off"
                    value={line.exemptionReason}
                    onChange={(value) => setLine(index, { exemptionReason: value })}
                    error={error(`lines.${index}.exemptionReason`)}
                  />
                </InlineGrid>
              )}
              <InlineStack align="end">
                <Button
                  variant="plain"
                  tone="critical"
                  onClick={() => set({ lines: form.lines.filter((_, i) => i !== index) })}
                >
                  {t("waybill.line.remove")}
                </Button>
              </InlineStack>
            </BlockStack>
          ))}
          <InlineStack>
            <Button
              onClick={() =>
                set({
                  lines: [
                    ...form.lines,
                    {
                      id: "",
                      name: "",
                      quantity: "1",
                      unit: "C62",
                      unitPrice: "",
                      taxRate: "20",
                      exemptionCode: "",
                      exemptionReason: "",
                    },
                  ],
                })
              }
            >
              {t("waybill.line.add")}
            </Button>
          </InlineStack>
        </SectionCard>
      </Layout.Section>

      <Layout.Section variant="oneThird">
        <BlockStack gap="400">
          <SectionCard title={t("waybill.document")}>
            <TextField
              id="waybillNumber"
              label={t("waybill.number")}
              autoComplete="off"
              value={form.waybillNumber}
              disabled
              onChange={() => undefined}
              error={error("waybillNumber")}
            />
            <TextField
              id="waybillDate"
              label={t("waybill.date")}
              type="date"
              autoComplete="off"
              value={form.waybillDate}
              disabled
              onChange={() => undefined}
              error={error("waybillDate")}
            />
          </SectionCard>
          <SectionCard title={t("waybill.payment")}>
            <Checkbox
              id="cashSale"
              label={t("waybill.cashSale")}
              helpText={t("waybill.cashSale.help")}
              checked={form.cashSale}
              onChange={(checked) => set({ cashSale: checked })}
            />
            {form.cashSale && (
              <TextField
                id="paymentDate"
                label={t("waybill.paymentDate")}
                type="date"
                autoComplete="off"
                value={form.paymentDate}
                onChange={(value) => set({ paymentDate: value })}
                error={error("paymentDate")}
              />
            )}
            <TextField
              id="dueDate"
              label={t("waybill.dueDate")}
              type="date"
              autoComplete="off"
              value={form.dueDate}
              onChange={(value) => set({ dueDate: value })}
              error={error("dueDate")}
              helpText={t("waybill.dueDate.help")}
            />
            <TextField
              id="description"
              label={t("waybill.description")}
              autoComplete="off"
              multiline={2}
              value={form.description}
              onChange={(value) => set({ description: value })}
              error={error("description")}
            />
          </SectionCard>
          <SectionCard title={t("detail.totals")} gap="200">
            {totals ? (
              <BlockStack gap="100">
                <TotalRow label={t("detail.linesTotal")} amount={money(totals.lines_total)} />
                <TotalRow label={t("detail.taxTotal")} amount={money(totals.tax_total)} />
                <TotalRow
                  label={t("detail.grandTotal")}
                  amount={money(totals.grand_total)}
                  strong
                  id="waybill-grand-total"
                />
              </BlockStack>
            ) : (
              <Text as="p" tone="subdued">
                {t("waybill.totalsPending")}
              </Text>
            )}
          </SectionCard>
        </BlockStack>
      </Layout.Section>
    </>
  );
}
