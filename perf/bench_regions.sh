#!/usr/bin/env bash
# Profile-point regions (issue 4) on the virtual board, examples/regions at -O2 (soft-float), via
# `bench run` (bench-sim + stock OpenOCD):
#   regions_bias_cycles     what an empty region measures before calibration (the table's `overhead`:
#                           Begin's tail after its counter read + End's head before its read);
#                           baseline PFP's 49 cycles on a C66x; ePAPI adds 25..34 cycles per read;
#                           target <= 20
#   regions_pair_cycles     what an empty Begin/End pair costs the code around it (markers around it),
#                           bookkeeping included; baseline two CMSIS Event Recorder events (2 x 184)
#   regions_samples_per_s   region samples per wall-clock second against marker samples per second in
#                           the same run of the same firmware (each marker sample is two halts)
# Usage: bash perf/bench_regions.sh BUILD_DIR [REPEAT]
set -euo pipefail
build=${1:?usage: bench_regions.sh BUILD_DIR [REPEAT]}
repeat=${2:-20}
elf="$build/examples/sim-stm32f4/regions.elf"
for f in "$build/bench" "$build/bench-sim" "$elf"; do
  if [[ ! -e "$f" ]]; then
    echo "bench_regions: $f missing: build with firmware (bash scripts/build.sh)" >&2
    exit 1
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
start=$(date +%s.%N)
"$build/bench" run "$elf" --repeat "$repeat" --warmup 0 --json "$tmp/r.json" >/dev/null
end=$(date +%s.%N)
python3 - "$tmp/r.json" "$start" "$end" "$build" "$elf" <<'PY'
import json, os, subprocess, sys
path, start, end, build, elf = sys.argv[1:6]
doc = json.load(open(path))
wall = float(end) - float(start)
res = {r["name"]: r for r in doc["results"]}
reg = {r["name"]: r for r in doc["regions"]}
# The bias comes from the in-process run of the same ELF on the same core model (regions_sim prints
# the table header it read at DONE).
sim = subprocess.run([os.path.join(build, "tests/regions/regions_sim"), elf, "2", "--print"],
                     capture_output=True, text=True, timeout=120)
bias = None
for line in sim.stdout.splitlines():
    if line.startswith("figure-data:"):
        kv = dict(x.split("=") for x in line.split()[1:])
        bias = int(kv["overhead"])
if bias is None:
    sys.exit("bench_regions: regions_sim gave no figure-data: " + sim.stdout[-500:])
pair = res["pfp_pair"]["min"]
region_samples = sum(r["count"] for r in doc["regions"])
marker_samples = sum(r["n"] for r in doc["results"])
def fig(name, value, unit, baseline, target):
    ratio = value / baseline if baseline else 0
    print(f"figure: {name} value={value:g} unit={unit} baseline={baseline:g} ratio={ratio:.3f} target={target}")
fig("regions_bias_cycles", bias, "cycles", 49,
    "<=20 (anchors: PFP 49 on C66x; ePAPI +25..34; CMSIS Event Recorder 184-343 per event)")
fig("regions_pair_cycles", pair, "cycles", 368,
    "informative (whole Begin+End with bookkeeping; baseline two CMSIS Event Recorder events at 184)")
fig("regions_samples_per_s", round(region_samples / wall, 1), "samples/s", round(marker_samples / wall, 1),
    f"table mode above marker mode ({region_samples} region vs {marker_samples} marker samples in {wall:.2f} s)")
PY
