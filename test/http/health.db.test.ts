// GET /healthz tells anyone whether the app and its database are up, and the queue's figures (which span every shop)
// only to the operator's HEALTH_TOKEN (issue 35, point 11).
import { beforeAll, describe, expect, it } from "vitest";

const TOKEN = "health-token-for-the-operator";
let loader: typeof import("../../app/routes/healthz").loader;

beforeAll(async () => {
  process.env.HEALTH_TOKEN = TOKEN; // before the app's configuration is first read
  loader = (await import("../../app/routes/healthz")).loader;
});

const health = async (authorization?: string) => {
  const response = await loader({
    request: new Request("https://app.example/healthz", authorization ? { headers: { authorization } } : {}),
    params: {},
    context: {},
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("/healthz", () => {
  it("answers up or down, and nothing of the invoices, to a caller without the token", async () => {
    for (const caller of [undefined, "Bearer wrong-token-of-the-same-len", `Bearer ${TOKEN}x`, TOKEN]) {
      const answer = await health(caller);
      expect(answer).toEqual({ status: 200, body: { ok: true, database: "up" } });
    }
  });

  it("adds the queue for the operator's token", async () => {
    const answer = await health(`Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, database: "up", due: 0, needsAttention: 0 });
    expect(answer.body.worker).toBeDefined();
  });
});
