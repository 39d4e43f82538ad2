#!/usr/bin/env bash
# Modelled instructions per second of bench-sim (cycle model on) on a CPU-bound kernel, beside
# QEMU 7.2 running the same kernel (qemu-system-arm -M mps2-an386, a Cortex-M4, -semihosting exit):
#   sim_mips   bench-sim --standalone on tests/firmware/cycles/crc32_sim.elf (bitwise CRC-32
#              over 1 KiB, 10000 rounds: 461 M instructions), target >= 100 M instr/s
#              (issue 2). Baseline: QEMU's rate on crc32_an386.elf, the same C at QEMU's addresses.
#   sim_mips_coremark_like  the same on coremark_like_sim.elf (lists, matrices, a state machine,
#              CRC-16: CoreMark's mix, our code), at bench-sim's defaults (the memory-block rule
#              decided at each block's entry), target >= 205 M instr/s (issue 14: "CoreMark-like
#              code ran at 205-231 M instructions/s"). Baseline: QEMU on coremark_like_an386.elf.
#   sim_mips_coremark_like_memory_blocks_off  the same with --memory-blocks=off; no target.
#   coremark_like_ws5_art  cycles of coremark_like's rounds (BKPT #1 to BKPT #2) when the firmware
#              programs 5 wait states with the ART accelerator on (coremark_like_sim_ws5.elf), over
#              the cycles when it writes FLASH_ACR's reset value (coremark_like_sim_ws0.elf, the
#              same code at the same addresses; baseline), target <= 1.03 (issue 14: "within a few
#              percent of 0 wait states, as on silicon").
#   coremark_like_ws5_prefetch  the same with the prefetch buffer alone (coremark_like_sim_ws5_pf.elf,
#              LATENCY 5 | PRFTEN): what the ART's caches save; no target.
#   sim_time_coremark_like_ws5  bench-sim's wall time on coremark_like_sim_ws5.elf over its time on
#              coremark_like_sim_ws0.elf (same code): the cost of timing data reads from flash while
#              it has wait states (a unicorn memory hook: every load takes unicorn's slow path); no target.
#   sim_time_coremark_like_memory_blocks_entry  bench-sim's wall time on coremark_like_sim_ws0.elf
#              at its default (--memory-blocks=entry) over --memory-blocks=off: the rule's cost;
#              no target (docs/cycle-model.md: about 1.2).
#   sim_time_coremark_like_unaligned_entry  bench-sim's wall time on coremark_like_sim_ws0.elf at
#              its default (--unaligned=entry: unaligned accesses decided from the registers at
#              each block's entry or exit, a code hook for the rest) over --unaligned=off: the
#              rule's cost, target <= 1.05 (issue 25; docs/cycle-model.md "Unaligned accesses"
#              gives it in host instructions too, steadier than a wall time on a shared machine).
#   sim_time_coremark_like_unaligned  the same with --unaligned (exact: a read/write hook on every
#              load and store) over --unaligned=off; no target (about 1.64 in host instructions).
#   sim_time_coremark_like_ledger  bench-sim's wall time on coremark_like_sim_ws0.elf with
#              --ledger (every charge to the ledger's totals) over without, target <= 1.5 (issue 23).
#   sim_time_coremark_like_record  the same with --record=PATH (docs/sim-record.md: a block hook,
#              a code hook on every instruction for the lowest SP, the ledger by calling context and
#              address, a record at each halt) over without; no target.
#   sim_time_coremark_like_memory_blocks  the same with --memory-blocks (exact: a read hook on
#              every load) over --memory-blocks=off; no target (about 2.2).
# Each rate is (instructions) / (best of 3 wall times - best of 3 wall times of the _empty
# variant, which does everything but the rounds): start-up and ELF loading cancel out. The
# instruction count is bench-sim's own (control interface `stats`); QEMU runs the same
# instruction stream (same compiler output, only the link addresses differ).
# Usage: bash perf/bench_sim_mips.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: bench_sim_mips.sh BUILD_DIR}
fw=$build/tests/firmware/cycles
sim=$build/bench-sim
for f in "$sim" "$fw/crc32_sim.elf" "$fw/crc32_sim_empty.elf" "$fw/crc32_an386.elf" "$fw/crc32_an386_empty.elf" \
  "$fw/coremark_like_sim.elf" "$fw/coremark_like_sim_ws0.elf" "$fw/coremark_like_sim_ws5.elf" "$fw/coremark_like_sim_ws5_pf.elf" "$fw/coremark_like_sim_empty.elf" \
  "$fw/coremark_like_an386.elf" "$fw/coremark_like_an386_empty.elf"; do
  if [[ ! -e "$f" ]]; then
    echo "bench_sim_mips: $f missing: build with firmware (bash scripts/build.sh)" >&2
    exit 1
  fi
done
if ! command -v qemu-system-arm >/dev/null; then
  echo "bench_sim_mips: qemu-system-arm missing: apt-get install qemu-system-arm" >&2
  exit 1
fi
tmp=$(mktemp -d)
sim_pid=
trap '[[ -n "$sim_pid" ]] && kill "$sim_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# Best (lowest) wall time in ns of three runs of a command; its output of the last run in $tmp/out.
best_ns() {
  local best=0 t0 t1 i
  for i in 1 2 3; do
    t0=$(date +%s%N)
    if ! timeout 120 "$@" >"$tmp/out" 2>&1; then
      echo "bench_sim_mips: failed: $*" >&2
      cat "$tmp/out" >&2
      return 1
    fi
    t1=$(date +%s%N)
    if (( best == 0 || t1 - t0 < best )); then best=$((t1 - t0)); fi
  done
  echo "$best"
}

# The kernel's instruction count, from bench-sim's control interface (docs/sim.md `stats`): run
# it without a debugger (its final BKPT then escalates to a lockup) and poll until the count stops.
# Sets $insns; not in a subshell, so the EXIT trap sees $sim_pid and stops bench-sim on any path.
count_instructions() {
  local elf=$1 line ports ctl n prev=-1 i
  coproc SIM { exec "$sim" --elf "$elf" --ctl-port 0 --jtag-port 0 --quiet; }
  sim_pid=$SIM_PID
  read -r -t 10 line <&"${SIM[0]}" && ports=$line
  read -r -t 10 line <&"${SIM[0]}" && ports="$ports $line"
  ctl=$(grep -o 'ctl-port [0-9]*' <<<"$ports" | cut -d' ' -f2 || true)
  if [[ -z "$ctl" ]]; then
    echo "bench_sim_mips: bench-sim printed no ctl-port ($ports)" >&2
    return 1
  fi
  exec 3<>"/dev/tcp/127.0.0.1/$ctl"
  for ((i = 0; i < 600; i++)); do
    echo stats >&3
    read -r -t 10 line <&3 || break
    n=$(grep -o 'instructions=[0-9]*' <<<"$line" | cut -d= -f2 || true)
    if [[ -n "$n" && "$n" == "$prev" ]]; then
      echo quit >&3
      exec 3>&-
      wait "$sim_pid" 2>/dev/null || true
      sim_pid=
      insns=$n
      return 0
    fi
    prev=$n
    sleep 0.2
  done
  exec 3>&-
  echo "bench_sim_mips: the instruction count did not settle ($line)" >&2
  return 1
}

# M instructions per second = insns / (ns / 1e9) / 1e6 = insns * 1000 / ns.
rate() { awk -v n="$1" -v ns="$2" 'BEGIN { if (ns < 1000000) ns = 1000000; printf "%.1f", n * 1000 / ns }'; }
qemu=(qemu-system-arm -M mps2-an386 -nographic -semihosting -monitor none -serial none -kernel)

# One kernel: its figure line, rates from the full run less the _empty run's start-up. Sets
# $insns and $qemu_rate for sim_figure.
kernel_figure() {
  local kernel=$1 figure=$2 target=$3 qemu_full qemu_empty
  insns=
  count_instructions "$fw/${kernel}_sim.elf"
  qemu_full=$(best_ns "${qemu[@]}" "$fw/${kernel}_an386.elf")
  qemu_empty=$(best_ns "${qemu[@]}" "$fw/${kernel}_an386_empty.elf")
  qemu_rate=$(rate "$insns" $((qemu_full - qemu_empty)))
  sim_figure "$kernel" "$figure" "$target"
}

# The same kernel's bench-sim rate again with further bench-sim arguments, against the QEMU rate
# kernel_figure measured (the instruction count does not depend on the options).
sim_figure() {
  local kernel=$1 figure=$2 target=$3 sim_full sim_empty sim_rate ratio
  shift 3
  sim_full=$(best_ns "$sim" --standalone "$@" --elf "$fw/${kernel}_sim.elf")
  sim_empty=$(best_ns "$sim" --standalone "$@" --elf "$fw/${kernel}_sim_empty.elf")
  sim_rate=$(rate "$insns" $((sim_full - sim_empty)))
  ratio=$(awk -v a="$sim_rate" -v b="$qemu_rate" 'BEGIN { printf "%.3f", a / b }')
  echo "figure: $figure value=$sim_rate unit=Minstr/s baseline=$qemu_rate ratio=$ratio target=$target (qemu mps2-an386 baseline, $insns instructions)"
}

# Cycles between the kernel's BKPT #1 and BKPT #2, from bench-sim --standalone's halt lines.
rounds_cycles() {
  timeout 120 "$sim" --standalone --quiet --elf "$1" | awk '
    / imm=1 / { for (i = 1; i <= NF; i++) if ($i ~ /^cyccnt=/) a = substr($i, 8) }
    / imm=2 / { for (i = 1; i <= NF; i++) if ($i ~ /^cyccnt=/) b = substr($i, 8) }
    END { if (a == "" || b == "") exit 1; print b - a }'
}

kernel_figure crc32 sim_mips ">=100 Minstr/s"
kernel_figure coremark_like sim_mips_coremark_like ">=205 Minstr/s"
sim_figure coremark_like sim_mips_coremark_like_memory_blocks_off none --memory-blocks=off
ws0=$(rounds_cycles "$fw/coremark_like_sim_ws0.elf")
ws5=$(rounds_cycles "$fw/coremark_like_sim_ws5.elf")
pf=$(rounds_cycles "$fw/coremark_like_sim_ws5_pf.elf")
ratio=$(awk -v a="$ws5" -v b="$ws0" 'BEGIN { printf "%.4f", a / b }')
echo "figure: coremark_like_ws5_art value=$ratio unit=cycles/cycles baseline=$ws0 ratio=$ratio target=<=1.03 ($ws5 cycles at 5 wait states with the ART on, $ws0 at 0; RM0090 3.5.2: CoreMark with the ART 'equivalent to 0 wait state program execution')"
t0=$(best_ns "$sim" --standalone --quiet --elf "$fw/coremark_like_sim_ws0.elf")
t5=$(best_ns "$sim" --standalone --quiet --elf "$fw/coremark_like_sim_ws5.elf")
ratio=$(awk -v a="$t5" -v b="$t0" 'BEGIN { printf "%.2f", a / b }')
echo "figure: sim_time_coremark_like_ws5 value=$ratio unit=time/time baseline=$((t0 / 1000000))ms ratio=$ratio target=none ($((t5 / 1000000)) ms at 5 wait states with the ART: flash data reads timed by a memory hook)"
toff=$(best_ns "$sim" --standalone --quiet --memory-blocks=off --elf "$fw/coremark_like_sim_ws0.elf")
ratio=$(awk -v a="$t0" -v b="$toff" 'BEGIN { printf "%.2f", a / b }')
echo "figure: sim_time_coremark_like_memory_blocks_entry value=$ratio unit=time/time baseline=$((toff / 1000000))ms ratio=$ratio target=none ($((t0 / 1000000)) ms with the default --memory-blocks=entry, pairs decided from the registers at each block's entry, over --memory-blocks=off)"
tm=$(best_ns "$sim" --standalone --quiet --memory-blocks --elf "$fw/coremark_like_sim_ws0.elf")
ratio=$(awk -v a="$tm" -v b="$toff" 'BEGIN { printf "%.2f", a / b }')
echo "figure: sim_time_coremark_like_memory_blocks value=$ratio unit=time/time baseline=$((toff / 1000000))ms ratio=$ratio target=none ($((tm / 1000000)) ms with --memory-blocks (exact): every load through a read hook, over --memory-blocks=off)"
tuoff=$(best_ns "$sim" --standalone --quiet --unaligned=off --elf "$fw/coremark_like_sim_ws0.elf")
ratio=$(awk -v a="$t0" -v b="$tuoff" 'BEGIN { printf "%.2f", a / b }')
echo "figure: sim_time_coremark_like_unaligned_entry value=$ratio unit=time/time baseline=$((tuoff / 1000000))ms ratio=$ratio target=<=1.05 ($((t0 / 1000000)) ms with the default --unaligned=entry, accesses decided from the registers at each block's entry or exit, over --unaligned=off)"
tu=$(best_ns "$sim" --standalone --quiet --unaligned --elf "$fw/coremark_like_sim_ws0.elf")
ratio=$(awk -v a="$tu" -v b="$tuoff" 'BEGIN { printf "%.2f", a / b }')
echo "figure: sim_time_coremark_like_unaligned value=$ratio unit=time/time baseline=$((tuoff / 1000000))ms ratio=$ratio target=none ($((tu / 1000000)) ms with --unaligned (exact): every load and store through a hook, over --unaligned=off)"
tl=$(best_ns "$sim" --standalone --quiet --ledger --elf "$fw/coremark_like_sim_ws0.elf")
ratio=$(awk -v a="$tl" -v b="$t0" 'BEGIN { printf "%.2f", a / b }')
echo "figure: sim_time_coremark_like_ledger value=$ratio unit=time/time baseline=$((t0 / 1000000))ms ratio=$ratio target=<=1.5 ($((tl / 1000000)) ms with --ledger, the cycles by reason, over without)"
tr=$(best_ns "$sim" --standalone --quiet --record="$tmp/record" --elf "$fw/coremark_like_sim_ws0.elf")
ratio=$(awk -v a="$tr" -v b="$t0" 'BEGIN { printf "%.2f", a / b }')
echo "figure: sim_time_coremark_like_record value=$ratio unit=time/time baseline=$((t0 / 1000000))ms ratio=$ratio target=none ($((tr / 1000000)) ms with --record, every instruction counted by calling context and its SP read, over without)"
ratio=$(awk -v a="$pf" -v b="$ws0" 'BEGIN { printf "%.3f", a / b }')
echo "figure: coremark_like_ws5_prefetch value=$ratio unit=cycles/cycles baseline=$ws0 ratio=$ratio target=none ($pf cycles at 5 wait states with the prefetch buffer alone)"
