// What a waybill invoice's row keeps as its source (the `orderSnapshot` column of an order's row): the
// waybill facts the body needs and the form as the merchant submitted it. The worker builds the body from
// it when it posts, with the shop's connection of that moment, exactly as it maps an order snapshot.
import { readForm, type WaybillFacts, type WaybillInvoiceForm } from "./waybill-invoice";

export interface WaybillSnapshot {
  source: "waybill";
  waybill: WaybillFacts & { documentNumber: string; issueDate: string };
  form: WaybillInvoiceForm;
}

export function waybillSnapshotOf(value: unknown): WaybillSnapshot | null {
  if (!value || typeof value !== "object") return null;
  const v = value as { source?: unknown; waybill?: Record<string, unknown>; form?: unknown };
  const w = v.waybill;
  if (v.source !== "waybill" || !w || typeof w.id !== "number" || !Number.isSafeInteger(w.id) || w.id <= 0) return null;
  return {
    source: "waybill",
    waybill: {
      id: w.id,
      currency: typeof w.currency === "string" && w.currency ? w.currency : "TRY",
      currencyRate: typeof w.currencyRate === "string" && w.currencyRate ? w.currencyRate : "1",
      documentNumber: typeof w.documentNumber === "string" ? w.documentNumber : "",
      issueDate: typeof w.issueDate === "string" ? w.issueDate : "",
    },
    form: readForm(v.form),
  };
}
