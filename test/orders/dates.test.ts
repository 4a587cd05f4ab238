// Dates of the invoice (app/orders/dates.ts). The service wants `Y-m-d` dates and an `H:i` time, and refuses an
// issue date later than today (shared spec, invoicing-service.md); Shopify sends ISO 8601 timestamps with the
// shop's offset (`created_at`, `processed_at`, fulfillments' `created_at`), and the shop's zone is an IANA name.
import { DateTime, IANAZone } from "luxon";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dateIn, issueMoment, localParts, minDate, TURKEY_ZONE, zoneOrTurkey } from "../../app/orders/dates";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("zoneOrTurkey", () => {
  it("keeps a zone the runtime knows, Turkey's otherwise", () => {
    expect(TURKEY_ZONE).toBe("Europe/Istanbul");
    expect(zoneOrTurkey("America/New_York")).toBe("America/New_York");
    expect(zoneOrTurkey("Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(zoneOrTurkey("Mars/Olympus_Mons")).toBe("Europe/Istanbul");
    expect(zoneOrTurkey("")).toBe("Europe/Istanbul");
    expect(zoneOrTurkey(null)).toBe("Europe/Istanbul");
    expect(zoneOrTurkey(undefined)).toBe("Europe/Istanbul");
  });

  it("asks the runtime once per zone (an Intl formatter each time), and never for a missing zone", async () => {
    // A fresh copy of the module, so that no zone is known from the tests above.
    vi.resetModules();
    const { zoneOrTurkey } = await import("../../app/orders/dates");
    const asked = vi.spyOn(IANAZone, "isValidZone");
    for (let i = 0; i < 3; i++) {
      expect(zoneOrTurkey("Pacific/Chatham")).toBe("Pacific/Chatham");
      expect(zoneOrTurkey("Atlantis/Poseidonia")).toBe("Europe/Istanbul");
      expect(zoneOrTurkey(null)).toBe("Europe/Istanbul");
      expect(zoneOrTurkey("")).toBe("Europe/Istanbul");
    }
    expect(asked.mock.calls).toEqual([["Pacific/Chatham"], ["Atlantis/Poseidonia"]]);
  });
});

describe("localParts: Y-m-d and H:i of an instant in a zone", () => {
  it("pads months, days, hours and minutes to two digits", () => {
    expect(localParts(Date.UTC(2026, 0, 5, 3, 7), "UTC")).toEqual({ date: "2026-01-05", time: "03:07" });
    expect(localParts(Date.UTC(2026, 0, 5, 3, 7), "Europe/Istanbul")).toEqual({ date: "2026-01-05", time: "06:07" });
  });

  it("adds the zone's offset, east and west, across day, month and year ends", () => {
    expect(localParts(Date.UTC(2026, 11, 31, 21, 0), "Europe/Istanbul")).toEqual({ date: "2027-01-01", time: "00:00" });
    expect(localParts(Date.UTC(2026, 11, 31, 20, 59), "Europe/Istanbul")).toEqual({
      date: "2026-12-31",
      time: "23:59",
    });
    expect(localParts(Date.UTC(2027, 0, 1, 4, 30), "America/New_York")).toEqual({ date: "2026-12-31", time: "23:30" });
    expect(localParts(Date.UTC(2028, 1, 28, 22, 0), "Europe/Istanbul")).toEqual({ date: "2028-02-29", time: "01:00" });
  });

  it("half- and quarter-hour offsets: India +5:30, Nepal +5:45, Chatham +13:45 in its summer", () => {
    const instant = Date.UTC(2026, 10, 22, 10, 0);
    expect(localParts(instant, "Asia/Kolkata")).toEqual({ date: "2026-11-22", time: "15:30" });
    expect(localParts(instant, "Asia/Kathmandu")).toEqual({ date: "2026-11-22", time: "15:45" });
    expect(localParts(instant, "Pacific/Chatham")).toEqual({ date: "2026-11-22", time: "23:45" });
  });

  it("is exact on both sides of a daylight-saving change, whichever side is asked first", () => {
    // Berlin starts summer time on 2027-03-28 at 01:00 UTC (02:00 local becomes 03:00).
    const change = Date.UTC(2027, 2, 28, 1, 0);
    expect(localParts(change, "Europe/Berlin")).toEqual({ date: "2027-03-28", time: "03:00" });
    expect(localParts(change - 60_000, "Europe/Berlin")).toEqual({ date: "2027-03-28", time: "01:59" });
    expect(localParts(change - 1, "Europe/Berlin")).toEqual({ date: "2027-03-28", time: "01:59" });
    expect(localParts(change + 14 * 60_000, "Europe/Berlin")).toEqual({ date: "2027-03-28", time: "03:14" });
    // New York ends summer time on 2026-11-01 at 06:00 UTC (02:00 EDT becomes 01:00 EST).
    const end = Date.UTC(2026, 10, 1, 6, 0);
    expect(localParts(end - 60_000, "America/New_York")).toEqual({ date: "2026-11-01", time: "01:59" });
    expect(localParts(end, "America/New_York")).toEqual({ date: "2026-11-01", time: "01:00" });
  });

  it("asks luxon for a zone's offset once per zone and quarter hour, not per call", () => {
    const asked = vi.spyOn(DateTime, "fromMillis");
    const quarter = Date.UTC(2031, 5, 2, 9, 15);
    expect(localParts(quarter, "Asia/Tokyo")).toEqual({ date: "2031-06-02", time: "18:15" });
    expect(localParts(quarter + 14 * 60_000 + 59_999, "Asia/Tokyo")).toEqual({ date: "2031-06-02", time: "18:29" });
    expect(localParts(quarter + 7 * 60_000, "Asia/Tokyo")).toEqual({ date: "2031-06-02", time: "18:22" });
    expect(asked).toHaveBeenCalledTimes(1);
    // The next quarter hour, another zone: a new answer each; the first is still known.
    expect(localParts(quarter + 15 * 60_000, "Asia/Tokyo")).toEqual({ date: "2031-06-02", time: "18:30" });
    expect(localParts(quarter, "Asia/Seoul")).toEqual({ date: "2031-06-02", time: "18:15" });
    expect(localParts(quarter + 60_000, "Asia/Tokyo")).toEqual({ date: "2031-06-02", time: "18:16" });
    expect(asked).toHaveBeenCalledTimes(3);
  });

  it("forgets its answers after tens of thousands of quarter hours, so a long-running process does not grow without bound", () => {
    const first = Date.UTC(2040, 0, 1, 0, 0);
    expect(localParts(first, "Europe/Berlin").time).toBe("01:00");
    const asked = vi.spyOn(DateTime, "fromMillis");
    // 50,001 other quarter hours (about 521 days): more than the cache holds.
    for (let q = 1; q <= 50_001; q++) localParts(first + q * 15 * 60_000, "Europe/Berlin");
    expect(asked).toHaveBeenCalledTimes(50_001);
    expect(localParts(first, "Europe/Berlin").time).toBe("01:00");
    expect(asked).toHaveBeenCalledTimes(50_002);
  });
});

describe("dateIn: the Y-m-d of a timestamp in a zone", () => {
  it.each([
    ["Shopify's form with the shop's offset", "2026-11-20T23:30:00-05:00", "Europe/Istanbul", "2026-11-21"],
    ["the same instant in New York", "2026-11-20T23:30:00-05:00", "America/New_York", "2026-11-20"],
    ["UTC with Z", "2026-11-20T20:59:59Z", "Europe/Istanbul", "2026-11-20"],
    ["UTC with Z, a second later", "2026-11-20T21:00:00Z", "Europe/Istanbul", "2026-11-21"],
    ["fractions of a second", "2026-11-20T20:59:59.999Z", "Europe/Istanbul", "2026-11-20"],
    ["microseconds", "2026-11-20T21:00:00.000001Z", "Europe/Istanbul", "2026-11-21"],
    ["without seconds", "2026-11-20T23:30+03:00", "Europe/Istanbul", "2026-11-20"],
    ["a positive offset", "2026-11-21T01:00:00+03:00", "UTC", "2026-11-20"],
    ["day 28", "2026-02-28T23:30:00+03:00", "Europe/Istanbul", "2026-02-28"],
    ["a leap day", "2028-02-29T12:00:00+03:00", "Europe/Istanbul", "2028-02-29"],
    ["the 31st of a long month", "2026-12-31T22:00:00+03:00", "Europe/Istanbul", "2026-12-31"],
    ["a basic-format timestamp (luxon reads it)", "20261120T233000+0300", "Europe/Istanbul", "2026-11-20"],
    ["an offset without minutes (luxon reads it)", "2026-11-20T23:30:00+03", "UTC", "2026-11-20"],
    ["ISO 8601's expanded year (luxon reads it)", "+002026-11-20T10:00:00Z", "UTC", "2026-11-20"],
  ])("%s: %s in %s is %s", (_what, iso, zone, expected) => {
    expect(dateIn(iso, zone)).toBe(expected);
  });

  it.each([
    ["no timestamp", null],
    ["an empty one", ""],
    ["words", "not a date"],
    ["minute 60", "2026-11-20T23:60:00Z"],
    ["month 13", "2026-13-20T10:00:00Z"],
    ["a space instead of T", "2026-11-20 23:30:00Z"],
    ["text around it", "on 2026-11-20T23:30:00Z"],
    ["text after it", "2026-11-20T23:30:00Zz"],
  ])("%s is no date", (_what, iso) => {
    expect(dateIn(iso, "Europe/Istanbul")).toBeUndefined();
  });

  it.each([
    ["29 February of a common year", "2026-02-29T10:00:00+03:00"],
    ["30 February", "2026-02-30T10:00:00Z"],
    ["31 April", "2026-04-31T10:00:00+03:00"],
    ["30 February with ISO 8601's expanded year", "+002026-02-30T10:00:00Z"],
  ])("%s is no date, not a day of the next month", (_what, iso) => {
    expect(dateIn(iso, "Europe/Istanbul")).toBeUndefined();
  });

  it("reads Shopify's own form without luxon's ISO parser (one call per order field otherwise)", () => {
    const parsed = vi.spyOn(DateTime, "fromISO");
    for (const iso of [
      "2026-11-20T23:30:00-05:00",
      "2026-11-20T23:30:00+03:00",
      "2026-11-20T20:30:00Z",
      "2026-11-20T20:30:00.123Z",
      "2026-11-20T20:30:00.123456+03:00",
      "2026-11-20T20:30+03:00",
      "1999-01-01T00:00:00+00:00",
      "2026-02-28T10:00:00+03:00",
    ]) {
      expect(dateIn(iso, "UTC"), iso).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(parsed).not.toHaveBeenCalled();
    expect(dateIn(null, "UTC")).toBeUndefined();
    expect(dateIn("", "UTC")).toBeUndefined();
    expect(parsed).not.toHaveBeenCalled();
  });
});

describe("issueMoment: the invoice's date and time", () => {
  it("is the shop's local date and time when that is not after Turkey's date", () => {
    expect(issueMoment(new Date("2026-11-22T09:05:00Z"), "Europe/Istanbul")).toEqual({
      date: "2026-11-22",
      time: "12:05",
      clamped: false,
    });
    expect(issueMoment(new Date("2026-11-22T09:05:00Z"), "America/Los_Angeles")).toEqual({
      date: "2026-11-22",
      time: "01:05",
      clamped: false,
    });
    // Same date as Turkey, an hour ahead: still the shop's clock.
    expect(issueMoment(new Date("2026-11-22T09:05:00Z"), "Asia/Dubai")).toEqual({
      date: "2026-11-22",
      time: "13:05",
      clamped: false,
    });
  });

  it("is Turkey's date and time when the shop's date is already tomorrow there (the service refuses future dates)", () => {
    expect(issueMoment(new Date("2026-11-22T21:30:00Z"), "Asia/Tokyo")).toEqual({
      date: "2026-11-23",
      time: "06:30",
      clamped: false,
    });
    expect(issueMoment(new Date("2026-11-22T15:30:00Z"), "Asia/Tokyo")).toEqual({
      date: "2026-11-22",
      time: "18:30",
      clamped: true,
    });
    expect(issueMoment(new Date("2026-12-31T20:00:00Z"), "Asia/Tokyo")).toEqual({
      date: "2026-12-31",
      time: "23:00",
      clamped: true,
    });
  });
});

describe("minDate", () => {
  it("the earlier of two Y-m-d dates, in either order", () => {
    expect(minDate("2026-11-20", "2026-11-21")).toBe("2026-11-20");
    expect(minDate("2026-11-21", "2026-11-20")).toBe("2026-11-20");
    expect(minDate("2026-12-31", "2027-01-01")).toBe("2026-12-31");
    expect(minDate("2026-11-20", "2026-11-20")).toBe("2026-11-20");
  });
});
