#!/usr/bin/env bash
# bench run --gdb on a virtual board started empty (bench-sim without --elf) through stock
# OpenOCD's GDB port: bench programs the flash itself (vFlashErase/vFlashWrite/vFlashDone over the
# memory map's flash regions, docs/gdb.md) and measures, or says in one line that the load failed.
#   gdb_load.sh BUILD_DIR SOURCE_DIR CASE
#   load       fut-hardfp: 15 cycles for every input, as tests/e2e run_e2e.py case_hardfp
#   load_fail  OpenOCD with `gdb_memory_map disable`: no flash map, so the image is written as RAM,
#              which flash ignores: exit 5 (docs/exit-codes.md) with one error line, no fault
set -euo pipefail
build=$1 src=$2 case=$3
. "$src/tests/rsp/rsp_sim_lib.sh"
. "$src/tests/lib/skip.sh"
[[ -x "$build/bench-sim" ]] || bench_skip "$build/bench-sim not built"
fw=$build/examples/sim-stm32f4/fut-hardfp.elf
[[ $case == load_fail ]] && RSP_OCD_EXTRA="gdb_memory_map disable"
# No ELF: the flash is empty and the core locks up at reset. The ST-LINK wire, as docs/gdb.md.
RSP_SIM_WIRE=stlink rsp_sim_start "$build" "$src"
rc=0
timeout -k 5 120 "$build/bench" run --gdb "127.0.0.1:$GDB_PORT" "$fw" --repeat 3 --arg input=0:100:50 \
  --timeout 30s --json "$RSP_WORK/r.json" --quiet --no-progress >"$RSP_WORK/out" 2>"$RSP_WORK/err" || rc=$?
cat "$RSP_WORK/out" "$RSP_WORK/err"
python3 - "$RSP_WORK/r.json" "$RSP_WORK/err" "$case" "$rc" <<'PY'
import json, sys
rep, err, case, rc = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), sys.argv[3], int(sys.argv[4])
if case == "load":
    assert rc == 0 and rep["status"] == "ok", (rc, rep["status"], err)
    got = {r["args"]["input"]: r["samples"] for r in rep["results"] if r["name"] == "fut"}
    assert got == {0: [15] * 3, 50: [15] * 3, 100: [15] * 3}, got
    # Recognised as OpenOCD on the locked-up core (its BKPT step-over and resume/wait_halt quirks).
    assert rep["context"]["server_version"].startswith("Open On-Chip Debugger"), rep["context"]["server_version"]
    print("fut-hardfp loaded through the GDB port: 15 cycles for inputs 0, 50, 100")
else:
    lines = [l for l in err.splitlines() if l.startswith("bench: ")]
    assert rc == 5 and rep["status"] == "error", (rc, rep["status"], err)
    assert len(lines) == 1 and lines[0].startswith("bench: loading ") and "failed: 0x08000000 reads back" in lines[0] \
        and "the server maps no flash" in lines[0] and "--no-load" in lines[0], lines
    assert "fault" not in err.lower(), err
    print("failed load:", lines[0])
PY
