#!/bin/sh
# The CoreMark-like kernel (tests/firmware/cycles/coremark_like.c) on bench-sim --standalone, at
# the reset flash settings (coremark_like_sim_ws0.elf) and with the firmware's own 5 wait states
# and ART accelerator (coremark_like_sim_ws5.elf, FLASH_ACR = 0x705, RM0090 3.9.1). Each run must
# reach DONE (BKPT #4: the kernel's checksum matched; a wrong one spins until --max-cycles), and
# the cycles between its BKPT #1 and BKPT #2 are the model's exact figures: WS0 and WS5 below
# (docs/cycle-model.md "Flash wait states and the ART accelerator": misses cost 5, prefetched
# sequential lines what the core did not spend in the line before). On silicon the ART keeps such
# code within a few percent of 0 wait states; the model's ratio is printed and bounded at 6 %.
# Usage: coremark_like.sh BENCH_SIM FIRMWARE_DIR
set -eu
sim=$1
fw=$2
WS0=58798344
WS5=62019500

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

rounds() { # ELF -> the BKPT #1 .. #2 cycles on stdout; fails unless the run ends at DONE
	status=0
	timeout 60 "$sim" --elf "$1" --standalone --quiet --max-cycles 200000000 >"$tmp/out" 2>"$tmp/err" || status=$?
	if [ "$status" -ne 0 ]; then
		echo "FAIL: $1: bench-sim exited with $status (a wrong checksum never reaches DONE)" >&2
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

ws0=$(rounds "$fw/coremark_like_sim_ws0.elf")
ws5=$(rounds "$fw/coremark_like_sim_ws5.elf")
echo "0 wait states: $ws0 cycles; 5 wait states with the ART: $ws5 cycles (x$(awk -v a="$ws5" -v b="$ws0" 'BEGIN { printf "%.4f", a / b }'))"
fail=0
[ "$ws0" -eq "$WS0" ] || { echo "FAIL: 0 wait states: $ws0 cycles, expected $WS0"; fail=1; }
[ "$ws5" -eq "$WS5" ] || { echo "FAIL: 5 wait states with the ART: $ws5 cycles, expected $WS5"; fail=1; }
awk -v a="$ws5" -v b="$ws0" 'BEGIN { exit !(a > b && a <= b * 1.06) }' ||
	{ echo "FAIL: 5 wait states with the ART cost x$(awk -v a="$ws5" -v b="$ws0" 'BEGIN { print a / b }') of 0 wait states, expected above 1 and at most 1.06"; fail=1; }
exit $fail
