#!/bin/sh
# bench-sim --standalone --ledger on the CoreMark-like kernel (tests/sim/coremark_like.sh asserts
# its rounds' cycles): the ledger's total equals the final halt's cyccnt and the exact figure
# (the rounds' WS0 plus the 21 cycles before BKPT #1 and the 4 after BKPT #2), every cycle of the
# 5-wait-state run over the 0-wait-state one is under flash-fetch or flash-data, the 0-wait-state
# run's cycles by reason are the figures docs/cycle-model.md gives, and the 62000
# cycles --memory-blocks=off saves are under memory-block (docs/cycle-model.md "The cycle
# ledger"). --ledger=FILE writes the same totals as JSON; bad usage exits 2 and never overwrites
# the ELF.
# Usage: ledger.sh BENCH_SIM FIRMWARE_DIR
set -eu
sim=$1
fw=$2
WS0=55742447     # coremark_like.sh's 55742422 + 25
WS5=55825471     # coremark_like.sh's 55825446 + 25
WS0_OFF=55680447 # coremark_like.sh's 55680422 + 25
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

run() { # NAME ELF [OPTION...]: bench-sim's stdout in $tmp/NAME; fails unless it ends at DONE
	name=$1
	elf=$2
	shift 2
	status=0
	timeout 60 "$sim" --elf "$elf" --standalone --quiet --max-cycles 200000000 "$@" >"$tmp/$name" 2>"$tmp/$name.err" || status=$?
	if [ "$status" -ne 0 ]; then
		echo "FAIL: $name: bench-sim exited with $status" >&2
		cat "$tmp/$name.err" "$tmp/$name" >&2
		exit 1
	fi
}
get() { # NAME REASON -> its cycles (0 when the line is absent)
	awk -v r="$2" '$1 == "ledger" && $2 == r { v = $3 } END { print v + 0 }' "$tmp/$1"
}
expect() { # WHAT GOT WANTED
	if [ "$2" -ne "$3" ]; then
		echo "FAIL: $1: $2, expected $3"
		fail=1
	fi
}

run ws0 "$fw/coremark_like_sim_ws0.elf" --ledger="$tmp/ws0.json"
run ws5 "$fw/coremark_like_sim_ws5.elf" --ledger
run off "$fw/coremark_like_sim_ws0.elf" --ledger --memory-blocks=off
cat "$tmp/ws0" "$tmp/ws5"

expect "ws0 ledger total" "$(get ws0 total)" $WS0
expect "ws0 final cyccnt" "$(awk '/^halt .* imm=4 / { sub("cyccnt=", "", $4); print $4 }' "$tmp/ws0")" $WS0
expect "ws0 sum of the reason lines" "$(awk '$1 == "ledger" && $2 != "total" { s += $3 } END { print s }' "$tmp/ws0")" $WS0
expect "ws0 memory-block" "$(get ws0 memory-block)" 62000
# The whole breakdown at 0 wait states (docs/cycle-model.md "The cycle ledger").
for rc in issue:48370777 fetch-buffer:48079 fetch-unaligned:704018 address-dep:253999 \
	load-after-store:288000 branch-cond:5470943 branch-jump:249672 branch-load:70959 it:224000; do
	expect "ws0 ${rc%%:*}" "$(get ws0 "${rc%%:*}")" "${rc#*:}"
done
expect "ws0 flash-fetch (no wait states)" "$(get ws0 flash-fetch)" 0
expect "ws0 flash-data (no wait states)" "$(get ws0 flash-data)" 0
expect "ws5 ledger total" "$(get ws5 total)" $WS5
expect "ws5 flash-fetch + flash-data" "$(($(get ws5 flash-fetch) + $(get ws5 flash-data)))" $((WS5 - WS0))
expect "ws5 flash-data" "$(get ws5 flash-data)" 82945
# Every reason but the flash ones, as at 0 wait states.
for r in issue fetch-buffer fetch-unaligned address-dep load-after-store memory-block branch-cond branch-jump \
	branch-load it; do
	expect "ws5 $r (as ws0)" "$(get ws5 "$r")" "$(get ws0 "$r")"
done
expect "memory-blocks=off total" "$(get off total)" $WS0_OFF
expect "memory-blocks=off memory-block" "$(get off memory-block)" 0
# The JSON: every reason, and the same figures.
expect "ws0.json cycles" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' "$tmp/ws0.json")" $WS0
expect "ws0.json reasons' sum" "$(python3 -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["by_reason"].values()))' "$tmp/ws0.json")" $WS0
expect "ws0.json reasons" "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["by_reason"]))' "$tmp/ws0.json")" 25
expect "ws0.json memory-block" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["by_reason"]["memory-block"])' "$tmp/ws0.json")" 62000

# Bad usage: exit 2, one line, the ELF untouched.
cp "$fw/coremark_like_sim_ws0.elf" "$tmp/fw.elf"
for args in "--ledger --elf $tmp/fw.elf" "--standalone --elf $tmp/fw.elf --ledger=$tmp/fw.elf" \
	"--standalone --elf $tmp/fw.elf --ledger="; do
	status=0
	# shellcheck disable=SC2086 # the words are the options
	"$sim" $args >/dev/null 2>"$tmp/err" || status=$?
	expect "bench-sim $args: exit" "$status" 2
	grep -q ledger "$tmp/err" || { echo "FAIL: bench-sim $args: no message naming --ledger"; cat "$tmp/err"; fail=1; }
done
cmp -s "$tmp/fw.elf" "$fw/coremark_like_sim_ws0.elf" || { echo "FAIL: --ledger=ELF changed the ELF"; fail=1; }
[ "$fail" -eq 0 ] && echo "ledger: ok"
exit $fail
