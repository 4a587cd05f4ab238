// Wakes the worker when a row becomes due, so an idle app posts within milliseconds of a webhook instead
// of after a polling interval. In one process: an event emitter. Across processes on PostgreSQL:
// NOTIFY/LISTEN on one channel. (Across processes on SQLite the worker polls: SQLite is single-host.)
import { EventEmitter } from "node:events";
import pg from "pg";
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
    await hot().notify(CHANNEL).catch((error: unknown) => {
      logger.warn({ err: error }, "pg_notify failed; workers will find the row by polling");
    });
  }
}

/** Calls `wake` on every signal (this process's and, on PostgreSQL, other processes'). Returns a stop function. */
export async function onWork(wake: () => void): Promise<() => Promise<void>> {
  local.on("work", wake);
  let client: pg.Client | undefined;
  if (dbProvider() === "postgresql") {
    client = new pg.Client({ connectionString: postgresConnectionString(env().DATABASE_URL) });
    client.on("notification", wake);
    client.on("error", (error) => logger.warn({ err: error }, "LISTEN connection lost; polling continues"));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
  }
  return async () => {
    local.off("work", wake);
    await client?.end().catch(() => undefined);
  };
}
