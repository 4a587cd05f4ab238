// The Flow trigger extensions and the payloads the write-back sends: the same handles, and exactly the declared
// fields (Flow refuses a payload whose keys or types differ from the trigger's fields).
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { desiredFlow, FLOW_TRIGGERS } from "../../app/write-back/plan";
import { COMPLETED_INVOICE } from "../helpers/write-back";

type Field = { type: string; key?: string };
const trigger = (handle: string) =>
  parse(readFileSync(`extensions/flow-${handle}/shopify.extension.toml`, "utf8")) as {
    extensions: Array<{ type: string; handle: string; name: string }>;
    settings: { fields: Field[] };
  };

const invoice = COMPLETED_INVOICE;

/** The payload key of a field: a reference's id key, or the custom field's key. */
const payloadKey = (field: Field) =>
  field.type.endsWith("_reference") ? `${field.type.replace(/_reference$/, "")}_id` : field.key!;
const typeOf = (value: unknown) =>
  typeof value === "boolean" ? "boolean" : typeof value === "number" ? "number" : "string";
const expectedType: Record<string, string> = {
  order_reference: "number",
  boolean: "boolean",
  single_line_text_field: "string",
};

describe("Flow triggers", () => {
  for (const [state, handle] of [
    ["completed", FLOW_TRIGGERS.issued],
    ["needs_attention", FLOW_TRIGGERS.attention],
  ] as const) {
    it(`${handle}: a flow_trigger whose fields are exactly the payload the app sends`, () => {
      const toml = trigger(handle);
      expect(toml.extensions[0]).toMatchObject({ type: "flow_trigger", handle });
      expect(handle.length).toBeLessThanOrEqual(30);
      const [event] = desiredFlow({
        ...invoice,
        state,
        problemCodes: state === "completed" ? [] : ["customer.tax_office_missing"],
      });
      expect(event.handle).toBe(handle);
      const fields = toml.settings.fields;
      expect(Object.keys(event.payload).sort()).toEqual(fields.map(payloadKey).sort());
      for (const field of fields)
        expect(typeOf(event.payload[payloadKey(field)]), payloadKey(field)).toBe(expectedType[field.type]);
    });
  }

  it(`${FLOW_TRIGGERS.deadline}: a flow_trigger whose fields are exactly the payload the app sends`, () => {
    const toml = trigger(FLOW_TRIGGERS.deadline);
    expect(toml.extensions[0]).toMatchObject({ type: "flow_trigger", handle: FLOW_TRIGGERS.deadline });
    expect(FLOW_TRIGGERS.deadline.length).toBeLessThanOrEqual(30);
    const deadline = "2026-11-27T09:30:00.000Z";
    const events = desiredFlow(
      { ...invoice, state: "queued", serialNumber: null, deadline },
      new Date("2026-11-26T09:30:00.000Z"),
    );
    expect(events.map((e) => e.handle)).toEqual([FLOW_TRIGGERS.deadline]);
    const fields = toml.settings.fields;
    expect(Object.keys(events[0].payload).sort()).toEqual(fields.map(payloadKey).sort());
    for (const field of fields)
      expect(typeOf(events[0].payload[payloadKey(field)]), payloadKey(field)).toBe(expectedType[field.type]);
    expect(events[0].payload).toMatchObject({ Deadline: deadline, "Hours left": "24", "Invoice state": "queued" });
  });
});
