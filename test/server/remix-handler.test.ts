// How the production server writes a response body (server/remix-handler.ts): with back-pressure, so a client that
// reads slowly holds up the body's source instead of this process buffering the body whole (an accountant package read
// from the database or an object store), and a client that goes away cancels the source.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { Response as RemixResponse } from "@remix-run/web-fetch";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sendResponse } from "../../server/remix-handler";

const CHUNK = 64 * 1024;
const TOTAL = 64 * 1024 * 1024;

/** A body made on demand, as the package stores give it: counts what was asked of it, and whether it was cancelled. */
function source() {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulled += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK));
        if (state.pulled >= TOTAL) controller.close();
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { state, body };
}

const servers: Array<{ close(): void }> = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

// The server's Response is Remix's own (installGlobals, server/app-server.ts) or undici's; both are sent the same way.
const RESPONSES = [
  ["the platform's Response", Response],
  ["Remix's Response (installGlobals)", RemixResponse as unknown as typeof Response],
] as const;
let ResponseClass: typeof Response = Response;

async function serve(body: ReadableStream<Uint8Array>): Promise<number> {
  const app = express();
  app.get("/package.zip", (_req, res) =>
    sendResponse(res, new ResponseClass(body, { headers: { "Content-Type": "application/zip" } })).catch(
      () => undefined,
    ),
  );
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

/** A client that asks for the package and reads nothing until told to. */
async function slowClient(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.pause();
  socket.write("GET /package.zip HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  return socket;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe.each(RESPONSES)("a response body sent to a slow client, as %s", (_name, Class) => {
  beforeEach(() => {
    ResponseClass = Class;
  });

  it("is read from its source only as fast as the client takes it, and arrives whole", async () => {
    const { state, body } = source();
    const socket = await slowClient(await serve(body));
    await settle();
    // What the sockets' buffers hold, not the 64 MB body.
    expect(state.pulled).toBeGreaterThan(0);
    expect(state.pulled).toBeLessThan(TOTAL / 4);
    let received = 0;
    socket.on("data", (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    await once(socket, "end");
    expect(state.pulled).toBe(TOTAL);
    expect(received).toBeGreaterThan(TOTAL);
    expect(received).toBeLessThan(TOTAL + 32 * 1024); // the body, the head and chunked encoding's line per chunk
  });

  it("a client that goes away cancels the body's source", async () => {
    const { state, body } = source();
    const socket = await slowClient(await serve(body));
    await settle();
    socket.destroy();
    await settle();
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(TOTAL / 4);
  });
});
