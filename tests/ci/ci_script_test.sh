#!/usr/bin/env bash
# Tests scripts/ci/bench-ci.sh (the workflow's step) on fixture reports: every file written, the
# summary holds the comparison, exit 1 on a regression, 0 without, 1 on a broken cycle budget.
# argv: BENCH.
set -euo pipefail
bench=$1
here=$(cd "$(dirname "$0")" && pwd)
script="$here/../../scripts/ci/bench-ci.sh"
fx="$here/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

set +e
BENCH=$bench BENCH_RUN_JSON=$fx/cmp-regressed.json BENCH_BASELINE=$fx/cmp-base.json "$script" "$tmp/a" 2>"$tmp/a.err"
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "regression: exit $rc, expected 1"
for f in run.json junit.xml bmf.json github.json results.csv report.html plot.svg compare.txt summary.md; do
  [[ -s "$tmp/a/$f" ]] || fail "regression: $f missing or empty"
done
grep -q '^fut\[input=1\]   50.0   55.0    +5.0   +10.00%              REGRESSED$' "$tmp/a/summary.md" ||
  fail "summary.md lacks the regressed row: $(cat "$tmp/a/summary.md")"
grep -qx '## bench: cmp.elf' "$tmp/a/summary.md" || fail "summary.md lacks its title"

BENCH=$bench BENCH_RUN_JSON=$fx/cmp-same.json BENCH_BASELINE=$fx/cmp-base.json "$script" "$tmp/b" ||
  fail "no regression: exit $?, expected 0"
grep -q '0 regressions beyond 1.00%' "$tmp/b/compare.txt" || fail "no regression: compare.txt"

set +e
BENCH=$bench BENCH_RUN_JSON=$fx/cmp-same.json BENCH_MAX_CYCLES="sled=99 fut=60" "$script" "$tmp/c" 2>"$tmp/c.err"
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "budget: exit $rc, expected 1"
grep -c '<failure type="max-cycles"' "$tmp/c/junit.xml" | grep -qx 1 || fail "budget: expected one failed case"
grep -qx 'No baseline report: nothing compared.' "$tmp/c/summary.md" || fail "budget: summary without baseline"
# A report bench wrote itself (cJSON puts a tab after each key, which the summary's sed missed: its
# heading read "## bench: "), with every sample of one result interrupted: the summary is built from
# the JSON and names the result and why it has no figure (issue 26).
"$bench" report "$fx/unmeasured.json" --format json --output "$tmp/tabs.json"
grep -q $'"firmware":\t"' "$tmp/tabs.json" || fail "the reporter's layout changed: $(head -c 300 "$tmp/tabs.json")"
set +e
BENCH=$bench BENCH_RUN_JSON=$tmp/tabs.json "$script" "$tmp/d" 2>"$tmp/d.err"
set -e
grep -qx '## bench: sled.elf' "$tmp/d/summary.md" || fail "summary heading from a bench-written report: $(head -3 "$tmp/d/summary.md")"
grep -qxF -- '- fut[input=1]: no sample counts: all 3 took an exception inside the stretch ("interrupted") and are left out; --mask-irqs keeps interrupts out, --keep-interrupted counts them' "$tmp/d/summary.md" ||
  fail "summary lacks the unmeasured result: $(cat "$tmp/d/summary.md")"
# The same run with --keep-interrupted (context.keep_interrupted): its interrupted samples are kept,
# and the summary says so instead of "left out".
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["context"]["keep_interrupted"]=True; json.dump(r, open(sys.argv[2], "w"))' \
  "$fx/unmeasured.json" "$tmp/keep-in.json"
"$bench" report "$tmp/keep-in.json" --format json --output "$tmp/keep.json"
set +e
BENCH=$bench BENCH_RUN_JSON=$tmp/keep.json "$script" "$tmp/e" 2>"$tmp/e.err"
set -e
grep -qxF -- '- fut[input=1]: 3 of 3 samples interrupted, kept' "$tmp/e/summary.md" ||
  fail "summary with --keep-interrupted: $(cat "$tmp/e/summary.md")"
echo ok
