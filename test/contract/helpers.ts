// Shared pieces of the contract tests: the app's client against the sandbox, a valid body, raw HTTP for
// bodies the client would refuse to send, a local callback receiver, and polling.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { InvoicingClient } from "../../app/invoicing-service/client";
import type { InvoiceRequest } from "../../app/invoicing-service/schemas";
import { exampleInvoiceBody } from "../../sandbox/examples";
import { todayInIstanbul } from "../../sandbox/rules";
import type { Sandbox, SandboxAccount } from "../../sandbox/server";

export const today = () => todayInIstanbul(new Date());

export function clientFor(
  sandbox: Sandbox,
  account: Pick<SandboxAccount, "apiKey"> = sandbox.account,
  timeoutMs = 5_000,
): InvoicingClient {
  return new InvoicingClient({ baseUrl: sandbox.url, apiKey: account.apiKey, timeoutMs });
}

let orderSeq = 0;
/** A fresh order id, unique in the process. */
export const nextOrderId = () => `T${process.pid}-${++orderSeq}`;

/** A valid body: e-archive for the anonymous consumer, one 20 % line (2 × 27.775 → 55.55 + 11.11 = 66.66). */
export function invoiceBody(
  account: Pick<SandboxAccount, "saleChannelId" | "invoiceIntegrationId">,
  overrides: Partial<InvoiceRequest> = {},
): InvoiceRequest {
  return { ...(exampleInvoiceBody(account, today()) as InvoiceRequest), order_id: nextOrderId(), ...overrides };
}

export function companyCustomer(
  taxNumber: string,
  id: string | number = `co-${taxNumber}`,
): NonNullable<InvoiceRequest["customer"]> {
  return {
    id,
    type: "company",
    tax_number: taxNumber,
    tax_office: "Kadıköy",
    title: `Firma ${taxNumber} A.Ş.`,
    country: "Türkiye",
    address: "Moda Cad. 5",
    city: "İstanbul",
    district: "Kadıköy",
  };
}

/** Raw HTTP to the sandbox, as the client would send it, for bodies the client refuses to send. */
export async function raw(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  apiKey = sandbox.account.apiKey,
) {
  const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${apiKey}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(sandbox.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await res.text();
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json };
}

export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 5_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface ReceivedCallback {
  body: unknown;
  contentType: string | undefined;
}

/** A local HTTP server that receives per-invoice callbacks and answers 200. */
export async function startCallbackReceiver(): Promise<{
  url: string;
  received: ReceivedCallback[];
  close(): Promise<void>;
}> {
  const received: ReceivedCallback[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = Buffer.concat(chunks).toString("utf8");
      }
      received.push({ body, contentType: req.headers["content-type"] });
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks/invoice`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
