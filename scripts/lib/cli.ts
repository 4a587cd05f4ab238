// Shared plumbing of the local stand-ins' command lines (sandbox, Shopify stand-in): option parsing with a usage
// text, whole-number options, and stopping cleanly on Ctrl-C or SIGTERM.
import type http from "node:http";
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parses argv strictly; an unknown option, `--help` or a bad number prints the usage and exits with 2. */
export function commandLine<T extends Options>(usageLines: string[], options: T) {
  const usage = (): never => {
    console.error(usageLines.join("\n"));
    process.exit(2);
  };
  let parsed;
  try {
    parsed = parseArgs({ options: { ...options, help: { type: "boolean", short: "h" } }, strict: true });
  } catch (error) {
    console.error((error as Error).message);
    usage();
  }
  const values = parsed!.values as ReturnType<typeof parseArgs<{ options: T; strict: true }>>["values"];
  if ((parsed!.values as { help?: boolean }).help) usage();
  /** A non-negative whole number, or `fallback` when the option is absent or empty. */
  const intOption = (value: string | undefined, name: string, fallback: number): number => {
    if (value === undefined || value === "") return fallback;
    if (!/^\d+$/.test(value)) {
      console.error(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
      usage();
    }
    return Number(value);
  };
  return { values, usage, intOption };
}

/** Runs `stop` once on the first SIGINT or SIGTERM, then exits (0 when it finished, 1 when it failed). */
export function stopOnSignals(stop: () => Promise<void>, log?: (line: string) => void): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log?.(`${signal}: stopping`);
      stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

/** A request body of at most `max` bytes; null when it was larger (the rest is read and dropped). */
export function readBodyUpTo(req: http.IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > max ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
