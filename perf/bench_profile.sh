#!/usr/bin/env bash
# bench run --profile's sampling rate (docs/profile.md): DWT_PCSR reads per second on the virtual
# board through each way OpenOCD reaches it (dap, hla, jtag), three ways each, side by side in one run:
#   pcsr_mdw_{path}      one `mdw` a round trip. Baseline.
#   pcsr_batch_{path}    a Tcl loop of 32 `read_memory` a round trip, as bench samples.
#   pcsr_profile_{path}  OpenOCD 0.12's `profile` command (a gmon histogram, fixed time).
#   pcsr_invalid_{path}  batch reads that were not an address of the spinning function (0 expected).
# Usage: bash perf/bench_profile.sh BUILD_DIR [SECONDS]
set -euo pipefail
build=${1:?usage: bench_profile.sh BUILD_DIR [SECONDS]}
root=$(cd "$(dirname "$0")/.." && pwd)
for f in "$build/bench-sim" "$build/tests/firmware/profile/shares.elf"; do
  if [[ ! -e "$f" ]]; then
    echo "bench_profile: $f missing: build with firmware (bash scripts/build.sh)" >&2
    exit 1
  fi
done
python3 "$root/perf/profile_pcsr.py" "$build" "$root" "${2:-1}"
echo "note: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
