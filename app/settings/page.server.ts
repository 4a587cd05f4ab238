// The settings page's server side: the lists read from the invoicing service (invoice accounts and sales
// channels), and saving the whole form at once: every field validated first, the API key checked against
// the service, then one write. A key the service rejects is never stored, and nothing is saved half.
import { InvoicingClient } from "../invoicing-service/client";
import { AuthenticationError, InvoicingError, NotFoundError } from "../invoicing-service/errors";
import {
  fieldErrors,
  formFromSettings,
  SettingsFormSchema,
  settingsFromForm,
  type FieldErrors,
  type SettingsErrorCode,
} from "./schema";
import { allowedAddress, apiKeyFor, getSettings, saveSettings, type SettingsView } from "./settings.server";
import { channelForShop, shopHosts } from "./sale-channel.server";
import { registerAccountWebhook } from "./account-webhook.server";
import { accountErrors, type AccountKind } from "./accounts";
import { forgetAccountKinds, listAccounts, setAccountProblem } from "./accounts.server";

const CHECK_TIMEOUT_MS = 10_000;

export interface ServiceOption {
  id: number;
  name: string;
}

/** An invoice account with what the service's test flag says it is (app/settings/accounts.ts). */
export interface AccountOption extends ServiceOption {
  kind: AccountKind;
}

export interface ServiceLists {
  integrations: AccountOption[];
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
    const [integrations, saleChannels, hosts] = await Promise.all([
      listAccounts(client),
      client.listSaleChannels(),
      shopHosts(shop),
    ]);
    const option = (item: { id: number | string; name: string }) => ({
      id: Number(item.id),
      name: item.name || `#${item.id}`,
    });
    const forShop = channelForShop(saleChannels, hosts);
    return {
      integrations,
      saleChannels: saleChannels.map(option),
      channelForShop: forShop ? Number(forShop.id) : null,
      error: null,
    };
  } catch (error) {
    return {
      integrations: [],
      saleChannels: [],
      channelForShop: null,
      error: error instanceof InvoicingError ? error.kind : "network",
    };
  }
}

/** The account webhook after a save: registered with the service, not registered (why), or no key to do it with. */
export type WebhookRegistration = { state: "registered" } | { state: "failed"; detail: string } | { state: "skipped" };

export type SaveResult =
  | { ok: true; keyChecked: boolean; webhook: WebhookRegistration }
  | { ok: false; errors: FieldErrors; /** Detail of a failed key check, e.g. the HTTP status. */ detail?: string };

/** The form as the page posts it, checked against the settings' one schema (with the operator's allowed addresses). */
const FormSchema = allowedAddress(SettingsFormSchema);

/**
 * Checks every field of a posted form. A field the post leaves out keeps its current value (older forms, or a
 * client that sends only what changed); fields the form does not know are ignored.
 */
export function validateSettingsForm(input: object, current: SettingsView) {
  const parsed = FormSchema.safeParse({ ...formFromSettings(current), ...input });
  if (!parsed.success) return { ok: false as const, errors: fieldErrors(parsed.error) };
  return { ok: true as const, ...settingsFromForm(parsed.data, current.mapping) };
}

/** Asks the service whether `apiKey` works at `baseUrl`. */
export async function checkApiKey(
  baseUrl: string,
  apiKey: string,
): Promise<{ ok: true } | { ok: false; code: SettingsErrorCode; detail?: string }> {
  try {
    await new InvoicingClient({ baseUrl, apiKey, timeoutMs: CHECK_TIMEOUT_MS }).checkAuth();
    return { ok: true };
  } catch (error) {
    if (error instanceof AuthenticationError)
      return { ok: false, code: "api_key_rejected", detail: error.status ? `HTTP ${error.status}` : undefined };
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
export async function saveSettingsForm(shop: string, input: object): Promise<SaveResult> {
  const current = await getSettings(shop);
  const valid = validateSettingsForm(input, current);
  if (!valid.ok) return valid;
  const { connection, mapping, orderTags } = valid;

  const { apiKey: newKey, baseUrl } = connection;
  const baseUrlChanged = baseUrl !== current.baseUrl.replace(/\/+$/, "");
  // The stored key is never sent to an address it was not entered for (saveSettings enforces it too).
  if (baseUrlChanged && current.hasApiKey && !newKey)
    return { ok: false, errors: { apiKey: "api_key_required_for_address" } };
  const keyToCheck = newKey ?? null;
  if (keyToCheck) {
    const check = await checkApiKey(baseUrl, keyToCheck);
    if (!check.ok) {
      const field = check.code === "base_url_not_service" || !newKey ? "baseUrl" : "apiKey";
      return { ok: false, errors: { [field]: check.code }, detail: check.detail };
    }
  }

  // Test and live accounts as the service flags them: a live account that is a test account (or the reverse) is
  // refused. A list that cannot be read refuses nothing here; the worker checks again before posting.
  const apiKey = newKey ?? (await apiKeyFor(shop));
  if (apiKey && (connection.invoiceIntegrationId != null || connection.dummyIntegrationId != null)) {
    const accounts = await listAccounts(new InvoicingClient({ baseUrl, apiKey, timeoutMs: CHECK_TIMEOUT_MS })).catch(
      () => null,
    );
    const errors = accounts
      ? accountErrors(accounts, {
          invoiceIntegrationId: connection.invoiceIntegrationId ?? null,
          dummyIntegrationId: connection.dummyIntegrationId ?? null,
        })
      : {};
    if (Object.keys(errors).length > 0) return { ok: false, errors };
  }

  await saveSettings(shop, connection, mapping, orderTags);
  forgetAccountKinds(shop);
  await setAccountProblem(shop, null);
  // The settings are saved either way; a failed registration only means no account-level hints.
  const registered = apiKey ? await registerAccountWebhook(shop, { baseUrl, apiKey }) : null;
  const webhook: WebhookRegistration = !registered
    ? { state: "skipped" }
    : registered.ok
      ? { state: "registered" }
      : { state: "failed", detail: registered.detail };
  return { ok: true, keyChecked: Boolean(keyToCheck), webhook };
}
