// The settings page's form, as the browser holds and submits it (JSON). Shared by the page and the action;
// no server code here. The action validates it again, completely, before anything is saved.
import type { MappingSettings, PaymentMethod } from "../orders/settings";

export interface CarrierRow {
  /** The tracking company as Shopify fulfilments name it, e.g. "Yurtiçi Kargo". */
  name: string;
  title: string;
  taxNumber: string;
}

export interface SettingsForm {
  /** Write-only: empty means "keep the stored key". */
  apiKey: string;
  baseUrl: string;
  invoiceIntegrationId: number | null;
  saleChannelId: number | null;
  testMode: boolean;
  dummyIntegrationId: number | null;
  trigger: string;
  unit: string;
  defaultTaxRate: string;
  pricesIncludeVat: boolean;
  exemptionCode: string;
  exemptionReason: string;
  exportExemptionCode: string;
  exportExemptionReason: string;
  /** Comma-separated note-attribute names, as typed. */
  taxNumberAttributes: string;
  citizenNumberAttributes: string;
  taxOfficeAttributes: string;
  companyTitleAttributes: string;
  useBillingCompany: boolean;
  foreignBuyerTaxNumber: string;
  paymentMethodMap: Array<{ match: string; method: PaymentMethod | string }>;
  carriers: CarrierRow[];
  defaultCarrierTitle: string;
  defaultCarrierTaxNumber: string;
  invoiceCurrency: string;
  /** Tags on the Shopify order of a completed invoice (written only with the write_orders scope). */
  orderTag: string;
  eArchiveTag: string;
  eInvoiceTag: string;
}

/** Field path → error code (translated on the page as `settings.error.<code>`). */
export type FieldErrors = Record<string, string>;

export const UNITS = ["C62", "KGM", "GRM", "LTR", "MTR", "MTK", "SET", "PR", "BX", "DZN", "HUR", "DAY", "MON", "KWH"] as const;

export function splitNames(text: string): string[] {
  return text
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

export function formFromSettings(view: {
  baseUrl: string;
  invoiceIntegrationId: number | null;
  saleChannelId: number | null;
  testMode: boolean;
  dummyIntegrationId: number | null;
  trigger: string;
  mapping: MappingSettings;
  orderTags?: { orderTag: string; eArchiveTag: string; eInvoiceTag: string };
}): SettingsForm {
  const m = view.mapping;
  return {
    apiKey: "",
    baseUrl: view.baseUrl,
    invoiceIntegrationId: view.invoiceIntegrationId,
    saleChannelId: view.saleChannelId,
    testMode: view.testMode,
    dummyIntegrationId: view.dummyIntegrationId,
    trigger: view.trigger,
    unit: m.unit,
    defaultTaxRate: m.defaultTaxRate,
    pricesIncludeVat: m.pricesIncludeVat,
    exemptionCode: m.exemptionCode ?? "",
    exemptionReason: m.exemptionReason ?? "",
    exportExemptionCode: m.exportExemptionCode,
    exportExemptionReason: m.exportExemptionReason,
    taxNumberAttributes: m.taxNumberAttributes.join(", "),
    citizenNumberAttributes: m.citizenNumberAttributes.join(", "),
    taxOfficeAttributes: m.taxOfficeAttributes.join(", "),
    companyTitleAttributes: m.companyTitleAttributes.join(", "),
    useBillingCompany: m.useBillingCompany,
    foreignBuyerTaxNumber: m.foreignBuyerTaxNumber,
    paymentMethodMap: m.paymentMethodMap.map((row) => ({ ...row })),
    carriers: Object.entries(m.carriers).map(([name, carrier]) => ({ name, title: carrier.title, taxNumber: carrier.taxNumber })),
    defaultCarrierTitle: m.defaultCarrier?.title ?? "",
    defaultCarrierTaxNumber: m.defaultCarrier?.taxNumber ?? "",
    invoiceCurrency: m.invoiceCurrency,
    orderTag: view.orderTags?.orderTag ?? "e-fatura",
    eArchiveTag: view.orderTags?.eArchiveTag ?? "",
    eInvoiceTag: view.orderTags?.eInvoiceTag ?? "",
  };
}
