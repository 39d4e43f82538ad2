#!/usr/bin/env python3
"""bench run --stack end to end on the virtual board through stock OpenOCD: the stack painted below
SP at BEGIN and scanned at END gives the depths tests/firmware/stack/stack.c builds to the byte.
Usage: stack_e2e.py BUILD_DIR SOURCE_DIR CASE

paint:    frame 264 bytes every sample; recurse 8 * (input + 1) per input; irq 112 bytes (PendSV's
          32-byte frame included) with the sample flagged exception; the limit is the firmware's
          _sstack (0x20020000 - 0x2000); the report is valid against docs/report-schema.json.
overflow: input 4095 recurses 32 KiB, past the 8 KiB budget: every such sample is flagged a
          possible overflow, with no depth (null), and counted in the result's min/max never."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import check_schema, expect, paths, procs_in, run_case  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
BENCH, EX, SCHEMA, CHECK = paths(BUILD, SRC)
FW = os.path.join(BUILD, "tests", "firmware", "stack", "stack.elf")
LIMIT = 0x20020000 - 0x2000


def run(args):
    tmp = tempfile.mkdtemp(prefix="bench-stack-")
    report, wd = os.path.join(tmp, "report.json"), os.path.join(tmp, "wd")
    cmd = [BENCH, "run"] + args + ["--json", report, "--work-dir", wd]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print(f"$ {' '.join(cmd)}\n-> {p.returncode}\n{p.stdout}{p.stderr}", file=sys.stderr)
    expect(procs_in(os.path.realpath(wd)) == {}, f"processes left running in {wd}")
    return p, report


def results(report):
    rep = json.load(open(report))
    return rep, {(r["name"], r["args"].get("input")): r for r in rep["results"]}


def case_paint():
    inputs = [0, 3, 10]
    p, report = run([FW, "--stack", "--keep-interrupted", "--arg", "input=" + ",".join(map(str, inputs)),
                     "--repeat", "2", "--warmup", "1"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    if p.returncode:
        return
    c = check_schema(CHECK, SCHEMA, report, "ok")
    expect(c.returncode == 0, f"schema check: {c.stderr.strip()}")
    rep, res = results(report)
    expect(rep["context"].get("stack") == {"method": "paint", "limit": LIMIT, "limit_from": "_sstack"},
           f"context.stack {rep['context'].get('stack')}")
    for n in inputs:
        for name, want, exc in (("frame", 264, []), ("recurse", 8 * (n + 1), []), ("irq", 112, [0, 1])):
            st = res[(name, n)].get("stack")
            expect(st == {"bytes": [want, want], "overflow": [], "exception": exc, "min": want, "max": want},
                   f"{name}[input={n}]: stack {st}, expected {want} bytes, exception {exc}")
        expect(res[("irq", n)]["interrupted"] == [0, 1], f"irq[input={n}] interrupted {res[('irq', n)]['interrupted']}")
    expect("stack: bytes used below SP at BEGIN" in p.stdout, "no stack table on the console")
    expect("recurse[input=10]" in p.stdout and " 88       88" in p.stdout, "console row of recurse[input=10]")


def case_overflow():
    p, report = run([FW, "--stack", "--keep-interrupted", "--arg", "input=4095", "--repeat", "2", "--warmup", "0"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    if p.returncode:
        return
    c = check_schema(CHECK, SCHEMA, report, "ok")
    expect(c.returncode == 0, f"schema check: {c.stderr.strip()}")
    rep, res = results(report)
    for name in ("recurse", "deep"):
        st = res[(name, 4095)].get("stack")
        expect(st == {"bytes": [None, None], "overflow": [0, 1], "exception": [], "min": None, "max": None},
               f"{name}: stack {st}, expected two possible overflows and no depth")
    expect(res[("frame", 4095)]["stack"]["max"] == 264, f"frame: {res[('frame', 4095)]['stack']}")
    expect(any("reached the stack limit" in w for w in rep.get("warnings", [])), f"warnings {rep.get('warnings')}")
    expect("2 reached the limit: possible overflow, no depth" in p.stdout, "console note of the overflow")


def case_badinput():
    # A limit not below SP at BEGIN (exit 2) and a stretch of memory bench cannot write (the
    # STM32F407's system memory below SRAM, exit 5): one line each, the report still written.
    for limit, code, msg in (("0x20020000", 2, "bench: --stack: the stack limit 0x20020000 (--stack-limit) is not "
                              "below the stack pointer 0x2001ffd0 at frame: give --stack-limit the lowest address "
                              "the stack may reach"),
                             ("0x1fff0000", 5, "bench: --stack: cannot paint the stack from 0x1fff0000 to "
                              "0x2001ffd0 (")):
        p, report = run([FW, "--stack", "--stack-limit", limit, "--repeat", "1"])
        lines = p.stderr.rstrip("\n").split("\n")
        expect(p.returncode == code, f"--stack-limit {limit}: exit {p.returncode}, expected {code}")
        expect(len(lines) == 1 and lines[0].startswith(msg), f"--stack-limit {limit}: stderr {lines}")
        expect(code != 5 or "bench cannot write the board's RAM there; give --stack-limit inside writable RAM "
               "or drop --stack" in lines[0], f"--stack-limit {limit}: what to do next in {lines}")
        rep = json.load(open(report))
        expect(rep["status"] == "error" and rep["context"]["stack"]["limit"] == int(limit, 16),
               f"--stack-limit {limit}: report status {rep['status']}, context {rep['context'].get('stack')}")


run_case(globals(), CASE)
