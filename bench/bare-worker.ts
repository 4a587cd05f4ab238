// The drain benchmark's baseline (bench/pipeline.bench.ts, part 3): the least a worker can do for the same orders
// against the same stand-in on the same machine at the same moment, so that the app's drain can be read as a ratio
// against what the machine allows, not only against the arithmetic ideal. Started as a child process, as the app's
// worker is; its own start-up is not counted (it says where its callbacks go first, and is timed from its orders).
// Per order it does what the design needs and nothing else: one POST of a body mapped before the clock starts, and
// one GET CALLBACK_COALESCE_MS after the invoice's first callback (the app's rule; that module reads the app's
// environment, so this process is started with the stack's), again after a later callback if the invoice was not
// final yet. No database, no checks: `concurrency` slots shared by posts and reads (reads first), node:http with
// keep-alive. A create that fails ends the process (the benchmark then stops with its exit).
// Messages (IPC): out { callbackUrl } → in { bodies: string[] (with that callback_url), baseUrl, apiKey,
// concurrency } → out { done: { ms, posts, gets } }.
import http from "node:http";
import { CALLBACK_COALESCE_MS } from "../app/invoices/callback.server";

interface Setup {
  bodies: string[];
  baseUrl: string;
  apiKey: string;
  concurrency: number;
}

let posts = 0;
let gets = 0;
let nextBody = 0;
let finished = 0;
let busy = 0;
const readsDue: number[] = []; // invoice ids whose read is due, waiting for a slot
const readScheduled = new Set<number>(); // a read is scheduled or queued
const final = new Set<number>();
const calledBackSinceRead = new Set<number>();
let onAllDone: () => void = () => undefined;

const callbacks = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const { invoice_id: id } = JSON.parse(Buffer.concat(chunks).toString()) as { invoice_id: number };
    calledBackSinceRead.add(id);
    scheduleRead(id);
    response.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
  });
});
await new Promise<void>((resolve) => callbacks.listen(0, "127.0.0.1", resolve));
const { port } = callbacks.address() as { port: number };
process.send!({ callbackUrl: `http://127.0.0.1:${port}/callbacks` });
const setup = await new Promise<Setup>((resolve) => process.once("message", (message) => resolve(message as Setup)));
const agent = new http.Agent({ keepAlive: true, maxSockets: setup.concurrency });
const base = new URL(setup.baseUrl);

function call(method: "POST" | "GET", path: string, body?: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path: `${base.pathname.replace(/\/$/, "")}${path}`,
        headers: {
          Authorization: `Bearer ${setup.apiKey}`,
          Accept: "application/json",
          ...(body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString() || "null") }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function pump() {
  while (busy < setup.concurrency) {
    const id = readsDue.shift();
    if (id !== undefined) {
      busy++;
      void read(id).finally(() => (busy--, pump()));
    } else if (nextBody < setup.bodies.length) {
      const body = setup.bodies[nextBody++];
      busy++;
      void post(body).finally(() => (busy--, pump()));
    } else return;
  }
}

async function post(body: string) {
  const answer = await call("POST", "/invoices", body);
  posts++;
  if (answer.status !== 201 && answer.status !== 200) throw new Error(`create answered ${answer.status}`);
}

async function read(id: number) {
  calledBackSinceRead.delete(id);
  const answer = await call("GET", `/invoices/${id}`);
  gets++;
  const record = (answer.json as { data: { workflow_status: string } }).data;
  readScheduled.delete(id);
  if (record.workflow_status === "completed" || record.workflow_status === "failed") {
    final.add(id);
    if (++finished === setup.bodies.length) onAllDone();
  } else if (calledBackSinceRead.has(id)) scheduleRead(id);
}

function scheduleRead(id: number) {
  if (final.has(id) || readScheduled.has(id)) return;
  readScheduled.add(id);
  setTimeout(() => (readsDue.push(id), pump()), CALLBACK_COALESCE_MS);
}

const started = performance.now();
await new Promise<void>((resolve) => {
  onAllDone = resolve;
  pump();
});
process.send!({ done: { ms: performance.now() - started, posts, gets } }, () => process.exit(0));
