// GET /healthz: for load balancers and uptime checks, whether the app and its database answer (200 or 503), and
// nothing else to whoever asks. The work waiting (invoices due, needing attention, the worker) is operator
// information about every shop at once: it is answered only with `Authorization: Bearer <HEALTH_TOKEN>`.
import { timingSafeEqual } from "node:crypto";
import prisma from "../db.server";
import { env } from "../env.server";
import { STATE } from "../invoice-state/transitions";
import { workerStatus } from "./runtime.server";

const noStore = { "Cache-Control": "no-store" };

function hasHealthToken(request: Request): boolean {
  const token = env().HEALTH_TOKEN;
  const given = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!token || !given) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function healthOf(request: Request): Promise<{ status: number; body: object; headers: HeadersInit }> {
  try {
    if (!hasHealthToken(request)) {
      await prisma.$queryRawUnsafe("SELECT 1");
      return { status: 200, body: { ok: true, database: "up" }, headers: noStore };
    }
    const [due, attention] = await Promise.all([
      prisma.invoice.count({ where: { nextAttemptAt: { lte: new Date() } } }),
      prisma.invoice.count({ where: { state: STATE.needs_attention } }),
    ]);
    return {
      status: 200,
      body: { ok: true, database: "up", worker: workerStatus(), due, needsAttention: attention },
      headers: noStore,
    };
  } catch {
    return { status: 503, body: { ok: false, database: "down" }, headers: noStore };
  }
}
