// The per-shop token buckets of app/http/throttle.server.ts, on a clock of the test's own.
import { describe, expect, it } from "vitest";
import { Throttle } from "../../app/http/throttle.server";

describe("Throttle", () => {
  it("lets a burst of `capacity` through, then one per refill interval, per key", () => {
    const throttle = new Throttle({ capacity: 3, refillMs: 1_000 });
    const at = (ms: number, key = "a") => throttle.take(key, 10_000 + ms).allowed;
    expect([at(0), at(0), at(0), at(0), at(10)]).toEqual([true, true, true, false, false]);
    expect(at(0, "b")).toBe(true); // another shop has its own bucket
    expect(at(999)).toBe(false);
    expect(at(1_000)).toBe(true);
    expect(at(1_000)).toBe(false);
    // A long pause refills up to the capacity, not beyond.
    expect([at(60_000), at(60_000), at(60_000), at(60_000)]).toEqual([true, true, true, false]);
  });

  it("reports a refused burst once when it starts and once, with its size, when it is over", () => {
    const throttle = new Throttle({ capacity: 1, refillMs: 1_000 });
    expect(throttle.take("a", 0)).toEqual({ allowed: true, quiet: true, refusedBefore: 0 });
    expect(throttle.take("a", 0)).toEqual({ allowed: false, retryAfterMs: 1_000, firstRefusal: true });
    expect(throttle.take("a", 500)).toEqual({ allowed: false, retryAfterMs: 500, firstRefusal: false });
    expect(throttle.take("a", 600)).toMatchObject({ allowed: false, firstRefusal: false });
    expect(throttle.take("a", 1_000)).toEqual({ allowed: true, quiet: true, refusedBefore: 3 });
    expect(throttle.take("a", 1_500)).toEqual({ allowed: false, retryAfterMs: 500, firstRefusal: true });
  });

  it("checks without counting; a clock that goes back refills nothing", () => {
    const throttle = new Throttle({ capacity: 2, refillMs: 1_000 });
    for (let i = 0; i < 5; i++) expect(throttle.check("a", 0).allowed).toBe(true);
    throttle.take("a", 5_000);
    throttle.take("a", 5_000);
    expect(throttle.check("a", 4_000).allowed).toBe(false);
    expect(throttle.check("a", 6_000).allowed).toBe(true);
  });

  it("keeps at most `maxKeys` buckets, forgetting the least recently used", () => {
    const throttle = new Throttle({ capacity: 1, refillMs: 60_000 }, 2);
    throttle.take("a", 0);
    throttle.take("b", 0);
    throttle.take("a", 0); // refused, and now the most recently used
    throttle.take("c", 0); // "b" is forgotten
    expect(throttle.take("a", 0).allowed).toBe(false);
    expect(throttle.take("b", 0).allowed).toBe(true);
  });
});
