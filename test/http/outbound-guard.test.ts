// The outbound guard: https only, allow-listed hosts only, never a non-public address, checked at connection time.
// No test here connects anywhere but 127.0.0.1.
import net, { type AddressInfo } from "node:net";
import type { LookupAddress } from "node:dns";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkOutboundUrl,
  checkingLookup,
  isAllowedAddress,
  OutboundBlockedError,
  type GuardedRequest,
  type OutboundPolicy,
} from "../../app/http/outbound-guard.server";
import { DEFAULT_INVOICING_HOSTS, parseEnv } from "../../app/env.server";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { BlockedError } from "../../app/invoicing-service/errors";

const production: OutboundPolicy = { allowedHosts: DEFAULT_INVOICING_HOSTS.split(","), allowLocal: false };
const local: OutboundPolicy = { ...production, allowLocal: true };

const fakeResolver =
  (answers: string[]): NonNullable<OutboundPolicy["resolve"]> =>
  (_hostname, _options, callback) =>
    callback(
      null,
      answers.map((address) => ({ address, family: net.isIP(address) as 4 | 6 })),
    );

describe("checkOutboundUrl", () => {
  it("allows the vendor's live and staging API over https by default", () => {
    expect(checkOutboundUrl("https://app.faturaentegrator.com/api", production).ok).toBe(true);
    expect(checkOutboundUrl("https://staging.faturaentegrator.com/api/invoices?x=1", production).ok).toBe(true);
    expect(checkOutboundUrl("https://APP.faturaentegrator.com/api", production).ok).toBe(true);
  });

  it.each([
    ["http://app.faturaentegrator.com/api", "scheme"],
    ["ftp://app.faturaentegrator.com/api", "scheme"],
    ["https://evil.example.com/api", "host"],
    ["https://app.faturaentegrator.com.evil.example/api", "host"],
    ["https://app.faturaentegrator.com:8443/api", "host"],
    ["https://127.0.0.1/api", "host"],
    ["https://169.254.169.254/latest/meta-data", "host"],
    ["https://[::1]/api", "host"],
    ["http://localhost:4010/api", "scheme"],
    ["https://user:pass@app.faturaentegrator.com/api", "invalid_url"],
    ["not a url", "invalid_url"],
  ])("refuses %s in production (%s)", (url, reason) => {
    expect(checkOutboundUrl(url, production)).toEqual({ ok: false, reason });
  });

  it("takes more hosts from the operator's setting, never from elsewhere", () => {
    const operator: OutboundPolicy = {
      allowedHosts: ["invoicing.partner.example", "api.partner.example:8443"],
      allowLocal: false,
    };
    expect(checkOutboundUrl("https://invoicing.partner.example/api", operator).ok).toBe(true);
    expect(checkOutboundUrl("https://api.partner.example:8443/api", operator).ok).toBe(true);
    expect(checkOutboundUrl("https://api.partner.example/api", operator).ok).toBe(false);
    expect(checkOutboundUrl("https://app.faturaentegrator.com/api", operator).ok).toBe(false);
  });

  it("with local services on, also allows http and https to loopback addresses, and nothing private", () => {
    expect(checkOutboundUrl("http://127.0.0.1:4010/api", local).ok).toBe(true);
    expect(checkOutboundUrl("http://localhost:4010/api", local).ok).toBe(true);
    expect(checkOutboundUrl("http://[::1]:4010/api", local).ok).toBe(true);
    expect(checkOutboundUrl("http://10.0.0.5/api", local)).toEqual({ ok: false, reason: "scheme" });
    expect(checkOutboundUrl("https://192.168.1.10/api", local)).toEqual({ ok: false, reason: "host" });
    expect(checkOutboundUrl("http://169.254.169.254/", local)).toEqual({ ok: false, reason: "scheme" });
  });
});

describe("isAllowedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.100.100.200",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "fc00::1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "2002:7f00:1::1",
    "not-an-address",
  ])("refuses %s", (address) => {
    expect(isAllowedAddress(address, production)).toBe(false);
  });

  it("allows public unicast addresses, v4 and v6", () => {
    expect(isAllowedAddress("93.184.216.34", production)).toBe(true);
    expect(isAllowedAddress("2606:4700:4700::1111", production)).toBe(true);
  });

  it("allows loopback, and only loopback, with local services on", () => {
    expect(isAllowedAddress("127.0.0.1", local)).toBe(true);
    expect(isAllowedAddress("::1", local)).toBe(true);
    expect(isAllowedAddress("10.0.0.1", local)).toBe(false);
    expect(isAllowedAddress("169.254.169.254", local)).toBe(false);
  });
});

describe("checkingLookup (the address check on every connection)", () => {
  const lookup = (policy: OutboundPolicy, options: { all?: boolean }) =>
    new Promise<{ error: unknown; result: unknown[] }>((resolve) =>
      checkingLookup(policy)("app.faturaentegrator.com", options, (error: unknown, ...result: unknown[]) =>
        resolve({ error, result }),
      ),
    );

  it("passes public answers on in both shapes sockets ask for", async () => {
    const policy = { ...production, resolve: fakeResolver(["93.184.216.34", "2606:4700:4700::1111"]) };
    const all = await lookup(policy, { all: true });
    expect(all.error).toBeNull();
    expect((all.result[0] as LookupAddress[]).map((a) => a.address)).toEqual(["93.184.216.34", "2606:4700:4700::1111"]);
    const one = await lookup(policy, {});
    expect(one).toEqual({ error: null, result: ["93.184.216.34", 4] });
  });

  it("refuses the connection when any answer is not public (a rebound name)", async () => {
    for (const answers of [["127.0.0.1"], ["93.184.216.34", "169.254.169.254"], ["10.0.0.7"], []]) {
      const { error } = await lookup({ ...production, resolve: fakeResolver(answers) }, { all: true });
      expect(error, answers.join()).toBeInstanceOf(OutboundBlockedError);
    }
  });
});

describe("the invoicing client behind the guard", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  /** A TCP listener on 127.0.0.1 that counts connections (it never answers). */
  async function listener() {
    const seen = { connections: 0 };
    const server = net.createServer((socket) => {
      seen.connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { port: (server.address() as AddressInfo).port, seen };
  }

  it("an allow-listed name that resolves to a loopback address at connection time is refused before connecting", async () => {
    const { port, seen } = await listener();
    const policy: OutboundPolicy = {
      allowedHosts: [`invoicing.partner.example:${port}`],
      allowLocal: false,
      resolve: fakeResolver(["127.0.0.1"]),
    };
    const api = new InvoicingClient({
      baseUrl: `https://invoicing.partner.example:${port}/api`,
      apiKey: "secret-key-123",
      policy,
      timeoutMs: 2000,
    });
    const error = await api.checkAuth().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BlockedError);
    expect((error as BlockedError).retry).toBe("never");
    expect(seen.connections).toBe(0);
  });

  it("an address refused by the static check sends nothing at all", async () => {
    const calls: string[] = [];
    const spy: GuardedRequest = async (url) => {
      calls.push(url);
      throw new Error("not to be called");
    };
    for (const baseUrl of [
      "https://evil.example.com/api",
      "http://app.faturaentegrator.com/api",
      "https://10.0.0.1/api",
    ]) {
      const api = new InvoicingClient({ baseUrl, apiKey: "secret-key-123", policy: production, request: spy });
      await expect(api.checkAuth()).rejects.toBeInstanceOf(BlockedError);
    }
    expect(calls).toEqual([]);
  });

  it("with local services on, the sandbox on 127.0.0.1 is reachable over http", async () => {
    const { port, seen } = await listener();
    const api = new InvoicingClient({
      baseUrl: `http://127.0.0.1:${port}/api`,
      apiKey: "secret-key-123",
      policy: local,
      timeoutMs: 2000,
    });
    await api.checkAuth().catch(() => undefined);
    expect(seen.connections).toBe(1);
  });
});

describe("the configuration of the guard", () => {
  const valid = {
    SHOPIFY_API_KEY: "k",
    SHOPIFY_API_SECRET: "s",
    SHOPIFY_APP_URL: "https://invoices.example.com",
    ENCRYPTION_KEY: "ab".repeat(32),
  };

  it("defaults to the vendor's live and staging hosts, and reads the operator's list", () => {
    expect(parseEnv(valid).INVOICING_ALLOWED_HOSTS).toEqual([
      "app.faturaentegrator.com",
      "staging.faturaentegrator.com",
    ]);
    expect(
      parseEnv({ ...valid, INVOICING_ALLOWED_HOSTS: " App.Example.com , api.example.com:8443" })
        .INVOICING_ALLOWED_HOSTS,
    ).toEqual(["app.example.com", "api.example.com:8443"]);
    expect(() => parseEnv({ ...valid, INVOICING_ALLOWED_HOSTS: "https://app.example.com/api" })).toThrow(
      /INVOICING_ALLOWED_HOSTS is invalid/,
    );
    expect(() => parseEnv({ ...valid, INVOICING_ALLOWED_HOSTS: " , " })).toThrow(/INVOICING_ALLOWED_HOSTS is invalid/);
  });

  it("refuses LOCAL_SERVICES unless the app runs on localhost", () => {
    expect(() => parseEnv({ ...valid, NODE_ENV: "production", LOCAL_SERVICES: "1" })).toThrow(
      /LOCAL_SERVICES is invalid/,
    );
    expect(
      parseEnv({ ...valid, NODE_ENV: "production", LOCAL_SERVICES: "1", SHOPIFY_APP_URL: "http://localhost:3000" })
        .LOCAL_SERVICES,
    ).toBe(true);
    expect(parseEnv({ ...valid, NODE_ENV: "production" }).LOCAL_SERVICES).toBe(false);
  });
});
