#!/usr/bin/env bash
# Marker halts per second on the virtual board through the GDB remote protocol (bench's RSP
# backend on OpenOCD's GDB port) and through OpenOCD's TCL port, beside the baseline a user would
# otherwise write: a gdb-multiarch batch script that continues to each marker and prints
# *(unsigned *)0xE0001004 (DWT_CYCCNT). Target: at least 5x that baseline.
# Usage: bash perf/bench_rsp.sh BUILD_DIR
set -euo pipefail
build=$1
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/rsp/rsp_sim_lib.sh"
fw=$build/examples/sim-stm32f4/nops.elf
for f in "$build/bench-sim" "$build/tests/rsp/rsp_halt_rate" "$fw"; do
  [[ -e "$f" ]] || { echo "bench_rsp: $f missing: build first" >&2; exit 1; }
done
command -v gdb-multiarch >/dev/null || { echo "bench_rsp: gdb-multiarch missing: bash scripts/setup.sh" >&2; exit 1; }
# The firmware is programmed into the virtual flash at start (bench-sim --elf): only halts are timed.
rsp_sim_start "$build" "$src" "$fw"

rate() { # backend port -> halts/s over 200 halts (connection and load not timed)
  "$build/tests/rsp/rsp_halt_rate" "$1" "127.0.0.1:$2" "$fw" 200 --no-load | sed -n 's/.*rate=\([0-9.]*\)$/\1/p'
}
# A warm-up pass first (bench-sim translates and caches code blocks on first execution), then two
# alternating passes per backend; the better of each counts (the machine is shared).
rate gdb "$GDB_PORT" >/dev/null
rsp=0 tcl=0
for _ in 1 2; do
  rsp=$(awk -v a="$rsp" -v b="$(rate gdb "$GDB_PORT")" 'BEGIN { print (b > a ? b : a) }')
  tcl=$(awk -v a="$tcl" -v b="$(rate tcl "$TCL_PORT")" 'BEGIN { print (b > a ? b : a) }')
done

# The baseline: gdb-multiarch in batch mode, N x (continue; print CYCCNT). Two lengths, so start-up
# (gdb, connect, reset) cancels out: rate = (N2 - N1) / (t2 - t1).
gdb_time() {
  local n=$1 script=$RSP_WORK/halts.gdb t0 t1
  cat >"$script" <<GDB
set pagination off
set confirm off
file $fw
target extended-remote 127.0.0.1:$GDB_PORT
monitor reset halt
set \$i = 0
while \$i < $n
  continue
  print *(unsigned *)0xE0001004
  set \$i = \$i + 1
end
detach
GDB
  t0=$(date +%s.%N)
  gdb-multiarch -nx -batch -x "$script" >"$RSP_WORK/gdb-$n.log" 2>&1 ||
    { echo "bench_rsp: gdb-multiarch failed: $(tail -3 "$RSP_WORK/gdb-$n.log")" >&2; return 1; }
  t1=$(date +%s.%N)
  [[ $(grep -c '^\$[0-9]* = ' "$RSP_WORK/gdb-$n.log") -eq $n ]] ||
    { echo "bench_rsp: gdb-multiarch printed fewer than $n values" >&2; return 1; }
  echo "$t0 $t1" | awk '{print $2 - $1}'
}
t10=$(gdb_time 10)
t40=$(gdb_time 40)
base=$(awk -v a="$t10" -v b="$t40" 'BEGIN { printf "%.1f", 30 / (b - a) }')
awk -v r="$rsp" -v t="$tcl" -v b="$base" 'BEGIN {
  printf "figure: rsp_marker_halts value=%.1f unit=halts/s baseline=%.1f ratio=%.2f target=>=5x gdb-multiarch batch script (break, continue, print CYCCNT)\n", r, b, r / b
  printf "figure: tcl_marker_halts value=%.1f unit=halts/s baseline=%.1f ratio=%.2f target=>=5x gdb-multiarch batch script (break, continue, print CYCCNT)\n", t, b, t / b
}'
