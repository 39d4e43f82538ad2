#!/bin/bash
# Runs one libFuzzer target for SECONDS from its seed corpus (kept read-only: new inputs go to a
# temporary folder, removed on every exit path) and prints the execution count and crashes found.
# Usage: run_fuzz.sh FUZZER CORPUS_DIR SECONDS. Exit: the fuzzer's (0 clean, non-zero on a crash).
set -u
fuzzer=$1 corpus=$2 seconds=$3
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/new" "$work/crash"
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$work/crash/" "$work/new" "$corpus" >"$work/log" 2>&1
rc=$?
tail -n 30 "$work/log"
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
crashes=$(ls "$work/crash" | wc -l)
echo "fuzz $(basename "$fuzzer"): ${execs:-?} executions, $crashes crash inputs, exit $rc"
for f in "$work"/crash/*; do
  [ -e "$f" ] && { echo "crash input $(basename "$f"):"; od -A d -t x1 "$f" | head -n 20; }
done
exit $rc
