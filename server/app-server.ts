// The app's HTTP server in production (`npm start`): what remix-serve did (compression, the build's static
// files, the Remix handler, PORT and HOST, a clean stop), with our own access log: pino, one JSON line per
// request, with the secrets of a request's URL redacted (server/redact-url.ts, docs/decisions/0020).
// The demo's server (scripts/local-server.ts) is this one with the local admin's routes in front.
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type Express } from "express";
import { pinoHttp } from "pino-http";
import { logger } from "../app/logger.server";
import { nonCanonicalSecretTarget, redactUrl } from "./redact-url";
import { createRemixHandler } from "./remix-handler";

/** The app's folder: the nearest above this module with a package.json (server/ from source, build/node/ compiled). */
export const ROOT = appRoot(path.dirname(new URL(import.meta.url).pathname));

function appRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export interface AppServerOptions {
  /** The server build (build/server/index.js, imported). */
  build: ServerBuild;
  /** The browser build: build/client. */
  clientDir?: string;
  /** Routes served before the app's (the demo's local admin); never used by `npm start`. */
  routes?: (app: Express) => void;
}

export async function importBuild(file = path.join(ROOT, "build/server/index.js")): Promise<ServerBuild> {
  return (await import(pathToFileURL(file).href)) as ServerBuild;
}

/** Only the method and the redacted URL of a request, its status and time: no headers (tokens, cookies). */
const accessLog = pinoHttp({
  logger: logger.child({ component: "http" }),
  serializers: {
    req: (req: { id?: unknown; method: string; url: string }) => ({
      id: req.id,
      method: req.method,
      url: redactUrl(req.url),
    }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  },
});

type DirectMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export function createApp({ build, clientDir = path.join(ROOT, "build/client"), routes }: AppServerOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  // Not the answers to webhooks and callbacks that reach Remix (the direct paths below answer most of them): a few
  // bytes each, without a length (Remix streams them), so compression gzipped every one; about 9 % of the web
  // process's CPU during webhook ingestion when they all went through Remix (bench/results/pipeline.md, Run 4).
  app.use(
    compression({ filter: (req, res) => !/^\/(webhooks|callbacks)\//.test(req.path) && compression.filter(req, res) }),
  );
  // Vite fingerprints every file under /assets: cache them for a year; the rest of build/client (favicon...) for an
  // hour. Static files are served before the access log, as remix-serve did.
  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(clientDir, { maxAge: "1h" }));
  app.use((req, res, next) => (req.log ? next() : accessLog(req, res, next))); // once: the webhook path logs its own
  // A secret route (account webhook, print preview, customer PDF) spelled otherwise than its links: 404.
  app.use((req, res, next) =>
    nonCanonicalSecretTarget(req.originalUrl) ? res.status(404).type("text/plain").send("Not Found") : next(),
  );
  routes?.(app);
  // The peer's address for the routes that count a caller's failures (app/invoices/account-hint.server.ts): the socket's
  // own, never a header a caller can write.
  app.all(
    "*",
    createRemixHandler({
      build,
      mode: process.env.NODE_ENV,
      getLoadContext: (req) => ({ clientAddress: req.socket.remoteAddress ?? "unknown" }),
    }),
  );
  return app;
}

/**
 * The server's request handler: Shopify's deliveries and the invoicing service's callbacks first, answered by the
 * build's own code without express, Remix or compression in between (app/entry.server.tsx, docs/decisions/0021);
 * everything else, and an address under /webhooks/ or /callbacks/invoices/ that is not theirs, goes to the app above.
 */
export function createRequestListener(options: AppServerOptions): RequestListener {
  const app = createApp(options);
  const { webhookMiddleware, callbackMiddleware } = options.build.entry.module as {
    webhookMiddleware?: DirectMiddleware;
    callbackMiddleware?: DirectMiddleware;
  };
  const direct = (url: string) =>
    url.startsWith("/webhooks/")
      ? webhookMiddleware
      : url.startsWith("/callbacks/invoices/")
        ? callbackMiddleware
        : undefined;
  return (req, res) => {
    const middleware = req.method === "POST" ? direct(req.url ?? "") : undefined;
    if (!middleware) return app(req, res);
    accessLog(req, res);
    middleware(req, res, () => app(req, res));
  };
}

/** The invoice worker the build started in this process (app/worker/runtime.server.ts), if any. */
function inProcessWorker(): Promise<{ stop(): Promise<void> }> | undefined {
  return (globalThis as { __inProcessWorker?: Promise<{ stop(): Promise<void> }> }).__inProcessWorker;
}

/**
 * Listens on PORT (default 3000) and HOST (all interfaces when unset), like remix-serve. SIGTERM and SIGINT stop
 * taking connections, let the requests in flight and the in-process worker's jobs finish, then exit.
 */
export async function startAppServer(
  options: Omit<AppServerOptions, "build"> & { build?: ServerBuild } = {},
): Promise<Server> {
  const build = options.build ?? (await importBuild());
  installGlobals({ nativeFetch: build.future.v3_singleFetch });
  const server = createServer(createRequestListener({ ...options, build }));
  const port = Number(process.env.PORT || 3000);
  const host = process.env.HOST || undefined;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  logger.info({ port, host: host ?? "all interfaces", pid: process.pid }, "listening");

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, async () => {
      logger.info({ signal }, "stopping: finishing the requests and jobs in flight");
      // Whatever is still running after this is abandoned: a job's lease expires and another worker takes it.
      setTimeout(() => {
        logger.warn("still busy after 20 s; exiting");
        process.exit(1);
      }, 20_000).unref();
      await new Promise((resolve) => server.close(resolve));
      await (await inProcessWorker()?.catch(() => undefined))?.stop();
      process.exit(0);
    });
  }
  return server;
}
