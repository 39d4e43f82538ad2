#!/usr/bin/env bash
# The virtual board over each way stock OpenOCD reaches it, side by side in one run (issue 11):
#   marker_halts_{dap,hla,jtag}            `resume; wait_halt; read_memory CYCCNT` between the BKPT
#                                          markers of tests/firmware/dap/marker_loop.elf (every pair
#                                          checked to be 100 cycles), per second. Baseline: jtag.
#                                          Target: dap >= 600/s and >= 4x jtag.
#   marker_halt_cpu_{openocd,sim}_{path}   CPU ms per halt of OpenOCD and bench-sim (/proc/PID/stat).
#                                          Baseline: jtag.
#   marker_halt_round_trips_{path}         request/reply round trips per halt (stlink-server requests,
#                                          or remote_bitbang buffers that asked for TDO). Baseline: jtag.
#   run_cold_start_s_{dap,hla,jtag}        wall time of a cold `bench run fut-hardfp.elf --repeat 100
#                                          --transport PATH` (best of 3). Baseline: jtag. Target: dap < 1.0 s.
# Each issue-11 target's figure says met / NOT met in its target= text, and a `target: ...` line
# (stderr under perf/run.sh) sums up each: dap >= 600 halts/s, dap >= 4x jtag, dap cold start < 1.0 s.
# dap: the ST-LINK through OpenOCD's st-link driver (dapdirect_swd); hla: through the hla driver
# (hla_swd); jtag: bench-sim's remote_bitbang port (docs/sim.md).
# Usage: bash perf/bench_stlink.sh BUILD_DIR [HALTS]
set -euo pipefail
build=${1:?usage: bench_stlink.sh BUILD_DIR [HALTS]}
halts=${2:-400}
elf=$build/examples/sim-stm32f4/fut-hardfp.elf
for f in "$build/tests/sim/e2e_stlink" "$build/bench-sim" "$build/bench" "$build/tests/firmware/dap/marker_loop.elf" \
  "$elf"; do
  if [[ ! -e "$f" ]]; then
    echo "bench_stlink: $f missing: build with firmware (bash scripts/build.sh)" >&2
    exit 1
  fi
done
"$build/tests/sim/e2e_stlink" perf dap "$build/bench-sim" "$build/tests/firmware/dap" "$halts"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A cold
for path in jtag hla dap; do
  best=
  for _ in 1 2 3; do
    t0=$(date +%s%N)
    "$build/bench" run "$elf" --repeat 100 --transport "$path" --quiet --no-progress --json "$tmp/r.json" \
      2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
    t1=$(date +%s%N)
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    best=$(awk -v a="$s" -v b="${best:-$s}" 'BEGIN { print (a < b ? a : b) }')
  done
  cold[$path]=$best
done
cold_met=$(awk -v a="${cold[dap]}" 'BEGIN { print (a < 1.0 ? "met" : "NOT met") }')
for path in dap hla jtag; do
  target="(none; baseline: jtag, same run)"
  [[ $path == dap ]] && target="<1.0s (baseline: jtag, same run): $cold_met"
  echo "figure: run_cold_start_s_$path value=${cold[$path]} unit=s baseline=${cold[jtag]}" \
    "ratio=$(awk -v a="${cold[$path]}" -v b="${cold[jtag]}" 'BEGIN { printf "%.2f", a / b }') target=$target"
done
echo "target: dap cold start < 1.0 s: $cold_met (${cold[dap]} s)"
echo "note: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
