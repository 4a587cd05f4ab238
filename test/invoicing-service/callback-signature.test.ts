import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  callbackSignature,
  parseCallback,
  verifyCallback,
} from "../../app/invoicing-service/callback-signature.server";

const API_KEY = "test-api-key";
const fields = { invoice_id: 77, team_id: 1, time: "2025-11-10 15:43:59" };
// Computed once with node:crypto (HMAC-SHA512 of "771" + "2025-11-10 15:43:59", key "test-api-key") and frozen here.
const KNOWN_HASH =
  "9c9a8b798675dd8d50f434a8c43c4ff90cc9f1f56c6e409aff8b32afc9810bd8bee9cd9c4932cb4f4e96230d9744ca9d7bd644df6bf7974a39a95614852378ea";

function independentHmac(invoiceId: number, teamId: number, time: string, key: string): string {
  return createHmac("sha512", key).update(`${invoiceId}${teamId}${time}`).digest("hex");
}

describe("callbackSignature", () => {
  it("is the lowercase hex HMAC-SHA512 of invoice_id + team_id + time keyed with the API key", () => {
    expect(callbackSignature(fields, API_KEY)).toBe(independentHmac(77, 1, fields.time, API_KEY));
    expect(callbackSignature(fields, API_KEY)).toBe(KNOWN_HASH);
  });

  it("depends on every field and on the key", () => {
    const base = callbackSignature(fields, API_KEY);
    expect(callbackSignature({ ...fields, invoice_id: 78 }, API_KEY)).not.toBe(base);
    expect(callbackSignature({ ...fields, team_id: 2 }, API_KEY)).not.toBe(base);
    expect(callbackSignature({ ...fields, time: "2025-11-10 15:44:00" }, API_KEY)).not.toBe(base);
    expect(callbackSignature(fields, "other-key")).not.toBe(base);
  });
});

describe("verifyCallback", () => {
  const valid = { ...fields, hash: KNOWN_HASH };

  it("accepts a correctly signed payload, also with an uppercase hash", () => {
    expect(verifyCallback(valid, API_KEY)).toBe(true);
    expect(verifyCallback({ ...valid, hash: KNOWN_HASH.toUpperCase() }, API_KEY)).toBe(true);
  });

  it("rejects a tampered field, a tampered hash and the wrong key", () => {
    expect(verifyCallback({ ...valid, invoice_id: 78 }, API_KEY)).toBe(false);
    expect(verifyCallback({ ...valid, team_id: 2 }, API_KEY)).toBe(false);
    expect(verifyCallback({ ...valid, time: "2025-11-10 15:44:00" }, API_KEY)).toBe(false);
    const flipped = (KNOWN_HASH[0] === "0" ? "1" : "0") + KNOWN_HASH.slice(1);
    expect(verifyCallback({ ...valid, hash: flipped }, API_KEY)).toBe(false);
    expect(verifyCallback(valid, "other-key")).toBe(false);
    expect(verifyCallback(valid, "")).toBe(false);
  });

  it("returns false without throwing when the hash has the wrong length or is not hex", () => {
    expect(verifyCallback({ ...valid, hash: KNOWN_HASH.slice(0, 64) }, API_KEY)).toBe(false);
    expect(verifyCallback({ ...valid, hash: KNOWN_HASH + "00" }, API_KEY)).toBe(false);
    expect(verifyCallback({ ...valid, hash: KNOWN_HASH.slice(0, 127) }, API_KEY)).toBe(false);
    expect(verifyCallback({ ...valid, hash: "" }, API_KEY)).toBe(false);
    expect(verifyCallback({ ...valid, hash: "z".repeat(128) }, API_KEY)).toBe(false);
  });
});

describe("parseCallback", () => {
  const body = { ...fields, hash: KNOWN_HASH };

  it("parses the documented body and accepts numeric strings for the ids", () => {
    expect(parseCallback(body)).toEqual(body);
    expect(parseCallback({ ...body, invoice_id: "77", team_id: "1" })).toEqual(body);
  });

  it("a parsed, correctly signed callback verifies", () => {
    const parsed = parseCallback(JSON.parse(JSON.stringify({ ...body, invoice_id: "77" })));
    expect(parsed).not.toBeNull();
    expect(verifyCallback(parsed!, API_KEY)).toBe(true);
  });

  it.each([
    ["null", null],
    ["a string", "invoice_id=77"],
    ["an array", [body]],
    ["missing invoice_id", { team_id: 1, time: fields.time, hash: KNOWN_HASH }],
    ["missing team_id", { invoice_id: 77, time: fields.time, hash: KNOWN_HASH }],
    ["missing time", { invoice_id: 77, team_id: 1, hash: KNOWN_HASH }],
    ["missing hash", fields],
    ["non-numeric invoice_id", { ...body, invoice_id: "abc" }],
    ["boolean team_id", { ...body, team_id: true }],
    ["time not Y-m-d H:i:s", { ...body, time: "2025-11-10T15:43:59Z" }],
    ["non-hex hash", { ...body, hash: "g".repeat(128) }],
    ["short hash", { ...body, hash: KNOWN_HASH.slice(0, 126) }],
    ["numeric hash", { ...body, hash: 12345 }],
  ])("returns null for %s", (_label, input) => {
    expect(parseCallback(input)).toBeNull();
  });
});
