#!/usr/bin/env python3
"""The machine code of examples/regions (STYLE 9): every call of pfp_begin_at / pfp_end_at is the fixed
sequence of target/port/cortex-m/pfp_port_cm.h, so nothing the compiler schedules sits between the
critical section and the counter read, and the calibrated bias holds at every site:
    MRS rS, PRIMASK ; CPSID I ; MOVW ip, #0x1004 ; MOVT ip, #0xe000 ; LDR.W rN, [ip] ;
    MOVW r0, #id [; MOVW r1, #latch] ; BL pfp_begin_at | pfp_end_at
and the code under test (BL work) sits between a Begin and its End, not optimised away.
Usage: regions_asm.py ELF"""
import re
import subprocess
import sys

elf = sys.argv[1]
dis = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", elf], capture_output=True, text=True,
                     check=True).stdout
lines = [l.split("\t", 1)[1].strip() for l in dis.splitlines() if re.match(r"^\s+[0-9a-f]+:\t", l)]
expect = {
    "pfp_begin_at": [r"mrs\tr2, PRIMASK", r"cpsid\ti", r"movw\tip, #4100", r"movt\tip, #57344", r"ldr\.w\tr1, \[ip\]",
                     r"movw\tr0, #\d+"],
    "pfp_end_at": [r"mrs\tr3, PRIMASK", r"cpsid\ti", r"movw\tip, #4100", r"movt\tip, #57344", r"ldr\.w\tr2, \[ip\]",
                   r"movw\tr0, #\d+", r"movw\tr1, #[01]"],
}
bad = 0
sites = {k: 0 for k in expect}
for i, l in enumerate(lines):
    m = re.match(r"bl\t[0-9a-f]+ <(pfp_begin_at|pfp_end_at)>", l)
    if not m:
        continue
    fn = m.group(1)
    seq = expect[fn]
    got = lines[i - len(seq):i]
    sites[fn] += 1
    if len(got) != len(seq) or not all(re.match(p, g.split("@")[0].strip()) for p, g in zip(seq, got)):
        print(f"FAIL: call of {fn} not preceded by the fixed sequence:\n  " + "\n  ".join(got + [l]))
        bad += 1
# examples/regions: 12 Begin sites in its C (work, empty, outer, inner, latched x2, victim, pair, burst, ev10,
# ev20, tick) plus 5 in calibration (empty_pairs 1, nested_pairs 2, calibrate_isr 2); Ends likewise.
for fn, n in sites.items():
    print(f"{fn}: {n} call sites")
    if n != 17:
        print(f"FAIL: {n} call sites of {fn}, expected 17: a site inlined away or not the fast sequence")
        bad += 1
text = "\n".join(lines)
if not re.search(r"bl\t[0-9a-f]+ <pfp_begin_at>\n(?:.*\n){0,2}.*bl\t[0-9a-f]+ <work>", text):
    print("FAIL: no BL work right after a Begin")
    bad += 1
print("regions_asm: " + ("FAILED" if bad else "ok"))
sys.exit(1 if bad else 0)
