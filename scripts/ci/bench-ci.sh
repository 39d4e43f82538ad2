#!/usr/bin/env bash
# One CI step for a board-attached runner: measure, write every format CI tools read, compare with a
# baseline. Used by scripts/ci/github-workflow.yml; runs the same by hand (docs/ci.md).
#
#   scripts/ci/bench-ci.sh OUTDIR [bench run arguments...]
#
# Environment:
#   BENCH             the bench binary (default: build/bench)
#   BENCH_RUN_JSON    use this report instead of measuring (no run arguments then)
#   BENCH_BASELINE    a report of the base branch to compare with (skipped when unset or missing)
#   BENCH_THRESHOLD   compare's --threshold (default 1%)
#   BENCH_MAX_CYCLES  space-separated NAME=N cycle budgets for the JUnit file
# Writes OUTDIR/{run.json,junit.xml,bmf.json,github.json,results.csv,report.html,plot.svg,
# compare.txt,summary.md}. Exit: 0, 1 for a regression or a broken budget, else bench's own code.
set -uo pipefail

out=${1:?usage: bench-ci.sh OUTDIR [bench run arguments...]}
shift
bench=${BENCH:-build/bench}
mkdir -p "$out" || exit 6
status=0
worst() { # keeps the first failure's code; a later regression (1) does not hide an earlier tool failure
  [[ $status -eq 0 ]] && status=$1
  return 0
}

if [[ -n "${BENCH_RUN_JSON:-}" ]]; then
  cp "$BENCH_RUN_JSON" "$out/run.json" || exit 2
else
  "$bench" run "$@" --json "$out/run.json"
  rc=$?
  [[ $rc -ne 0 ]] && worst $rc
  [[ -f "$out/run.json" ]] || exit $rc
fi

limits=()
for l in ${BENCH_MAX_CYCLES:-}; do limits+=(--max-cycles "$l"); done
"$bench" report "$out/run.json" --format junit --output "$out/junit.xml" "${limits[@]}"
rc=$?
[[ $rc -ne 0 ]] && worst $rc
for f in bmf:bmf.json github:github.json csv:results.csv; do
  "$bench" report "$out/run.json" --format "${f%%:*}" --output "$out/${f#*:}" || worst $?
done
"$bench" report "$out/run.json" --html "$out/report.html" --svg "$out/plot.svg" || worst $?

# The summary's head from the report itself, read as JSON (bench writes `"firmware":<TAB>"..."`,
# which a sed pattern for a space missed): the firmware, a run that did not finish, the warnings and
# every result with no sample that counts, so the job summary shows them without opening a file.
summary_head() {
  python3 - "$1" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
print(f"## bench: {os.path.basename(r['context'].get('firmware') or '?')}")
if r.get("status") != "ok":
    print(f"\n**Run {r.get('status')}** ({r.get('status_detail')}): {r.get('error') or ''}")
notes = [f"- warning: {w}" for w in r.get("warnings") or []]
for x in r.get("results") or []:
    args = ",".join(f"{k}={v}" for k, v in (x.get("args") or {}).items())
    label = f"{x['name']}[{args}]" if args else x["name"]
    if not x.get("n"):
        notes.append(f"- {label}: {x.get('error') or 'no sample measured'}")
    elif x.get("interrupted"):
        kept = (r.get("context") or {}).get("keep_interrupted")  # --keep-interrupted counts them
        notes.append(f"- {label}: {len(x['interrupted'])} of {len(x['samples'])} samples interrupted, "
                     f"{'kept' if kept else 'left out'}")
if notes:
    print("\n" + "\n".join(notes) + "\n")
PY
}

{
  summary_head "$out/run.json" || { echo "## bench: run.json unreadable"; worst 2; }
  if [[ -n "${BENCH_BASELINE:-}" && -f "${BENCH_BASELINE}" ]]; then
    "$bench" compare "$BENCH_BASELINE" "$out/run.json" --threshold "${BENCH_THRESHOLD:-1%}" >"$out/compare.txt"
    rc=$?
    [[ $rc -ne 0 ]] && worst $rc
    echo '```'
    cat "$out/compare.txt"
    echo '```'
  else
    echo "No baseline report: nothing compared."
  fi
} >"$out/summary.md"
exit $status
