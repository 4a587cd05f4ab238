// `npm run --silent sandbox -- --port 4010`: starts the invoicing sandbox. The FIRST line on stdout is one
// JSON object with the base URL and the seed account; human-readable logs go to stderr.
import { commandLine, stopOnSignals } from "../scripts/lib/cli";
import { startSandbox } from "./server";

const { values, intOption } = commandLine(
  [
    "Usage: npm run --silent sandbox -- [--port N] [--host H] [--formalize-delay-ms N] [--latency-ms N] [--quiet] [--no-http-faults]",
    "  --port                 listening port; 0 picks a free one (default 4010, or env SANDBOX_PORT)",
    "  --host                 listening address (default 127.0.0.1)",
    "  --formalize-delay-ms   time of each formalisation step (default 200)",
    "  --latency-ms           fixed latency added to every request (default 0)",
    "  --quiet                no request logs on stderr",
    "  --no-http-faults       refuse POST /__sandbox/faults (fault injection over HTTP is on by default)",
  ],
  {
    port: { type: "string" },
    host: { type: "string" },
    "formalize-delay-ms": { type: "string" },
    "latency-ms": { type: "string" },
    quiet: { type: "boolean" },
    "no-http-faults": { type: "boolean" },
  },
);

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
stderrLog(
  `e-invoice registered tax numbers: ${account.eInvoiceTaxNumbers.join(", ")}; waybills ${JSON.stringify(account.waybillIds)}`,
);

stopOnSignals(() => sandbox.stop(), stderrLog);
