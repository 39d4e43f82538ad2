#!/usr/bin/env bash
# `bench run` as a user meets it, on the virtual board (issue 3, "Must show"):
#   run_cold_start_s     wall time of a cold `bench run fut-hardfp.elf --repeat 100` (starts bench-sim
#                        and OpenOCD, programs, measures, stops). Baseline: stock tools doing only the
#                        loading part as bench does it (bench-sim started with the image, then
#                        `openocd -c "program FILE preverify verify reset exit"`).
#                        Target under 1 s (issue 11; over the ST-LINK, dapdirect_swd).
#   run_host_cpu_share   bench's own CPU time per marker halt against OpenOCD's (BENCH_STATS=1 line);
#                        target under 5 %.
# Usage: bash perf/bench_run.sh BUILD_DIR [REPEAT]
set -euo pipefail
build=${1:?usage: bench_run.sh BUILD_DIR [REPEAT]}
repeat=${2:-100}
src=$(cd "$(dirname "$0")/.." && pwd)
elf=$build/examples/sim-stm32f4/fut-hardfp.elf
for f in "$build/bench" "$build/bench-sim" "$elf"; do
  if [[ ! -e "$f" ]]; then
    echo "bench_run: $f missing: build with firmware (bash scripts/build.sh)" >&2
    exit 1
  fi
done
tmp=$(mktemp -d)
sim_pid=
cleanup() {
  [[ -n "$sim_pid" ]] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

now_ns() { date +%s%N; }

# The measured command, cold: nothing running before it.
t0=$(now_ns)
BENCH_STATS=1 "$build/bench" run "$elf" --repeat "$repeat" --quiet --no-progress --json "$tmp/r.json" \
  2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
t1=$(now_ns)
cold=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')

# Baseline: stock OpenOCD only programming the same file into a fresh bench-sim, over the same path
# (the ST-LINK, dapdirect_swd: board.json's default transport).
"$build/bench-sim" --stlink-port 0 --quiet --elf "$elf" >"$tmp/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 200); do
  grep -q '^stlink-port ' "$tmp/sim.log" 2>/dev/null && break
  sleep 0.01
done
port=$(awk '/^stlink-port /{ print $2; exit }' "$tmp/sim.log")
t2=$(now_ns)
openocd -c "set SIM_STLINK_PORT $port" -f "$src/boards/sim-stm32f4/openocd.cfg" -c "bindto 127.0.0.1" \
  -c "gdb_port disabled" -c "telnet_port disabled" -c "tcl_port disabled" \
  -c "program {$elf} preverify verify reset exit" >"$tmp/ocd.log" 2>&1 || { tail -5 "$tmp/ocd.log" >&2; exit 1; }
t3=$(now_ns)
base=$(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
echo "figure: run_cold_start_s value=$cold unit=s baseline=$base" \
  "ratio=$(awk -v a="$cold" -v b="$base" 'BEGIN { printf "%.2f", a / b }') target=<1s (baseline: stock openocd program preverify+verify only)"

# Where the cold start's wall time went (ms since bench started, per phase: docs/run.md).
grep '^bench-phases: ' "$tmp/stderr" | sed 's/^bench-phases: /note: run_phases_ms /' || true
stats=$(grep '^bench-stats: ' "$tmp/stderr" || true)
if [[ -z "$stats" ]]; then
  echo "bench_run: no bench-stats line from bench" >&2
  exit 1
fi
get() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$stats"; }
halts=$(get halts)
host=$(get host_cpu_s)
ocd=$(get openocd_cpu_s)
awk -v h="$host" -v o="$ocd" -v n="$halts" 'BEGIN {
  hu = h * 1e6 / n; ou = o * 1e6 / n
  printf "figure: run_host_cpu_per_halt_us value=%.1f unit=us baseline=%.1f ratio=%.3f target=<0.05 (host CPU per marker halt vs OpenOCD'"'"'s; %d halts)\n", hu, ou, hu / ou, n
}'
