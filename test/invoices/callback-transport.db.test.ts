// The production server answers the service's callbacks on node's own request (app/invoices/callback-transport.server.ts);
// `shopify app dev` and the other tests go through the Remix route. Both must answer every callback the same way and
// record the same: the same callbacks are sent through both, side by side.
import http from "node:http";
import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as callbackRoute } from "../../app/routes/callbacks.invoices.$id";
import { callbackMiddleware } from "../../app/invoices/callback-transport.server";
import { BODY_LIMITS } from "../../app/http/body-limit.server";
import { connectShop, makeScheduledRowsDue, pipelineForEachTest, waitForInvoices } from "../helpers/pipeline";
import { paidOrder } from "../helpers/orders";
import { prisma } from "../helpers/db";
import { callRoute } from "../helpers/routes";
import { SHOP } from "../helpers/shopify";

const pipeline = pipelineForEachTest({
  formalizeDelayMs: 10,
  setUp: async (p) => {
    await connectShop(p.sandbox, SHOP);
    p.sandbox.faults.dropCallbacks(Infinity); // only this test's callbacks
  },
});

let server: http.Server;
let origin: string;
let passedOn: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) =>
    callbackMiddleware(req, res, () => {
      passedOn.push(`${req.method} ${req.url}`);
      res.writeHead(404).end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const istanbul = (at: Date) => DateTime.fromJSDate(at).setZone("Europe/Istanbul").toFormat("yyyy-MM-dd HH:mm:ss");

function signed(remoteId: number, options: { time?: string; teamId?: number; key?: string } = {}) {
  const time = options.time ?? istanbul(new Date());
  const teamId = options.teamId ?? pipeline.sandbox.account.teamId;
  const hash = createHmac("sha512", options.key ?? pipeline.sandbox.account.apiKey)
    .update(`${remoteId}${teamId}${time}`)
    .digest("hex");
  return JSON.stringify({ invoice_id: remoteId, team_id: teamId, time, hash });
}

const answer = async (response: Response) => ({
  status: response.status,
  type: response.headers.get("content-type"),
  body: await response.text(),
  close: response.headers.get("connection") === "close",
});

const throughNode = async (id: string, body: string) =>
  answer(
    await fetch(`${origin}/callbacks/invoices/${id}`, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
    }),
  );
const throughRemix = async (id: string, body: string) =>
  answer(
    await callRoute(
      callbackRoute,
      new Request(`${pipeline.appUrl}/callbacks/invoices/${id}`, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json" },
      }),
      { id },
    ),
  );

/** An invoice the service has, completed, and nothing due. */
async function completedInvoice() {
  const worker = await pipeline.startWorker();
  await pipeline.deliverPaid(paidOrder());
  await waitForInvoices((rows) => rows[0]?.state === "processing" && !rows[0].leaseOwner);
  await new Promise((resolve) => setTimeout(resolve, 50)); // the sandbox formalises meanwhile
  await makeScheduledRowsDue();
  worker.wake();
  const [row] = await waitForInvoices(
    (rows) => rows[0]?.state === "completed" && rows[0].nextAttemptAt === null && !rows[0].leaseOwner,
  );
  await worker.stop();
  return row;
}

const callbackEvents = (id: string) => prisma.invoiceEvent.count({ where: { invoiceId: id, type: "callback" } });

describe("the production server's callback path and the Remix route", () => {
  it("answer every callback alike and record the same", async () => {
    const row = await completedInvoice();
    const remoteId = row.remoteId!;
    const refused: Array<[string, string, string]> = [
      ["a body that is not JSON", row.id, "{not json"],
      ["fields missing", row.id, JSON.stringify({ invoice_id: remoteId })],
      ["an unknown invoice", "cunknown000000000000", signed(remoteId)],
      ["a wrong signature", row.id, signed(remoteId, { key: "not-the-shop-key" })],
      ["another team", row.id, signed(remoteId, { teamId: 999_999 })],
      ["another invoice of the service", row.id, signed(remoteId + 1000)],
      ["a stale time", row.id, signed(remoteId, { time: istanbul(new Date(Date.now() - 60 * 60_000)) })],
    ];
    for (const [name, id, body] of refused) {
      const node = await throughNode(id, body);
      expect(node, name).toEqual(await throughRemix(id, body));
      expect(node.type, name).toBe("application/json; charset=utf-8");
    }
    expect(await callbackEvents(row.id)).toBe(0);

    // A fresh callback is recorded by whichever way comes first; the same again, the other way, is a duplicate.
    const first = signed(remoteId, { time: istanbul(new Date(Date.now() - 5_000)) });
    const second = signed(remoteId, { time: istanbul(new Date(Date.now() - 3_000)) });
    const answers = [
      await throughNode(row.id, first),
      await throughRemix(row.id, first),
      await throughRemix(row.id, second),
      await throughNode(row.id, second),
    ];
    expect(answers.map((a) => [a.status, JSON.parse(a.body)])).toEqual([
      [200, { ok: true }],
      [200, { ok: true, ignored: "duplicate" }],
      [200, { ok: true }],
      [200, { ok: true, ignored: "duplicate" }],
    ]);
    expect(answers[0]).toEqual(answers[2]);
    expect(answers[1]).toEqual(answers[3]);
    expect(await callbackEvents(row.id)).toBe(2);
    expect(passedOn).toEqual([]);
  });

  it("a body over the limit: the same 413, and the connection closed", async () => {
    const body = JSON.stringify({ padding: "x".repeat(BODY_LIMITS.callback) });
    const node = await throughNode("cunknown000000000000", body);
    expect(node).toEqual(await throughRemix("cunknown000000000000", body));
    expect(node).toMatchObject({ status: 413, close: true });
  });

  it("passes on what is not a POST to an invoice's callback address", async () => {
    passedOn = [];
    await fetch(`${origin}/callbacks/invoices/abc`);
    await fetch(`${origin}/callbacks/invoices/abc/`, { method: "POST", body: "{}" });
    await fetch(`${origin}/callbacks/invoices/a%2Fb`, { method: "POST", body: "{}" });
    await fetch(`${origin}/callbacks/invoices/abc/more`, { method: "POST", body: "{}" });
    expect(passedOn).toEqual([
      "GET /callbacks/invoices/abc",
      "POST /callbacks/invoices/abc/",
      "POST /callbacks/invoices/a%2Fb",
      "POST /callbacks/invoices/abc/more",
    ]);
  });
});
