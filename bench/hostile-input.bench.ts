// Hostile inputs that were quadratic (issue 35, points 6 and 9): the time of each for a size n and for 4n, in the
// same run. Linear work takes about 4× as long for 4× the input; quadratic work about 16×.
//   - the Returns CSV defuser on a run of line breaks before a formula (csvField);
//   - a bulk operation's JSONL file with one long line, read by downloadBulkOrders from a local server in 64 KiB chunks
//     (a line under the per-line limit, so it is read whole).
// Run: npx tsx bench/hostile-input.bench.ts [--repeat=5]
import http from "node:http";
import type { AddressInfo } from "node:net";
import { csvField } from "../app/after-sale/returns-csv";
import { downloadBulkOrders } from "../app/shopify/bulk-reads";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const REPEAT = Number(args.get("repeat") ?? 5);

/** The median of REPEAT timings of `work`, in ms. */
async function median(work: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const files = new Map<string, Buffer>();
const server = http.createServer((req, res) => {
  const body = files.get(req.url ?? "");
  if (!body) return res.writeHead(404).end();
  res.writeHead(200, { "content-length": String(body.length) });
  // 64 KiB writes: the reader sees the line in many chunks, as from a real download.
  let at = 0;
  const next = () => {
    while (at < body.length) {
      const chunk = body.subarray(at, at + 65_536);
      at += chunk.length;
      if (!res.write(chunk)) return res.once("drain", next);
    }
    res.end();
  };
  next();
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const rows: string[] = [];
for (const n of [5_000, 20_000]) {
  const text = `${"\n".repeat(n)}=HYPERLINK("x")`;
  rows.push(`csvField, ${n} line breaks: ${(await median(() => csvField(text))).toFixed(2)} ms`);
}
for (const chars of [200_000, 800_000]) {
  const line = JSON.stringify({ id: "gid://shopify/Order/1", name: "#1", note: "x".repeat(chars), refunds: [] });
  files.set(`/${chars}`, Buffer.from(`${line}\n`));
  const ms = await median(() => downloadBulkOrders(fetch, `${base}/${chars}`, { maxBytes: 64 * 1024 * 1024 }));
  rows.push(`bulk file, one line of ${chars} characters: ${ms.toFixed(2)} ms`);
}
server.close();
const ratio = (a: string, b: string) =>
  (Number(/([\d.]+) ms$/.exec(b)![1]) / Number(/([\d.]+) ms$/.exec(a)![1])).toFixed(1);
console.log(rows.join("\n"));
console.log(
  `4× the input took: csvField ${ratio(rows[0], rows[1])}×, bulk line ${ratio(rows[2], rows[3])}× (linear ≈ 4, quadratic ≈ 16)`,
);
