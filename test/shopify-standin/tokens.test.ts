// The stand-in's token endpoint and access checks, as Shopify documents expiring offline tokens: migration of a
// non-expiring token, refresh with rotation (and the last used refresh token kept until its replacement is used),
// session-token exchange, client authentication, expiry and revocation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStandin, type Standin } from "../../shopify-standin/server";
import { signSessionToken } from "../../scripts/lib/local-admin";

const CLIENT = { client_id: "standin-app", client_secret: "standin-secret" };
let clock = Date.parse("2026-12-06T10:00:00Z");
let standin: Standin;

beforeAll(async () => {
  standin = await startStandin({
    shop: "tokens-shop.myshopify.com",
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    tokenLifetimeSeconds: 60,
    now: () => new Date(clock),
  });
});
afterAll(() => standin?.stop());

async function token(body: Record<string, unknown>, form = false) {
  const response = await fetch(`${standin.url}/admin/oauth/access_token`, {
    method: "POST",
    headers: { "content-type": form ? "application/x-www-form-urlencoded" : "application/json" },
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function query(accessToken: string) {
  const response = await fetch(standin.graphqlUrl(), {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": accessToken },
    body: JSON.stringify({ query: "{ shop { name } }" }),
  });
  return response.status;
}

const migrate = (subject: string) =>
  token({
    ...CLIENT,
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    subject_token: subject,
    subject_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
    requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
    expiring: "1",
  });
const refresh = (refreshToken: string, form = false) =>
  token({ ...CLIENT, grant_type: "refresh_token", refresh_token: refreshToken }, form);

describe("the stand-in's offline tokens", () => {
  let legacy: string;
  beforeEach(() => {
    legacy = standin.accessToken;
  });

  it("migrates the non-expiring token once: the pair answers the API, the old token no longer does", async () => {
    expect(await query(legacy)).toBe(200);
    const first = await migrate(legacy);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ expires_in: 60, refresh_token_expires_in: 90 * 86_400 });
    expect(first.json.access_token).toMatch(/^shpat_/);
    expect(first.json.refresh_token).toMatch(/^shprt_/);
    expect(await query(first.json.access_token as string)).toBe(200);
    expect(await query(legacy)).toBe(401);
    // A lost answer is recovered by the same exchange: the same pair, while it has not been refreshed.
    expect((await migrate(legacy)).json.access_token).toBe(first.json.access_token);
  });

  it("rotates the refresh token, keeps the last used one until its replacement is used, then refuses it", async () => {
    const start = standin.tokens.current()!;
    const a = await refresh(start.refresh);
    expect(a.status).toBe(200);
    expect(a.json.refresh_token).not.toBe(start.refresh);
    // The answer was lost: the app still holds `start.refresh`, which works again (a new pair).
    const retried = await refresh(start.refresh);
    expect(retried.status).toBe(200);
    expect(retried.json.access_token).not.toBe(a.json.access_token);
    // Only one pair is active: the one the app never saw is revoked.
    expect(await query(a.json.access_token as string)).toBe(401);
    expect(await query(retried.json.access_token as string)).toBe(200);
    // The replacement is used (form-encoded this time): the token before it is retired for good.
    const next = await refresh(retried.json.refresh_token as string, true);
    expect(next.status).toBe(200);
    const reused = await refresh(start.refresh);
    expect(reused).toEqual({
      status: 400,
      json: { error: "invalid_grant", error_description: expect.stringContaining("refresh token") },
    });
    expect(await query(retried.json.access_token as string)).toBe(401);
    expect(await query(next.json.access_token as string)).toBe(200);
  });

  it("answers an expired access token with Shopify's 401 and refreshes it", async () => {
    const pair = standin.tokens.current()!;
    expect(await query(pair.access)).toBe(200);
    clock += 61_000;
    const before = standin.tokens.stats().unauthorized.expired;
    expect(await query(pair.access)).toBe(401);
    expect(standin.tokens.stats().unauthorized.expired).toBe(before + 1);
    const fresh = await refresh(pair.refresh);
    expect(await query(fresh.json.access_token as string)).toBe(200);
  });

  it("checks the client, the grant and the body", async () => {
    const pair = standin.tokens.current()!;
    expect(
      await token({ ...CLIENT, client_secret: "wrong", grant_type: "refresh_token", refresh_token: pair.refresh }),
    ).toMatchObject({ status: 401, json: { error: "invalid_client" } });
    expect(await token({ ...CLIENT, grant_type: "password" })).toMatchObject({
      status: 400,
      json: { error: "unsupported_grant_type" },
    });
    expect(await token({ ...CLIENT, grant_type: "refresh_token" })).toMatchObject({
      status: 400,
      json: { error: "invalid_request" },
    });
    const malformed = await fetch(`${standin.url}/admin/oauth/access_token`, { method: "POST", body: "{" });
    expect(malformed.status).toBe(400);
    // The refused pair is untouched.
    expect((await refresh(pair.refresh)).status).toBe(200);
  });

  it("exchanges a session token signed with the app's secret, and revokes everything on demand", async () => {
    const old = standin.tokens.current()!;
    const sessionToken = signSessionToken(
      { apiKey: CLIENT.client_id, apiSecret: CLIENT.client_secret },
      standin.shop,
      clock,
    );
    const exchange = (subject: string) =>
      token({
        ...CLIENT,
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        subject_token: subject,
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
        requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
        expiring: "1",
      });
    const exchanged = await exchange(sessionToken);
    expect(exchanged.status).toBe(200);
    // A new expiring token revokes the earlier pair, its refresh token too.
    expect(await query(old.access)).toBe(401);
    expect((await refresh(old.refresh)).json.error).toBe("invalid_grant");
    const forged = signSessionToken({ apiKey: CLIENT.client_id, apiSecret: "other" }, standin.shop, clock);
    expect((await exchange(forged)).json.error).toBe("invalid_subject_token");

    await fetch(`${standin.url}/__standin/tokens`, { method: "POST", body: JSON.stringify({ revoke: true }) });
    expect(await query(exchanged.json.access_token as string)).toBe(401);
    expect((await refresh(exchanged.json.refresh_token as string)).json.error).toBe("invalid_grant");
    const stats = (await (await fetch(`${standin.url}/__standin/tokens`)).json()) as {
      refreshes: number;
      migrations: number;
      exchanges: number;
      refused: Record<string, number>;
    };
    expect(stats).toMatchObject({ migrations: 1, exchanges: 1, refused: { invalid_grant: 3, invalid_client: 1 } });
    expect(stats.refreshes).toBe(5);
  });
});
