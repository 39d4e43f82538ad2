#!/bin/sh
# The end of a stand-alone run (docs/sim.md "The end of a stand-alone run"): each case of
# tests/firmware/runend/runend.S on `bench-sim --standalone`, its whole stdout and exit code
# against the figures below (deterministic: the cycle model is). A spin is found at the first
# CORE_STUCK_SLICE (65536-cycle) boundary after it starts.
# Usage: run_end.sh BENCH_SIM FIRMWARE_DIR
set -eu
sim=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# check NAME EXPECTED_EXIT EXPECTED_STDOUT_FILE BENCH_SIM_ARGS...
check() {
	name=$1
	want=$2
	expect=$3
	shift 3
	status=0
	# timeout: every case ends in well under a second; a run that does not end is the bug.
	timeout 30 "$sim" --elf "$dir/$name.elf" --standalone "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
	if [ "$status" -ne "$want" ] || ! cmp -s "$expect" "$tmp/out"; then
		echo "FAIL: $name $*: exit $status (want $want), stdout:"
		cat "$tmp/out"
		echo "--- want:"
		cat "$expect"
		echo "--- stderr:"
		cat "$tmp/err"
		fail=1
	else
		echo "ok: $name $* (exit $status)"
	fi
}

# 1. main returns; the reset handler returns to 0xFFFFFFFE (LR from reset), the fetch faults and
#    HardFault's handler spins: found at the first slice boundary, named with its symbol.
printf '%s\n' 'end pc=0x0800004e cyccnt=65537 reason=spin exc=HardFault symbol=blocking_handler' >"$tmp/1"
check ret_fault 3 "$tmp/1"
# The same without the built-in debugger (no CYCCNT: the firmware never enabled it).
printf '%s\n' 'end pc=0x0800004e cyccnt=0 reason=spin exc=HardFault symbol=blocking_handler' >"$tmp/1n"
check ret_fault 3 "$tmp/1n" --no-debugger
# 2. A `b .` in thread mode with nothing enabled.
printf '%s\n' 'end pc=0x08000066 cyccnt=65537 reason=spin symbol=main' >"$tmp/2"
check spin 3 "$tmp/2"
# 3. The idle WFI loop does not end while SysTick ticks (every 1000 cycles): at 4000 cycles it is
#    still running (--max-cycles, exit 1); the 5th tick stops SysTick and the next WFI sleeps for
#    good, at exactly 5061.
printf '%s\n' 'end pc=0x0800007c cyccnt=4000 reason=max-cycles symbol=main+0x16' >"$tmp/3a"
check wfi_tick 1 "$tmp/3a" --max-cycles 4000
printf '%s\n' 'end pc=0x0800007c cyccnt=5061 reason=sleep symbol=main+0x16' >"$tmp/3b"
check wfi_tick 3 "$tmp/3b"
# 4. The same idle loop as a `b .`: SysTick can preempt it, so it goes on; once stopped, a spin.
printf '%s\n' 'end pc=0x0800007a cyccnt=4002 reason=max-cycles symbol=main+0x14' >"$tmp/4a"
check spin_tick 1 "$tmp/4a" --max-cycles 4000
printf '%s\n' 'end pc=0x0800007a cyccnt=65537 reason=spin symbol=main+0x14' >"$tmp/4b"
check spin_tick 3 "$tmp/4b"
# 5. USART2: an empty line stays empty (`uart: ` and nothing else), a 300-character line comes
#    out whole, the last line without its newline is flushed before the end line; --until-uart
#    ends the run at its mark (exit 0), also under --quiet (no echo, the mark still seen).
printf '%s\n' 'uart: hello' 'uart: ' 'uart: abcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxy' 'uart: done#' \
	'end pc=0x080000aa cyccnt=65536 reason=spin symbol=main+0x44' >"$tmp/5a"
check uart 3 "$tmp/5a"
printf '%s\n' 'uart: hello' 'uart: ' 'uart: abcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxyabcdefghijklmnopqrstuvwxy' 'uart: done#' \
	'end pc=0x080000ae cyccnt=3912 reason=uart-mark symbol=main+0x48' >"$tmp/5b"
check uart 0 "$tmp/5b" --until-uart '#'
printf '%s\n' 'end pc=0x080000ae cyccnt=3912 reason=uart-mark symbol=main+0x48' >"$tmp/5c"
check uart 0 "$tmp/5c" --until-uart 'done#' --quiet
# A mark that never comes: the spin ends the run as without it.
check uart 3 "$tmp/5a" --until-uart 'zzz'
exit $fail
