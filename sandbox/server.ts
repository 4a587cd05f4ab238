// The local stand-in of the invoicing service over HTTP (node:http only). Laravel-like JSON answers,
// Bearer API keys per team, asynchronous formalisation with callbacks, waybills, and fault injection.
// See sandbox/README.md for what it simulates and what it does not.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Faults, type FaultsRequest } from "./faults";
import { makePdf } from "./pdf";
import { isFilled, isUrl } from "./rules";
import {
  DEFAULT_ACCOUNT,
  SandboxState,
  type AddAccountOptions,
  type CallbackDelivery,
  type DeletionRecord,
  type CreateOutcome,
  type EmptyAccount,
  type InvoiceRecord,
  type SandboxAccount,
} from "./state";
import { readBodyUpTo } from "../scripts/lib/cli";

export {
  DEFAULT_ACCOUNT,
  DELETABLE_FORMAL_STATUSES,
  DELETE_REFUSED_MESSAGE,
  E_ARCHIVE_SERIES,
  E_INVOICE_SERIES,
} from "./state";
export type {
  AddAccountOptions,
  CallbackDelivery,
  DeletionRecord,
  EmptyAccount,
  InvoiceRecord,
  SandboxAccount,
  WaybillRecord,
  InvoiceError,
} from "./state";
export {
  ANONYMOUS_TAX_NUMBER,
  E_ARCHIVE_VKN_EXAMPLE,
  E_INVOICE_TAX_NUMBERS,
  INVALID_TCKN_EXAMPLE,
  INVALID_VKN_EXAMPLE,
  VALID_TCKN_EXAMPLE,
  isValidTckn,
  isValidVkn,
} from "./taxnumbers";
export type { FaultsRequest, RequestMatch } from "./faults";
export { Faults } from "./faults";

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Time of each formalisation step (pending → running → completed/failed). Default 200 ms. */
  formalizeDelayMs?: number;
  /** How long a callback receiver may take to answer; default 10 000 ms, as the service. */
  callbackTimeoutMs?: number;
  /** Clock (dates, "today" for issue_date, callback time). Default: the real clock. */
  now?: () => Date;
  /** The default account; omitted parts take DEFAULT_ACCOUNT's key and the E_INVOICE_TAX_NUMBERS list. */
  seed?: AddAccountOptions;
  /** Accept `POST /__sandbox/faults` (no auth). Default true: the sandbox is a development tool. */
  faultsOverHttp?: boolean;
  /** Fixed latency of every request from the start (benchmarks). */
  latencyMs?: number;
  /**
   * Benchmarks: pad each formal PDF to about this many bytes (a real invoice PDF with its fonts and logo is tens of
   * kilobytes; the stand-in's own is under 2). The padding is a comment after the file's end, which PDF readers skip.
   */
  pdfBytes?: number;
  /** One line per request and per status change; silent by default. */
  log?: (line: string) => void;
}

export interface SandboxInvoices {
  all(): InvoiceRecord[];
  get(id: number): InvoiceRecord | undefined;
  byOrderId(orderId: string, teamId?: number): InvoiceRecord[];
}

export interface Sandbox {
  /** Base URL including the /api prefix, e.g. http://127.0.0.1:4010/api */
  url: string;
  /** http://host:port */
  origin: string;
  port: number;
  /** The default account (fixed ids, see DEFAULT_ACCOUNT). */
  account: SandboxAccount;
  /** Creates another team with its own key, channel, integrations and waybills. */
  addAccount(options?: AddAccountOptions): SandboxAccount;
  /** A new account with no sales channel yet (and no waybills): what a merchant has before setting up. */
  addEmptyAccount(options?: Pick<AddAccountOptions, "apiKey">): EmptyAccount;
  faults: Faults;
  /** Read-only copies of the stored invoices (all teams). */
  invoices: SandboxInvoices;
  /** Every callback delivery, in order, with the receiver's status or the error. */
  readonly callbacks: readonly CallbackDelivery[];
  /** Every answered DELETE /api/invoices/{id}: deleted (before formalisation) or refused (after). */
  readonly deletions: readonly DeletionRecord[];
  quotaUsed(apiKey: string): number;
  /** Account-level webhook URLs saved with POST /api/helpers/settings-webhook. */
  webhooks(apiKey: string): string[];
  stop(): Promise<void>;
}

interface Answer {
  status: number;
  json?: unknown;
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Destroy the socket instead of answering ("created but the answer was lost"). */
  lose?: boolean;
}

type Team = NonNullable<ReturnType<SandboxState["teamByKey"]>>;
type Handler = (ctx: { team: Team; params: string[]; body: unknown; url: URL }) => Answer;

const NOT_FOUND: Answer = { status: 404, json: { message: "Not found." } };
const MAX_BODY = 2 * 1024 * 1024;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const faults = new Faults();
  if (options.latencyMs) faults.setLatency(options.latencyMs);
  let origin = "";
  const state = new SandboxState({
    origin: () => origin,
    now,
    formalizeDelayMs: options.formalizeDelayMs ?? 200,
    callbackTimeoutMs: options.callbackTimeoutMs ?? 10_000,
    shouldDropCallback: () => faults.takeDroppedCallback(),
    log,
  });

  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const routes = buildRoutes(state, faults, options.pdfBytes ?? 0);

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`internal error: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) send(res, { status: 500, json: { message: "Server Error" } });
    });
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", origin);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const raw = await readBodyUpTo(req, MAX_BODY);
    if (raw === null) return send(res, { status: 413, json: { message: "Payload Too Large" } });
    const body = parseJsonBody(req, raw);
    const finish = (answer: Answer) => {
      log(
        `${method} ${url.pathname}${url.search} → ${answer.lose ? "socket destroyed" : answer.status} (${Date.now() - started} ms)`,
      );
      if (answer.lose) {
        req.socket.destroy();
        return;
      }
      send(res, answer);
    };

    if (path === "/__sandbox/faults") {
      if (options.faultsOverHttp === false) return finish(NOT_FOUND);
      if (method === "GET") return finish({ status: 200, json: { data: faults.snapshot() } });
      if (method === "DELETE") {
        faults.reset();
        return finish({ status: 200, json: { data: faults.snapshot() } });
      }
      if (method !== "POST") return finish({ status: 405, json: { message: "Method not allowed." } });
      try {
        // Read as JSON whatever the Content-Type (curl -d sends form encoding by default).
        faults.apply((raw.length === 0 ? {} : JSON.parse(raw.toString("utf8"))) as FaultsRequest);
      } catch (error) {
        return finish({ status: 422, json: { message: (error as Error).message } });
      }
      return finish({ status: 200, json: { data: faults.snapshot() } });
    }

    await sleep(faults.latencyMs);
    const retryAfter = faults.takeRateLimit(method, path);
    if (retryAfter !== null)
      return finish({
        status: 429,
        json: { message: "Too Many Attempts." },
        headers: { "Retry-After": String(retryAfter) },
      });
    const failure = faults.takeFailure(method, path);
    if (failure !== null) return finish({ status: failure, json: { message: "Server Error" } });

    const answer = route(method, path, url, body, req);
    const delay = faults.takeDelay(method, path);
    if (delay !== null) await sleep(delay);
    finish(answer);
  }

  function route(method: string, path: string, url: URL, body: unknown, req: http.IncomingMessage): Answer {
    const pdf = /^\/pdf\/([0-9a-f-]{36})\.pdf$/.exec(path);
    if (pdf) {
      if (method !== "GET") return { status: 405, json: { message: "Method not allowed." } };
      const record = state.invoiceByEttn(pdf[1]);
      return record ? pdfAnswer(record) : NOT_FOUND;
    }
    if (!path.startsWith("/api/"))
      return { status: 404, json: { message: `The route ${path.slice(1)} could not be found.` } };

    const wantsJson = /json/i.test(req.headers.accept ?? "");
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim();
    const team = token ? state.teamByKey(token) : undefined;
    if (!team) {
      // Laravel redirects an unauthenticated request that does not ask for JSON to the login page.
      if (!wantsJson)
        return { status: 302, headers: { Location: `${origin}/login` }, json: { message: "Unauthenticated." } };
      return { status: 401, json: { message: "Unauthenticated." } };
    }
    let pathMatched = false;
    for (const r of routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== method) continue;
      const answer = r.handler({ team, params: m.slice(1), body, url });
      // Laravel answers a failed validation of a request that does not ask for JSON with a redirect back.
      if (answer.status === 422 && !wantsJson)
        return { status: 302, headers: { Location: req.headers.referer ?? origin }, json: answer.json };
      return answer;
    }
    if (pathMatched)
      return { status: 405, json: { message: `The ${method} method is not supported for route ${path.slice(1)}.` } };
    return { status: 404, json: { message: `The route ${path.slice(1)} could not be found.` } };
  }

  function pdfAnswer(record: InvoiceRecord): Answer {
    const lines = [
      `ETTN: ${record.ettn}`,
      `Profile: ${record.profile}`,
      `Issue date: ${record.issue_date} ${record.issue_time}`,
      `Receiver: ${record.receiver.title ?? `${record.receiver.name ?? ""} ${record.receiver.surname ?? ""}`.trim()} (${record.receiver.tax_number})`,
      ...record.lines.map(
        (l) => `${l.name}  ${l.quantity} ${l.unit} x ${l.unit_price}  VAT ${l.tax_rate}%  = ${l.grand_total}`,
      ),
      `Lines total: ${record.lines_total}  Discount: ${record.discount_total}  VAT: ${record.tax_total}  Extra taxes: ${record.extra_tax_total}`,
      `Grand total: ${record.grand_total} ${record.currency}`,
      "SANDBOX DOCUMENT - NOT A LEGAL INVOICE",
    ];
    return {
      status: 200,
      bytes: padPdf(makePdf(`Invoice ${record.serial_number}`, lines), options.pdfBytes),
      contentType: "application/pdf",
      headers: { "Content-Disposition": `inline; filename="${record.serial_number}.pdf"` },
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const publicHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  origin = `http://${publicHost}:${port}`;
  log(`sandbox listening on ${origin}`);
  // Seeded after listening: the seeded, already formalised invoice carries a pdf_url with the real origin.
  const account = state.addAccount({
    apiKey: options.seed?.apiKey ?? DEFAULT_ACCOUNT.apiKey,
    eInvoiceTaxNumbers: options.seed?.eInvoiceTaxNumbers,
  });

  let stopping: Promise<void> | undefined;
  return {
    url: `${origin}/api`,
    origin,
    port,
    account,
    addAccount: (opts) => state.addAccount(opts),
    addEmptyAccount: (opts) => state.addEmptyAccount(opts),
    faults,
    invoices: {
      all: () => state.allInvoices(),
      get: (id) => state.allInvoices().find((i) => i.id === id),
      byOrderId: (orderId, teamId) =>
        state.allInvoices().filter((i) => i.order_id === orderId && (teamId === undefined || i.team_id === teamId)),
    },
    get callbacks() {
      return state.callbacks;
    },
    get deletions() {
      return state.deletions;
    },
    quotaUsed: (apiKey) => state.quotaUsed(apiKey),
    webhooks: (apiKey) => state.webhooks(apiKey),
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        state.stop();
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Routes of the /api prefix (all authenticated)

function buildRoutes(
  state: SandboxState,
  faults: Faults,
  pdfBytes: number,
): Array<{ method: string; pattern: RegExp; handler: Handler }> {
  const created = (outcome: CreateOutcome, isCreate: boolean): Answer => {
    if (!outcome.ok)
      return {
        status: outcome.status,
        json: outcome.errors ? { message: outcome.message, errors: outcome.errors } : { message: outcome.message },
      };
    if (isCreate && faults.takeLostCreateAnswer()) return { status: 201, lose: true };
    return { status: isCreate ? 201 : 200, json: { data: outcome.record } };
  };
  const id = (s: string) => Number(s);

  return [
    {
      method: "POST",
      pattern: /^\/api\/check\/auth$/,
      handler: ({ team }) => ({
        status: 200,
        json: { success: true, message: "Authenticated.", data: { team_id: team.account.teamId } },
      }),
    },
    {
      method: "GET",
      pattern: /^\/api\/integrations\/invoice$/,
      handler: ({ team }) => ({ status: 200, json: { data: state.integrations(team) } }),
    },
    {
      method: "GET",
      pattern: /^\/api\/integrations\/invoice\/(\d+)$/,
      handler: ({ team, params }) => {
        const found = state.integrations(team).find((i) => i.id === id(params[0]));
        return found ? { status: 200, json: { data: found } } : NOT_FOUND;
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/integrations\/sale-channel$/,
      handler: ({ team }) => ({ status: 200, json: { data: state.saleChannels(team) } }),
    },
    {
      method: "POST",
      pattern: /^\/api\/integrations\/sale-channel$/,
      handler: ({ team, body }) => {
        const result = state.addSaleChannel(team, asObject(body));
        if ("id" in result) return { status: 201, json: { data: result } };
        return { status: 422, json: { message: Object.values(result)[0][0], errors: result } };
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/helpers\/settings-webhook$/,
      handler: ({ team, body }) => {
        const url = asObject(body).webhook_url;
        const error = !isFilled(url)
          ? "The webhook_url field is required."
          : !isUrl(url)
            ? "The webhook_url field must be a valid URL."
            : null;
        if (error) return { status: 422, json: { message: error, errors: { webhook_url: [error] } } };
        state.saveWebhook(team, url as string);
        return { status: 200, json: { success: true, message: "Webhook saved.", data: { webhook_url: url } } };
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/invoices$/,
      handler: ({ team, body }) => created(state.createInvoice(team, body), true),
    },
    {
      method: "GET",
      pattern: /^\/api\/invoices$/,
      handler: ({ team, url }) => {
        const limit = Math.min(Math.max(Number(url.searchParams.get("limit") ?? 15) || 15, 1), 100);
        return { status: 200, json: { data: state.listInvoices(team, limit, filterOf(url.searchParams)) } };
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/invoices\/(\d+)$/,
      handler: ({ team, params }) => {
        const record = state.getInvoice(team, id(params[0]));
        return record ? { status: 200, json: { data: record } } : NOT_FOUND;
      },
    },
    {
      method: "DELETE",
      pattern: /^\/api\/invoices\/(\d+)$/,
      handler: ({ team, params }) => {
        const outcome = state.deleteInvoice(team, id(params[0]));
        if (outcome.ok) return { status: 200, json: { success: true, message: "Invoice deleted." } };
        return outcome.status === 404
          ? NOT_FOUND
          : { status: outcome.status, json: { message: outcome.message, errors: outcome.errors } };
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/invoices\/(\d+)\/formalize$/,
      handler: ({ team, params }) => created(state.formalize(team, id(params[0])), false),
    },
    {
      method: "GET",
      pattern: /^\/api\/invoices\/(\d+)\/formal-pdf$/,
      handler: ({ team, params }) => formalPdf(team, id(params[0])),
    },
    {
      method: "GET",
      pattern: /^\/api\/formal-pdf\/(\d+)$/,
      handler: ({ team, params }) => formalPdf(team, id(params[0])),
    },
    {
      method: "GET",
      pattern: /^\/api\/waybills\/(\d+)$/,
      handler: ({ team, params }) => {
        const waybill = state.getWaybill(team, id(params[0]));
        return waybill ? { status: 200, json: { data: waybill } } : NOT_FOUND;
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/waybills\/(\d+)\/invoice$/,
      handler: ({ team, params, body }) => created(state.invoiceWaybill(team, id(params[0]), body), true),
    },
  ];

  function formalPdf(team: Team, invoiceId: number): Answer {
    const record = state.ownInvoice(team, invoiceId);
    if (!record || record.formal_status !== "completed" || !record.ettn) return NOT_FOUND;
    const lines = [
      `ETTN: ${record.ettn}`,
      `Grand total: ${record.grand_total} ${record.currency}`,
      "SANDBOX DOCUMENT - NOT A LEGAL INVOICE",
    ];
    return {
      status: 200,
      bytes: padPdf(makePdf(`Invoice ${record.serial_number}`, lines), pdfBytes),
      contentType: "application/pdf",
    };
  }
}

/** The PDF padded to about `bytes` with a comment after its end (SandboxOptions.pdfBytes); as it is without. */
function padPdf(pdf: Buffer, bytes = 0): Buffer {
  const pad = bytes - pdf.length - 2;
  return pad > 0 ? Buffer.concat([pdf, Buffer.from(`%${"0".repeat(pad)}\n`, "latin1")]) : pdf;
}

/**
 * `filters[$or][0][order_id][$eq]=X` (any of) and `filters[field][$eq]=X` (all of), as the vendor's
 * clients send them. Values are compared as strings.
 */
function filterOf(params: URLSearchParams): (record: InvoiceRecord) => boolean {
  const anyOf: Array<[string, string]> = [];
  const allOf: Array<[string, string]> = [];
  for (const [key, value] of params) {
    const or = /^filters\[\$or\]\[\d+\]\[(\w+)\]\[\$eq\]$/.exec(key);
    if (or) anyOf.push([or[1], value]);
    const and = /^filters\[(\w+)\]\[\$eq\]$/.exec(key);
    if (and) allOf.push([and[1], value]);
  }
  const eq = (record: InvoiceRecord, [field, value]: [string, string]) => {
    const actual = (record as unknown as Record<string, unknown>)[field];
    return actual !== undefined && actual !== null && String(actual) === value;
  };
  return (record) => (anyOf.length === 0 || anyOf.some((f) => eq(record, f))) && allOf.every((f) => eq(record, f));
}

// ---------------------------------------------------------------------------------------------------------
// HTTP plumbing

/** Laravel reads JSON only when the request says it is JSON; a malformed body reads as empty. */
function parseJsonBody(req: http.IncomingMessage, raw: Buffer): unknown {
  if (raw.length === 0 || !/json/i.test(req.headers["content-type"] ?? "")) return {};
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return {};
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function send(res: http.ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...answer.headers };
  let payload: Buffer;
  if (answer.bytes) {
    payload = answer.bytes;
    headers["Content-Type"] = answer.contentType ?? "application/octet-stream";
  } else {
    payload = Buffer.from(answer.json === undefined ? "" : JSON.stringify(answer.json), "utf8");
    headers["Content-Type"] = "application/json";
  }
  headers["Content-Length"] = String(payload.length);
  res.writeHead(answer.status, headers);
  res.end(payload);
}
