// The demo's server runs under Remix's fetch globals (server/app-server.ts calls installGlobals), whose Response has
// no static `json`. The local admin's session-token answer must be built without it: App Bridge asks for a new
// token about a minute after the page opened, and a throw there ended the demo's process (issue 22, point 3).
import { installGlobals } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { localAdmin } from "../../scripts/lib/local-admin";

installGlobals({ nativeFetch: false });

describe("local admin under Remix's fetch globals", () => {
  const admin = localAdmin({ apiKey: "key", apiSecret: "secret" });

  it("the globals are Remix's, without Response.json", () => {
    expect((Response as unknown as { json?: unknown }).json).toBeUndefined();
  });

  it("answers a session token as JSON, and a malformed shop with a JSON 400", async () => {
    const answer = admin.token(new URL("http://localhost/local-admin/session-token?shop=demo.myshopify.com"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const { token } = (await answer.json()) as { token: string };
    expect(token.split(".")).toHaveLength(3);
    const refused = admin.token(new URL("http://localhost/local-admin/session-token?shop=evil.example.com"));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "shop must be NAME.myshopify.com" });
  });
});
