// The SQL that takes a database from one Prisma schema to another, from Prisma's own schema engine as WebAssembly
// (npm: @prisma/schema-engine-wasm) through Prisma's driver adapters: what `prisma migrate diff --from-schema-datamodel
// --to-schema-datamodel --script` prints, without the CLI. Prisma 7's CLI only runs a native schema-engine binary,
// which is downloaded from binaries.prisma.sh, a host the project's machines cannot reach (decision 0040).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { DiffTarget, SchemaEngine as SchemaEngineType } from "@prisma/schema-engine-wasm";

export type Provider = "sqlite" | "postgresql";

/** A schema file as the engine reads it: its path (for error messages) and its text. */
export interface SchemaFile {
  path: string;
  content: string;
}

/**
 * The package's own entry imports the .wasm as a module, which Node 22 does not do: instantiate it here, once (the
 * glue module keeps views of the instance's memory).
 */
let loaded: Promise<typeof SchemaEngineType> | null = null;
const loadEngine = () => (loaded ??= instantiate());
async function instantiate(): Promise<typeof SchemaEngineType> {
  const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown };
  g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message: string) => console.error("schema engine panic:", message) };
  const dir = path.dirname(createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm"));
  const glue = (await import(pathToFileURL(path.join(dir, "schema_engine_bg.js")).href)) as {
    __wbg_set_wasm(exports: WebAssembly.Exports): void;
    SchemaEngine: typeof SchemaEngineType;
  };
  const module = new WebAssembly.Module(await readFile(path.join(dir, "schema_engine_bg.wasm")));
  const instance = new WebAssembly.Instance(module, {
    "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue.SchemaEngine;
}

/**
 * The engine opens a connection even for a diff of two schema files, and reads nothing from it: SQLite gets an
 * in-memory database; PostgreSQL needs a reachable server (`postgresUrl`), whose data is not touched.
 */
async function adapterFactory(provider: Provider, postgresUrl: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  if (provider === "sqlite") {
    const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
    return new PrismaBetterSqlite3({ url: ":memory:" });
  }
  const { PrismaPg } = await import("@prisma/adapter-pg");
  return new PrismaPg({ connectionString: postgresUrl });
}

/** The migration script from `from` (null: an empty database) to `to`; empty when nothing changes. */
export async function migrationDiff(
  provider: Provider,
  from: SchemaFile | null,
  to: SchemaFile,
  postgresUrl = process.env.MIGRATION_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test",
): Promise<string> {
  const SchemaEngine = await loadEngine();
  const factory = bindMigrationAwareSqlAdapterFactory(await adapterFactory(provider, postgresUrl));
  const engine = await SchemaEngine.new({ datamodels: [[to.path, to.content]] }, () => {}, factory);
  try {
    const target = (file: SchemaFile | null): DiffTarget =>
      file ? { tag: "schemaDatamodel", files: [file] } : { tag: "empty" };
    const result = await engine.diff({
      from: target(from),
      to: target(to),
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql = result.stdout ?? "";
    return /This is an empty migration/.test(sql) ? "" : sql;
  } finally {
    engine.free();
  }
}

/**
 * `snapshot` with the generator and datasource blocks of `current`: a migration's snapshot keeps the blocks of the
 * Prisma it was written with (Prisma 6's `url = env(...)` is an error for Prisma 7), and only the models are compared.
 */
export function withBlocksOf(current: string, snapshot: string): string {
  const block = (name: string) => new RegExp(`${name} \\{[^}]*\\}`);
  let text = snapshot;
  for (const name of ["generator client", "datasource db"]) {
    const now = block(name).exec(current)?.[0];
    if (!now) throw new Error(`the current schema has no ${name} block`);
    text = text.replace(block(name), () => now);
  }
  return text;
}
