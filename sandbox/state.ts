// The sandbox's in-memory service: accounts (teams) with their integrations, sales channels, quota and
// e-invoice registrations; customers; invoices and their asynchronous formalisation; waybills; callbacks.
// HTTP lives in server.ts; this module knows nothing about sockets.
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import { dec, type Decimal } from "../app/invoicing-service/money";
import { computeTotals, lineTotals, type TotalsLine } from "../app/invoicing-service/totals";
import {
  isFilled,
  laravelInput,
  parseDecimal,
  parseId,
  todayInIstanbul,
  validateInvoiceBody,
  validationMessage,
  type FieldErrors,
} from "./rules";
import {
  ANONYMOUS_TAX_NUMBER,
  E_ARCHIVE_VKN_EXAMPLE,
  E_INVOICE_TAX_NUMBERS,
  isAcceptableTaxNumber,
} from "./taxnumbers";

// ---------------------------------------------------------------------------------------------------------
// Public types

export interface SandboxAccount {
  apiKey: string;
  teamId: number;
  saleChannelId: number;
  invoiceIntegrationId: number;
  /** The "dummy test integration": invoices are formalised in the sandbox but consume no quota. */
  dummyIntegrationId: number;
  /** Recipient tax numbers registered for e-invoice (valid VKNs): their invoices become e-invoices. */
  eInvoiceTaxNumbers: string[];
  /** Seeded waybills of this account. */
  waybillIds: { completed: number; draft: number; incoming: number; invoiced: number };
}

export interface AddAccountOptions {
  apiKey?: string;
  eInvoiceTaxNumbers?: string[];
}

/** A new account as the service opens it: invoice accounts, but no sales channel and no documents yet. */
export type EmptyAccount = Pick<SandboxAccount, "apiKey" | "teamId" | "invoiceIntegrationId" | "dummyIntegrationId">;

export interface InvoiceError {
  code: string;
  message: string;
}

export interface InvoiceLineRecord {
  id: number;
  product_id: string | number | null;
  name: string;
  sku: string | null;
  description: string | null;
  quantity: string;
  unit: string;
  unit_price: string;
  tax_rate: string;
  discount_type: string | null;
  discount: string | null;
  exemption_code: string | null;
  exemption_reason: string | null;
  withholding_tax_code: string | null;
  withholding_tax_reason: string | null;
  extra_taxes: Array<{ tax_code: string; tax_rate: string }>;
  lines_total: string;
  discount_total: string;
  tax_total: string;
  extra_tax_total: string;
  grand_total: string;
}

export interface ReceiverRecord {
  id: number;
  external_id: string | number | null;
  type: string | null;
  name: string | null;
  surname: string | null;
  title: string | null;
  tax_number: string;
  tax_office: string | null;
  country: string | null;
  city: string | null;
  district: string | null;
  address: string | null;
  postcode: string | null;
  phone: string | null;
  email: string | null;
}

export interface InvoiceRecord {
  id: number;
  team_id: number;
  type: string;
  profile: string | null;
  invoice_integration_id: number | null;
  sale_channel_id: number;
  order_id: string | null;
  order_d_id: string | null;
  order_created_at: string | null;
  customer_id: number;
  waybill_id: number | null;
  workflow_status: string;
  formal_status: string;
  ettn: string | null;
  serial_number: string | null;
  pdf_url: string | null;
  currency: string;
  currency_rate: number;
  issue_date: string;
  issue_time: string;
  cash_sale: boolean;
  payment_date: string | null;
  due_date: string | null;
  callback_url: string | null;
  description: string | null;
  lines_total: string;
  discount_total: string;
  tax_total: string;
  extra_tax_total: string;
  grand_total: string;
  is_internet_sale: boolean;
  is_need_shipment: boolean;
  receiver: ReceiverRecord;
  lines: InvoiceLineRecord[];
  errors: InvoiceError[];
  internet_sale: Record<string, unknown> | null;
  shipment: Record<string, unknown> | null;
  waybill_number: string | null;
  waybill_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface WaybillRecord {
  id: number;
  team_id: number;
  direction: "outgoing" | "incoming";
  status: string;
  document_number: string;
  issue_date: string;
  currency: string;
  currency_rate: number;
  invoice_integration_id: number;
  invoice_id: number | null;
  parties: Array<Record<string, unknown>>;
  lines: Array<{
    id: number;
    seller_product_code: string;
    name: string;
    quantity: string;
    unit: string;
    unit_price: string;
    tax_rate: string;
  }>;
}

export interface CallbackDelivery {
  invoiceId: number;
  teamId: number;
  url: string;
  payload: { invoice_id: number; team_id: number; time: string; hash: string };
  /** The statuses that triggered it. */
  workflowStatus: string;
  formalStatus: string;
  /** HTTP status of the receiver's answer; absent when the delivery failed or was dropped. */
  status?: number;
  error?: string;
  /** Dropped by fault injection (never sent). */
  dropped: boolean;
  /** Still in flight. */
  pending: boolean;
  at: string;
}

/** One `DELETE /api/invoices/{id}` the sandbox answered (not for unknown or another team's ids: those are 404). */
export interface DeletionRecord {
  invoiceId: number;
  teamId: number;
  orderId: string | null;
  /** The invoice's formal_status when the request came. */
  formalStatus: string;
  outcome: "deleted" | "refused";
  at: string;
}

/** What a delete answers: done, unknown (404), or refused because the invoice is (being) formalised (422). */
export type DeleteOutcome = { ok: true } | { ok: false; status: 404 | 422; message: string; errors?: FieldErrors };

/** A delete is honoured only while nothing went to the tax authority: still pending (or a draft), or failed. */
export const DELETABLE_FORMAL_STATUSES: readonly string[] = ["pending", "failed"];
export const DELETE_REFUSED_MESSAGE =
  "The invoice has been sent for formalisation and cannot be deleted; cancel it in the panel.";

/** What a create answers: the stored record, or Laravel-style rejection. */
export type CreateOutcome =
  { ok: true; record: InvoiceRecord } | { ok: false; status: number; message: string; errors?: FieldErrors };

// ---------------------------------------------------------------------------------------------------------
// Seed

/** The default account: fixed ids and key so demos and docs are reproducible. */
export const DEFAULT_ACCOUNT = {
  apiKey: "sandbox-api-key-team-1",
  teamId: 1,
  saleChannelId: 11,
  invoiceIntegrationId: 21,
  dummyIntegrationId: 22,
  waybillIds: { completed: 31, draft: 32, incoming: 33, invoiced: 34 },
} as const;

/** Sales channel types the sandbox accepts on create (the service's other marketplaces are not simulated). */
export const SALE_CHANNEL_TYPES: string[] = ["shopify"];

export const E_INVOICE_SERIES = "EFT";
export const E_ARCHIVE_SERIES = "ARS";

/** Exemption codes the tax authority knows (the vendor's list: 201-242 and 301-343). */
function isKnownExemptionCode(code: unknown): boolean {
  const n = parseId(code);
  return n !== null && ((n >= 201 && n <= 242) || (n >= 301 && n <= 343));
}

// ---------------------------------------------------------------------------------------------------------

interface CustomerCard {
  id: number;
  externalId: string | number | null;
  saleChannelId: number | null;
  data: Record<string, unknown>;
}

interface Team {
  account: SandboxAccount;
  saleChannels: Array<{ id: number; name: string; sale_channel: string; settings: Record<string, unknown> }>;
  integrations: Array<{ id: number; name: string; dummy: boolean }>;
  quotaUsed: number;
  webhooks: string[];
  customers: CustomerCard[];
}

export interface StateOptions {
  origin: () => string;
  now: () => Date;
  formalizeDelayMs: number;
  /** The service gives a callback receiver 10 seconds. */
  callbackTimeoutMs: number;
  /** Asked before each callback: true to drop it (fault injection). */
  shouldDropCallback: () => boolean;
  log: (line: string) => void;
}

const iso = (d: Date) => `${d.toISOString().slice(0, 19)}.000000Z`;
const str = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));
const decString = (d: Decimal) => (d.decimalPlaces() < 2 ? d.toFixed(2) : d.toFixed());

export class SandboxState {
  private readonly teams = new Map<number, Team>();
  private readonly teamsByKey = new Map<string, Team>();
  private readonly invoices = new Map<number, InvoiceRecord>();
  private readonly waybills = new Map<number, WaybillRecord>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly timersByInvoice = new Map<number, Set<NodeJS.Timeout>>();
  private readonly inflight = new Set<AbortController>();
  private readonly serials = new Map<string, number>();
  readonly callbacks: CallbackDelivery[] = [];
  readonly deletions: DeletionRecord[] = [];
  private next = { team: 1, saleChannel: 11, integration: 21, waybill: 31, invoice: 1001, customer: 501, line: 1 };
  private stopped = false;

  constructor(private readonly opts: StateOptions) {}

  // ----- accounts

  addAccount(options: AddAccountOptions = {}): SandboxAccount {
    const teamId = this.next.team++;
    const saleChannelId = this.next.saleChannel++;
    const invoiceIntegrationId = this.next.integration++;
    const dummyIntegrationId = this.next.integration++;
    const ids = [this.next.waybill++, this.next.waybill++, this.next.waybill++, this.next.waybill++];
    const apiKey = options.apiKey ?? `sandbox-key-${teamId}-${randomBytes(12).toString("hex")}`;
    if (this.teamsByKey.has(apiKey)) throw new Error(`API key already in use: ${apiKey}`);
    const account: SandboxAccount = {
      apiKey,
      teamId,
      saleChannelId,
      invoiceIntegrationId,
      dummyIntegrationId,
      eInvoiceTaxNumbers: [...(options.eInvoiceTaxNumbers ?? E_INVOICE_TAX_NUMBERS)],
      waybillIds: { completed: ids[0], draft: ids[1], incoming: ids[2], invoiced: ids[3] },
    };
    const team = this.registerTeam(account, [
      {
        id: saleChannelId,
        name: `Shopify mağazası ${teamId}`,
        sale_channel: "shopify",
        settings: { domain: `shop-${teamId}.myshopify.com` },
      },
    ]);
    this.seedWaybills(team);
    return { ...account, eInvoiceTaxNumbers: [...account.eInvoiceTaxNumbers], waybillIds: { ...account.waybillIds } };
  }

  /** An account with no sales channel (the merchant creates one, e.g. through the app) and no waybills. */
  addEmptyAccount(options: Pick<AddAccountOptions, "apiKey"> = {}): EmptyAccount {
    const teamId = this.next.team++;
    const invoiceIntegrationId = this.next.integration++;
    const dummyIntegrationId = this.next.integration++;
    const apiKey = options.apiKey ?? `sandbox-key-${teamId}-${randomBytes(12).toString("hex")}`;
    if (this.teamsByKey.has(apiKey)) throw new Error(`API key already in use: ${apiKey}`);
    // saleChannelId 0 is never posted with: a team without a channel cannot invoice until it creates one.
    const waybillIds = { completed: 0, draft: 0, incoming: 0, invoiced: 0 };
    this.registerTeam(
      {
        apiKey,
        teamId,
        saleChannelId: 0,
        invoiceIntegrationId,
        dummyIntegrationId,
        eInvoiceTaxNumbers: [...E_INVOICE_TAX_NUMBERS],
        waybillIds,
      },
      [],
    );
    return { apiKey, teamId, invoiceIntegrationId, dummyIntegrationId };
  }

  private registerTeam(account: SandboxAccount, saleChannels: Team["saleChannels"]): Team {
    const team: Team = {
      account,
      saleChannels,
      integrations: [
        { id: account.invoiceIntegrationId, name: "Sandbox entegratör (canlı)", dummy: false },
        { id: account.dummyIntegrationId, name: "Dummy test entegrasyonu", dummy: true },
      ],
      quotaUsed: 0,
      webhooks: [],
      customers: [],
    };
    this.teams.set(account.teamId, team);
    this.teamsByKey.set(account.apiKey, team);
    return team;
  }

  teamByKey(apiKey: string): Team | undefined {
    return this.teamsByKey.get(apiKey);
  }

  quotaUsed(apiKey: string): number {
    const team = this.teamsByKey.get(apiKey);
    if (!team) throw new Error("Unknown API key");
    return team.quotaUsed;
  }

  integrations(team: Team) {
    return team.integrations.map(({ id, name, dummy }) => ({ id, name, title: name, is_test: dummy }));
  }

  saleChannels(team: Team) {
    return team.saleChannels.map((c) => ({ ...c }));
  }

  addSaleChannel(team: Team, body: Record<string, unknown>): { id: number; name: string } | FieldErrors {
    if (!isFilled(body.sale_channel) || typeof body.sale_channel !== "string")
      return { sale_channel: ["The sale_channel field is required."] };
    if (!SALE_CHANNEL_TYPES.includes(body.sale_channel))
      return { sale_channel: ["The selected sale channel is invalid."] };
    const settings =
      typeof body.settings === "object" && body.settings !== null && !Array.isArray(body.settings)
        ? (body.settings as Record<string, unknown>)
        : {};
    // A Shopify channel is known by the shop's domain: the service needs it to tell the channel's orders apart.
    if (body.sale_channel === "shopify") {
      const domain = settings.domain;
      if (!isFilled(domain)) return { "settings.domain": ["The settings.domain field is required."] };
      if (
        typeof domain !== "string" ||
        !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(domain.trim()) ||
        domain.length > 255
      ) {
        return { "settings.domain": ["The settings.domain field must be a valid domain."] };
      }
      settings.domain = domain.trim().toLowerCase();
    }
    const channel = {
      id: this.next.saleChannel++,
      name: String(settings.domain ?? body.sale_channel),
      sale_channel: body.sale_channel,
      settings,
    };
    team.saleChannels.push(channel);
    return { id: channel.id, name: channel.name };
  }

  saveWebhook(team: Team, url: string): void {
    if (!team.webhooks.includes(url)) team.webhooks.push(url);
  }

  webhooks(apiKey: string): string[] {
    return [...(this.teamsByKey.get(apiKey)?.webhooks ?? [])];
  }

  // ----- invoices

  /** Validates and stores an invoice (POST /api/invoices, and from a waybill). */
  createInvoice(team: Team, body: unknown, waybill?: WaybillRecord): CreateOutcome {
    const ctx = {
      saleChannelIds: team.saleChannels.map((c) => c.id),
      invoiceIntegrationIds: team.integrations.map((i) => i.id),
      today: todayInIstanbul(this.opts.now()),
    };
    const errors = validateInvoiceBody(body, ctx);
    const b = laravelInput(body) as Record<string, unknown>;
    let storedCustomer: CustomerCard | undefined;
    if (Object.keys(errors).length === 0 && !isFilled(b.customer) && isFilled(b.customer_id)) {
      storedCustomer = team.customers.find((c) => c.id === parseId(b.customer_id));
      if (!storedCustomer) errors.customer_id = ["The selected customer_id is invalid."];
    }
    if (Object.keys(errors).length > 0) return { ok: false, status: 422, message: validationMessage(errors), errors };

    const saleChannelId = parseId(b.sale_channel_id)!;
    const orderId = str(b.order_id);
    if (
      orderId !== null &&
      this.teamInvoices(team.account.teamId).some((i) => i.sale_channel_id === saleChannelId && i.order_id === orderId)
    ) {
      const duplicate = { order_id: ["An invoice already exists for this order."] };
      return { ok: false, status: 422, message: duplicate.order_id[0], errors: duplicate };
    }

    const customer = storedCustomer ?? this.upsertCustomer(team, b.customer as Record<string, unknown>, saleChannelId);
    const predraft = b.workflow_status === "predraft";
    const integrationId = isFilled(b.invoice_integration_id) ? parseId(b.invoice_integration_id) : null;
    const now = iso(this.opts.now());
    const lines = (b.lines as Array<Record<string, unknown>>).map((line) => this.lineRecord(line));
    const totals = computeTotals(lines.map(totalsLineOf));
    const record: InvoiceRecord = {
      id: this.next.invoice++,
      team_id: team.account.teamId,
      type: String(b.type),
      profile: str(b.profile),
      invoice_integration_id: integrationId,
      sale_channel_id: saleChannelId,
      order_id: orderId,
      order_d_id: str(b.order_d_id),
      order_created_at: str(b.order_created_at),
      customer_id: customer.id,
      waybill_id: waybill?.id ?? null,
      workflow_status: predraft ? "predraft" : "processing",
      formal_status: "pending",
      ettn: null,
      serial_number: null,
      pdf_url: null,
      currency: str(b.currency) ?? "TRY",
      currency_rate: isFilled(b.currency_rate) ? Number(parseDecimal(b.currency_rate)!.toString()) : 1,
      issue_date: String(b.issue_date),
      issue_time: String(b.issue_time),
      cash_sale: b.cash_sale === true,
      payment_date: str(b.payment_date),
      due_date: str(b.due_date),
      callback_url: str(b.callback_url),
      description: str(b.description),
      ...totals,
      is_internet_sale: b.is_internet_sale === true,
      is_need_shipment: b.is_need_shipment === true,
      receiver: receiverOf(customer),
      lines,
      errors: [],
      internet_sale: isFilled(b.internet_sale) ? { ...(b.internet_sale as object) } : null,
      shipment: isFilled(b.shipment) ? { ...(b.shipment as object) } : null,
      waybill_number: str(b.waybill_number),
      waybill_date: str(b.waybill_date),
      created_at: now,
      updated_at: now,
    };
    this.invoices.set(record.id, record);
    if (waybill) waybill.invoice_id = record.id;
    if (!predraft) this.startProcessing(team, record);
    this.opts.log(
      `invoice ${record.id} stored (team ${team.account.teamId}, order ${orderId ?? "-"}, grand total ${record.grand_total})`,
    );
    return { ok: true, record: clone(record) };
  }

  /** POST /api/invoices/{id}/formalize: a predraft invoice enters the workflow. */
  formalize(team: Team, id: number): CreateOutcome {
    const record = this.ownInvoice(team, id);
    if (!record) return { ok: false, status: 404, message: "Not found." };
    if (record.workflow_status !== "predraft")
      return { ok: false, status: 422, message: "The invoice is already being processed." };
    if (record.invoice_integration_id === null) {
      const errors = { invoice_integration_id: ["The invoice_integration_id field is required."] };
      return { ok: false, status: 422, message: errors.invoice_integration_id[0], errors };
    }
    record.workflow_status = "processing";
    record.updated_at = iso(this.opts.now());
    this.startProcessing(team, record);
    return { ok: true, record: clone(record) };
  }

  private startProcessing(team: Team, record: InvoiceRecord): void {
    const dummy = team.integrations.find((i) => i.id === record.invoice_integration_id)?.dummy ?? false;
    if (!dummy) team.quotaUsed += 1;
    this.schedule(record.id, () => {
      record.formal_status = "running";
      this.changed(team, record);
      this.schedule(record.id, () => this.finishFormalisation(team, record));
    });
  }

  /** The tax authority's verdict: e-invoice for registered recipients, e-archive otherwise; checksum errors fail. */
  private finishFormalisation(team: Team, record: InvoiceRecord): void {
    const taxNumber = record.receiver.tax_number;
    const errors: InvoiceError[] = [];
    if (!isAcceptableTaxNumber(taxNumber)) {
      errors.push({
        code: "RECEIVER_TAX_NUMBER_INVALID",
        message: `The recipient tax number ${taxNumber} is not a valid VKN or TCKN (check digit).`,
      });
    }
    record.lines.forEach((line, i) => {
      if (dec(line.tax_rate).isZero() && !isKnownExemptionCode(line.exemption_code)) {
        errors.push({
          code: "EXEMPTION_CODE_UNKNOWN",
          message: `Line ${i + 1}: exemption code ${line.exemption_code} is not a known VAT exemption code.`,
        });
      }
    });
    if (errors.length > 0) {
      record.errors = errors;
      record.formal_status = "failed";
      record.workflow_status = "failed";
      return this.changed(team, record);
    }
    const eInvoice = taxNumber !== ANONYMOUS_TAX_NUMBER && team.account.eInvoiceTaxNumbers.includes(taxNumber);
    const series = eInvoice ? E_INVOICE_SERIES : E_ARCHIVE_SERIES;
    const year = record.issue_date.slice(0, 4);
    const key = `${team.account.teamId}:${series}:${year}`;
    const sequence = (this.serials.get(key) ?? 0) + 1;
    this.serials.set(key, sequence);
    record.serial_number = `${series}${year}${String(sequence).padStart(9, "0")}`;
    record.ettn = randomUUID();
    record.profile = eInvoice
      ? record.profile && record.profile !== "EARSIVFATURA"
        ? record.profile
        : "TEMELFATURA"
      : "EARSIVFATURA";
    record.pdf_url = `${this.opts.origin()}/pdf/${record.ettn}.pdf`;
    record.formal_status = "completed";
    record.workflow_status = "completed";
    this.changed(team, record);
  }

  private changed(team: Team, record: InvoiceRecord): void {
    record.updated_at = iso(this.opts.now());
    this.opts.log(
      `invoice ${record.id}: workflow ${record.workflow_status}, formal ${record.formal_status}${record.serial_number ? `, ${record.serial_number}` : ""}`,
    );
    if (record.callback_url) this.sendCallback(team, record);
  }

  private sendCallback(team: Team, record: InvoiceRecord): void {
    const time = DateTime.fromJSDate(this.opts.now()).setZone("Europe/Istanbul").toFormat("yyyy-MM-dd HH:mm:ss");
    const hash = createHmac("sha512", team.account.apiKey)
      .update(`${record.id}${team.account.teamId}${time}`)
      .digest("hex");
    const delivery: CallbackDelivery = {
      invoiceId: record.id,
      teamId: team.account.teamId,
      url: record.callback_url!,
      payload: { invoice_id: record.id, team_id: team.account.teamId, time, hash },
      workflowStatus: record.workflow_status,
      formalStatus: record.formal_status,
      dropped: false,
      pending: true,
      at: iso(this.opts.now()),
    };
    this.callbacks.push(delivery);
    if (this.opts.shouldDropCallback()) {
      delivery.dropped = true;
      delivery.pending = false;
      this.opts.log(`callback for invoice ${record.id} dropped (fault injection)`);
      return;
    }
    const controller = new AbortController();
    const limit = this.opts.callbackTimeoutMs;
    const timeout = setTimeout(() => controller.abort(new Error(`Callback timed out after ${limit} ms`)), limit);
    this.inflight.add(controller);
    fetch(delivery.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "User-Agent": "invoicing-sandbox" },
      body: JSON.stringify(delivery.payload),
      signal: controller.signal,
    })
      .then(async (res) => {
        delivery.status = res.status;
        await res.arrayBuffer().catch(() => undefined);
      })
      .catch((error: unknown) => {
        delivery.error =
          error instanceof Error
            ? error.cause instanceof Error
              ? `${error.message}: ${error.cause.message}`
              : error.message
            : String(error);
      })
      .finally(() => {
        clearTimeout(timeout);
        this.inflight.delete(controller);
        delivery.pending = false;
        if (!this.stopped)
          this.opts.log(`callback for invoice ${record.id} → ${delivery.url}: ${delivery.status ?? delivery.error}`);
      });
  }

  private schedule(invoiceId: number, fn: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.timersByInvoice.get(invoiceId)?.delete(timer);
      if (this.invoices.has(invoiceId)) fn();
    }, this.opts.formalizeDelayMs);
    this.timers.add(timer);
    let set = this.timersByInvoice.get(invoiceId);
    if (!set) this.timersByInvoice.set(invoiceId, (set = new Set()));
    set.add(timer);
  }

  ownInvoice(team: Team, id: number): InvoiceRecord | undefined {
    const record = this.invoices.get(id);
    return record && record.team_id === team.account.teamId ? record : undefined;
  }

  getInvoice(team: Team, id: number): InvoiceRecord | undefined {
    const record = this.ownInvoice(team, id);
    return record && clone(record);
  }

  /** GET /api/invoices: own team only, newest first, `filters` as parsed by the server. */
  listInvoices(team: Team, limit: number, matches: (record: InvoiceRecord) => boolean): InvoiceRecord[] {
    return this.teamInvoices(team.account.teamId)
      .filter(matches)
      .sort((a, b) => b.id - a.id)
      .slice(0, limit)
      .map(clone);
  }

  /**
   * DELETE /api/invoices/{id}. The spec names delete and cancel without their rules; the sandbox takes the
   * documented e-Arşiv practice: an invoice may be withdrawn only before formalisation (pending, a draft, or
   * failed). Once running or completed it is the tax authority's document: 422, nothing changes.
   */
  deleteInvoice(team: Team, id: number): DeleteOutcome {
    const record = this.ownInvoice(team, id);
    if (!record) return { ok: false, status: 404, message: "Not found." };
    const deletable = DELETABLE_FORMAL_STATUSES.includes(record.formal_status);
    this.deletions.push({
      invoiceId: id,
      teamId: team.account.teamId,
      orderId: record.order_id,
      formalStatus: record.formal_status,
      outcome: deletable ? "deleted" : "refused",
      at: iso(this.opts.now()),
    });
    if (!deletable)
      return { ok: false, status: 422, message: DELETE_REFUSED_MESSAGE, errors: { invoice: [DELETE_REFUSED_MESSAGE] } };
    this.invoices.delete(id);
    for (const timer of this.timersByInvoice.get(id) ?? []) {
      clearTimeout(timer);
      this.timers.delete(timer);
    }
    this.timersByInvoice.delete(id);
    for (const waybill of this.waybills.values()) if (waybill.invoice_id === id) waybill.invoice_id = null;
    this.opts.log(`invoice ${id}: deleted`);
    return { ok: true };
  }

  invoiceByEttn(ettn: string): InvoiceRecord | undefined {
    for (const record of this.invoices.values()) if (record.ettn === ettn) return record;
    return undefined;
  }

  allInvoices(): InvoiceRecord[] {
    return [...this.invoices.values()].map(clone);
  }

  private teamInvoices(teamId: number): InvoiceRecord[] {
    return [...this.invoices.values()].filter((i) => i.team_id === teamId);
  }

  // ----- waybills

  getWaybill(team: Team, id: number): WaybillRecord | undefined {
    const waybill = this.waybills.get(id);
    return waybill && waybill.team_id === team.account.teamId ? waybill : undefined;
  }

  /** POST /api/waybills/{id}/invoice. */
  invoiceWaybill(team: Team, id: number, body: unknown): CreateOutcome {
    const waybill = this.getWaybill(team, id);
    if (!waybill || waybill.direction !== "outgoing") return { ok: false, status: 404, message: "Not found." };
    if (waybill.status !== "completed") {
      const errors = { waybill: ["Only completed waybills can be invoiced."] };
      return { ok: false, status: 422, message: errors.waybill[0], errors };
    }
    if (waybill.invoice_id !== null) {
      const errors = { waybill: ["An invoice was already created for this waybill."] };
      return { ok: false, status: 422, message: errors.waybill[0], errors };
    }
    return this.createInvoice(team, body, waybill);
  }

  private seedWaybills(team: Team): void {
    const { account } = team;
    const issueDate = DateTime.fromJSDate(this.opts.now())
      .setZone("Europe/Istanbul")
      .minus({ days: 2 })
      .toFormat("yyyy-MM-dd");
    const year = issueDate.slice(0, 4);
    const parties = [
      {
        role: "supplier",
        identifier_number: "9876543217",
        title: `Sandbox Satıcı ${account.teamId} A.Ş.`,
        tax_office: "Kadıköy",
        country: "Türkiye",
        city: "İstanbul",
        district: "Kadıköy",
        address: "Moda Cad. No 5",
      },
      {
        role: "delivery",
        identifier_number: E_ARCHIVE_VKN_EXAMPLE,
        title: "Anadolu Yapı Market Ltd. Şti.",
        name: null,
        surname: null,
        tax_office: "Çankaya",
        country: "Türkiye",
        city: "Ankara",
        district: "Çankaya",
        address: "Atatürk Bulvarı No 100",
      },
    ];
    const lines = () => [
      {
        id: this.next.line++,
        seller_product_code: "VIDA-M8",
        name: "Vida M8",
        quantity: "100",
        unit: "C62",
        unit_price: "1.25",
        tax_rate: "20",
      },
      {
        id: this.next.line++,
        seller_product_code: "KABLO-3X25",
        name: "Kablo 3x2,5",
        quantity: "12.5",
        unit: "MTR",
        unit_price: "18.40",
        tax_rate: "20",
      },
    ];
    const make = (id: number, direction: "outgoing" | "incoming", status: string, n: number): WaybillRecord => ({
      id,
      team_id: account.teamId,
      direction,
      status,
      document_number: `${year}${String(n).padStart(9, "0")}`,
      issue_date: issueDate,
      currency: "TRY",
      currency_rate: 1,
      invoice_integration_id: account.invoiceIntegrationId,
      invoice_id: null,
      parties: parties.map((p) => ({ ...p })),
      lines: lines(),
    });
    const ids = account.waybillIds;
    this.waybills.set(ids.completed, make(ids.completed, "outgoing", "completed", 1));
    this.waybills.set(ids.draft, make(ids.draft, "outgoing", "draft", 2));
    this.waybills.set(ids.incoming, make(ids.incoming, "incoming", "completed", 3));
    const invoiced = make(ids.invoiced, "outgoing", "completed", 4);
    this.waybills.set(ids.invoiced, invoiced);
    // The already-invoiced waybill points to a real, formalised invoice of the account (no quota used).
    const delivery = parties[1];
    const outcome = this.createInvoice(
      team,
      {
        type: "SATIS",
        invoice_integration_id: account.dummyIntegrationId,
        sale_channel_id: account.saleChannelId,
        issue_date: issueDate,
        issue_time: "09:00",
        cash_sale: false,
        waybill_number: invoiced.document_number,
        waybill_date: invoiced.issue_date,
        lines: invoiced.lines.map((l) => ({
          id: l.seller_product_code,
          name: l.name,
          quantity: Number(l.quantity),
          unit: l.unit,
          unit_price: Number(l.unit_price),
          tax_rate: l.tax_rate,
        })),
        customer: {
          id: `waybill-${ids.invoiced}`,
          type: "company",
          tax_number: delivery.identifier_number,
          tax_office: delivery.tax_office,
          title: delivery.title,
          country: delivery.country,
          city: delivery.city,
          district: delivery.district,
          address: delivery.address,
        },
      },
      invoiced,
    );
    if (!outcome.ok) throw new Error(`seed invoice rejected: ${JSON.stringify(outcome.errors)}`);
    const timers = this.timersByInvoice.get(outcome.record.id) ?? new Set<NodeJS.Timeout>();
    for (const timer of timers) {
      clearTimeout(timer);
      this.timers.delete(timer);
    }
    this.timersByInvoice.delete(outcome.record.id);
    this.finishFormalisation(team, this.invoices.get(outcome.record.id)!);
  }

  // ----- customers (matching rules of the spec)

  private upsertCustomer(team: Team, data: Record<string, unknown>, saleChannelId: number): CustomerCard {
    const externalId = (data.id as string | number | undefined) ?? null;
    const email = isFilled(data.email) ? String(data.email).toLowerCase() : null;
    const taxNumber = String(data.tax_number);
    const card =
      team.customers.find(
        (c) => externalId !== null && c.saleChannelId === saleChannelId && String(c.externalId) === String(externalId),
      ) ??
      team.customers.find((c) => email !== null && String(c.data.email ?? "").toLowerCase() === email) ??
      team.customers.find((c) => taxNumber !== ANONYMOUS_TAX_NUMBER && c.data.tax_number === taxNumber);
    if (card) {
      card.data = { ...card.data, ...data };
      if (card.saleChannelId === null || card.externalId === null) {
        card.saleChannelId = saleChannelId;
        card.externalId = externalId;
      }
      return card;
    }
    const created: CustomerCard = { id: this.next.customer++, externalId, saleChannelId, data: { ...data } };
    team.customers.push(created);
    return created;
  }

  private lineRecord(line: Record<string, unknown>): InvoiceLineRecord {
    const quantity = parseDecimal(line.quantity)!;
    const unitPrice = parseDecimal(line.unit_price)!;
    const taxRate = parseDecimal(line.tax_rate)!;
    const discount = isFilled(line.discount) ? parseDecimal(line.discount)! : null;
    const extras = Array.isArray(line.extra_taxes) ? (line.extra_taxes as Array<Record<string, unknown>>) : [];
    const record: InvoiceLineRecord = {
      id: this.next.line++,
      product_id: (line.id as string | number | undefined) ?? null,
      name: String(line.name),
      sku: str(line.sku),
      description: str(line.description),
      quantity: decString(quantity),
      unit: String(line.unit),
      unit_price: decString(unitPrice),
      tax_rate: taxRate.toFixed(),
      discount_type: discount === null ? null : line.discount_type === "percentage" ? "percentage" : "amount",
      discount: discount === null ? null : decString(discount),
      exemption_code: str(line.exemption_code),
      exemption_reason: str(line.exemption_reason),
      withholding_tax_code: str(line.withholding_tax_code),
      withholding_tax_reason: str(line.withholding_tax_reason),
      extra_taxes: extras.map((e) => ({ tax_code: String(e.tax_code), tax_rate: parseDecimal(e.tax_rate)!.toFixed() })),
      lines_total: "",
      discount_total: "",
      tax_total: "",
      extra_tax_total: "",
      grand_total: "",
    };
    const t = lineTotals(totalsLineOf(record));
    record.lines_total = t.gross.toFixed(2);
    record.discount_total = t.discount.toFixed(2);
    record.tax_total = t.tax.toFixed(2);
    record.extra_tax_total = t.extraTax.toFixed(2);
    record.grand_total = t.total.toFixed(2);
    return record;
  }

  // ----- lifecycle

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.timersByInvoice.clear();
    for (const controller of this.inflight) controller.abort(new Error("Sandbox stopped"));
    this.inflight.clear();
  }
}

function totalsLineOf(line: InvoiceLineRecord): TotalsLine {
  return {
    quantity: line.quantity,
    unit_price: line.unit_price,
    tax_rate: line.tax_rate,
    discount_type: line.discount_type as TotalsLine["discount_type"],
    discount: line.discount,
    extra_taxes: line.extra_taxes,
  };
}

function receiverOf(customer: CustomerCard): ReceiverRecord {
  const d = customer.data;
  return {
    id: customer.id,
    external_id: customer.externalId,
    type: str(d.type),
    name: str(d.name),
    surname: str(d.surname),
    title: str(d.title),
    tax_number: String(d.tax_number),
    tax_office: str(d.tax_office),
    country: str(d.country),
    city: str(d.city),
    district: str(d.district),
    address: str(d.address),
    postcode: str(d.postcode),
    phone: str(d.phone),
    email: str(d.email),
  };
}

function clone<T>(value: T): T {
  return structuredClone(value);
}
