// Part of `npm run build`: compiles `npm run worker` (scripts/worker.ts and the app modules it reaches) and the two
// generated Prisma clients to JavaScript in build/, so that a new worker process does not transpile TypeScript at
// start: its start-up is how soon an added worker helps at a peak (issue 38, point 3; bench/worker-startup.bench.ts).
// npm packages stay outside the bundle (node_modules as installed); lazy imports stay lazy (code splitting).
import { build } from "esbuild";
import { rmSync } from "node:fs";

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
} as const;

rmSync("build/worker", { recursive: true, force: true });
rmSync("build/prisma", { recursive: true, force: true });
await Promise.all([
  build({ ...common, entryPoints: ["scripts/worker-entry.ts"], outdir: "build/worker", splitting: true }),
  // Loaded through package.json's "#prisma/*" imports under the `compiled` condition (app/db/client.ts): a process
  // started with `node --conditions=compiled` gets these instead of the generated TypeScript.
  build({
    ...common,
    entryPoints: { sqlite: "generated/prisma/sqlite/client.ts", postgresql: "generated/prisma/postgresql/client.ts" },
    outdir: "build/prisma",
  }),
]);
console.log("worker compiled: build/worker/worker-entry.js (npm run worker), build/prisma/{sqlite,postgresql}.js");
