// Wakes the worker when a row becomes due, so an idle app posts within milliseconds of a webhook instead
// of after a polling interval. In one process: an event emitter. Across processes on PostgreSQL:
// NOTIFY/LISTEN on one channel. (Across processes on SQLite the worker polls: SQLite is single-host.)
import { EventEmitter } from "node:events";
import type pg from "pg";
import { dbProvider, hot } from "../db.server";
import { env } from "../env.server";
import { postgresConnectionString } from "../db/provider";
import { logger } from "../logger.server";

export const CHANNEL = "invoice_work";
const local = new EventEmitter();
local.setMaxListeners(100);

/** Tells workers that a row is due now. Cheap; never throws into the caller. */
export async function signalWork(): Promise<void> {
  local.emit("work");
  if (dbProvider() === "postgresql") {
    // A prepared statement on the hot pool: every queued order and every callback notifies (Prisma's raw query cost
    // about 1 ms of CPU each in the web process).
    await hot()
      .notify(CHANNEL)
      .catch((error: unknown) => {
        logger.warn({ err: error }, "pg_notify failed; workers will find the row by polling");
      });
  }
}

/** Calls `wake` on every signal (this process's and, on PostgreSQL, other processes'). Returns a stop function. */
export async function onWork(wake: () => void): Promise<() => Promise<void>> {
  local.on("work", wake);
  let client: pg.Client | undefined;
  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  const listen = async () => {
    // Imported here: a process on SQLite never loads the PostgreSQL driver.
    const { default: driver } = await import("pg");
    const next = new driver.Client({ connectionString: postgresConnectionString(env().DATABASE_URL) });
    next.on("notification", wake);
    // A restart of the database (or a network cut) ends the connection: listen again, backing off (0.5 s doubling to
    // 30 s, until the worker stops), and wake the worker meanwhile, since signals sent while it was away are lost.
    const lost = (error?: Error) => {
      if (next !== client || stopped) return;
      client = undefined;
      logger.warn({ err: error }, "LISTEN connection lost; listening again, polling meanwhile");
      wake();
      schedule();
    };
    next.on("error", lost);
    next.on("end", () => lost());
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) return void (await next.end().catch(() => undefined));
    client = next;
  };
  const schedule = () => {
    retry = setTimeout(
      () => {
        listen().then(
          () => {
            logger.info("LISTEN connection back");
            failures = 0;
            wake();
          },
          () => {
            failures++;
            if (!stopped) schedule();
          },
        );
      },
      Math.min(30_000, 500 * 2 ** failures),
    );
  };
  // The first connection must work: a worker that cannot reach the database does not start.
  if (dbProvider() === "postgresql") await listen();
  return async () => {
    stopped = true;
    local.off("work", wake);
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
