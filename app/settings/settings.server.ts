// A shop's settings: the connection to the invoicing service (API key encrypted at rest) and the
// order-to-invoice mapping choices. The API key never leaves this module in plain text except to
// build a client; views for the browser carry only whether a key is set.
import { z } from "zod";
import type { ShopSettings as ShopSettingsRow } from "#prisma/sqlite";
import prisma from "../db.server";
import {
  DEFAULT_TRIGGER,
  ConnectionSchema,
  fieldErrors,
  MappingSettingsSchema,
  OrderTagSchema,
  readMapping,
  TRIGGERS,
  type FieldErrors,
  type SettingsView,
  type MappingSettings,
  type OrderTags,
  type Trigger,
} from "./schema";
import { decryptSecret, encryptSecret } from "../secrets/crypto.server";
import { checkOutboundUrl, outboundPolicy } from "../http/outbound-guard.server";
import { LIVE_BASE_URL } from "../invoicing-service/schemas";

/**
 * A schema's `baseUrl` limited to the addresses the operator allows: the API key is sent there
 * (app/http/outbound-guard.server.ts). Runs beside the other fields' checks, so all errors show at once.
 */
export function allowedAddress<S extends z.ZodType<{ baseUrl?: unknown }>>(schema: S): S {
  return schema.superRefine(
    (value, ctx) => {
      const url = typeof value.baseUrl === "string" ? value.baseUrl : "";
      if (URL.canParse(url) && !checkOutboundUrl(url, outboundPolicy()).ok)
        ctx.addIssue({ code: "custom", path: ["baseUrl"], message: "base_url_not_allowed" });
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  ) as S;
}

export const ConnectionInputSchema = allowedAddress(ConnectionSchema);
export type ConnectionInput = z.input<typeof ConnectionSchema>;

/** Settings refused by their schema; `errors` says which field and why (codes of `settings.error.*`). */
export class SettingsInvalidError extends Error {
  constructor(readonly errors: FieldErrors) {
    super(
      `invalid settings: ${Object.entries(errors)
        .map(([field, code]) => `${field} (${code})`)
        .join(", ")}`,
    );
    this.name = "SettingsInvalidError";
  }
}

/** The schema's output, or SettingsInvalidError with the field errors (`prefix.` before each field). */
export function parseSettings<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = fieldErrors(parsed.error);
  throw new SettingsInvalidError(
    prefix ? Object.fromEntries(Object.entries(errors).map(([field, code]) => [`${prefix}.${field}`, code])) : errors,
  );
}

export type { SettingsView };

/** What the worker needs to post for a shop. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
  saleChannelId: number;
  /** The integration posted to: the dummy one in test mode, the real one live. */
  invoiceIntegrationId: number;
  testMode: boolean;
  mapping: MappingSettings;
}

export type ConnectionProblem =
  "api_key" | "api_key_unreadable" | "sale_channel" | "invoice_integration" | "dummy_integration";

export async function getSettings(shop: string): Promise<SettingsView> {
  const row = await prisma.shopSettings.findUnique({ where: { shopDomain: shop } });
  return {
    baseUrl: row?.baseUrl ?? LIVE_BASE_URL,
    hasApiKey: Boolean(row?.apiKeyEncrypted),
    invoiceIntegrationId: row?.invoiceIntegrationId ?? null,
    saleChannelId: row?.saleChannelId ?? null,
    testMode: row?.testMode ?? true,
    dummyIntegrationId: row?.dummyIntegrationId ?? null,
    trigger: (TRIGGERS as readonly string[]).includes(row?.trigger ?? "") ? (row!.trigger as Trigger) : DEFAULT_TRIGGER,
    mapping: readMapping(row?.mapping),
    orderTags: {
      orderTag: row?.orderTag ?? "e-fatura",
      eArchiveTag: row?.eArchiveTag ?? "",
      eInvoiceTag: row?.eInvoiceTag ?? "",
    },
  };
}

/** A new service address without the key entered again: the stored key is never sent to another address. */
export class ApiKeyRequiredError extends Error {
  constructor() {
    super("a new service address needs the API key entered again");
    this.name = "ApiKeyRequiredError";
  }
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * Saves the connection settings, and the mapping settings when given, in one write (nothing is saved
 * half). An omitted API key keeps the stored one (the field is write-only), but only for the address it was
 * entered for: changing the address without a new key throws ApiKeyRequiredError.
 */
export async function saveSettings(shop: string, input: ConnectionInput, mapping?: unknown, orderTags?: OrderTags) {
  const data = parseSettings(ConnectionInputSchema, input);
  const parsedMapping = mapping === undefined ? undefined : parseSettings(MappingSettingsSchema, mapping, "mapping");
  const baseUrl = withoutTrailingSlash(data.baseUrl);
  if (!data.apiKey) {
    const current = await prisma.shopSettings.findUnique({
      where: { shopDomain: shop },
      select: { baseUrl: true, apiKeyEncrypted: true },
    });
    if (current?.apiKeyEncrypted && withoutTrailingSlash(current.baseUrl) !== baseUrl) throw new ApiKeyRequiredError();
  }
  const fields = {
    baseUrl,
    invoiceIntegrationId: data.invoiceIntegrationId ?? null,
    saleChannelId: data.saleChannelId ?? null,
    testMode: data.testMode,
    dummyIntegrationId: data.dummyIntegrationId ?? null,
    trigger: data.trigger,
    // A new key may belong to another account: its team is learned again from the service's answers.
    ...(data.apiKey ? { apiKeyEncrypted: encryptSecret(data.apiKey, shop), teamId: null } : {}),
    ...(parsedMapping ? { mapping: parsedMapping as object } : {}),
    ...(orderTags
      ? parseSettings(
          z.object({ orderTag: OrderTagSchema, eArchiveTag: OrderTagSchema, eInvoiceTag: OrderTagSchema }),
          orderTags,
        )
      : {}),
  };
  await prisma.shopSettings.upsert({
    where: { shopDomain: shop },
    create: { shopDomain: shop, ...fields },
    update: fields,
  });
}

/** Saves the connection settings only. */
export async function saveConnection(shop: string, input: ConnectionInput) {
  await saveSettings(shop, input);
}

/** Selects the shop's sales channel alone (the app created or found it); the rest of the settings stay. */
export async function setSaleChannel(shop: string, saleChannelId: number) {
  await prisma.shopSettings.update({ where: { shopDomain: shop }, data: { saleChannelId } });
}

/** The shop's stored API key in plain text, for building a client; null when none is set. */
export async function apiKeyFor(shop: string): Promise<string | null> {
  const row = await prisma.shopSettings.findUnique({ where: { shopDomain: shop }, select: { apiKeyEncrypted: true } });
  return row?.apiKeyEncrypted ? decryptSecret(row.apiKeyEncrypted, shop) : null;
}

type ConnectionResult = { ok: true; connection: Connection } | { ok: false; missing: ConnectionProblem[] };

/** The connection the worker posts with, or what is missing for one. */
export async function connectionFor(
  shop: string,
  options: { forceTestMode?: boolean } = {},
): Promise<ConnectionResult> {
  return connectionFrom(shop, await prisma.shopSettings.findUnique({ where: { shopDomain: shop } }), options);
}

/** The same, from a settings row the caller has read already (the worker reads it with the invoice). */
export function connectionFrom(
  shop: string,
  row: ShopSettingsRow | null,
  options: { forceTestMode?: boolean } = {},
): ConnectionResult {
  const missing: ConnectionProblem[] = [];
  const testMode = Boolean(options.forceTestMode || (row?.testMode ?? true));
  if (!row?.apiKeyEncrypted) missing.push("api_key");
  if (!row?.saleChannelId) missing.push("sale_channel");
  const integration = testMode ? row?.dummyIntegrationId : row?.invoiceIntegrationId;
  if (!integration) missing.push(testMode ? "dummy_integration" : "invoice_integration");
  if (!row || missing.length > 0) return { ok: false, missing };
  let apiKey: string;
  try {
    apiKey = decryptSecret(row.apiKeyEncrypted!, shop);
  } catch {
    // ENCRYPTION_KEY changed (or the row was copied from elsewhere): only a key entered again can fix it.
    return { ok: false, missing: ["api_key_unreadable"] };
  }
  return {
    ok: true,
    connection: {
      baseUrl: row.baseUrl,
      apiKey,
      saleChannelId: row.saleChannelId!,
      invoiceIntegrationId: integration!,
      testMode,
      mapping: readMapping(row.mapping),
    },
  };
}
