import { describe, expect, it } from "vitest";
import { delayHonouringRetryAfter, RETRY, RETRY_AFTER_CAP_MS, retryDelayMs, syncDelayMs } from "../../app/jobs/backoff";

describe("retry schedule", () => {
  it("doubles per attempt with equal jitter between half and the whole step", () => {
    expect(retryDelayMs(1, () => 0)).toBe(2_500);
    expect(retryDelayMs(1, () => 1)).toBe(5_000);
    expect(retryDelayMs(3, () => 0)).toBe(10_000);
    expect(retryDelayMs(3, () => 1)).toBe(20_000);
  });

  it("never exceeds the cap", () => {
    expect(retryDelayMs(40, () => 1)).toBe(RETRY.capMs);
  });

  it("spreads retries of many rows instead of sending them together", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(4)));
    expect(delays.size).toBeGreaterThan(40);
  });

  it("honours a longer Retry-After and ignores a shorter one", () => {
    expect(delayHonouringRetryAfter(5_000, 30_000)).toBe(30_000);
    expect(delayHonouringRetryAfter(5_000, 1_000)).toBe(5_000);
    expect(delayHonouringRetryAfter(5_000, undefined)).toBe(5_000);
  });

  it("reads a processing invoice again after 15 s, then less and less often", () => {
    expect(syncDelayMs(0, () => 1)).toBe(15_000);
    expect(syncDelayMs(1, () => 1)).toBe(30_000);
    expect(syncDelayMs(30, () => 1)).toBe(60 * 60_000);
  });

  it("honours a longer Retry-After only up to an hour; a nonsense one is ignored", () => {
    expect(delayHonouringRetryAfter(5_000, 120_000)).toBe(120_000);
    expect(delayHonouringRetryAfter(5_000, 10 ** 12)).toBe(RETRY_AFTER_CAP_MS);
    expect(RETRY_AFTER_CAP_MS).toBe(3_600_000);
    expect(delayHonouringRetryAfter(5_000, Number.NaN)).toBe(5_000);
    expect(delayHonouringRetryAfter(5_000, -10)).toBe(5_000);
  });
});
