#!/usr/bin/env bash
# TCL round trips through stock OpenOCD to bench-sim (Unix-socket JTAG), from e2e_openocd perf:
#   tcl_noop_round_trips  OpenOCD answering `expr 0`: the baseline, no target involved
#   tcl_read_memory_32    `read_memory 0xE0001004 32 1` (one MEM-AP read of DWT_CYCCNT)
#   marker_halts          `resume; wait_halt; read_memory CYCCNT` between the BKPT markers of
#                         tests/firmware/dap/marker_loop.elf, 53 registers read per halt (FPU);
#                         target >= 200/s (issue 2); every pair checked to be 100 cycles
#   marker_halts_tcp      the same over TCP
#   marker_halt_cpu_*     CPU ms per halt of OpenOCD and bench-sim (/proc/PID/stat): what bounds the rate
# Usage: bash perf/bench_tcl.sh BUILD_DIR [HALTS]
set -euo pipefail
build=${1:?usage: bench_tcl.sh BUILD_DIR [HALTS]}
halts=${2:-300}
for f in "$build/tests/sim/e2e_openocd" "$build/bench-sim" "$build/tests/firmware/dap/marker_loop.elf"; do
  if [[ ! -e "$f" ]]; then
    echo "bench_tcl: $f missing: build with firmware (bash scripts/build.sh)" >&2
    exit 1
  fi
done
exec "$build/tests/sim/e2e_openocd" perf "$build/bench-sim" "$build/tests/firmware/dap" "$halts"
