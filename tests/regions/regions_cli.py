#!/usr/bin/env python3
"""`bench regions FIRMWARE.elf` as a table of cases: command line, exit code, expected output.

The firmware is examples/regions (regions.elf) and examples' fut-hardfp.elf (no table); the broken
tables are copies of regions.elf with one header field of `bench_regions` patched in its .data image
(file offset found with arm-none-eabi-nm/objdump), so each case breaks exactly one thing.
Usage: regions_cli.py BENCH EXAMPLES_DIR WORK_DIR"""
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import symbol_file_offset  # noqa: E402

bench, examples, work = sys.argv[1], sys.argv[2], sys.argv[3]
regions_elf = os.path.join(examples, "regions.elf")
fut_elf = os.path.join(examples, "fut-hardfp.elf")
os.makedirs(work, exist_ok=True)




def patched(label, field_offset, fmt, value):
    data = bytearray(open(regions_elf, "rb").read())
    off = symbol_file_offset(regions_elf, "bench_regions") + field_offset
    struct.pack_into(fmt, data, off, value)
    path = os.path.join(work, f"regions-{label}.elf")
    with open(path, "wb") as f:
        f.write(data)
    return path


LISTING = """bench_regions at 0x{addr}: version 1, 13 regions, 96-byte records, records at 0x{rec}
  id  name
   0  pfp.overhead  (runtime: calibration)
   1  pfp.nested  (runtime: calibration)
   2  work
   3  empty
   4  outer
   5  inner
   6  latched
   7  victim
   8  tick
   9  pair
  10  burst
  11  ev10
  12  ev20
"""

nm = subprocess.run(["arm-none-eabi-nm", regions_elf], capture_output=True, text=True, check=True).stdout
syms = {l.split()[-1]: l.split()[0] for l in nm.splitlines()}
listing = LISTING.format(addr=syms["bench_regions"], rec=syms["pfp_records"])

# (name, argv, exit code, stdout (exact) or None, stderr substring or None; one ending in a newline
# is the line's end: a table read from the file gets one piece of advice, not the RAM case's too)
cases = [
    ("lists the declared regions", [regions_elf], 0, listing, None),
    ("help", ["--help"], 0, None, None),
    ("no argument", [], 2, "", "usage: bench regions FIRMWARE.elf"),
    ("missing file", [os.path.join(work, "nope.elf")], 3, "", "nope.elf"),
    ("not an ELF", [os.path.join(os.path.dirname(__file__), "regions_cli.py")], 3, "", "ELF"),
    ("table missing", [fut_elf], 3, "",
     "symbol `bench_regions` not in " + fut_elf + ": define the table with PFP_DEFINE_TABLE"),
    ("wrong magic", [patched("magic", 0, "<I", 0x12345678)], 3, "",
     "region table: magic 0x12345678, expected 0x54504650 (\"PFPT\"): rebuild the firmware\n"),
    ("wrong version", [patched("version", 4, "<H", 7)], 3, "",
     "region table: version 7, this bench reads version 1: rebuild the firmware against this tree's target/pfp\n"),
    ("region count out of range", [patched("count", 10, "<H", 4000)], 3, "",
     "region table: 4000 regions, out of range 1..1024: rebuild the firmware\n"),
    ("zero regions", [patched("zero", 10, "<H", 0)], 3, "", "0 regions, out of range"),
    ("records outside the image", [patched("records", 56, "<I", 0x30000000)], 3, "",
     "address 0x30000000 (+1248) is in no loadable segment"),
]

failed = 0
for name, args, code, out, err in cases:
    p = subprocess.run([bench, "regions"] + args, capture_output=True, text=True, timeout=30)
    problems = []
    if p.returncode != code:
        problems.append(f"exit {p.returncode}, expected {code}")
    if out is not None and p.stdout != out:
        problems.append(f"stdout {p.stdout!r}, expected {out!r}")
    if err is not None and err not in p.stderr:
        problems.append(f"stderr {p.stderr!r} lacks {err!r}")
    if p.returncode != 0 and not p.stderr.startswith("bench: ") and code != 2:
        problems.append(f"stderr {p.stderr!r} is not one 'bench: ...' line")
    print(("FAIL" if problems else "ok  ") + f" {name}" + ("".join("\n     " + x for x in problems)))
    failed += bool(problems)
sys.exit(1 if failed else 0)
