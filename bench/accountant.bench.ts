// Accountant package (issue 27, point 3): a month of N legal invoices (default 5,000) built into one ZIP by the real
// builder (app/accountant/build.server.ts) in a process of its own, against the invoicing sandbox serving stand-in PDFs
// of a realistic size (--pdf-kb, default 60) at a fixed latency per request (--latency, default 100 ms).
// Timed from the build's start until the package is ready, against
//   ideal = ceil(N ÷ concurrency) × latency      (every PDF is one request; nothing else is counted as work),
// and the builder process's peak RSS, measured for N and for N/5 in the same run: memory that does not grow with the
// number of invoices is what "bounded" means here. Also the ZIP's size, its entries, and the workbook's rows.
// Run: npx tsx bench/accountant.bench.ts [--invoices=5000] [--latency=100] [--concurrency=6] [--pdf-kb=60] [--no-small]
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const CHILD = args.get("child");
const DIR = path.resolve("tmp/bench/accountant");
const ENV = {
  SHOPIFY_API_KEY: "bench",
  SHOPIFY_API_SECRET: "bench-secret",
  SHOPIFY_APP_URL: "http://127.0.0.1",
  ENCRYPTION_KEY: "1".repeat(64),
  LOCAL_SERVICES: "1",
  LOG_LEVEL: "warn",
  ACCOUNTANT_PACKAGE_DIR: path.join(DIR, "packages"),
};

if (CHILD) {
  // The builder's process: only the build, so its peak RSS is the build's.
  const { buildPackage } = await import("../app/accountant/build.server");
  const { default: prisma } = await import("../app/db.server");
  const concurrency = Number(args.get("concurrency"));
  const started = performance.now();
  await buildPackage(CHILD, { owner: `bench-${process.pid}`, concurrency });
  const ms = performance.now() - started;
  const row = await prisma.accountantPackage.findUniqueOrThrow({ where: { id: CHILD } });
  process.stdout.write(
    JSON.stringify({
      ms,
      maxRssKb: process.resourceUsage().maxRSS,
      state: row.state,
      total: row.total,
      pdfDone: row.pdfDone,
      pdfFailed: row.pdfFailed,
      bytes: Number(row.fileSize ?? 0),
      lastError: row.lastError,
    }) + "\n",
  );
  await prisma.$disconnect();
  process.exit(0);
}

const INVOICES = Number(args.get("invoices") ?? 5_000);
const LATENCY_MS = Number(args.get("latency") ?? 100);
const CONCURRENCY = Number(args.get("concurrency") ?? 6);
const PDF_KB = Number(args.get("pdf-kb") ?? 60);
const SMALL = !args.has("no-small");
const SHOP = "muhasebe-bench.myshopify.com";

rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
const databaseUrl = `file:${path.join(DIR, "bench.sqlite")}`;
Object.assign(process.env, ENV, { DATABASE_URL: databaseUrl });
await (await import("../app/db/migrate")).migrate(databaseUrl, process.cwd());
const { startSandbox } = await import("../sandbox/server");
const { InvoicingClient } = await import("../app/invoicing-service/client");
const { installShopLocally } = await import("../app/shops/local-install.server");
const { default: prisma } = await import("../app/db.server");
const { DateTime } = await import("luxon");
const ExcelJS = (await import("exceljs")).default;
const yauzl = (await import("yauzl")).default;

const sandbox = await startSandbox({ port: 0, formalizeDelayMs: 1, pdfBytes: PDF_KB * 1024 });
await installShopLocally({
  shop: SHOP,
  apiKey: sandbox.account.apiKey,
  baseUrl: sandbox.url,
  saleChannelId: sandbox.account.saleChannelId,
  invoiceIntegrationId: sandbox.account.invoiceIntegrationId,
  dummyIntegrationId: sandbox.account.dummyIntegrationId,
  testMode: false,
});

// Last month in Istanbul: its days, and 5,000 invoices spread over them with rates 20, 10, 1 and 0 (exempt).
const month = DateTime.now().setZone("Europe/Istanbul").startOf("month").minus({ months: 1 });
const days = month.daysInMonth!;
const client = new InvoicingClient({ baseUrl: sandbox.url, apiKey: sandbox.account.apiKey, timeoutMs: 30_000 });
const customer = {
  id: "b-1",
  type: "person" as const,
  tax_number: "11111111111",
  name: "Ayşe",
  surname: "Yılmaz",
  country: "Türkiye",
  address: "Atatürk Cad. 1",
  city: "İstanbul",
  district: "Kadıköy",
};

async function seed(count: number, prefix: string) {
  const started = performance.now();
  let next = 0;
  const rows: Array<Record<string, unknown>> = [];
  const make = async () => {
    while (next < count) {
      const i = next++;
      const day = month.plus({ days: i % days }).toISODate()!;
      const lines = [
        {
          id: `${i}-a`,
          name: "Kazak",
          quantity: 1 + (i % 3),
          unit: "C62",
          unit_price: 99.99 + (i % 7),
          tax_rate: "20" as const,
        },
        { id: `${i}-b`, name: "Kitap", quantity: 1, unit: "C62", unit_price: 45.455, tax_rate: "10" as const },
        ...(i % 5 === 0
          ? [{ id: `${i}-c`, name: "Ekmek", quantity: 7, unit: "C62", unit_price: 4.95, tax_rate: "1" as const }]
          : []),
        ...(i % 9 === 0
          ? [
              {
                id: `${i}-d`,
                name: "İhraç",
                quantity: 1,
                unit: "C62",
                unit_price: 150,
                tax_rate: "0" as const,
                exemption_code: "301",
                exemption_reason: "11/1-a Mal İhracatı",
              },
            ]
          : []),
      ];
      const body = {
        type: "SATIS" as const,
        sale_channel_id: sandbox.account.saleChannelId,
        invoice_integration_id: sandbox.account.invoiceIntegrationId,
        // No order_id: the sandbox's duplicate check scans every invoice of the account per create (quadratic seeding).
        currency: "TRY",
        currency_rate: "1",
        issue_date: day,
        issue_time: "10:15",
        cash_sale: true,
        payment_date: day,
        lines,
        customer,
      };
      const record = await client.createInvoice(body);
      rows.push({ body, remoteId: record.id, day, i });
    }
  };
  await Promise.all(Array.from({ length: 16 }, make));
  // Formalised at the sandbox (a timer each): wait for all. (sandbox.invoices.get copies every record: read all once.)
  let records = sandbox.invoices.all();
  while (records.some((r) => r.formal_status !== "completed")) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    records = sandbox.invoices.all();
  }
  const byId = new Map(records.map((r) => [r.id, r]));
  for (let at = 0; at < rows.length; at += 500) {
    await prisma.invoice.createMany({
      data: rows.slice(at, at + 500).map((row) => {
        const record = byId.get(row.remoteId as number)!;
        const created = DateTime.fromISO(row.day as string, { zone: "Europe/Istanbul" })
          .plus({ hours: 9 })
          .toJSDate();
        return {
          shopDomain: SHOP,
          orderId: `${prefix}-${row.i}`,
          orderName: `#${prefix}${row.i}`,
          orderCreatedAt: created,
          orderTotal: record.grand_total!,
          currency: "TRY",
          orderSnapshot: {},
          state: "completed",
          remoteId: record.id,
          serialNumber: record.serial_number,
          ettn: record.ettn,
          documentKind: "e_archive",
          requestBody: row.body as object,
          remoteTotals: {
            lines_total: record.lines_total,
            discount_total: record.discount_total,
            tax_total: record.tax_total,
            extra_tax_total: record.extra_tax_total,
            grand_total: record.grand_total,
          },
          createdAt: created,
        };
      }),
    });
  }
  return { ms: performance.now() - started };
}

async function build(from: string, to: string) {
  const row = await prisma.accountantPackage.create({
    data: { shopDomain: SHOP, fromDate: from, toDate: to, locale: "tr", state: "queued" },
  });
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "bench/accountant.bench.ts", `--child=${row.id}`, `--concurrency=${CONCURRENCY}`],
    {
      env: { ...process.env, ...ENV, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  const result = JSON.parse(out.trim().split("\n").pop()!) as {
    ms: number;
    maxRssKb: number;
    state: string;
    total: number;
    pdfDone: number;
    pdfFailed: number;
    bytes: number;
    lastError: string | null;
  };
  return { id: row.id, ...result };
}

/** Opens the ZIP, counts its entries and reads the workbook's invoice rows and summary total back. */
async function check(id: string, base: string) {
  const file = path.join(ENV.ACCOUNTANT_PACKAGE_DIR, id, `${base}.zip`);
  const zip = await new Promise<import("yauzl").ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  let pdfs = 0;
  let workbook: Buffer | null = null;
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: import("yauzl").Entry) => {
      if (entry.fileName.endsWith(".pdf")) pdfs += 1;
      if (!entry.fileName.endsWith(".xlsx")) return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          workbook = Buffer.concat(chunks);
          zip.readEntry();
        });
      });
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(workbook! as unknown as ArrayBuffer);
  return { pdfs, invoiceRows: book.getWorksheet("Faturalar")!.rowCount - 1 };
}

const report: string[] = [];
const say = (line: string) => {
  report.push(line);
  console.log(line);
};
const from = month.toISODate()!;
const to = month.endOf("month").toISODate()!;
const base = `muhasebe-${month.toFormat("yyyy-MM")}`;

// The small month first (a fifth of the invoices, the first days of the month), then the whole month.
const seeded = await seed(INVOICES, "m");
console.log(`seeded ${INVOICES} invoices in ${(seeded.ms / 1000).toFixed(1)} s`);
sandbox.faults.setLatency(LATENCY_MS);
const ideal = (n: number) => Math.ceil(n / CONCURRENCY) * LATENCY_MS;

const runs: Array<{
  label: string;
  result: Awaited<ReturnType<typeof build>>;
  check: Awaited<ReturnType<typeof check>>;
}> = [];
if (SMALL) {
  const smallTo = month.plus({ days: Math.max(0, Math.floor(days / 5) - 1) }).toISODate()!;
  const result = await build(from, smallTo);
  runs.push({ label: `${from} – ${smallTo}`, result, check: await check(result.id, `muhasebe-${from}_${smallTo}`) });
}
const whole = await build(from, to);
runs.push({ label: `${from} – ${to}`, result: whole, check: await check(whole.id, base) });
await sandbox.stop();
await prisma.$disconnect();

say(`# Accountant package benchmark`);
say("");
say(
  `Run ${new Date().toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} at the end, Node ${process.version}.`,
);
say(
  `Command: \`npx tsx bench/accountant.bench.ts --invoices=${INVOICES} --latency=${LATENCY_MS} --concurrency=${CONCURRENCY} --pdf-kb=${PDF_KB}\``,
);
say("");
say(
  `The sandbox (in the bench's process) answers every request after ${LATENCY_MS} ms and serves each formal PDF padded to ${PDF_KB} KB;`,
);
say(
  `the builder runs in a process of its own (SQLite), reading ${CONCURRENCY} PDFs at once. Ideal = ceil(invoices ÷ ${CONCURRENCY}) × ${LATENCY_MS} ms.`,
);
say("");
say(
  "| period | invoices | PDFs in ZIP | workbook rows | ZIP | build | ideal | build ÷ ideal | builder peak RSS | state |",
);
say("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
for (const run of runs) {
  const r = run.result;
  say(
    `| ${run.label} | ${r.total} | ${run.check.pdfs} | ${run.check.invoiceRows} | ${(r.bytes / 1024 / 1024).toFixed(1)} MB | ${(r.ms / 1000).toFixed(1)} s | ${(ideal(r.total) / 1000).toFixed(1)} s | ${ideal(r.total) > 0 ? `${(r.ms / ideal(r.total)).toFixed(2)}×` : "–"} | ${(r.maxRssKb / 1024).toFixed(0)} MB | ${r.state}${r.pdfFailed ? `, ${r.pdfFailed} PDFs missing` : ""}${r.lastError ? ` (${r.lastError})` : ""} |`,
  );
}
if (runs.length === 2) {
  const [small, big] = runs;
  say("");
  say(
    `Peak RSS with ${big.result.total} invoices ÷ with ${small.result.total}: ${(big.result.maxRssKb / small.result.maxRssKb).toFixed(2)}× for ${(big.result.total / small.result.total).toFixed(1)}× the invoices and ${(big.result.bytes / Math.max(1, small.result.bytes)).toFixed(1)}× the ZIP's bytes.`,
  );
}
mkdirSync("bench/results", { recursive: true });
if (args.has("write")) writeFileSync("bench/results/accountant.md", report.join("\n") + "\n");
rmSync(DIR, { recursive: true, force: true });
