// The write-back planner: invoice state → tags, metafields, Flow events → the exact mutations, from what was
// written before. Pure, so every case is checked here without Shopify.
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import {
  afterFlow,
  afterMetafields,
  afterTagsAdd,
  afterTagsRemove,
  isEmptyPlan,
  METAFIELDS,
  NOTHING_WRITTEN,
  planWriteBack,
  readWritten,
  type Plan,
  type TagSettings,
  type Written,
} from "../../app/write-back/plan";
import { COMPLETED_INVOICE } from "../helpers/write-back";

const TAGS: TagSettings = { orderTag: "e-fatura", eArchiveTag: "", eInvoiceTag: "" };

const completed = COMPLETED_INVOICE;

/** What Shopify holds after every part of the plan succeeded. */
function carriedOut(written: Written, plan: Plan): Written {
  let next = afterMetafields(written, plan);
  next = afterTagsAdd(next, plan);
  next = afterTagsRemove(next, plan);
  for (const event of plan.flow) next = afterFlow(next, event);
  return next;
}

describe("planWriteBack", () => {
  it("a completed invoice: its tag, six metafields and one 'Invoice issued' event", () => {
    const plan = planWriteBack(completed, TAGS, NOTHING_WRITTEN);
    expect(plan.orderGid).toBe("gid://shopify/Order/5001");
    expect(plan.tagsAdd).toEqual(["e-fatura"]);
    expect(plan.tagsRemove).toEqual([]);
    expect(Object.fromEntries(plan.metafields.map((m) => [m.key, [m.type, m.value]]))).toEqual({
      invoice_state: ["single_line_text_field", "completed"],
      invoice_serial: ["single_line_text_field", "ARS2026000000001"],
      invoice_ettn: ["single_line_text_field", "11111111-2222-3333-4444-555555555555"],
      invoice_pdf_url: ["url", "https://service.example/pdf/1"],
      invoice_kind: ["single_line_text_field", "e_archive"],
      invoice_date: ["date", "2026-11-23"],
    });
    expect(plan.metafields.every((m) => m.namespace === "$app" && m.ownerId === "gid://shopify/Order/5001")).toBe(true);
    expect(plan.flow.map((f) => [f.handle, f.key])).toEqual([["invoice-issued", "issued:ARS2026000000001"]]);
    expect(plan.flow[0].payload).toMatchObject({
      order_id: 5001,
      "Serial number": "ARS2026000000001",
      "Test invoice": false,
    });
  });

  it("the same completion twice writes once: after carrying out the plan nothing is left", () => {
    const first = planWriteBack(completed, TAGS, NOTHING_WRITTEN);
    const written = carriedOut(NOTHING_WRITTEN, first);
    expect(isEmptyPlan(planWriteBack(completed, TAGS, written))).toBe(true);
    // Also after a round trip through the database's JSON.
    expect(isEmptyPlan(planWriteBack(completed, TAGS, readWritten(JSON.parse(JSON.stringify(written)))))).toBe(true);
  });

  it("a second tag by document kind, when set", () => {
    const settings = { orderTag: "e-fatura", eArchiveTag: "e-arşiv", eInvoiceTag: "e-fatura-mükellef" };
    expect(planWriteBack(completed, settings, NOTHING_WRITTEN).tagsAdd).toEqual(["e-fatura", "e-arşiv"]);
    expect(planWriteBack({ ...completed, documentKind: "e_invoice" }, settings, NOTHING_WRITTEN).tagsAdd).toEqual([
      "e-fatura",
      "e-fatura-mükellef",
    ]);
    // The same tag twice (any case) is added once; an empty tag setting adds none.
    expect(planWriteBack(completed, { ...settings, eArchiveTag: "E-FATURA" }, NOTHING_WRITTEN).tagsAdd).toEqual([
      "e-fatura",
    ]);
    expect(
      planWriteBack(completed, { orderTag: "", eArchiveTag: "", eInvoiceTag: "" }, NOTHING_WRITTEN).tagsAdd,
    ).toEqual([]);
  });

  it("cancelled after completion: removes only the app's tags, state 'cancelled', the serial number stays", () => {
    const written = carriedOut(NOTHING_WRITTEN, planWriteBack(completed, TAGS, NOTHING_WRITTEN));
    const plan = planWriteBack({ ...completed, state: "cancelled" }, TAGS, { ...written });
    expect(plan.tagsAdd).toEqual([]);
    expect(plan.tagsRemove).toEqual(["e-fatura"]);
    expect(plan.metafields.map((m) => [m.key, m.value])).toEqual([["invoice_state", "cancelled"]]);
    expect(plan.flow).toEqual([]);
    const after = carriedOut(written, plan);
    expect(after.tags).toEqual([]);
    expect(after.metafields.invoice_serial).toBe("ARS2026000000001");
  });

  it("never removes a tag the app did not add", () => {
    const plan = planWriteBack({ ...completed, state: "cancelled" }, TAGS, NOTHING_WRITTEN);
    expect(plan.tagsRemove).toEqual([]);
  });

  it("a renamed tag setting moves the app's tag on the next write", () => {
    const written = carriedOut(NOTHING_WRITTEN, planWriteBack(completed, TAGS, NOTHING_WRITTEN));
    const plan = planWriteBack(completed, { ...TAGS, orderTag: "faturalandı" }, written);
    expect(plan.tagsAdd).toEqual(["faturalandı"]);
    expect(plan.tagsRemove).toEqual(["e-fatura"]);
  });

  it("a test-mode invoice: no tags, state 'test', the Flow event marked as a test", () => {
    const plan = planWriteBack({ ...completed, postedInTestMode: true }, TAGS, NOTHING_WRITTEN);
    expect(plan.tagsAdd).toEqual([]);
    expect(plan.metafields.find((m) => m.key === "invoice_state")?.value).toBe("test");
    expect(plan.flow[0].payload["Test invoice"]).toBe(true);
  });

  it("issued for real after a test invoice: tags added, the live serial number and state replace the test ones", () => {
    const test = { ...completed, postedInTestMode: true, serialNumber: "TST2026000000001" };
    const written = carriedOut(NOTHING_WRITTEN, planWriteBack(test, TAGS, NOTHING_WRITTEN));
    const plan = planWriteBack(completed, TAGS, written);
    expect(plan.tagsAdd).toEqual(["e-fatura"]);
    expect(plan.metafields.map((m) => m.key).sort()).toEqual(["invoice_serial", "invoice_state"]);
    expect(plan.flow.map((f) => f.key)).toEqual(["issued:ARS2026000000001"]);
  });

  it("needs attention: state metafield and one 'needs attention' event per cause, no tags", () => {
    const attention = {
      ...completed,
      state: "needs_attention" as const,
      serialNumber: null,
      ettn: null,
      pdfUrl: null,
      documentKind: null,
      issueDate: null,
      problemCodes: ["customer.tax_office_missing"],
    };
    const plan = planWriteBack(attention, TAGS, NOTHING_WRITTEN);
    expect(plan.tagsAdd).toEqual([]);
    expect(plan.metafields.map((m) => [m.key, m.value])).toEqual([["invoice_state", "needs_attention"]]);
    expect(plan.flow.map((f) => [f.handle, f.key])).toEqual([
      ["invoice-needs-attention", "attention:needs_attention:customer.tax_office_missing"],
    ]);
    const written = carriedOut(NOTHING_WRITTEN, plan);
    expect(isEmptyPlan(planWriteBack(attention, TAGS, written))).toBe(true);
    // Another cause is another event.
    expect(planWriteBack({ ...attention, problemCodes: ["service.rejected"] }, TAGS, written).flow).toHaveLength(1);
  });

  it("deadline approaching: one call 48 h before and one 24 h before the 7-day deadline, each once, none after it", () => {
    const deadline = "2026-11-27T09:30:00.000Z";
    const hoursBefore = (hours: number) => new Date(Date.parse(deadline) - hours * 3_600_000);
    const attention = {
      ...completed,
      state: "needs_attention" as const,
      serialNumber: null,
      ettn: null,
      pdfUrl: null,
      documentKind: null,
      issueDate: null,
      problemCodes: ["customer.invalid_tax_number"],
      deadline,
    };
    const deadlineCalls = (plan: ReturnType<typeof planWriteBack>) =>
      plan.flow.filter((f) => f.handle === "invoice-deadline-approaching").map((f) => f.key);
    expect(deadlineCalls(planWriteBack(attention, TAGS, NOTHING_WRITTEN, hoursBefore(60)))).toEqual([]);
    const at48 = planWriteBack(attention, TAGS, NOTHING_WRITTEN, hoursBefore(47));
    expect(deadlineCalls(at48)).toEqual(["deadline:48h"]);
    const written = carriedOut(NOTHING_WRITTEN, at48);
    expect(isEmptyPlan(planWriteBack(attention, TAGS, written, hoursBefore(30)))).toBe(true);
    const at24 = planWriteBack(attention, TAGS, written, hoursBefore(23));
    expect(deadlineCalls(at24)).toEqual(["deadline:24h"]);
    expect(at24.flow[0].payload).toMatchObject({
      "Hours left": "24",
      Deadline: deadline,
      Problems: "customer.invalid_tax_number",
    });
    expect(isEmptyPlan(planWriteBack(attention, TAGS, carriedOut(written, at24), hoursBefore(2)))).toBe(true);
    // Past the deadline, or issued (no running deadline): no call.
    expect(deadlineCalls(planWriteBack(attention, TAGS, NOTHING_WRITTEN, hoursBefore(-1)))).toEqual([]);
    expect(
      deadlineCalls(planWriteBack({ ...completed, deadline: null }, TAGS, NOTHING_WRITTEN, hoursBefore(23))),
    ).toEqual([]);
  });

  it("failed at the service: a 'needs attention' event; the completed invoice's tags removed", () => {
    const written = carriedOut(NOTHING_WRITTEN, planWriteBack(completed, TAGS, NOTHING_WRITTEN));
    const plan = planWriteBack(
      { ...completed, state: "failed", problemCodes: ["service.formalisation_failed"] },
      TAGS,
      written,
    );
    expect(plan.tagsRemove).toEqual(["e-fatura"]);
    expect(plan.flow.map((f) => f.handle)).toEqual(["invoice-needs-attention"]);
  });

  it("only web addresses become the PDF metafield, only Y-m-d the date", () => {
    const plan = planWriteBack(
      { ...completed, pdfUrl: "javascript:alert(1)", issueDate: "23.11.2026" },
      TAGS,
      NOTHING_WRITTEN,
    );
    expect(plan.metafields.map((m) => m.key)).not.toContain("invoice_pdf_url");
    expect(plan.metafields.map((m) => m.key)).not.toContain("invoice_date");
  });

  it("reads stored JSON defensively", () => {
    expect(readWritten(null)).toEqual(NOTHING_WRITTEN);
    expect(
      readWritten({
        tags: ["a", 3],
        metafields: { invoice_state: "completed", other: "x", invoice_serial: 5 },
        flow: "x",
      }),
    ).toEqual({
      tags: ["a"],
      metafields: { invoice_state: "completed" },
      flow: [],
    });
  });
});

describe("metafield definitions in shopify.app.toml", () => {
  const app = parse(readFileSync("shopify.app.toml", "utf8")) as {
    order?: {
      metafields?: {
        app?: Record<string, { type: string; name: string; access?: { customer_account?: string; admin?: string } }>;
      };
    };
    access_scopes: { scopes: string; optional_scopes?: string[] };
  };

  it("declares each metafield the app writes, with its type, readable by customer accounts", () => {
    const declared = app.order?.metafields?.app ?? {};
    expect(Object.keys(declared).sort()).toEqual(Object.keys(METAFIELDS).sort());
    for (const [key, type] of Object.entries(METAFIELDS)) {
      expect(declared[key].type, key).toBe(type);
      expect(declared[key].access?.customer_account, key).toBe("read");
      expect(declared[key].name, key).toBeTruthy();
    }
  });

  it("asks for write_orders (and read_companies, for B2B buyers) as optional scopes only", () => {
    expect(app.access_scopes.scopes).toBe("read_orders");
    expect(app.access_scopes.optional_scopes).toEqual(["write_orders", "read_companies"]);
  });
});
