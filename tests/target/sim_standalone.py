#!/usr/bin/env python3
"""The example firmware on the virtual board, through bench-sim's built-in debugger
(`bench-sim --elf X --standalone`: it sets C_DEBUGEN, prints one line per halt
`halt pc=0x%08x imm=%u cyccnt=%u reason=...` and resumes past each BKPT; sim/core/core.h).

  sim_standalone.py BENCH_SIM EXAMPLES_DIR TEST_FIRMWARE_DIR

Checks, from the halts alone: the calibration pair costs 0 cycles; the NOP sleds nop1, nop10,
nop100, nop1000 cost exactly 1, 10, 100, 1000 cycles in every repetition; the first markers come in
the order the runtime puts them: CAL_BEGIN, CAL_END, SYNC, BEGIN. Over 14 inputs
(tests/firmware/target/fut_sweep.c), fut() with the FPU costs 15 cycles for every input once its code
is in the flash accelerator's cache, as the barebench article measured on an STM32F4 (figure 7:
"Die 15 Zyklen"; the board runs at 168 MHz with 5 wait states and the ART on, so the first call,
from a cold cache, costs more: exactly 25 or 28), and with soft-float the count depends on the input
(exact counts per input, the cycle model of docs/cycle-model.md)."""
import re
import subprocess
import sys

failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += 0 if ok else 1


def halts(sim, elf, max_cycles):
    # Nobody writes bench_ctl.stop, so the firmware measures until max_cycles run out.
    try:
        p = subprocess.run([sim, "--elf", elf, "--standalone", "--max-cycles", str(max_cycles)],
                           capture_output=True, text=True, timeout=20)
        stdout = p.stdout
    except subprocess.TimeoutExpired as e:  # run() has killed it
        check(False, f"{elf}: bench-sim ended within 20 s ({max_cycles} cycles)")
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    out = []
    for line in stdout.splitlines():
        m = re.match(r"halt pc=0x([0-9a-f]{8}) imm=(\d+) cyccnt=(\d+) reason=(\w+)", line)
        if m:
            out.append((int(m.group(1), 16), int(m.group(2)), int(m.group(3)), m.group(4)))
    return out


def pairs(hs, begin, end):
    """Cycle differences (uint32) of each `begin` halt to the next `end` halt."""
    d = []
    for i, h in enumerate(hs):
        if h[1] == begin and i + 1 < len(hs) and hs[i + 1][1] == end:
            d.append((hs[i + 1][2] - h[2]) & 0xFFFFFFFF)
    return d


def main():
    sim, d, tfw = sys.argv[1], sys.argv[2], sys.argv[3]
    hs = halts(sim, f"{d}/nops.elf", 20000)
    check([h[1] for h in hs[:4]] == [5, 6, 3, 1], f"nops: first halts CAL_BEGIN, CAL_END, SYNC, BEGIN ({[h[1] for h in hs[:4]]})")
    check(all(h[3] == "bkpt" for h in hs), "nops: every halt is a BKPT")
    check(pairs(hs, 5, 6) == [0], f"nops: calibration pair costs 0 cycles ({pairs(hs, 5, 6)})")
    sleds = pairs(hs, 1, 2)
    reps = len(sleds) // 4
    check(reps == 17 and sleds == [1, 10, 100, 1000] * reps,
          f"nops: sleds cost exactly 1, 10, 100, 1000 cycles in each of {reps} repetitions, 17 in 20000 cycles ({sleds})")
    hs = halts(sim, f"{d}/fut-hardfp.elf", 5000)
    fut = pairs(hs, 1, 2)
    # The first call of each firmware runs from the flash accelerator's cold caches at the 5 wait
    # states its clock set-up programs (docs/cycle-model.md): exact, as every count here.
    check(fut == [28] + [15] * 114,
          f"fut-hardfp: 28 cycles cold, then 15 in each of 114 repetitions in 5000 cycles ({fut})")
    hs = halts(sim, f"{d}/fut-softfp.elf", 5000)
    fut = pairs(hs, 1, 2)
    check(fut == [114] + [62] * 51,
          f"fut-softfp: 114 cycles cold, then 62 (input 0) in each of 51 repetitions in 5000 cycles ({fut})")
    hs = halts(sim, f"{tfw}/fut_sweep-hardfp.elf", 100000)
    fut = pairs(hs, 1, 2)
    check(fut == [25] + [15] * 13 and hs[-1][1] == 4,
          f"fut_sweep-hardfp: 25 cycles cold, then 15 for each of 13 inputs, then DONE ({fut})")
    hs = halts(sim, f"{tfw}/fut_sweep-softfp.elf", 100000)
    fut = pairs(hs, 1, 2)
    # The first call (input 0, libgcc's early out) runs cold; the other 13 inputs are warm and the
    # count depends on the input (libgcc's normalisation and rounding paths).
    want = [116, 119, 97, 108, 105, 105, 105, 105, 97, 105, 105, 105, 97, 106]
    check(fut == want, f"fut_sweep-softfp: {fut}, expected {want}")
    print(f"{failures} failed")
    return min(failures, 125)


if __name__ == "__main__":
    sys.exit(main())
