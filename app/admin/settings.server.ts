// The settings page's server side: the lists read from the invoicing service (invoice accounts and sales
// channels), and saving the whole form at once: every field validated first, the API key checked against
// the service, then one write. A key the service rejects is never stored, and nothing is saved half.
import { InvoicingClient } from "../invoicing/client";
import { AuthenticationError, InvoicingError, NotFoundError } from "../invoicing/errors";
import { MappingSettingsSchema, PAYMENT_METHODS, TAX_RATES, type MappingSettings } from "../orders/settings";
import { ConnectionInputSchema, apiKeyFor, getSettings, OrderTagSchema, saveSettings, TRIGGERS, type OrderTags, type SettingsView } from "../settings/settings.server";
import { channelForShop, shopHosts } from "./sale-channel.server";
import { registerAccountWebhook } from "../settings/account-webhook.server";
import { splitNames, type FieldErrors, type SettingsForm } from "./settings-form";
import { checkOutboundUrl, outboundPolicy } from "../outbound/guard.server";

const CHECK_TIMEOUT_MS = 10_000;

export interface ServiceOption {
  id: number;
  name: string;
}

export interface ServiceLists {
  integrations: ServiceOption[];
  saleChannels: ServiceOption[];
  /** The account's channel made for this shop's domain, or null (the page then offers to create it). */
  channelForShop: number | null;
  /** Why the lists could not be read (error kind), or null. */
  error: string | null;
}

/** Invoice accounts and sales channels of the shop's invoicing account, read with the stored key. */
export async function loadServiceLists(shop: string, settings: SettingsView): Promise<ServiceLists | null> {
  if (!settings.hasApiKey) return null;
  const apiKey = await apiKeyFor(shop);
  if (!apiKey) return null;
  const client = new InvoicingClient({ baseUrl: settings.baseUrl, apiKey, timeoutMs: CHECK_TIMEOUT_MS });
  try {
    const [integrations, saleChannels, hosts] = await Promise.all([client.listInvoiceIntegrations(), client.listSaleChannels(), shopHosts(shop)]);
    const option = (item: { id: number | string; name: string }) => ({ id: Number(item.id), name: item.name || `#${item.id}` });
    const forShop = channelForShop(saleChannels, hosts);
    return { integrations: integrations.map(option), saleChannels: saleChannels.map(option), channelForShop: forShop ? Number(forShop.id) : null, error: null };
  } catch (error) {
    return { integrations: [], saleChannels: [], channelForShop: null, error: error instanceof InvoicingError ? error.kind : "network" };
  }
}

/** The account webhook after a save: registered with the service, not registered (why), or no key to do it with. */
export type WebhookRegistration = { state: "registered" } | { state: "failed"; detail: string } | { state: "skipped" };

export type SaveResult =
  | { ok: true; keyChecked: boolean; webhook: WebhookRegistration }
  | { ok: false; errors: FieldErrors; /** Detail of a failed key check, e.g. the HTTP status. */ detail?: string };

const DIGITS_10_11 = /^\d{10,11}$/;

function positiveIdOrNull(value: unknown): number | null | "invalid" {
  if (value === null || value === undefined || value === "") return null;
  const number = typeof value === "number" ? value : Number(value);
  return Number.isInteger(number) && number > 0 ? number : "invalid";
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** Checks every field; returns the errors by field path, and the values to store when there are none. */
export function validateSettingsForm(
  input: Partial<SettingsForm>,
  currentMapping: MappingSettings,
): { errors: FieldErrors; connection?: ReturnType<typeof ConnectionInputSchema.parse>; mapping?: MappingSettings; orderTags?: OrderTags } {
  const errors: FieldErrors = {};

  const baseUrl = text(input.baseUrl).replace(/\/+$/, "");
  // A well-formed address the operator does not allow gets its own message (the key would be sent there).
  if (URL.canParse(baseUrl) && !checkOutboundUrl(baseUrl, outboundPolicy()).ok) errors.baseUrl = "base_url_not_allowed";
  const apiKey = text(input.apiKey);
  if (apiKey && (apiKey.length < 8 || apiKey.length > 512)) errors.apiKey = "api_key_format";
  const ids = {
    invoiceIntegrationId: positiveIdOrNull(input.invoiceIntegrationId),
    saleChannelId: positiveIdOrNull(input.saleChannelId),
    dummyIntegrationId: positiveIdOrNull(input.dummyIntegrationId),
  };
  for (const [field, value] of Object.entries(ids)) if (value === "invalid") errors[field] = "invalid";
  const testMode = input.testMode !== false;
  if (!testMode && ids.invoiceIntegrationId === null) errors.invoiceIntegrationId = "invoice_integration_required";
  const trigger = text(input.trigger) || "paid";
  if (!(TRIGGERS as readonly string[]).includes(trigger)) errors.trigger = "invalid";

  const connectionResult = ConnectionInputSchema.safeParse({
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    invoiceIntegrationId: ids.invoiceIntegrationId === "invalid" ? null : ids.invoiceIntegrationId,
    saleChannelId: ids.saleChannelId === "invalid" ? null : ids.saleChannelId,
    dummyIntegrationId: ids.dummyIntegrationId === "invalid" ? null : ids.dummyIntegrationId,
    testMode,
    trigger,
  });
  if (!connectionResult.success) {
    for (const issue of connectionResult.error.issues) {
      const field = String(issue.path[0] ?? "baseUrl");
      errors[field] ??= field === "baseUrl" ? "url" : "invalid";
    }
  }

  // Mapping: our own checks first, for messages that say exactly what is wrong where.
  const unit = text(input.unit).toUpperCase();
  if (!/^[A-Z0-9]{1,3}$/.test(unit)) errors.unit = "unit";
  const defaultTaxRate = text(input.defaultTaxRate);
  if (!(TAX_RATES as readonly string[]).includes(defaultTaxRate)) errors.defaultTaxRate = "invalid";
  const exemptionCode = text(input.exemptionCode);
  const exemptionReason = text(input.exemptionReason);
  if (exemptionCode && !/^\d{3}$/.test(exemptionCode)) errors.exemptionCode = "exemption_code";
  else if (exemptionCode && !exemptionReason) errors.exemptionReason = "exemption_pair";
  else if (!exemptionCode && exemptionReason) errors.exemptionCode = "exemption_pair";
  // The export exemption always has a value (default 301): an empty field falls back to the default pair.
  const exportExemptionCode = text(input.exportExemptionCode);
  const exportExemptionReason = text(input.exportExemptionReason);
  if (exportExemptionCode && !/^\d{3}$/.test(exportExemptionCode)) errors.exportExemptionCode = "exemption_code";
  else if (exportExemptionCode && !exportExemptionReason) errors.exportExemptionReason = "exemption_pair";
  else if (!exportExemptionCode && exportExemptionReason) errors.exportExemptionCode = "exemption_pair";
  const foreignBuyerTaxNumber = text(input.foreignBuyerTaxNumber);
  if (!DIGITS_10_11.test(foreignBuyerTaxNumber)) errors.foreignBuyerTaxNumber = "digits_10_11";

  const paymentMethodMap = (Array.isArray(input.paymentMethodMap) ? input.paymentMethodMap : []).map((row, index) => {
    const match = text(row?.match);
    const method = text(row?.method);
    if (!match) errors[`paymentMethodMap.${index}.match`] = "required";
    if (!(PAYMENT_METHODS as readonly string[]).includes(method)) errors[`paymentMethodMap.${index}.method`] = "invalid";
    return { match, method };
  });

  const carriers: Record<string, { title: string; taxNumber: string }> = {};
  const seen = new Set<string>();
  (Array.isArray(input.carriers) ? input.carriers : []).forEach((row, index) => {
    const name = text(row?.name);
    const title = text(row?.title);
    const taxNumber = text(row?.taxNumber);
    if (!name) errors[`carriers.${index}.name`] = "required";
    else if (seen.has(name.toLocaleLowerCase("tr"))) errors[`carriers.${index}.name`] = "duplicate";
    seen.add(name.toLocaleLowerCase("tr"));
    if (!title) errors[`carriers.${index}.title`] = "required";
    if (!DIGITS_10_11.test(taxNumber)) errors[`carriers.${index}.taxNumber`] = "digits_10_11";
    carriers[name] = { title, taxNumber };
  });

  const defaultCarrierTitle = text(input.defaultCarrierTitle);
  const defaultCarrierTaxNumber = text(input.defaultCarrierTaxNumber);
  if (defaultCarrierTitle || defaultCarrierTaxNumber) {
    if (!defaultCarrierTitle) errors.defaultCarrierTitle = "required";
    if (!DIGITS_10_11.test(defaultCarrierTaxNumber)) errors.defaultCarrierTaxNumber = "digits_10_11";
  }

  // Fields this form does not show (e.g. the default address) keep their stored values.
  const { exemptionCode: _c, exemptionReason: _r, exportExemptionCode: _ec, exportExemptionReason: _er, defaultCarrier: _d, ...kept } = currentMapping;
  const mappingResult = MappingSettingsSchema.safeParse({
    ...kept,
    unit,
    defaultTaxRate,
    pricesIncludeVat: input.pricesIncludeVat !== false,
    ...(exemptionCode ? { exemptionCode } : {}),
    ...(exemptionReason ? { exemptionReason } : {}),
    ...(exportExemptionCode ? { exportExemptionCode, exportExemptionReason } : {}),
    taxNumberAttributes: splitNames(text(input.taxNumberAttributes)),
    citizenNumberAttributes: splitNames(text(input.citizenNumberAttributes)),
    taxOfficeAttributes: splitNames(text(input.taxOfficeAttributes)),
    // Older forms do not send it: keep the stored names then.
    companyTitleAttributes: input.companyTitleAttributes === undefined ? currentMapping.companyTitleAttributes : splitNames(text(input.companyTitleAttributes)),
    useBillingCompany: input.useBillingCompany !== false,
    foreignBuyerTaxNumber,
    paymentMethodMap,
    carriers,
    ...(defaultCarrierTitle || defaultCarrierTaxNumber ? { defaultCarrier: { title: defaultCarrierTitle, taxNumber: defaultCarrierTaxNumber } } : {}),
    invoiceCurrency: text(input.invoiceCurrency) || "shop",
  });
  if (!mappingResult.success && Object.keys(errors).length === 0) {
    // The mapping's own schema is the last word; anything it refuses that our checks let through still blocks the save.
    for (const issue of mappingResult.error.issues) errors[String(issue.path[0] ?? "mapping")] ??= "invalid";
  }

  // Order tags: older forms do not send them (undefined keeps the default shown on the page).
  const orderTags: OrderTags = { orderTag: text(input.orderTag ?? "e-fatura"), eArchiveTag: text(input.eArchiveTag), eInvoiceTag: text(input.eInvoiceTag) };
  for (const [field, value] of Object.entries(orderTags)) {
    if (!OrderTagSchema.safeParse(value).success) errors[field] = "tag";
  }

  if (Object.keys(errors).length > 0 || !connectionResult.success || !mappingResult.success) return { errors };
  return { errors, connection: connectionResult.data, mapping: mappingResult.data, orderTags };
}

/** Asks the service whether `apiKey` works at `baseUrl`. */
export async function checkApiKey(baseUrl: string, apiKey: string): Promise<{ ok: true } | { ok: false; code: string; detail?: string }> {
  try {
    await new InvoicingClient({ baseUrl, apiKey, timeoutMs: CHECK_TIMEOUT_MS }).checkAuth();
    return { ok: true };
  } catch (error) {
    if (error instanceof AuthenticationError) return { ok: false, code: "api_key_rejected", detail: error.status ? `HTTP ${error.status}` : undefined };
    if (error instanceof NotFoundError) return { ok: false, code: "base_url_not_service", detail: "HTTP 404" };
    if (error instanceof InvoicingError) {
      return { ok: false, code: "api_key_unchecked", detail: error.status ? `HTTP ${error.status}` : error.kind };
    }
    return { ok: false, code: "api_key_unchecked", detail: "network" };
  }
}

/**
 * Validates the whole form, checks a new API key with the service (a new service address needs the key entered
 * again), then writes connection and mapping in one statement.
 */
export async function saveSettingsForm(shop: string, input: Partial<SettingsForm>): Promise<SaveResult> {
  const current = await getSettings(shop);
  const { errors, connection, mapping, orderTags } = validateSettingsForm(input, current.mapping);
  if (!connection || !mapping) return { ok: false, errors };

  const newKey = connection.apiKey;
  const baseUrl = connection.baseUrl.replace(/\/+$/, "");
  const baseUrlChanged = baseUrl !== current.baseUrl.replace(/\/+$/, "");
  // The stored key is never sent to an address it was not entered for (saveSettings enforces it too).
  if (baseUrlChanged && current.hasApiKey && !newKey) return { ok: false, errors: { apiKey: "api_key_required_for_address" } };
  const keyToCheck = newKey ?? null;
  if (keyToCheck) {
    const check = await checkApiKey(baseUrl, keyToCheck);
    if (!check.ok) {
      const field = check.code === "base_url_not_service" || !newKey ? "baseUrl" : "apiKey";
      return { ok: false, errors: { [field]: check.code }, detail: check.detail };
    }
  }

  await saveSettings(shop, { ...connection, baseUrl }, mapping, orderTags);
  // The settings are saved either way; a failed registration only means no account-level hints.
  const apiKey = newKey ?? (await apiKeyFor(shop));
  const registered = apiKey ? await registerAccountWebhook(shop, { baseUrl, apiKey }) : null;
  const webhook: WebhookRegistration = !registered ? { state: "skipped" } : registered.ok ? { state: "registered" } : { state: "failed", detail: registered.detail };
  return { ok: true, keyChecked: Boolean(keyToCheck), webhook };
}
