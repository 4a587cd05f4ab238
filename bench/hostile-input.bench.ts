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

// The baseline, measured in the same run: what the two did before issue 35 (the defuser's pattern skipped line breaks
// while looking for a formula; the reader searched the whole unfinished line again at every chunk).
const BEFORE_CELL_START = /(^|[,;\t\r\n])(?=[\s"]*[=+\-@]|[\t\r])/g;
const csvBefore = (value: string) => value.replace(BEFORE_CELL_START, "$1'");
function linesBefore(chunks: string[]): number {
  let rest = "";
  let lines = 0;
  for (const chunk of chunks) {
    rest += chunk;
    let newline: number;
    while ((newline = rest.indexOf("\n")) >= 0) {
      lines++;
      rest = rest.slice(newline + 1);
    }
  }
  return lines;
}

const rows: string[] = [];
for (const n of [5_000, 20_000]) {
  const text = `${"\n".repeat(n)}=HYPERLINK("x")`;
  rows.push(`csvField, ${n} line breaks: ${(await median(() => csvField(text))).toFixed(2)} ms`);
  rows.push(`  before: ${(await median(() => csvBefore(text))).toFixed(2)} ms`);
}
for (const chars of [200_000, 800_000]) {
  const line = JSON.stringify({ id: "gid://shopify/Order/1", name: "#1", note: "x".repeat(chars), refunds: [] });
  files.set(`/${chars}`, Buffer.from(`${line}\n`));
  const ms = await median(() => downloadBulkOrders(fetch, `${base}/${chars}`, { maxBytes: 64 * 1024 * 1024 }));
  rows.push(`bulk file, one line of ${chars} characters: ${ms.toFixed(2)} ms`);
  // The same line in the same 64 KiB pieces, through the loop the reader had before (its line search only).
  const text = `${line}\n`;
  const chunks = Array.from({ length: Math.ceil(text.length / 65_536) }, (_, i) =>
    text.slice(i * 65_536, (i + 1) * 65_536),
  );
  rows.push(`  before (line search only): ${(await median(() => linesBefore(chunks))).toFixed(2)} ms`);
}
server.close();
const ms = (row: string) => Number(/([\d.]+) ms$/.exec(row)![1]);
const ratio = (a: string, b: string) => (ms(b) / ms(a)).toFixed(1);
console.log(rows.join("\n"));
console.log(
  `4× the input took: csvField ${ratio(rows[0], rows[2])}× (before ${ratio(rows[1], rows[3])}×), ` +
    `bulk line ${ratio(rows[4], rows[6])}× (before, its line search alone ${ratio(rows[5], rows[7])}×); ` +
    "linear ≈ 4, quadratic ≈ 16",
);
