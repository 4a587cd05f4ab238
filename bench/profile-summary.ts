// Summarises a V8 CPU profile (`node --cpu-prof`) by where the self time was spent: an npm package, the app's
// own folders, Node's internals, or idle/GC. npx tsx bench/profile-summary.ts PROFILE.cpuprofile
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { url: string; functionName: string };
}
const profile = JSON.parse(readFileSync(process.argv[2], "utf8")) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((node) => [node.id, node]));

function bucket(node: Node): string {
  const { url, functionName } = node.callFrame;
  if (!url)
    return functionName === "(idle)"
      ? "(idle)"
      : functionName === "(garbage collector)"
        ? "(garbage collector)"
        : `(native ${functionName || "code"})`;
  if (url.includes("/generated/prisma/")) return "@prisma/client (generated)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith("node:")) return "node internals";
  const own = /\/(app|sandbox|scripts|test|bench)\/([^/]+)/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

const totals = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  const key = bucket(byId.get(id)!);
  totals.set(key, (totals.get(key) ?? 0) + delta);
  all += delta;
});
const busy = all - (totals.get("(idle)") ?? 0);
console.log(`profile ${(all / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s; share of busy time:`);
for (const [key, micros] of [...totals]
  .filter(([key]) => key !== "(idle)")
  .sort((a, b) => b[1] - a[1])
  .slice(0, 20)) {
  console.log(`${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${key}`);
}
