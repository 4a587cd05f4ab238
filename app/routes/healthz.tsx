// Health for load balancers and uptime checks: the database answers, and how much work is waiting.
import { json } from "@remix-run/node";
import prisma from "../db.server";
import { workerStatus } from "../worker/runtime.server";
import { STATE } from "../invoice-state/transitions";

export const loader = async () => {
  try {
    const [due, attention] = await Promise.all([
      prisma.invoice.count({ where: { nextAttemptAt: { lte: new Date() } } }),
      prisma.invoice.count({ where: { state: STATE.needs_attention } }),
    ]);
    return json(
      { ok: true, database: "up", worker: workerStatus(), due, needsAttention: attention },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch {
    return json({ ok: false, database: "down" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
};
