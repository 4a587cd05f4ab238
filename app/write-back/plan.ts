// What the Shopify order of an invoice should carry, and the exact mutations that get it there from what the
// app last wrote. Pure: no I/O, so the same invoice, the same "written" and the same time always give the same plan,
// and a plan that was carried out leaves nothing to do the next time (the same completion twice writes once).
// docs/decisions/0015-order-write-back.md
import { flowCallDue } from "../invoices/deadline";
import type { InvoiceState } from "../invoice-state/transitions";
import { STATE } from "../invoice-state/transitions";

/** The app-owned namespace: Shopify turns `$app` into `app--{client id}` (readable by Liquid as such). */
export const METAFIELD_NAMESPACE = "$app";

/**
 * The order metafields the app owns, with their types. The definitions live in shopify.app.toml
 * (`[order.metafields.app.<key>]`, readable by customer accounts); a test keeps the two in step.
 */
export const METAFIELDS = {
  invoice_serial: "single_line_text_field",
  invoice_ettn: "single_line_text_field",
  invoice_pdf_url: "url",
  invoice_kind: "single_line_text_field",
  invoice_state: "single_line_text_field",
  invoice_date: "date",
} as const;
export type MetafieldKey = keyof typeof METAFIELDS;

/** Flow trigger extensions (extensions/flow-invoice-*): their handles. */
export const FLOW_TRIGGERS = {
  issued: "invoice-issued",
  attention: "invoice-needs-attention",
  deadline: "invoice-deadline-approaching",
} as const;

export interface WriteBackInvoice {
  id: string;
  orderId: string;
  orderName: string;
  state: InvoiceState;
  documentKind: string | null;
  serialNumber: string | null;
  ettn: string | null;
  /** The customer's link to the PDF (the app's signed link, app/pdf/customer-pdf.server.ts), when there is one. */
  pdfUrl: string | null;
  /** Y-m-d, as the invoice was issued. */
  issueDate: string | null;
  /** Issued through the dummy integration in test mode: not a legal invoice. */
  postedInTestMode: boolean;
  orderTotal: string;
  currency: string;
  /** The problem codes the merchant must act on (needs_attention, failed). */
  problemCodes: string[];
  /** Not issued yet: its 7-day legal deadline (ISO), while the clock runs (app/invoices/deadline.ts); else null. */
  deadline: string | null;
}

export interface TagSettings {
  /** The app's tag on every order with a completed invoice; "" for none. */
  orderTag: string;
  /** A second tag by document kind; "" for none. */
  eArchiveTag: string;
  eInvoiceTag: string;
}

/** What Shopify holds from the app for this order, as last confirmed. */
export interface Written {
  tags: string[];
  metafields: Partial<Record<MetafieldKey, string>>;
  /** Flow events already sent (their keys), so that each is sent once. */
  flow: string[];
}

export const NOTHING_WRITTEN: Written = { tags: [], metafields: {}, flow: [] };

export interface MetafieldInput {
  ownerId: string;
  namespace: string;
  key: MetafieldKey;
  type: string;
  value: string;
}

export interface FlowEvent {
  key: string;
  handle: string;
  payload: Record<string, unknown>;
}

export interface Plan {
  orderGid: string;
  tagsAdd: string[];
  tagsRemove: string[];
  metafields: MetafieldInput[];
  flow: FlowEvent[];
}

export const orderGid = (orderId: string) => `gid://shopify/Order/${orderId}`;

/** Shopify tags: trimmed, at most 40 characters, compared without case. */
export function normaliseTag(tag: string): string {
  return tag.trim().slice(0, 40);
}

const sameTag = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The tags the app wants on the order: only a completed, legal invoice is tagged; cancelling one removes them. */
export function desiredTags(invoice: WriteBackInvoice, settings: TagSettings): string[] {
  if (invoice.state !== STATE.completed || invoice.postedInTestMode) return [];
  const kindTag =
    invoice.documentKind === "e_archive"
      ? settings.eArchiveTag
      : invoice.documentKind === "e_invoice"
        ? settings.eInvoiceTag
        : "";
  const tags: string[] = [];
  for (const tag of [settings.orderTag, kindTag].map(normaliseTag)) {
    if (tag && !tags.some((t) => sameTag(t, tag))) tags.push(tag);
  }
  return tags;
}

/**
 * The state customers and e-mails see. A test-mode invoice is "test": never offered as the legal invoice.
 * Only "completed" offers the download.
 */
export function publicState(invoice: WriteBackInvoice): string {
  if (invoice.postedInTestMode && invoice.state === STATE.completed) return "test";
  return invoice.state;
}

/**
 * The metafields the app wants on the order. Values only ever get set, never cleared: after a cancellation the
 * serial number and ETTN stay true (the invoice existed), the state says "cancelled".
 */
export function desiredMetafields(invoice: WriteBackInvoice): Partial<Record<MetafieldKey, string>> {
  const values: Partial<Record<MetafieldKey, string>> = { invoice_state: publicState(invoice) };
  if (invoice.serialNumber) values.invoice_serial = invoice.serialNumber;
  if (invoice.ettn) values.invoice_ettn = invoice.ettn;
  if (invoice.pdfUrl && /^https?:\/\//i.test(invoice.pdfUrl)) values.invoice_pdf_url = invoice.pdfUrl;
  if (invoice.documentKind) values.invoice_kind = invoice.documentKind;
  if (invoice.issueDate && /^\d{4}-\d{2}-\d{2}$/.test(invoice.issueDate)) values.invoice_date = invoice.issueDate;
  return values;
}

function flowPayload(invoice: WriteBackInvoice): Record<string, unknown> {
  // Field names as declared in the trigger extensions' toml (an order reference plus the invoice's fields).
  return {
    order_id: Number(invoice.orderId),
    "Order name": invoice.orderName,
    "Invoice state": publicState(invoice),
    "Serial number": invoice.serialNumber ?? "",
    ETTN: invoice.ettn ?? "",
    "Document kind": invoice.documentKind ?? "",
    "PDF URL": invoice.pdfUrl ?? "",
    "Invoice total": invoice.orderTotal,
    Currency: invoice.currency,
    "Test invoice": invoice.postedInTestMode,
    Problems: invoice.problemCodes.join(", "),
  };
}

/** The "deadline approaching" trigger's fields, as declared in extensions/flow-invoice-deadline. */
function deadlinePayload(invoice: WriteBackInvoice, deadline: string, hours: number): Record<string, unknown> {
  return {
    order_id: Number(invoice.orderId),
    "Order name": invoice.orderName,
    "Invoice state": publicState(invoice),
    Deadline: deadline,
    "Hours left": String(hours),
    "Invoice total": invoice.orderTotal,
    Currency: invoice.currency,
    Problems: invoice.problemCodes.join(", "),
  };
}

/**
 * The Flow events this state warrants: issued once per serial number, "needs attention" once per cause, and for an
 * invoice not issued yet "deadline approaching" once 48 h and once 24 h before its 7-day deadline.
 */
export function desiredFlow(invoice: WriteBackInvoice, now: Date = new Date()): FlowEvent[] {
  const events: FlowEvent[] = [];
  if (invoice.state === STATE.completed && invoice.serialNumber) {
    events.push({ key: `issued:${invoice.serialNumber}`, handle: FLOW_TRIGGERS.issued, payload: flowPayload(invoice) });
  }
  if (invoice.state === STATE.needs_attention || invoice.state === STATE.failed) {
    const cause = [...invoice.problemCodes].sort().join("+") || "-";
    events.push({
      key: `attention:${invoice.state}:${cause}`,
      handle: FLOW_TRIGGERS.attention,
      payload: flowPayload(invoice),
    });
  }
  const call = invoice.deadline ? flowCallDue(new Date(invoice.deadline), now) : null;
  if (invoice.deadline && call)
    events.push({
      key: call.key,
      handle: FLOW_TRIGGERS.deadline,
      payload: deadlinePayload(invoice, invoice.deadline, call.hours),
    });
  return events;
}

export function planWriteBack(
  invoice: WriteBackInvoice,
  settings: TagSettings,
  written: Written,
  now: Date = new Date(),
): Plan {
  const gid = orderGid(invoice.orderId);
  const tags = desiredTags(invoice, settings);
  const tagsAdd = tags.filter((tag) => !written.tags.some((t) => sameTag(t, tag)));
  // Only tags the app itself added are ever removed: the merchant's own tags are never touched.
  const tagsRemove = written.tags.filter((tag) => !tags.some((t) => sameTag(t, tag)));
  const values = desiredMetafields(invoice);
  const metafields = (Object.keys(values) as MetafieldKey[])
    .filter((key) => written.metafields[key] !== values[key])
    .map((key) => ({ ownerId: gid, namespace: METAFIELD_NAMESPACE, key, type: METAFIELDS[key], value: values[key]! }));
  const flow = desiredFlow(invoice, now).filter((event) => !written.flow.includes(event.key));
  return { orderGid: gid, tagsAdd, tagsRemove, metafields, flow };
}

export const isEmptyPlan = (plan: Plan) =>
  plan.tagsAdd.length === 0 && plan.tagsRemove.length === 0 && plan.metafields.length === 0 && plan.flow.length === 0;

/** What Shopify holds after each part of a plan succeeded: recorded part by part, so a retry repeats no part. */
export const afterTagsAdd = (written: Written, plan: Plan): Written => ({
  ...written,
  tags: [...written.tags, ...plan.tagsAdd],
});
export const afterTagsRemove = (written: Written, plan: Plan): Written => ({
  ...written,
  tags: written.tags.filter((tag) => !plan.tagsRemove.some((t) => sameTag(t, tag))),
});
export const afterMetafields = (written: Written, plan: Plan): Written => ({
  ...written,
  metafields: { ...written.metafields, ...Object.fromEntries(plan.metafields.map((m) => [m.key, m.value])) },
});
export const afterFlow = (written: Written, event: FlowEvent): Written => ({
  ...written,
  flow: [...written.flow, event.key].slice(-50),
});

/** The stored JSON, read defensively (an older or hand-edited row must not crash the worker). */
export function readWritten(value: unknown): Written {
  const v = (value ?? {}) as Partial<Written>;
  const strings = (a: unknown) => (Array.isArray(a) ? a.filter((x): x is string => typeof x === "string") : []);
  const metafields: Written["metafields"] = {};
  if (v.metafields && typeof v.metafields === "object") {
    for (const [key, value] of Object.entries(v.metafields)) {
      if (key in METAFIELDS && typeof value === "string") metafields[key as MetafieldKey] = value;
    }
  }
  return { tags: strings(v.tags), metafields, flow: strings(v.flow) };
}
