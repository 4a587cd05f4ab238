// Health for load balancers and uptime checks: up or down to anyone; the queue's figures with HEALTH_TOKEN
// (app/worker/health.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { healthOf } from "../worker/health.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const health = await healthOf(request);
  return json(health.body, { status: health.status, headers: health.headers });
};
