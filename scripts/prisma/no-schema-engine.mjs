#!/usr/bin/env node
// PRISMA_SCHEMA_ENGINE_BINARY for the npm scripts. `prisma generate` only checks that the file exists (without it,
// it tries to download the native engine from binaries.prisma.sh, which this project's machines cannot reach); no
// command the project runs starts it. Anything that does start it is told where the engine work is done instead.
console.error(
  "No native Prisma schema engine here: write migrations with `npm run db:new-migration -- NAME` and apply them " +
    "with `npm run db:migrate` (docs/decisions/0040-prisma-7.md).",
);
process.exit(1);
