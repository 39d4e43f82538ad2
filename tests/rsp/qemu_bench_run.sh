#!/usr/bin/env bash
# `bench run --board qemu-mps2-an386`: bench starts QEMU with its gdbstub on a free port, measures
# through the RSP backend with breakpoint markers (QEMU does not halt on BKPT), and, QEMU 7.2
# having no DWT, reports counter "none" with no samples rather than zeros; QEMU is gone after.
#   qemu_bench_run.sh BUILD_DIR
set -euo pipefail
build=$1
ex=$build/examples/qemu-mps2-an386
work=$(mktemp -d /tmp/bench-qemu-run-XXXXXX)
trap 'rm -rf "$work"' EXIT

check() { # name json -> asserts on the report
  python3 - "$2" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); name = sys.argv[2]
c = r["context"]
assert r["status"] == "ok", (name, r["status"], r["error"])
assert c["backend"] == "gdb-rsp" and c["counter"] == "none" and c["board"] == "qemu-mps2-an386", c
assert c["server_version"].startswith("QEMU 7."), c["server_version"]
assert c["core_clock_hz"] == 25000000, c["core_clock_hz"]
assert r["results"], name
for res in r["results"]:
    assert res["samples"] == [], (name, res["name"], res["samples"])  # nothing measured, not zeros
print(name, sorted({res["name"] for res in r["results"]}), "counter none, no samples")
PY
}

timeout -k 5 60 "$build/bench" run --board qemu-mps2-an386 "$ex/nops.elf" --repeat 2 --timeout 30s --quiet \
  --no-progress --json "$work/nops.json"
check nops "$work/nops.json"
python3 -c "import json,sys; n=sorted(r['name'] for r in json.load(open(sys.argv[1]))['results']); assert n==['nop1','nop10','nop100','nop1000'], n" "$work/nops.json"
timeout -k 5 60 "$build/bench" run --board qemu-mps2-an386 "$ex/fut-hardfp.elf" --repeat 2 --arg input=1,2 \
  --timeout 30s --quiet --no-progress --json "$work/fut.json"
check fut-hardfp "$work/fut.json"
# --icount: the instructions between the markers, the BKPT markers not counted (docs/gdb.md):
# nopN runs exactly N NOPs, the same definition as on TriCore (tests/tricore: 2 * LOOPS).
timeout -k 5 60 "$build/bench" run --board qemu-mps2-an386 "$ex/nops.elf" --icount --repeat 2 --timeout 30s \
  --quiet --no-progress --json "$work/icount.json"
python3 - "$work/icount.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
got = {x["name"]: (x["unit"], x["samples"], x["time_ns"]) for x in r["results"] if x["name"].endswith(" [icount]")}
want = {f"nop{n} [icount]": ("instructions", [n, n], None) for n in (1, 10, 100, 1000)}
assert got == want, got
print("icount", sorted(got.items()))
PY
# a firmware without markers, between two functions (Embench-IoT style)
fw=$build/tests/firmware/rsp/qemu_nomarkers.elf
timeout -k 5 60 "$build/bench" run --board qemu-mps2-an386 "$fw" --start start_trigger --stop stop_trigger \
  --repeat 2 --timeout 30s --quiet --no-progress --json "$work/nomarkers.json"
check nomarkers "$work/nomarkers.json"
python3 -c "import json,sys; n=[r['name'] for r in json.load(open(sys.argv[1]))['results']]; assert n==['start_trigger..stop_trigger'], n" "$work/nomarkers.json"
if pgrep -f -- "-kernel $fw" >/dev/null; then
  echo "bench left QEMU running: $(pgrep -af -- "-kernel $fw")" >&2
  exit 1
fi
# the QEMUs bench started ran these ELFs (-kernel PATH): none may be left
if pgrep -f -- "-kernel $ex/" >/dev/null; then
  echo "bench left QEMU running: $(pgrep -af -- "-kernel $ex/")" >&2
  exit 1
fi
