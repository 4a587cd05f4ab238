// The invoice page's history and retry lines (app/invoices/history.ts): catalogue texts in both languages, times in
// the shop's zone, no raw ISO time, no raw service state, no English on a Turkish page (issue 22, points 7 and 8).
import { describe, expect, it } from "vitest";
import { historyDetail, historyTitle, type HistoryEvent } from "../../app/invoices/history";
import { reasonText } from "../../app/problems";

const ctx = (locale: "tr" | "en") => ({ locale, timezone: "Europe/Istanbul", currency: "TRY", waybill: false });
const ev = (type: string, data: Record<string, unknown> | null, message: string | null = null): HistoryEvent => ({
  type,
  at: "2026-11-26T14:40:00.000Z",
  data,
  message,
});
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

// What the pipeline records (app/invoices/process.server.ts and friends), with the operator's English line beside it.
const EVENTS: HistoryEvent[] = [
  ev("received", { topic: "orders/paid", webhookId: "w1" }),
  ev("posted", { remoteId: 1017, grandTotal: "549.70" }, "invoice 1017 at the service"),
  ev(
    "status",
    { state: "completed", workflowStatus: "completed", formalStatus: "completed", serialNumber: "ARS2026000000017" },
    "completed / completed · ARS2026000000017",
  ),
  ev(
    "retry",
    {
      attempts: 2,
      delayMs: 10_000,
      nextAttemptAt: "2026-11-26T14:46:18.000Z",
      reason: { kind: "server", status: 503 },
    },
    "server 503: POST /invoices (HTTP 503): server error; next try 2026-11-26T14:46:18Z",
  ),
  ev("error", { attempts: 12, reason: { kind: "timeout" } }, "gave up after 12 attempts: timeout"),
  ev("refund", { topic: "refunds/create", refundId: "9001", amount: "549.70" }, "refund 9001: 549.70"),
  ev("cancelled", { note: "cancelled_before_post" }, "order cancelled in Shopify before posting"),
  ev(
    "queued",
    { note: "issued_for_real", testInvoice: 77, testSerial: "ARS2026000000001" },
    "issued for real by the merchant (the test invoice 77 · ARS2026000000001 stays at the service)",
  ),
  ev(
    "edited",
    { topic: "orders/edited", note: "edited_after_post" },
    "order edited in Shopify after the invoice was posted",
  ),
  ev(
    "withdrawn",
    { remoteId: 1017, formalStatus: "pending" },
    "invoice 1017 deleted at the service before formalisation",
  ),
];

describe("invoice history lines", () => {
  it("says a 503 retry in Turkish with the local time of the next try, never the raw error or an ISO time", () => {
    const line = historyDetail(EVENTS[3], ctx("tr"));
    expect(line).toBe(
      "Fatura servisi hata verdi (HTTP 503). Uygulama 26 Kas 2026 17:46 tarihinde kendisi yeniden deneyecek.",
    );
    expect(historyDetail(EVENTS[3], ctx("en"))).toBe(
      "The invoicing service had an error (HTTP 503). The app tries again by itself on Nov 26, 2026, 5:46 PM.",
    );
  });

  it("renders every kind of event from its data in both languages: no stored English line, no ISO time, no raw state pair", () => {
    for (const locale of ["tr", "en"] as const) {
      for (const event of EVENTS) {
        const title = historyTitle(event, ctx(locale));
        const detail = historyDetail(event, ctx(locale));
        expect(title, event.type).not.toBe(event.type);
        if (event.message) expect(detail, event.type).not.toBe(event.message);
        expect(`${title} ${detail ?? ""}`, event.type).not.toMatch(ISO);
        expect(detail ?? "", event.type).not.toMatch(/completed \/ completed|durum: draft|at the service$/);
      }
    }
    expect(historyDetail(EVENTS[2], ctx("tr"))).toBe("Servisteki durumu: Tamamlandı · ARS2026000000017.");
    expect(historyDetail(EVENTS[5], ctx("tr"))).toBe("Shopify'da ₺549,70 iade edildi.");
    expect(historyDetail(EVENTS[1], ctx("tr"))).toBe("Fatura servisinde 1017 numaralı fatura olarak kayıtlı.");
  });

  it("an old event that recorded only an English line shows it on an English page, and nothing more on a Turkish one", () => {
    const old = ev("after_sale", null, "deleting invoice 5 was refused: rejected 409");
    expect(historyDetail(old, ctx("en"))).toBe(old.message);
    expect(historyDetail(old, ctx("tr"))).toBeNull();
    expect(historyTitle(old, ctx("tr"))).toBe("Satış sonrası");
  });

  it("names a failure's reason from its kind, and the app's own failures without internals", () => {
    expect(reasonText({ kind: "network" }, "tr")).toBe("Uygulama fatura servisine ulaşamadı");
    expect(reasonText({ kind: "something_new" }, "en")).toBe("Something unexpected went wrong in the app");
    expect(reasonText(null, "en")).toBeNull();
  });
});

describe("history of fixes by hand (issue 22, point 1)", () => {
  it("shows the merchant's reason and the panel's serial number in both languages; the operator's line never in Turkish", () => {
    const ctx = (locale: "tr" | "en") => ({ locale, timezone: "Europe/Istanbul", currency: "TRY", waybill: false });
    const closed = {
      type: "closed",
      at: "2026-11-26T10:00:00Z",
      message: "Numune",
      data: { as: "panel", serial: "ABC2026000000042", reason: "Numune" },
    };
    expect(historyTitle(closed, ctx("tr"))).toBe("Elle kapatıldı");
    expect(historyDetail(closed, ctx("tr"))).toBe("Fatura no ABC2026000000042 · Neden: Numune");
    expect(historyDetail(closed, ctx("en"))).toBe("Serial number ABC2026000000042 · Why: Numune");
    const buyer = {
      type: "buyer_override",
      at: "2026-11-26T10:00:00Z",
      message: "Telefonda",
      data: { reason: "Telefonda" },
    };
    expect(historyDetail(buyer, ctx("tr"))).toBe("Neden: Telefonda");
    const failed = {
      type: "order_read_failed",
      at: "2026-11-26T10:00:00Z",
      message: "timeout after 8000 ms",
      data: { from: "snapshot" },
    };
    expect(historyTitle(failed, ctx("tr"))).toBe("Sipariş Shopify'dan okunamadı; kayıtlı kopya kullanıldı");
    expect(historyDetail(failed, ctx("tr"))).toBeNull();
  });
});
