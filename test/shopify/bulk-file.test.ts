// Reading a bulk operation's JSONL file (app/shopify/bulk-reads.ts): the size limit holds whether or not the
// server declares a length, a line that belongs to no order or is not a line item or shipping line is refused, a
// cut file is told from a complete one, and the production policy reads files from Shopify's file host only.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch } from "../../app/http/outbound-guard.server";
import { BULK_FILE_HOSTS, downloadBulkOrders } from "../../app/shopify/bulk-reads";
import { AdminApiError } from "../../app/shopify/errors";

let server: http.Server;
let base: string;
const files: Record<string, { body: string; length?: number }> = {};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const file = files[req.url ?? ""];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, file.length === undefined ? {} : { "content-length": String(file.length) });
    if (file.length !== undefined && file.length > Buffer.byteLength(file.body)) {
      res.write(file.body, () => res.destroy());
      return;
    }
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const order = (id: number) => JSON.stringify({ id: `gid://shopify/Order/${id}`, name: `#${id}`, refunds: [] });
const line = (id: number, parent: number, type = "LineItem") =>
  JSON.stringify({ __typename: type, id: `gid://shopify/${type}/${id}`, __parentId: `gid://shopify/Order/${parent}` });

async function refusal(promise: Promise<unknown>): Promise<AdminApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AdminApiError);
  return error as AdminApiError;
}

describe("reading a bulk file", () => {
  it("refuses a line over the line limit, and reads long lines split across many chunks (issue 35, point 6)", async () => {
    // 8 MiB on one line: refused as soon as the line passes the limit, not after it is all in memory.
    files["/long-line"] = { body: `{"id":"gid://shopify/Order/1","name":"${"x".repeat(8 * 1024 * 1024)}"}\n` };
    const error = await refusal(downloadBulkOrders(fetch, `${base}/long-line`, { maxBytes: 64 * 1024 * 1024 }));
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toMatch(/line 1 of the bulk file is over the 1048576-character limit/);
    // A line just under it, arriving in many chunks, is read whole, with the lines around it.
    const long = JSON.stringify({ id: "gid://shopify/Order/7", name: "#7", note: "y".repeat(900_000), refunds: [] });
    files["/split"] = { body: [order(6), long, line(70, 7)].join("\n") + "\n" };
    const orders = await downloadBulkOrders(fetch, `${base}/split`, { maxBytes: 10 * 1024 * 1024 });
    expect(orders.map((o) => [o.id, String(o.note ?? "").length])).toEqual([
      ["gid://shopify/Order/6", 0],
      ["gid://shopify/Order/7", 900_000],
    ]);
  });

  it("gathers children under their orders whatever the line order", async () => {
    files["/ok"] = {
      body: [line(11, 2), order(1), line(12, 1, "ShippingLine"), order(2), line(13, 1)].join("\n") + "\n",
    };
    const orders = await downloadBulkOrders(fetch, `${base}/ok`, { maxBytes: 10_000 });
    expect(
      orders.map((o) => [
        o.id,
        (o.lineItems as { nodes: unknown[] }).nodes.length,
        (o.shippingLines as { nodes: unknown[] }).nodes.length,
      ]),
    ).toEqual([
      ["gid://shopify/Order/1", 1, 1],
      ["gid://shopify/Order/2", 1, 0],
    ]);
  });

  it("stops at the size limit, declared or not", async () => {
    const body = Array.from({ length: 200 }, (_, i) => order(i + 1)).join("\n");
    files["/big"] = { body, length: Buffer.byteLength(body) };
    files["/big-undeclared"] = { body };
    expect((await refusal(downloadBulkOrders(fetch, `${base}/big`, { maxBytes: 1_000 }))).kind).toBe(
      "invalid_response",
    );
    expect((await refusal(downloadBulkOrders(fetch, `${base}/big-undeclared`, { maxBytes: 1_000 }))).message).toMatch(
      /over the 1000-byte limit/,
    );
  });

  it("tells a cut file from a whole one", async () => {
    const body = [order(1), order(2)].join("\n") + "\n";
    files["/cut"] = { body: body.slice(0, body.length - 10), length: Buffer.byteLength(body) };
    expect((await refusal(downloadBulkOrders(fetch, `${base}/cut`, { maxBytes: 10_000 }))).kind).toBe("unavailable");
  });

  it("refuses a line of no order of the file, and a child that is neither a line item nor a shipping line", async () => {
    files["/orphan"] = { body: [order(1), line(11, 9)].join("\n") };
    files["/stranger"] = { body: [order(1), line(11, 1, "Metafield")].join("\n") };
    files["/not-order"] = { body: JSON.stringify({ id: "gid://shopify/Customer/1" }) };
    for (const name of ["/orphan", "/stranger", "/not-order"])
      expect((await refusal(downloadBulkOrders(fetch, `${base}${name}`, { maxBytes: 10_000 }))).kind, name).toBe(
        "invalid_response",
      );
  });

  it("in production reads files from Shopify's file host only: another host is refused before any connection", async () => {
    files["/elsewhere"] = { body: order(1) };
    const production = guardedFetch({ allowedHosts: BULK_FILE_HOSTS, allowLocal: false });
    const error = await refusal(downloadBulkOrders(production, `${base}/elsewhere`, { maxBytes: 10_000 }));
    expect(error.message).toMatch(/outbound call refused/);
    expect(BULK_FILE_HOSTS).toEqual(["storage.googleapis.com"]);
  });
});
