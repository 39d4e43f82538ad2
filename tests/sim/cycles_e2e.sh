#!/bin/sh
# End-to-end check of the cycle model: runs a snippet ELF (tests/firmware/cycles/) on
# `bench-sim --standalone` and compares every BEGIN/END (BKPT #1 / #2) pair's CYCCNT difference
# with the cycles the snippet's BEGIN(n) recorded in the ELF section .cycles_expect
# (tests/firmware/cycles/snippet.h), and that the cycle ledger's total over the run (--ledger,
# docs/cycle-model.md "The cycle ledger") is the final CYCCNT: every cycle the snippets count is
# charged with a reason (bench-sim itself exits 1 when the total is not the cycles it counted).
# Each snippet's cycles by reason (the `ledger-since-last` line bench-sim prints after its END
# halt) must be exactly those in tests/sim/cycles_ledger/ELF.ledger, their sum its BEGIN(n): a
# rule charging under another reason, or outside the ledger, fails.
# Usage: cycles_e2e.sh BENCH_SIM ELF WAIT_STATES [OBJCOPY
# [BENCH_SIM_OPTION...]]
set -eu
sim=$1
elf=$2
ws=$3
objcopy=${4:-arm-none-eabi-objcopy}
shift 3
[ $# -gt 0 ] && shift
# blocks_entry.elf is blocks.S assembled with other expectations: its lines are blocks.S's.
src=$(basename "$elf" .elf | sed 's/_entry$//').S
want_ledger=$(dirname "$0")/cycles_ledger/$(basename "$elf" .elf).ledger
[ -r "$want_ledger" ] || { echo "FAIL: no expected ledger $want_ledger"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

"$objcopy" --dump-section .cycles_expect="$tmp/expect.bin" "$elf" "$tmp/copy.elf"
od -An -v -tu4 "$tmp/expect.bin" | tr -s ' ' '\n' | sed '/^$/d' | paste - - >"$tmp/expect"
[ -s "$tmp/expect" ] || { echo "FAIL: no .cycles_expect records in $elf"; exit 1; }

# timeout: bench-sim is ours to stop on every path (the snippets run in well under a second).
status=0
timeout 30 "$sim" --elf "$elf" --standalone --wait-states "$ws" --max-cycles 50000000 --ledger "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
if [ "$status" -ne 0 ]; then
	echo "FAIL: bench-sim exited with $status"
	cat "$tmp/err" "$tmp/out"
	exit 1
fi

# halt pc=0x%08x imm=%u cyccnt=%u reason=...  ->  one line per BEGIN/END pair: the difference.
awk '
/^halt / {
	imm = ""; cyc = ""
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "imm") imm = kv[2]
		if (kv[1] == "cyccnt") cyc = kv[2]
	}
	if (imm == 1) { begin = cyc; open = 1 }
	else if (imm == 2) {
		if (!open) { print "END without BEGIN at " $2; bad = 1; next }
		d = cyc - begin; if (d < 0) d += 4294967296
		print d; open = 0
		want_since = 1
	}
	else if (imm == 4) done = 1
	else { print "unexpected halt: " $0; bad = 1 }
	next
}
/^ledger-since-last/ {
	if (want_since) { $1 = ""; sub(/^ /, ""); print > since }
	want_since = 0
}
END { if (!done) { print "no DONE marker (BKPT #4)"; bad = 1 } exit bad }
' since="$tmp/since" "$tmp/out" >"$tmp/got" || { cat "$tmp/got"; echo "FAIL: bad marker sequence"; exit 1; }

n_exp=$(wc -l <"$tmp/expect")
n_got=$(wc -l <"$tmp/got")
fail=0
if [ "$n_exp" -ne "$n_got" ]; then
	echo "FAIL: $n_exp snippets expected, $n_got measured"
	fail=1
fi
paste "$tmp/expect" "$tmp/got" | {
	bad=0
	while read -r want line got; do
		if [ "$want" = "$got" ]; then
			echo "ok   $src:$line $got cycles"
		else
			echo "FAIL $src:$line expected $want cycles, measured ${got:-nothing}"
			bad=1
		fi
	done
	exit $bad
} || fail=1
# The breakdowns: LINE REASON=CYCLES... against the expected file, and each one's sum is the
# snippet's BEGIN(n).
grep -v '^#' "$want_ledger" | sed "s/^$src://" >"$tmp/want_since"
touch "$tmp/since"
if [ "$(wc -l <"$tmp/want_since")" -ne "$n_exp" ] || [ "$(wc -l <"$tmp/since")" -ne "$n_exp" ]; then
	echo "FAIL: $n_exp snippets, $(wc -l <"$tmp/want_since") expected breakdowns in $want_ledger," \
		"$(wc -l <"$tmp/since") ledger lines"
	fail=1
fi
cut -f1 "$tmp/expect" | paste -d' ' - "$tmp/since" | paste -d'|' - "$tmp/want_since" | {
	bad=0
	while IFS='|' read -r got want; do
		n=${got%% *}
		got=${got#"$n"}
		got=${got# }
		wline=${want%% *}
		want=${want#"$wline"}
		want=${want# }
		sum=0
		for kv in $got; do sum=$((sum + ${kv#*=})); done
		if [ "$got" != "$want" ]; then
			echo "FAIL $src:$wline by reason: $got, expected $want"
			bad=1
		elif [ "$sum" -ne "$n" ]; then
			echo "FAIL $src:$wline the ledger's sum $sum is not the $n cycles asserted"
			bad=1
		else
			echo "ok   $src:$wline $got"
		fi
	done
	exit $bad
} || fail=1
ledger=$(awk '$1 == "ledger" && $2 == "total" { print $3 }' "$tmp/out")
final=$(awk '/^halt .* imm=4 / { for (i = 2; i <= NF; i++) if ($i ~ /^cyccnt=/) print substr($i, 8) }' "$tmp/out")
if [ -z "$ledger" ] || [ "$ledger" != "$final" ]; then
	echo "FAIL: the ledger's total ${ledger:-missing} is not the final CYCCNT $final"
	fail=1
else
	echo "ok   ledger total $ledger cycles = the final CYCCNT"
fi
exit $fail
