#!/usr/bin/env python3
"""examples/regions through the whole tool: `bench run` starts bench-sim and stock OpenOCD, measures
the BENCH marker pairs, reads the region table at DONE, writes the JSON report. Checks exactly:
  - every region equals the markers around the same code (work; outer = w100 + w30; inner = w50;
    latched = w40 + w60), the interrupted region equals the uninterrupted marker pair (w5000) while
    the markers around interrupted work see the handlers, an empty region measures 0;
  - counts: one sample per loop pass (repeat + warm-up), 1000 burst samples per pass;
  - with --poll the table is also read while the target runs, same results;
  - a table with a wrong magic: one clear error, the marker results still in the report.
Usage: regions_e2e.py BENCH REGIONS_ELF WORK_DIR"""
import json
import os
import shutil
import struct
import subprocess
import sys

bench, elf, work = (os.path.abspath(a) for a in sys.argv[1:4])
os.makedirs(work, exist_ok=True)
failed = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failed.append(what)


def run(firmware, name, *extra):
    report = os.path.join(work, name + ".json")
    if os.path.exists(report):
        os.remove(report)
    logs = os.path.join(work, name + "-logs")  # not a kept folder in $TMPDIR when a case fails on purpose
    shutil.rmtree(logs, ignore_errors=True)  # a previous run's socket files would be in the way
    os.makedirs(logs)
    # --keep-interrupted: marker pair victim_isr is interrupted on purpose (16 SysTicks a pass), and a
    # pair with no sample that counts fails the run (exit 5, docs/run.md).
    # No flash wait states (the board's firmware programs 5): this compares two ways of measuring the
    # same code, not the flash accelerator's caches, whose cold misses would fall differently on each.
    p = subprocess.run([bench, "run", firmware, "--repeat", "3", "--warmup", "1", "--json", report, "--work-dir", logs,
                        "--sim-opt", "--wait-states 0", "--keep-interrupted", *extra],
                       capture_output=True, text=True, timeout=180, cwd=work)
    doc = json.load(open(report)) if os.path.exists(report) else None
    return p, doc


def by_name(items):
    return {i["name"]: i for i in items}


def check_relations(doc, label):
    res = by_name(doc["results"])
    reg = by_name(doc["regions"])
    m = {k: v["samples"] for k, v in res.items()}
    for k in ("work", "w100", "w50", "w30", "w40", "w60", "w5000", "victim_isr", "pfp_pair"):
        check(k in m and len(m[k]) == 3 and len(set(m[k])) == 1, f"{label}: marker pair {k}: 3 equal samples")
    one = {k: v[0] for k, v in m.items()}
    passes = 4  # --repeat 3 plus one warm-up pass, each runs every region once
    for k in ("work", "empty", "outer", "inner", "latched", "victim", "pair"):
        check(reg[k]["count"] == passes and reg[k]["min"] == reg[k]["max"], f"{label}: region {k}: {passes} equal samples")
        check(reg[k]["error_flags"] == 0 and reg[k]["error"] is None, f"{label}: region {k}: no error")
    check(reg["work"]["last"] == one["work"], f"{label}: work region {reg['work']['last']} == marker {one['work']}")
    check(reg["empty"]["max"] == 0, f"{label}: empty region measures 0 after calibration")
    check(reg["pfp.overhead"]["max"] == 0 and reg["pfp.nested"]["max"] == 0, f"{label}: calibration residuals 0")
    # work() returns to a BKPT between markers, to pfp_end()'s first instruction in a region: where
    # that is a 32-bit one at an address 2 mod 4 it waits a fetch cycle more (docs/cycle-model.md,
    # the fetch model). The model's counts are exact: inner +1, outer +2, latched +1 over the markers.
    def exact(got, want, more):
        return got == want + more
    check(exact(reg["inner"]["last"], one["w50"], 1), f"{label}: inner {reg['inner']['last']} == w50 {one['w50']} + 1")
    check(exact(reg["outer"]["last"], one["w100"] + one["w30"], 2),
          f"{label}: outer {reg['outer']['last']} == w100 + w30 = {one['w100'] + one['w30']} (exclusive) + 2")
    check(exact(reg["latched"]["last"], one["w40"] + one["w60"], 1),
          f"{label}: latched {reg['latched']['last']} == w40 + w60 = {one['w40'] + one['w60']} + 1")
    # Ticks are taken at their exact instruction (docs/core.md): what each interruption costs depends
    # on where it lands, and pfp leaves out the overhead it calibrated once: 24 cycles over the 16
    # ticks a pass takes, the same in every pass (the model is deterministic).
    ticks = max(1, reg["tick"]["count"] // passes)
    check(ticks == 16 and one["w5000"] - reg["victim"]["last"] == 24,
          f"{label}: interrupted region {reg['victim']['last']} == uninterrupted markers {one['w5000']} - 24 "
          f"({ticks} ticks a pass, expected 16)")
    # Markers around the same interrupted work see the 16 handlers: w5000 20007 + 4808 = 24815.
    check(one["victim_isr"] == 24815,
          f"{label}: markers around the same interrupted work see the handlers ({one['victim_isr']} cycles, "
          "expected 24815)")
    check(reg["burst"]["count"] == 1000 * passes, f"{label}: burst {reg['burst']['count']} samples")
    check(reg["work"]["ema"] == one["work"], f"{label}: EMA of constant samples is the sample")


p, doc = run(elf, "regions")
check(p.returncode == 0, f"bench run exit {p.returncode} {p.stderr.strip()}")
if doc:
    check(doc["status"] == "ok", "status ok")
    check_relations(doc, "done")

p, doc = run(elf, "regions-poll", "--poll", "1")
check(p.returncode == 0, f"bench run --poll 1 exit {p.returncode} {p.stderr.strip()}")
if doc:
    check_relations(doc, "poll")

# A table whose magic the firmware never set: patch the .data image of bench_regions.
nm = subprocess.run(["arm-none-eabi-nm", elf], capture_output=True, text=True, check=True).stdout
addr = next(int(l.split()[0], 16) for l in nm.splitlines() if l.split()[-1] == "bench_regions")
hdr = subprocess.run(["arm-none-eabi-objdump", "-h", elf], capture_output=True, text=True, check=True).stdout
off = None
for line in hdr.splitlines():
    f = line.split()
    if len(f) >= 7 and f[0].isdigit() and int(f[3], 16) <= addr < int(f[3], 16) + int(f[2], 16):
        off = int(f[5], 16) + addr - int(f[3], 16)
data = bytearray(open(elf, "rb").read())
struct.pack_into("<I", data, off, 0xBADC0DE5)
bad = os.path.join(work, "regions-badmagic.elf")
open(bad, "wb").write(data)
p, doc = run(bad, "regions-badmagic")
check(p.returncode == 5, f"wrong magic: exit {p.returncode} (5: target)")
check("region table: magic 0xbadc0de5, expected 0x54504650" in p.stderr, f"wrong magic: message {p.stderr.strip()!r}")
if doc:
    check(doc["status"] in ("incomplete", "error") and "magic" in (doc["error"] or ""), "wrong magic: report says why")
    res = by_name(doc["results"])
    check("work" in res and res["work"]["n"] == 3, "wrong magic: every marker result still reported")
    check(doc["regions"] == [], "wrong magic: no regions reported")
else:
    check(False, "wrong magic: a report was written")

print("regions_e2e: " + ("FAILED" if failed else "ok"))
sys.exit(1 if failed else 0)
