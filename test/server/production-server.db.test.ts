// `npm start` (server/start.ts) on the production build: the access log never holds a URL's secret, assets are
// cached as fingerprinted files, and SIGTERM stops it cleanly.
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, fakedClockEnv, freePort } from "../../scripts/lib/local-stack";
import { installShop, prisma } from "../helpers/db";
import { SHOP } from "../helpers/shopify";
import { paidOrder } from "../helpers/orders";
import { webhookHeaders } from "../../scripts/lib/shopify-signing";

const root = path.resolve(__dirname, "../..");
let child: ChildProcess;
let output = "";
let appUrl: string;
let exit: Promise<number | null>;

interface LogLine {
  msg?: string;
  pid?: number;
  req?: { method: string; url: string };
  res?: { statusCode: number };
}

function alive(pid: number | undefined): boolean {
  try {
    process.kill(pid!, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForHealth(url: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`npm start did not become healthy:\n${output}`);
}

describe("npm start", () => {
  beforeAll(async () => {
    ensureBuild();
    await installShop(SHOP);
    await prisma.shopSettings.upsert({ where: { shopDomain: SHOP }, create: { shopDomain: SHOP }, update: {} });
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    // The same database as this test file (test/setup.ts made and migrated it) and the same encryption key.
    child = spawn("npm", ["start"], {
      cwd: root,
      detached: true, // its own process group, for the teardown
      // No NODE_ENV: npm start makes it production, as remix-serve did.
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...fakedClockEnv(),
        SHOPIFY_API_KEY: "prod-server-test",
        SHOPIFY_API_SECRET: "prod-server-test-secret",
        SHOPIFY_APP_URL: appUrl,
        ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
        DATABASE_URL: process.env.DATABASE_URL,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        RECONCILE_INTERVAL_MINUTES: "0",
      } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    exit = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitForHealth(appUrl);
  }, 300_000);

  afterAll(() => {
    try {
      if (child?.pid) process.kill(-child.pid, "SIGKILL"); // whatever of its process group is left
    } catch {
      // all gone
    }
  });

  it("serves the app, with the build's fingerprinted assets cached for a year", async () => {
    const asset = readdirSync(path.join(root, "build/client/assets")).find((file) => file.endsWith(".js"))!;
    const response = await fetch(`${appUrl}/assets/${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${appUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${appUrl}/no-such-page`)).status).toBe(404);
  });

  it("has nothing of the local admin: no route in the build's manifest, 404 at its addresses", async () => {
    // The build's route manifest is what the server routes by (build/server/index.js exports it).
    const build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;
    const routes = Object.values(build.routes);
    expect(routes.map((route) => route.id)).toContain("routes/callbacks.account.$shop.$secret"); // the manifest is read
    for (const route of routes) {
      expect(route.id).not.toMatch(/local-admin/i);
      expect(route.path ?? "").not.toMatch(/local-admin/i);
    }
    for (const address of [
      `/local-admin?shop=${SHOP}`,
      `/local-admin/session-token?shop=${SHOP}`,
      "/local-admin/app-bridge.js",
    ]) {
      expect((await fetch(`${appUrl}${address}`, { redirect: "manual" })).status, address).toBe(404);
    }
  });

  it("answers Shopify's deliveries on its direct path, before Remix; an address that is no topic's goes to Remix", async () => {
    const send = (topic: string, secret: string, path = `/webhooks/${topic}`) => {
      const rawBody = JSON.stringify(paidOrder());
      return fetch(`${appUrl}${path}`, {
        method: "POST",
        headers: webhookHeaders({ topic, shop: SHOP, rawBody, secret }),
        body: rawBody,
      });
    };
    const paid = await send("orders/paid", "prod-server-test-secret");
    expect([paid.status, await paid.json()]).toEqual([200, { ok: true, result: "queued" }]);
    // The direct path sends its answer with a length; Remix streams its answers without one.
    expect(paid.headers.get("content-length")).not.toBeNull();
    expect((await send("orders/paid", "forged-secret")).status).toBe(401);
    expect((await send("orders/paid", "prod-server-test-secret", "/webhooks/orders/unknown")).status).toBe(404);
    expect(await prisma.invoice.count({ where: { shopDomain: SHOP } })).toBe(1);
  });

  it("answers the service's callbacks on its direct path too, before Remix", async () => {
    const callback = await fetch(`${appUrl}/callbacks/invoices/cunknown000000000000`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect([callback.status, (await callback.json()).ok]).toEqual([400, false]);
    expect(callback.headers.get("content-length")).not.toBeNull();
  });

  it("answers 404 to a secret route spelled otherwise than its links, and logs only the route's name", async () => {
    const { accountWebhookSecret } = await import("../../app/settings/account-webhook.server");
    const secret = await accountWebhookSecret(SHOP);
    const port = Number(new URL(appUrl).port);
    // The request line as sent (fetch would clean the path first).
    const status = (target: string, method = "POST") =>
      new Promise<number>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () =>
          socket.write(
            `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
          ),
        );
        let answer = "";
        socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
        socket.on("end", () => resolve(Number(answer.split(" ")[1])));
        socket.on("error", reject);
      });
    const hook = `callbacks/account/${SHOP}/${secret}`;
    expect(await status(`/${hook}`)).toBe(200);
    for (const target of [
      `/./${hook}`,
      `/x/../${hook}`,
      `/%2e/${hook}`,
      `/x/%2E%2e/${hook}`,
      `/callbacks\\account/${SHOP}/${secret}`,
      `http://127.0.0.1:${port}/${hook}`,
      `http://evil.example/${hook}`,
      `/Callbacks/Account/${SHOP}/${secret}`,
      `/callbacks/%61ccount/${SHOP}/${secret}`,
      `/${hook}/`,
      `/${hook}/x/..`,
    ]) {
      expect(await status(target), target).toBe(404);
    }
    expect(await status("/x/../invoice-pdf/cm0000000000000000000000/PDF-SIGNATURE-7788", "GET")).toBe(404);
    expect(await status("/./print/invoices/PRINT-TOKEN-8899", "GET")).toBe(404);
  });

  it("logs every request without the secrets its URL carries, and stops on SIGTERM", async () => {
    const { accountWebhookSecret } = await import("../../app/settings/account-webhook.server");
    const secret = await accountWebhookSecret(SHOP);
    const hook = await fetch(`${appUrl}/callbacks/account/${SHOP}/${secret}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(hook.status).toBe(200); // the right secret: the call is admitted
    expect(
      (await fetch(`${appUrl}/callbacks/account/${SHOP}/wrong-${secret}`, { method: "POST", body: "{}" })).status,
    ).toBe(401);
    expect((await fetch(`${appUrl}/print/invoices/PRINT-TOKEN-1234.sig`)).status).toBe(404);
    await fetch(`${appUrl}/app?embedded=1&shop=${SHOP}&id_token=ID-TOKEN-5678&hmac=HMAC-9012&session=SESSION-3456`, {
      redirect: "manual",
    });

    // A supervisor's stop: SIGTERM to npm alone (`docker stop` signals the container's first process). npm passes
    // it on; the server (exec'd by npm's shell, no shell left in between) finishes and exits.
    process.kill(child.pid!, "SIGTERM");
    await exit;
    const lines = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine);
    const server = lines.find((line) => line.msg === "listening")?.pid;
    expect(server).toBeGreaterThan(0);
    await expect.poll(() => alive(server)).toBe(false);
    expect(lines.map((line) => line.msg)).toContain("stopping: finishing the requests and jobs in flight");
    await expect(fetch(`${appUrl}/healthz`)).rejects.toThrow();

    const logged = lines
      .filter((line) => line.req)
      .map((line) => `${line.req!.method} ${line.req!.url} ${line.res?.statusCode}`);
    expect(logged).toContain(`POST /callbacks/account/${SHOP}/[redacted] 200`);
    expect(logged).toContain(`POST /callbacks/account/${SHOP}/[redacted] 401`);
    expect(logged).toContain("GET /print/invoices/[redacted] 404");
    // The other spellings of the secret routes: by the route's name only.
    expect(logged.filter((line) => line === "POST /callbacks/account/[redacted] 404")).toHaveLength(11);
    expect(logged).toContain("GET /invoice-pdf/[redacted] 404");
    // Each delivery once, whichever path answered it.
    expect(logged.filter((line) => line.startsWith("POST /webhooks/"))).toEqual([
      "POST /webhooks/orders/paid 200",
      "POST /webhooks/orders/paid 401",
      "POST /webhooks/orders/unknown 404",
    ]);
    expect(logged.filter((line) => line.startsWith("POST /callbacks/invoices/"))).toEqual([
      "POST /callbacks/invoices/cunknown000000000000 400",
    ]);
    expect(logged).toContainEqual(
      expect.stringContaining(
        `GET /app?embedded=1&shop=${SHOP}&id_token=[redacted]&hmac=[redacted]&session=[redacted]`,
      ),
    );
    for (const value of [
      secret,
      "PRINT-TOKEN-1234",
      "PRINT-TOKEN-8899",
      "PDF-SIGNATURE-7788",
      "ID-TOKEN-5678",
      "HMAC-9012",
      "SESSION-3456",
    ])
      expect(output).not.toContain(value);
  });
});
