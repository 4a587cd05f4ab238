// A load balancer in front of several web processes, for the process tests: the app's public address
// (SHOPIFY_APP_URL: where the invoicing service sends its callbacks) is this one, and each request goes to the next
// web process in turn. `route` changes the pool (a rolling deploy takes the old processes out before stopping them).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Balancer {
  url: string;
  /** The web processes requests go to from now on, in turn. */
  route(targets: string[]): void;
  /** Every request passed on: where to, and the answer's status or the error; `done` once answered or failed. */
  readonly forwarded: ReadonlyArray<Forwarded>;
  /** Waits until no request to `target` is in flight (a balancer draining a process it took out). */
  drained(target: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface Forwarded {
  target: string;
  path: string;
  status?: number;
  error?: string;
  done: boolean;
}

export async function startBalancer(targets: string[]): Promise<Balancer> {
  let pool = targets;
  let turn = 0;
  const forwarded: Forwarded[] = [];
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const target = new URL(pool[turn++ % pool.length]);
    const entry: Forwarded = { target: target.origin, path: req.url ?? "/", done: false };
    res.on("close", () => (entry.done = true));
    forwarded.push(entry);
    const upstream = http.request(
      { agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        entry.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      entry.error = error.message;
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    route(next) {
      pool = next;
    },
    forwarded,
    async drained(target, timeoutMs = 30_000) {
      const origin = new URL(target).origin;
      const deadline = Date.now() + timeoutMs;
      while (forwarded.some((entry) => entry.target === origin && !entry.done)) {
        if (Date.now() > deadline) throw new Error(`requests to ${origin} still in flight after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
