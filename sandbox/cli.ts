// `npm run --silent sandbox -- --port 4010`: starts the invoicing sandbox. The FIRST line on stdout is one
// JSON object with the base URL and the seed account; human-readable logs go to stderr.
import { parseArgs } from "node:util";
import { startSandbox } from "./server";

function usage(): never {
  console.error(
    [
      "Usage: npm run --silent sandbox -- [--port N] [--host H] [--formalize-delay-ms N] [--latency-ms N] [--quiet] [--no-http-faults]",
      "  --port                 listening port; 0 picks a free one (default 4010, or env SANDBOX_PORT)",
      "  --host                 listening address (default 127.0.0.1)",
      "  --formalize-delay-ms   time of each formalisation step (default 200)",
      "  --latency-ms           fixed latency added to every request (default 0)",
      "  --quiet                no request logs on stderr",
      "  --no-http-faults       refuse POST /__sandbox/faults (fault injection over HTTP is on by default)",
    ].join("\n"),
  );
  process.exit(2);
}

function intOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value)) {
    console.error(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
    usage();
  }
  return Number(value);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "formalize-delay-ms": { type: "string" },
      "latency-ms": { type: "string" },
      quiet: { type: "boolean" },
      "no-http-faults": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
} catch (error) {
  console.error((error as Error).message);
  usage();
}
const { values } = parsed;
if (values.help) usage();

const port = intOption(values.port ?? process.env.SANDBOX_PORT, "port", 4010);
const stderrLog = (line: string) => process.stderr.write(`[sandbox ${new Date().toISOString()}] ${line}\n`);

const sandbox = await startSandbox({
  port,
  host: values.host ?? "127.0.0.1",
  formalizeDelayMs: intOption(values["formalize-delay-ms"], "formalize-delay-ms", 200),
  latencyMs: intOption(values["latency-ms"], "latency-ms", 0),
  log: values.quiet ? undefined : stderrLog,
  faultsOverHttp: !values["no-http-faults"],
}).catch((error: unknown) => {
  console.error(`The sandbox could not start: ${(error as Error).message}`);
  process.exit(1);
});

const { account } = sandbox;
process.stdout.write(
  `${JSON.stringify({
    url: sandbox.url,
    apiKey: account.apiKey,
    teamId: account.teamId,
    saleChannelId: account.saleChannelId,
    invoiceIntegrationId: account.invoiceIntegrationId,
    dummyIntegrationId: account.dummyIntegrationId,
  })}\n`,
);
stderrLog(`invoicing sandbox at ${sandbox.url} (faults: POST ${sandbox.origin}/__sandbox/faults); Ctrl-C stops it`);
stderrLog(`e-invoice registered tax numbers: ${account.eInvoiceTaxNumbers.join(", ")}; waybills ${JSON.stringify(account.waybillIds)}`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    stderrLog(`${signal}: stopping`);
    sandbox.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
