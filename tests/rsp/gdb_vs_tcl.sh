#!/usr/bin/env bash
# The same firmware measured through OpenOCD's GDB port (bench run --gdb, the RSP backend) and its
# TCL port (bench run --openocd) on the virtual board must give exactly the same cycles, sample
# for sample: NOP sleds (N cycles each), fut-hardfp over an input sweep, and a firmware with no
# markers at all measured with --start/--stop.
#   gdb_vs_tcl.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
. "$src/tests/rsp/rsp_sim_lib.sh"
. "$src/tests/lib/skip.sh"
[[ -x "$build/bench-sim" ]] || bench_skip "$build/bench-sim not built (sim/main.c missing)"
ex=$build/examples/sim-stm32f4
fails=0

# Runs one firmware both ways on one virtual board (started with the image in flash, as bench run
# does: both backends then only verify it); compares every result's samples; prints them.
both() {
  local name=$1 fw=$2 rc=0; shift 2
  rsp_sim_start "$build" "$src" "$fw" || return 1
  timeout -k 5 120 "$build/bench" run --openocd "127.0.0.1:$TCL_PORT" "$fw" "$@" --timeout 60s \
    --json "$RSP_WORK/$name-tcl.json" --quiet --no-progress || rc=1
  timeout -k 5 120 "$build/bench" run --gdb "127.0.0.1:$GDB_PORT" "$fw" "$@" --timeout 60s \
    --json "$RSP_WORK/$name-gdb.json" --quiet --no-progress || rc=1
  [[ $rc -eq 0 ]] && python3 - "$RSP_WORK/$name-tcl.json" "$RSP_WORK/$name-gdb.json" "$name" <<'PY' || rc=1
import json, sys
tcl, gdb = (json.load(open(p)) for p in sys.argv[1:3])
name = sys.argv[3]
assert tcl["status"] == "ok" and gdb["status"] == "ok", (tcl["error"], gdb["error"])
assert tcl["context"]["backend"] == "openocd-tcl" and gdb["context"]["backend"] == "gdb-rsp"
key = lambda r: (r["name"], json.dumps(r["args"], sort_keys=True))
t = {key(r): r["samples"] for r in tcl["results"]}
g = {key(r): r["samples"] for r in gdb["results"]}
assert t and t == g, f"{name}: TCL {t} != GDB {g}"
assert tcl["context"]["overhead_cycles"] == gdb["context"]["overhead_cycles"]
for k, v in sorted(t.items()):
    print(f"{name} {k[0]} {k[1]}: {v[:5]}{'...' if len(v) > 5 else ''} (same through TCL and GDB)")
if name == "nomarkers":
    # CRC-32 of 9 bytes between the triggers: real work, so a run of zeros means the cycle counter
    # was never enabled (a marker-less firmware does not do it: the host must, DEMCR.TRCENA and
    # DWT_CTRL.CYCCNTENA, Armv7-M ARM C1.8.6).
    for k, v in t.items():
        assert min(v) > 100 and len(set(v)) == 1, f"{k[0]}: {v}, want one count > 100 cycles"
if name == "nops":
    for k, v in t.items():
        n = int(k[0].replace("nop", ""))
        assert set(v) == {n}, f"{k[0]}: {v}, want {n} cycles"
PY
  rsp_sim_stop
  return $rc
}

both nops "$ex/nops.elf" --repeat 5 || fails=$((fails + 1))
both fut-hardfp "$ex/fut-hardfp.elf" --repeat 3 --arg input=0:100:50 || fails=$((fails + 1))
both fut-softfp "$ex/fut-softfp.elf" --repeat 2 --arg input=1,1000,100000 || fails=$((fails + 1))
both nomarkers "$build/tests/firmware/rsp/sim_nomarkers.elf" --start start_trigger --stop stop_trigger --repeat 3 ||
  fails=$((fails + 1))
exit $fails
