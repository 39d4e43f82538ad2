#!/usr/bin/env bash
# Runs every benchmark (perf/bench_*.sh) and prints each figure with its ratio to a baseline measured
# in the same run. Each bench_*.sh gets the build directory as $1 and prints lines
#   figure: <name> value=<v> unit=<u> baseline=<b> ratio=<r> target=<text>
# (anything else it prints goes to stderr here). Usage: bash perf/run.sh [BUILD_DIR]
# Exit status: 0 when every benchmark ran, 1 when one failed (the others still run).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${BENCH_BUILD:-$root/build}}
if [[ ! -d "$build" ]]; then
  echo "perf: build directory $build missing: run bash scripts/build.sh first" >&2
  exit 1
fi
build=$(cd "$build" && pwd) # relative to where the caller stands, then absolute
cd "$root"
status=0
shopt -s nullglob
for bench in perf/bench_*.sh; do
  name=$(basename "$bench" .sh)
  out=$(bash "$bench" "$build" 2> >(sed "s/^/$name: /" >&2))
  rc=$?
  grep '^figure: ' <<<"$out" || true
  grep -v '^figure: ' <<<"$out" | sed "s/^/$name: /" >&2 || true
  if [[ $rc -ne 0 ]]; then
    echo "perf: $name failed (exit $rc)" >&2
    status=1
  fi
done
exit $status
