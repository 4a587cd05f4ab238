// The Node floor (docs/decisions/0033-node-22-floor.md): `engine-strict` (.npmrc) makes npm refuse to install on a
// Node outside package.json's `engines`, and refuse any locked package whose own `engines` the running Node misses.
// So the floor must be at least what every locked package asks for: otherwise `npm install` on the oldest Node the
// README names would stop on a dependency instead of installing.
import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), "utf8");
const pkg = JSON.parse(read("package.json")) as { engines: Record<string, string> };
const lock = JSON.parse(read("package-lock.json")) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

// The lowest version of each line the range allows: "^22.18.0 || >=24.11.0" gives 22.18.0 and 24.11.0.
const lowest = pkg.engines.node.split("||").map((part) => semver.minVersion(part.trim())!.version);

describe("the Node floor", () => {
  it("is Node 22 or later, and says how to get it when npm refuses", () => {
    expect(lowest.length).toBeGreaterThan(0);
    for (const version of lowest) expect(semver.major(version)).toBeGreaterThanOrEqual(22);
    expect(semver.satisfies("20.19.0", pkg.engines.node)).toBe(false);
    expect(pkg.engines["install-node"]).toContain("npm install --prefix .node --no-save node@22");
    expect(read(".npmrc")).toMatch(/^engine-strict=true$/m);
  });

  it("satisfies every locked package's engines.node, so npm's engine-strict refuses none of them", () => {
    const refused: string[] = [];
    for (const [name, entry] of Object.entries(lock.packages)) {
      const wanted = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      // An optional package npm cannot install is left out, not refused.
      if (!name || !wanted || entry.optional) continue;
      for (const version of lowest)
        if (!semver.satisfies(version, wanted)) refused.push(`${name} (${wanted}) on ${version}`);
    }
    expect(refused).toEqual([]);
  });

  it(".nvmrc names a line the floor accepts", () => {
    const nvmrc = read(".nvmrc").trim();
    expect(lowest.some((version) => String(semver.major(version)) === nvmrc)).toBe(true);
  });
});
