import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  INVOICE_STATES,
  STATE,
  TRANSITIONS,
  TRANSITION_EVENTS,
  fromStates,
  nextState,
  renderTransitions,
  stateOf,
  targetOf,
  transition,
  type InvoiceState,
  type Transition,
} from "../../app/invoice-state/transitions";

const source = readFileSync(new URL("../../app/invoice-state/transitions.ts", import.meta.url), "utf8");

describe("the header comment's diagram", () => {
  it("is the table, rendered", () => {
    const block = source.slice(
      source.indexOf("// <transitions>\n") + "// <transitions>\n".length,
      source.indexOf("// </transitions>"),
    );
    const lines = block
      .trimEnd()
      .split("\n")
      .map((line) => line.replace(/^\/\/ ?/, "").trimEnd());
    expect(lines).toEqual(renderTransitions());
  });
});

// Every entry: each state it may leave goes where the table says; every other state is refused.
const expected: Record<
  Transition,
  { from: (InvoiceState | "new")[]; to: InvoiceState | "same"; context?: Parameters<typeof transition>[2] }
> = {
  record: { from: ["new"], to: "queued" },
  record_waiting: { from: ["new"], to: "waiting" },
  record_cancelled: { from: ["new"], to: "cancelled" },
  trigger: { from: ["waiting"], to: "queued" },
  cancel: { from: ["waiting", "queued", "needs_attention", "failed"], to: "cancelled" },
  cancel_ask_service: { from: ["waiting", "queued", "needs_attention", "failed"], to: "queued" },
  cancel_formalised: { from: [...INVOICE_STATES], to: "needs_attention" },
  claim: { from: ["queued"], to: "sending" },
  uninstalled: { from: ["sending"], to: "queued" },
  shopify_lost: { from: ["sending"], to: "queued" },
  resume: { from: ["queued"], to: "same" },
  cancelled_unposted: { from: ["sending"], to: "cancelled" },
  retry: { from: ["sending"], to: "queued" },
  give_up: { from: ["sending"], to: "failed" },
  reported: { from: [...INVOICE_STATES], to: "completed", context: { reported: "completed" } },
  needs_attention: { from: [...INVOICE_STATES], to: "needs_attention" },
  read_now: { from: ["processing"], to: "same" },
  withdraw: { from: [...INVOICE_STATES], to: "cancelled" },
  reissue: { from: [...INVOICE_STATES], to: "queued" },
  merchant_retry: { from: ["needs_attention", "failed"], to: "queued" },
  order_updated: { from: ["needs_attention"], to: "queued" },
  issue_for_real: { from: ["completed", "failed"], to: "queued" },
  panel_cancelled: { from: [...INVOICE_STATES], to: "cancelled" },
  close: { from: ["needs_attention", "failed", "waiting"], to: "closed" },
  reopen: { from: ["closed"], to: "failed", context: { closedFrom: "failed" } },
};

describe("transition", () => {
  it("covers every entry of the table", () => {
    expect(Object.keys(expected).sort()).toEqual([...TRANSITION_EVENTS].sort());
  });

  for (const event of TRANSITION_EVENTS) {
    it(`${event}: allowed from its states, refused from every other`, () => {
      const { from, to, context } = expected[event];
      for (const state of ["new", ...INVOICE_STATES] as const) {
        const result = transition(state, event, context);
        if (from.includes(state)) {
          expect(result, `${event} from ${state}`).toEqual({
            ok: true,
            to: to === "same" ? state : to,
            writes: TRANSITIONS[event].writes,
          });
        } else {
          expect(result, `${event} from ${state}`).toEqual({ ok: false, reason: "not_allowed", from: state, event });
          expect(() => nextState(state, event, context)).toThrow(`${event} is not allowed from ${state}`);
        }
      }
    });
  }

  it("reported: only to a state the service can report", () => {
    for (const state of ["processing", "completed", "failed", "cancelled"] as const)
      expect(nextState("sending", "reported", { reported: state })).toBe(state);
    expect(transition("sending", "reported", { reported: "closed" }).ok).toBe(false);
    expect(transition("sending", "reported").ok).toBe(false);
  });

  it("reopen: back to the state it was closed from, else needing attention", () => {
    expect(nextState("closed", "reopen", { closedFrom: "waiting" })).toBe("waiting");
    expect(nextState("closed", "reopen", { closedFrom: "completed" })).toBe("needs_attention");
    expect(nextState("closed", "reopen")).toBe("needs_attention");
  });

  it("targetOf and fromStates read the table; events whose ends depend on the row have none", () => {
    expect(targetOf("merchant_retry")).toBe("queued");
    expect(fromStates("merchant_retry")).toEqual(["needs_attention", "failed"]);
    expect(fromStates("record")).toEqual([]);
    expect(() => targetOf("resume")).toThrow();
    expect(() => targetOf("reported")).toThrow();
    expect(() => fromStates("withdraw")).toThrow();
  });
});

describe("STATE and stateOf", () => {
  it("names each state by itself", () => {
    for (const state of INVOICE_STATES) expect(STATE[state]).toBe(state);
  });

  it("reads the service's answer", () => {
    expect(stateOf({ workflow_status: "failed", formal_status: null })).toBe("failed");
    expect(stateOf({ workflow_status: "completed", formal_status: "canceled" })).toBe("cancelled");
    expect(stateOf({ workflow_status: "completed", formal_status: "not_required" })).toBe("completed");
    expect(stateOf({ workflow_status: "completed", formal_status: "pending" })).toBe("processing");
  });
});
