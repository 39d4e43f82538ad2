#!/bin/sh
# The CoreMark-like kernel (tests/firmware/cycles/coremark_like.c) on bench-sim --standalone, its
# firmware writing FLASH_ACR (RM0090 3.9.1) before the rounds: the reset value (ws0), 5 wait
# states with the ART accelerator on (ws5: LATENCY 5 | PRFTEN | ICEN | DCEN, as a 168 MHz firmware
# ships), and 5 wait states with the prefetch buffer alone (ws5_pf: LATENCY 5 | PRFTEN). The three
# ELFs hold the same code at the same addresses; only the flash word with the value differs. Each
# run must reach DONE (BKPT #4: the kernel's checksum matched; a wrong one spins until
# --max-cycles), and the cycles between its BKPT #1 and BKPT #2 are the model's exact figures
# below (docs/cycle-model.md "Flash wait states and the ART accelerator"). The kernel's hot code
# fits the ART's 1 KiB instruction cache, so with the ART on it runs within a few percent of 0
# wait states, as ST presents the ART (RM0090 3.4.2: "0 wait state program execution"; bounded
# here at 3 %); with the prefetch buffer alone every taken branch to a line not just read waits
# the 5 cycles of a miss (above x1.3). These run at bench-sim's default, the memory-block rule
# decided at each block's entry (docs/cycle-model.md "Load/store pipelining"): the stack is in
# SRAM2 and the data in SRAM1. The ws0 ELF runs again under --memory-blocks=exact, which must give
# the same figure on this compiled code, and under --memory-blocks=off, which must not charge the
# 62000 cycles of the pairs that cross.
# Usage: coremark_like.sh BENCH_SIM FIRMWARE_DIR
set -eu
sim=$1
fw=$2
WS0=55742422
WS5=55825446
WS5_PF=89399467
WS0_OFF=55680422

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

rounds() { # ELF [OPTION...] -> the BKPT #1 .. #2 cycles on stdout; fails unless the run ends at DONE
	status=0
	elf=$1
	shift
	timeout 60 "$sim" --elf "$elf" --standalone --quiet --max-cycles 200000000 "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
	if [ "$status" -ne 0 ]; then
		echo "FAIL: $elf: bench-sim exited with $status (a wrong checksum never reaches DONE)" >&2
		cat "$tmp/err" "$tmp/out" >&2
		return 1
	fi
	awk '
	/^halt / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		seq = seq v["imm"]
		if (v["imm"] == 1) a = v["cyccnt"]
		if (v["imm"] == 2) b = v["cyccnt"]
	}
	END { if (seq != "124") { print "halts " seq ", expected BKPT #1, #2, #4" > "/dev/stderr"; exit 1 } print b - a }
	' "$tmp/out"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }
ws0=$(rounds "$fw/coremark_like_sim_ws0.elf")
ws5=$(rounds "$fw/coremark_like_sim_ws5.elf")
pf=$(rounds "$fw/coremark_like_sim_ws5_pf.elf")
mb_exact=$(rounds "$fw/coremark_like_sim_ws0.elf" --memory-blocks=exact)
mb_off=$(rounds "$fw/coremark_like_sim_ws0.elf" --memory-blocks=off)
echo "0 wait states, memory blocks: exact $mb_exact, off $mb_off"
echo "0 wait states: $ws0 cycles; 5 wait states with the ART: $ws5 (x$(ratio "$ws5" "$ws0")); with the prefetch buffer alone: $pf (x$(ratio "$pf" "$ws0"))"
fail=0
[ "$ws0" -eq "$WS0" ] || { echo "FAIL: 0 wait states: $ws0 cycles, expected $WS0"; fail=1; }
[ "$ws5" -eq "$WS5" ] || { echo "FAIL: 5 wait states with the ART: $ws5 cycles, expected $WS5"; fail=1; }
[ "$pf" -eq "$WS5_PF" ] || { echo "FAIL: 5 wait states with the prefetch buffer alone: $pf cycles, expected $WS5_PF"; fail=1; }
[ "$mb_exact" -eq "$WS0" ] || { echo "FAIL: --memory-blocks=exact: $mb_exact cycles, expected $WS0 (as the default, entry)"; fail=1; }
[ "$mb_off" -eq "$WS0_OFF" ] || { echo "FAIL: --memory-blocks=off: $mb_off cycles, expected $WS0_OFF"; fail=1; }
awk -v a="$ws5" -v b="$ws0" 'BEGIN { exit !(a > b && a <= b * 1.03) }' ||
	{ echo "FAIL: 5 wait states with the ART cost x$(ratio "$ws5" "$ws0") of 0 wait states, expected above 1 and at most 1.03"; fail=1; }
awk -v a="$pf" -v b="$ws0" 'BEGIN { exit !(a > b * 1.3) }' ||
	{ echo "FAIL: 5 wait states with the prefetch buffer alone cost x$(ratio "$pf" "$ws0") of 0 wait states, expected above 1.3"; fail=1; }
exit $fail
