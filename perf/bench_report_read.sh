#!/usr/bin/env bash
# Reading a report is linear in its size (issue 13): `bench report BIG.json --format csv` on reports of
# 10^5 and 10^6 results (one input each, 3 samples), against Python's json.load of the same 10^6
# file in the same run as the baseline. Before the hash index in results_get, finding each result
# scanned all before it: 10^6 results were 5*10^11 comparisons (hours).
# Usage: bash perf/bench_report_read.sh BUILD_DIR
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import json, sys
for n in (100000, 1000000):
    with open(f"{sys.argv[1]}/r{n}.json", "w") as f:
        f.write('{"schema_version": 1, "status": "ok", "status_detail": "ok", "error": null, "context": '
                '{"firmware": "x.elf", "board": "sim-stm32f4", "core_clock_hz": 168000000}, "results": [')
        for i in range(n):
            f.write(("," if i else "") + '{"name": "fut", "args": {"input": %d}, "samples": [14, 15, 14]}' % i)
        f.write("]}\n")
PY
secs() { # wall seconds of a command, 3 decimals
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null
  t1=$(date +%s.%N)
  python3 -c "print(f'{$t1 - $t0:.3f}')"
}
small=$(secs "$build/bench" report "$tmp/r100000.json" --format csv --output /dev/null)
big=$(secs "$build/bench" report "$tmp/r1000000.json" --format csv --output /dev/null)
base=$(secs python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/r1000000.json")
echo "report read 10^5 results: ${small} s, 10^6: ${big} s (linear: 10x the size, $(python3 -c "print(f'{$big / $small:.1f}')")x the time)" >&2
ratio=$(python3 -c "print(f'{$big / $base:.2f}')")
echo "figure: report_read_1e6_s value=$big unit=s baseline=$base ratio=$ratio target=under 10 s, linear in size (baseline: python3 json.load of the same file)"
