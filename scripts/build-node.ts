// Part of `npm run build`: compiles the app's Node processes to JavaScript in build/, so that none transpiles
// TypeScript at start: `npm run worker` (scripts/worker.ts and the app modules it reaches; its start-up is how soon an
// added worker helps at a peak, issue 38, point 3, bench/worker-startup.bench.ts), `npm start`'s server
// (server/start.ts), the demo's server (scripts/local-server.ts) and the shop set-up every local stack runs before it
// (scripts/shop-setup.ts: 1.9 s through tsx), and the two generated Prisma clients. Through
// tsx's loader the server took 3.2 s to answer its health check, most of it resolving modules through the loader's
// hooks (issue 37). npm packages stay outside the bundle (node_modules as installed); lazy imports stay lazy chunks.
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

for (const dir of ["build/worker", "build/node", "build/prisma"]) rmSync(dir, { recursive: true, force: true });
await Promise.all([
  build({ ...common, entryPoints: ["scripts/worker-entry.ts"], outdir: "build/worker", splitting: true }),
  // The two servers share server/app-server.ts (one chunk); start.ts sets NODE_ENV before its lazy import.
  build({
    ...common,
    entryPoints: {
      start: "server/start.ts",
      "local-server": "scripts/local-server.ts",
      "shop-setup": "scripts/shop-setup.ts",
    },
    outdir: "build/node",
    splitting: true,
  }),
  // Loaded through package.json's "#prisma/*" imports under the `compiled` condition (app/db/client.ts): a process
  // started with `node --conditions=compiled` gets these instead of the generated TypeScript.
  build({
    ...common,
    entryPoints: { sqlite: "generated/prisma/sqlite/client.ts", postgresql: "generated/prisma/postgresql/client.ts" },
    outdir: "build/prisma",
  }),
]);
console.log(
  "compiled: build/worker/worker-entry.js (npm run worker), build/node/start.js (npm start), " +
    "build/node/local-server.js (the demo's server), build/node/shop-setup.js, build/prisma/{sqlite,postgresql}.js",
);
