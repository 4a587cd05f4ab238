// The 7-day deadline's rules (app/invoices/deadline.ts): whose clock runs, when it is near or past, and which Flow call
// is due, at the boundaries.
import { describe, expect, it } from "vitest";
import {
  daysLate,
  deadlineOf,
  deadlineStatus,
  flowCallDue,
  nearBefore,
  runningDeadline,
  runningStates,
} from "../../app/invoices/deadline";

const H = 3_600_000;
const ordered = new Date("2026-11-20T09:30:00Z");
const deadline = new Date("2026-11-27T09:30:00Z");
const at = (hoursBefore: number) => new Date(deadline.getTime() - hoursBefore * H);

describe("the 7-day deadline", () => {
  it("is 7 days (168 hours) after the order's date", () => {
    expect(deadlineOf(ordered)).toEqual(deadline);
  });

  it("runs for invoices not issued yet; a wait for payment or fulfilment runs only where the shop issues by hand", () => {
    for (const state of ["queued", "sending", "needs_attention", "failed"]) {
      expect(runningDeadline({ state, orderCreatedAt: ordered, isTest: false }, "paid"), state).toEqual(deadline);
    }
    for (const state of ["waiting", "processing", "completed", "cancelled", "closed"]) {
      expect(runningDeadline({ state, orderCreatedAt: ordered, isTest: false }, "fulfilled"), state).toBeNull();
    }
    expect(runningDeadline({ state: "waiting", orderCreatedAt: ordered, isTest: false }, "manual")).toEqual(deadline);
    expect(runningStates("manual")).toContain("waiting");
    expect(runningStates("paid")).not.toContain("waiting");
    // The onboarding's sample invoice has no sale behind it.
    expect(runningDeadline({ state: "needs_attention", orderCreatedAt: ordered, isTest: true }, "paid")).toBeNull();
  });

  it("is near from 48 hours before, and passed from the deadline itself", () => {
    expect(deadlineStatus(deadline, at(48.01))).toBe("running");
    expect(deadlineStatus(deadline, at(48))).toBe("near");
    expect(deadlineStatus(deadline, at(0.001))).toBe("near");
    expect(deadlineStatus(deadline, at(0))).toBe("passed");
    expect(deadlineStatus(deadline, at(-100))).toBe("passed");
  });

  it("bounds the filter at orders placed more than 5 days before now", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    expect(nearBefore(now)).toEqual(new Date("2026-11-21T12:00:00Z"));
    // An order placed exactly then is due exactly 48 hours from now: near.
    expect(deadlineStatus(deadlineOf(nearBefore(now)), now)).toBe("near");
  });

  it("calls Flow at 48 hours, then at 24 hours, once each by key; only the more urgent when both are crossed; never after", () => {
    expect(flowCallDue(deadline, at(49))).toBeNull();
    expect(flowCallDue(deadline, at(48))).toEqual({ key: "deadline:48h", hours: 48 });
    expect(flowCallDue(deadline, at(24.5))).toEqual({ key: "deadline:48h", hours: 48 });
    expect(flowCallDue(deadline, at(24))).toEqual({ key: "deadline:24h", hours: 24 });
    expect(flowCallDue(deadline, at(1))).toEqual({ key: "deadline:24h", hours: 24 });
    expect(flowCallDue(deadline, at(0))).toBeNull();
    expect(flowCallDue(deadline, at(-5))).toBeNull();
  });

  it("counts an issued invoice's days late by the deadline's day in the shop's zone (issue 36, point 7)", () => {
    // Ordered 20 November 12:30 in Istanbul: the deadline is the 27th there.
    expect(daysLate(ordered, "2026-11-27", "Europe/Istanbul")).toBe(0);
    expect(daysLate(ordered, "2026-11-20", "Europe/Istanbul")).toBe(0);
    expect(daysLate(ordered, "2026-11-28", "Europe/Istanbul")).toBe(1);
    expect(daysLate(ordered, "2026-12-06", "Europe/Istanbul")).toBe(9);
    // 22:30 UTC is the next day in Istanbul: its deadline's day is a day later there than in UTC.
    const evening = new Date("2026-11-20T22:30:00Z");
    expect(daysLate(evening, "2026-11-28", "Europe/Istanbul")).toBe(0);
    expect(daysLate(evening, "2026-11-28", "UTC")).toBe(1);
    expect(daysLate(ordered, "not a day", "Europe/Istanbul")).toBe(0);
  });
});
