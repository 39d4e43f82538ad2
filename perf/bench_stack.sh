#!/usr/bin/env bash
# bench run --stack's cost per sample (docs/run.md "Stack depth"), on the virtual board through each
# way OpenOCD reaches it (dap, hla, jtag): the marker loop's time (BENCH_STATS=1 phases: calibration
# to loop end) without --stack, with --stack-method paint (one bulk write of the 8 KiB below SP at
# BEGIN, one bulk read at END) and with --stack-method exact (the halt records, read by the host),
# over the same samples; the difference divided by the samples is the cost of one. The cycles do
# not change: painting happens while the core is halted.
# Usage: bash perf/bench_stack.sh BUILD_DIR [REPEAT]
set -euo pipefail
build=${1:?usage: bench_stack.sh BUILD_DIR [REPEAT]}
repeat=${2:-20}
fw="$build/tests/firmware/stack/stack.elf"
if [[ ! -e "$fw" || ! -e "$build/bench" ]]; then
  echo "bench_stack: $fw or $build/bench missing: build with firmware (bash scripts/build.sh)" >&2
  exit 1
fi
samples=$((4 * repeat)) # four marker pairs a pass (frame, recurse, irq, indirect)
loop_ms() { # the marker loop's ms for one run: bench-phases loop - calibration
  BENCH_STATS=1 "$build/bench" run "$fw" --arg input=3 --repeat "$repeat" --warmup 0 --keep-interrupted --quiet "$@" 2>&1 |
    sed -n 's/.*calibration=\([0-9]*\) loop=\([0-9]*\).*/\2 \1/p' | awk '{print $1 - $2}'
}
printf '%-6s %10s %10s %10s %14s %14s\n' transport none_ms paint_ms exact_ms paint_ms/sample exact_ms/sample
for t in dap hla jtag; do
  none=$(loop_ms --transport "$t")
  paint=$(loop_ms --transport "$t" --stack --stack-method paint)
  exact=$(loop_ms --transport "$t" --stack --stack-method exact)
  awk -v t="$t" -v n="$none" -v p="$paint" -v e="$exact" -v s="$samples" \
    'BEGIN { printf "%-6s %10d %10d %10d %14.2f %14.2f\n", t, n, p, e, (p - n) / s, (e - n) / s }'
done
echo "samples per run: $samples; note: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
