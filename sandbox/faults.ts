// Fault injection for the sandbox: what a real network and a real service do to a client on a bad day.
// Every fault is consumed by count (the next N matching requests); `latencyMs` applies to every request.

export interface RequestMatch {
  /** HTTP method, e.g. "POST"; any method when absent. */
  method?: string;
  /** Exact path (e.g. "/api/invoices"), a prefix ending in "*" ("/api/invoices/*"), or a RegExp. */
  path?: string | RegExp;
}

export interface FaultState {
  latencyMs: number;
  failures: Array<{ remaining: number; status: number } & RequestMatch>;
  delays: Array<{ remaining: number; ms: number } & RequestMatch>;
  rateLimits: Array<{ remaining: number; retryAfterSeconds: number } & RequestMatch>;
  lostCreateAnswers: number;
  droppedCallbacks: number;
}

/** The JSON body of `POST /__sandbox/faults` (every part optional; parts add to the current faults). */
export interface FaultsRequest {
  reset?: boolean;
  latencyMs?: number;
  fail?: { count?: number; status?: number; method?: string; path?: string };
  delay?: { count?: number; ms: number; method?: string; path?: string };
  rateLimit?: { count?: number; retryAfterSeconds?: number; method?: string; path?: string };
  loseCreateAnswer?: { count?: number };
  dropCallbacks?: { count?: number };
}

export class Faults {
  private state: FaultState = Faults.empty();

  private static empty(): FaultState {
    return { latencyMs: 0, failures: [], delays: [], rateLimits: [], lostCreateAnswers: 0, droppedCallbacks: 0 };
  }

  /** The next `count` matching requests answer `status` (5xx) with `{"message":"Server Error"}`. */
  failNext(count = 1, options: RequestMatch & { status?: number } = {}): void {
    const status = options.status ?? 500;
    if (status < 500 || status > 599) throw new Error("failNext: status must be 5xx");
    this.state.failures.push({ remaining: count, status, method: options.method, path: options.path });
  }

  /** The answers to the next `count` matching requests are held back `ms` milliseconds (the work is done first). */
  delayNext(count: number, ms: number, match: RequestMatch = {}): void {
    this.state.delays.push({ remaining: count, ms, ...match });
  }

  /** The next `count` matching requests answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitNext(count = 1, retryAfterSeconds = 1, match: RequestMatch = {}): void {
    this.state.rateLimits.push({ remaining: count, retryAfterSeconds, ...match });
  }

  /** The next `count` successful creates store the invoice, then destroy the socket without answering. */
  loseCreateAnswers(count = 1): void {
    this.state.lostCreateAnswers += count;
  }

  /** The next `count` callbacks are not sent (recorded as dropped). Infinity drops all. */
  dropCallbacks(count = Number.POSITIVE_INFINITY): void {
    this.state.droppedCallbacks += count;
  }

  /** A fixed latency added to every request (benchmarks); 0 turns it off. */
  setLatency(ms: number): void {
    this.state.latencyMs = Math.max(0, ms);
  }

  reset(): void {
    this.state = Faults.empty();
  }

  /** A copy of the current faults. */
  snapshot(): FaultState {
    return structuredClone({
      ...this.state,
      failures: this.state.failures.map((f) => ({ ...f, path: f.path instanceof RegExp ? f.path.toString() : f.path })),
      delays: this.state.delays.map((f) => ({ ...f, path: f.path instanceof RegExp ? f.path.toString() : f.path })),
      rateLimits: this.state.rateLimits.map((f) => ({
        ...f,
        path: f.path instanceof RegExp ? f.path.toString() : f.path,
      })),
    }) as FaultState;
  }

  /** Applies a `POST /__sandbox/faults` body. Throws on a malformed one. */
  apply(body: FaultsRequest): void {
    if (typeof body !== "object" || body === null) throw new Error("The body must be a JSON object.");
    if (body.reset) this.reset();
    if (body.latencyMs !== undefined) this.setLatency(num(body.latencyMs, "latencyMs"));
    if (body.fail)
      this.failNext(num(body.fail.count ?? 1, "fail.count"), {
        status: body.fail.status,
        method: body.fail.method,
        path: body.fail.path,
      });
    if (body.delay)
      this.delayNext(num(body.delay.count ?? 1, "delay.count"), num(body.delay.ms, "delay.ms"), {
        method: body.delay.method,
        path: body.delay.path,
      });
    if (body.rateLimit) {
      this.rateLimitNext(
        num(body.rateLimit.count ?? 1, "rateLimit.count"),
        num(body.rateLimit.retryAfterSeconds ?? 1, "rateLimit.retryAfterSeconds"),
        {
          method: body.rateLimit.method,
          path: body.rateLimit.path,
        },
      );
    }
    if (body.loseCreateAnswer) this.loseCreateAnswers(num(body.loseCreateAnswer.count ?? 1, "loseCreateAnswer.count"));
    if (body.dropCallbacks)
      this.dropCallbacks(
        body.dropCallbacks.count === undefined
          ? Number.POSITIVE_INFINITY
          : num(body.dropCallbacks.count, "dropCallbacks.count"),
      );
  }

  // ----- used by the server

  get latencyMs(): number {
    return this.state.latencyMs;
  }

  takeFailure(method: string, path: string): number | null {
    const f = take(this.state.failures, method, path);
    return f ? f.status : null;
  }

  takeDelay(method: string, path: string): number | null {
    const f = take(this.state.delays, method, path);
    return f ? f.ms : null;
  }

  takeRateLimit(method: string, path: string): number | null {
    const f = take(this.state.rateLimits, method, path);
    return f ? f.retryAfterSeconds : null;
  }

  takeLostCreateAnswer(): boolean {
    if (this.state.lostCreateAnswers <= 0) return false;
    this.state.lostCreateAnswers -= 1;
    return true;
  }

  takeDroppedCallback(): boolean {
    if (this.state.droppedCallbacks <= 0) return false;
    this.state.droppedCallbacks -= 1;
    return true;
  }
}

function num(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a non-negative number.`);
  return value;
}

export function matches(match: RequestMatch, method: string, path: string): boolean {
  if (match.method && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match.path === undefined) return true;
  if (match.path instanceof RegExp) return match.path.test(path);
  if (match.path.endsWith("*")) return path.startsWith(match.path.slice(0, -1));
  return path === match.path;
}

function take<T extends { remaining: number } & RequestMatch>(list: T[], method: string, path: string): T | undefined {
  const index = list.findIndex((f) => f.remaining > 0 && matches(f, method, path));
  if (index < 0) return undefined;
  const fault = list[index];
  fault.remaining -= 1;
  if (fault.remaining <= 0) list.splice(index, 1);
  return fault;
}
