// The app's UI extensions built as the Shopify CLI builds them (docs/decisions/0027-extensions-built-as-the-cli.md):
// each from a clean install of its own package.json and package-lock.json, away from the app's node_modules, bundled
// with the CLI's esbuild version and options from the entry the CLI generates for its api_version, and type-checked
// against the @shopify/ui-extensions of that api_version. Used by `npm run extensions:build`, the DOM test of the
// bundles (test/extensions/bundles.test.ts) and the local extension host (sandbox/extensions/host.ts).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build, type Metafile } from "esbuild";
import { parse } from "smol-toml";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const INSTALLS = path.join(os.tmpdir(), "e-fatura-extension-installs");

export interface Target {
  target: string;
  module: string;
}

/** One `[[extensions]]` entry of a shopify.extension.toml: the CLI builds each into dist/<handle>.js. */
export interface ExtensionEntry {
  handle: string;
  name: string;
  targets: Target[];
}

/** A folder of extensions/ whose entries are UI extensions. */
export interface UiExtension {
  folder: string;
  dir: string;
  apiVersion: string;
  entries: ExtensionEntry[];
}

interface TomlEntry {
  api_version?: string;
  handle?: string;
  name?: string;
  type?: string;
  targeting?: Array<{ target?: string; module?: string }>;
}

interface Toml extends TomlEntry {
  extensions?: TomlEntry[];
}

/** Every folder of extensions/ with UI extensions (theme and Flow extensions are not bundled). */
export function uiExtensions(root = ROOT): UiExtension[] {
  const base = path.join(root, "extensions");
  return readdirSync(base)
    .filter((folder) => existsSync(path.join(base, folder, "shopify.extension.toml")))
    .sort()
    .flatMap((folder) => {
      const dir = path.join(base, folder);
      const toml = parse(readFileSync(path.join(dir, "shopify.extension.toml"), "utf8")) as Toml;
      // As the CLI reads a file of several extensions: each entry over the file's top-level keys.
      const entries = (toml.extensions ?? [])
        .map((entry) => ({ ...toml, ...entry }))
        .filter((entry) => entry.type === "ui_extension");
      if (!entries.length) return [];
      if (!toml.api_version) throw new Error(`${folder}: shopify.extension.toml has no api_version`);
      if (entries.some((entry) => entry.api_version !== toml.api_version))
        throw new Error(
          `${folder}: an [[extensions]] entry with an api_version of its own (this build takes one per file)`,
        );
      return [
        {
          folder,
          dir,
          apiVersion: toml.api_version,
          entries: entries.map((entry) => {
            if (!entry.handle || !entry.name)
              throw new Error(`${folder}: an [[extensions]] entry without handle or name`);
            const targets = (entry.targeting ?? []).map((t) => {
              if (!t.target || !t.module)
                throw new Error(`${folder}/${entry.handle}: a targeting without target or module`);
              return { target: t.target, module: t.module };
            });
            // The CLI refuses an extension without targets or with the same target twice.
            if (!targets.length) throw new Error(`${folder}/${entry.handle}: no targeting`);
            if (new Set(targets.map((t) => t.target)).size !== targets.length)
              throw new Error(`${folder}/${entry.handle}: duplicate targets`);
            return { handle: entry.handle, name: entry.name, targets };
          }),
        },
      ];
    });
}

/**
 * Whether the CLI builds this api_version in the current form (2025-10 and later): the entry registers each target's
 * default export with `shopify.extend`. Earlier versions' modules registered themselves and were only imported.
 */
export function extendsTargets(apiVersion: string): boolean {
  const [year, month] = apiVersion.split("-").map((part) => parseInt(part, 10));
  return year > 2025 || (year === 2025 && month >= 10);
}

/** The entry the CLI bundles (its stdin), as Shopify CLI's ui_extension specification writes it. */
export function cliEntry(apiVersion: string, targets: Target[]): string {
  return targets
    .map(({ target, module }, index) =>
      extendsTargets(apiVersion)
        ? `import Target_${index} from '${module}';shopify.extend('${target}', (...args) => Target_${index}(...args));`
        : `import '${module}';`,
    )
    .join("\n");
}

/** The @shopify/ui-extensions release line of an api_version: 2026-07 → 2026.7. */
export function uiExtensionsLine(apiVersion: string): string {
  const [year, month] = apiVersion.split("-").map((part) => parseInt(part, 10));
  return `${year}.${month}`;
}

/** The files a module imports from its own folder, transitively (the CLI types them with the module's targets). */
function localImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const imported = path.resolve(path.dirname(file), match[1]);
    if (existsSync(imported)) localImports(imported, seen);
  }
  return seen;
}

/**
 * The extension folder's shopify.d.ts as the CLI generates it (`shopify app dev` / `build`): for every module and
 * the files it imports, the `shopify` global typed as the Api of its target. It is what gives `shopify` its type
 * when the folder is type-checked.
 */
export function shopifyTypes(extension: UiExtension): string {
  const blocks: string[] = [];
  // One [[extensions]] entry is one extension to the CLI: a file that entry's targets share gets their union.
  for (const entry of extension.entries) {
    const targetsByFile = new Map<string, string[]>();
    for (const { target, module } of entry.targets) {
      for (const file of localImports(path.join(extension.dir, module))) {
        const relative = path.relative(extension.dir, file).split(path.sep).join("/");
        targetsByFile.set(relative, [...new Set([...(targetsByFile.get(relative) ?? []), target])]);
      }
    }
    for (const [relative, targets] of targetsByFile) {
      const types = targets.map((target) => `import('@shopify/ui-extensions/${target}').Api`);
      const block = [
        "//@ts-ignore",
        `declare module './${relative}' {`,
        `  const shopify: ${types.length === 1 ? types[0] : `(${types.join(" | ")})`};`,
        "  const globalThis: { shopify: typeof shopify };",
        "}",
        "",
      ].join("\n");
      if (!blocks.includes(block)) blocks.push(block);
    }
  }
  return [`import '@shopify/ui-extensions';\n`, ...blocks].join("\n");
}

function lockKey(extension: UiExtension): string {
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"]) {
    const full = path.join(extension.dir, file);
    if (!existsSync(full))
      throw new Error(`${extension.folder}: no ${file} (every UI extension installs from its own, locked)`);
    hash.update(readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * A clean install of the extension's own package.json and lock (`npm ci`), outside the app's tree so nothing
 * resolves from the app's node_modules. Kept per lock content; `fresh` installs again (CI does).
 */
export async function install(extension: UiExtension, fresh = false): Promise<string> {
  const target = path.join(INSTALLS, `${extension.folder}-${lockKey(extension)}`);
  if (!fresh && existsSync(path.join(target, "node_modules", ".package-lock.json"))) return target;
  mkdirSync(INSTALLS, { recursive: true });
  const work = mkdtempSync(path.join(INSTALLS, `.work-${extension.folder}-`));
  for (const file of ["package.json", "package-lock.json"])
    cpSync(path.join(extension.dir, file), path.join(work, file));
  // No install scripts: none of the extensions' packages needs one to be bundled.
  try {
    await run("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: work });
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(`${extension.folder}: npm ci failed: ${(error as { stderr?: string }).stderr || error}`, {
      cause: error,
    });
  }
  // Another process (a parallel test file) may have installed the same lock meanwhile: its copy may be in use,
  // so it is replaced only when a fresh install was asked for. The rename makes an install appear whole or not.
  if (existsSync(target) && !fresh) {
    rmSync(work, { recursive: true, force: true });
    return target;
  }
  rmSync(target, { recursive: true, force: true });
  try {
    renameSync(work, target);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
  // Installs of this extension's earlier locks are not needed any more.
  const key = path.basename(target);
  for (const other of readdirSync(INSTALLS)) {
    if (other !== key && new RegExp(`^${extension.folder}-[0-9a-f]{16}$`).test(other))
      rmSync(path.join(INSTALLS, other), { recursive: true, force: true });
  }
  return target;
}

/**
 * The extension's files (no node_modules, no dist) next to its clean install, where the CLI would find them, with
 * the shopify.d.ts the CLI generates before it builds.
 */
function workspace(extension: UiExtension, installed: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `e-fatura-extension-${extension.folder}-`));
  cpSync(extension.dir, dir, { recursive: true, filter: (source) => !/[/\\](node_modules|dist)$/.test(source) });
  symlinkSync(path.join(installed, "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(path.join(dir, "shopify.d.ts"), shopifyTypes(extension));
  return dir;
}

export interface Bundle {
  folder: string;
  handle: string;
  apiVersion: string;
  targets: Target[];
  /** dist/<handle>.js as the CLI writes it. */
  code: string;
  /** The files esbuild read, relative to the extension's folder or as node_modules/<package>/... */
  inputs: string[];
}

/**
 * esbuild with the options of Shopify CLI 4.7 (packages/app/src/cli/services/extensions/bundle.ts) for a deploy
 * build: production, minified, the tsconfig.json nearest each file deciding the JSX runtime. The CLI's GraphQL
 * loader plugin and React de-duplication are left out: they act only on .graphql imports and on `react`, and the
 * bundle is refused below if it holds either.
 */
async function bundleEntry(
  dir: string,
  apiVersion: string,
  entry: ExtensionEntry,
): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    // The metafile's inputs are relative to this directory (esbuild's default is the process's cwd).
    absWorkingDir: realpathSync(dir),
    stdin: { contents: cliEntry(apiVersion, entry.targets), resolveDir: dir, loader: "tsx" },
    outfile: path.join(dir, "dist", `${entry.handle}.js`),
    bundle: true,
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    jsx: "automatic",
    logLevel: "silent",
    loader: { ".esnext": "ts", ".js": "jsx" },
    legalComments: "none",
    minify: true,
    target: "es6",
    resolveExtensions: [".tsx", ".ts", ".js", ".json", ".esnext", ".mjs", ".ejs"],
    metafile: true,
    write: false,
  });
  const output = result.outputFiles.find((file) => file.path.endsWith(".js"));
  if (!output) throw new Error(`no bundle for ${entry.handle}`);
  return { code: output.text, metafile: result.metafile };
}

/** The bundle's inputs, each inside the extension's folder or its own install; anything else is an error. */
function checkedInputs(
  extension: UiExtension,
  handle: string,
  dir: string,
  installed: string,
  metafile: Metafile,
): string[] {
  const realDir = realpathSync(dir);
  const modules = realpathSync(path.join(installed, "node_modules"));
  const inputs = Object.keys(metafile.inputs).map((input) => {
    if (input === "<stdin>") return input;
    const full = realpathSync(path.resolve(realDir, input));
    if (full.startsWith(modules + path.sep))
      return `node_modules/${path.relative(modules, full).split(path.sep).join("/")}`;
    if (full.startsWith(realDir + path.sep)) return path.relative(realDir, full).split(path.sep).join("/");
    throw new Error(`${extension.folder}/${handle}: bundled ${full}, outside the extension and its own install`);
  });
  const problems: string[] = [];
  if (inputs.some((input) => /^node_modules\/(react|react-dom|scheduler)\//.test(input)))
    problems.push("it carries React");
  if (!inputs.some((input) => input.startsWith("node_modules/preact/jsx-runtime/")))
    problems.push("its JSX does not go through preact/jsx-runtime");
  if (inputs.some((input) => /\.(graphql|gql)$/.test(input)))
    problems.push("it imports GraphQL files, which only the CLI's loader plugin reads");
  if (problems.length)
    throw new Error(`${extension.folder}/${handle}: ${problems.join("; ")} (check its tsconfig.json)`);
  return inputs;
}

/** The installed @shopify/ui-extensions must be the release line of the api_version the extension declares. */
function checkUiExtensionsVersion(extension: UiExtension, installed: string): string {
  const manifest = JSON.parse(
    readFileSync(path.join(installed, "node_modules/@shopify/ui-extensions/package.json"), "utf8"),
  ) as { version: string };
  const line = uiExtensionsLine(extension.apiVersion);
  if (!manifest.version.startsWith(`${line}.`)) {
    throw new Error(
      `${extension.folder}: api_version ${extension.apiVersion} needs @shopify/ui-extensions ${line}.x, its package.json installs ${manifest.version}`,
    );
  }
  return manifest.version;
}

/** tsc -p on the extension's own tsconfig.json, resolving only from its own install. */
async function typecheck(extension: UiExtension, dir: string, installed: string): Promise<void> {
  const tscPackage = path.dirname(require.resolve("typescript/package.json"));
  const tsc = path.join(tscPackage, "bin", "tsc");
  const result = await run(
    process.execPath,
    [tsc, "-p", path.join(dir, "tsconfig.json"), "--listFiles", "--pretty", "false"],
    { cwd: dir },
  ).catch((error: { stdout?: string }) => {
    const lines = String(error.stdout ?? error)
      .split("\n")
      .filter((line) => line && !path.isAbsolute(line));
    throw new Error(
      `${extension.folder}: type errors against @shopify/ui-extensions of ${extension.apiVersion}:\n${lines.join("\n")}`,
    );
  });
  const realDir = realpathSync(dir);
  const modules = realpathSync(path.join(installed, "node_modules"));
  const outside = result.stdout
    .split("\n")
    .filter((line) => path.isAbsolute(line))
    .map((file) => realpathSync(file))
    .filter(
      (file) =>
        !file.startsWith(realDir + path.sep) &&
        !file.startsWith(modules + path.sep) &&
        !file.startsWith(realpathSync(tscPackage) + path.sep),
    );
  if (outside.length)
    throw new Error(`${extension.folder}: type-checked with files from outside the extension: ${outside.join(", ")}`);
}

export interface BuildOptions {
  /** Install each extension's dependencies again instead of reusing a clean install of the same lock. */
  fresh?: boolean;
  /** Also type-check each extension (tsc -p) against its installed @shopify/ui-extensions. */
  typecheck?: boolean;
  /** Only these folders. */
  folders?: string[];
}

export interface BuiltExtension {
  extension: UiExtension;
  uiExtensionsVersion: string;
  bundles: Bundle[];
}

/** Installs, (type-checks) and bundles every UI extension; throws with the extension's name on the first problem. */
export async function buildExtensions(options: BuildOptions = {}): Promise<BuiltExtension[]> {
  const extensions = uiExtensions().filter(
    (extension) => !options.folders || options.folders.includes(extension.folder),
  );
  // Installs run side by side (network and disk), the rest one extension after another.
  const installs = await Promise.all(extensions.map((extension) => install(extension, options.fresh)));
  const built: BuiltExtension[] = [];
  for (const [index, extension] of extensions.entries()) {
    const installed = installs[index];
    const uiExtensionsVersion = checkUiExtensionsVersion(extension, installed);
    const dir = workspace(extension, installed);
    try {
      if (options.typecheck) await typecheck(extension, dir, installed);
      const bundles: Bundle[] = [];
      for (const entry of extension.entries) {
        const { code, metafile } = await bundleEntry(dir, extension.apiVersion, entry);
        const inputs = checkedInputs(extension, entry.handle, dir, installed, metafile);
        bundles.push({
          folder: extension.folder,
          handle: entry.handle,
          apiVersion: extension.apiVersion,
          targets: entry.targets,
          code,
          inputs,
        });
      }
      built.push({ extension, uiExtensionsVersion, bundles });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return built;
}

/** Writes each bundle where the CLI writes it: extensions/<folder>/dist/<handle>.js. */
export function writeBundles(built: BuiltExtension[]): string[] {
  return built.flatMap(({ extension, bundles }) =>
    bundles.map((bundle) => {
      const file = path.join(extension.dir, "dist", `${bundle.handle}.js`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, bundle.code);
      return path.relative(ROOT, file);
    }),
  );
}
