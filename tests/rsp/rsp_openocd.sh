#!/usr/bin/env bash
# Runs test_rsp_openocd against stock OpenOCD's GDB port on bench-sim, the marker-less firmware
# preloaded in the virtual flash.   rsp_openocd.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
. "$src/tests/rsp/rsp_sim_lib.sh"
. "$src/tests/lib/skip.sh"
[[ -x "$build/bench-sim" ]] || bench_skip "$build/bench-sim not built"
fw=$build/tests/firmware/rsp/sim_nomarkers.elf
rsp_sim_start "$build" "$src" "$fw"
timeout -k 5 60 "$build/tests/rsp/test_rsp_openocd" "127.0.0.1:$GDB_PORT" "$fw"
