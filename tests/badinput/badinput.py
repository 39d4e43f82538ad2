#!/usr/bin/env python3
"""Runs the bad-input table cases.table (see its header) against a built bench.

Fixtures are made at test time from the example firmware, so each one breaks exactly one thing of
a real input: a truncated ELF, an x86 object (cc -c), a .bench_markers section replaced with
arm-none-eabi-objcopy --update-section, board folders missing a field, farm files with an error on
a given line, reports edited from a real one, region tables with one header field patched.
Usage: badinput.py BENCH EXAMPLES_DIR CI_FIXTURES_DIR. Exit 0 when every case passes."""
import json
import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import symbol_file_offset, table_rows, table_verdict  # noqa: E402

BENCH, EXAMPLES, CIFX = sys.argv[1], sys.argv[2], sys.argv[3]
HERE = os.path.dirname(os.path.abspath(__file__))
NOPS = os.path.join(EXAMPLES, "nops.elf")
REGIONS = os.path.join(EXAMPLES, "regions.elf")
DEAD = "127.0.0.1:1"  # a privileged port nobody here binds: connecting is refused at once


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


def run_tool(argv):
    subprocess.run(argv, check=True, capture_output=True)


def marker_section():
    with tempfile.TemporaryDirectory() as t:
        out = os.path.join(t, "m.bin")
        run_tool(["arm-none-eabi-objcopy", "--dump-section", f".bench_markers={out}", NOPS, os.path.join(t, "x")])
        return bytearray(open(out, "rb").read())


def with_markers(d, name, data):
    sec = write(os.path.join(d, name + ".bin"), bytes(data))
    path = os.path.join(d, name)
    run_tool(["arm-none-eabi-objcopy", f"--update-section=.bench_markers={sec}", NOPS, path])
    return path




def regions_patched(d, name, field_offset, fmt, value):
    data = bytearray(open(REGIONS, "rb").read())
    struct.pack_into(fmt, data, symbol_file_offset(REGIONS, "bench_regions") + field_offset, value)
    return write(os.path.join(d, name), bytes(data))


def report_edited(d, name, edit):
    rep = json.load(open(os.path.join(CIFX, "cmp-base.json")))
    edit(rep)
    return write(os.path.join(d, name), json.dumps(rep))


def boards(d):
    root = os.path.join(d, "boards")
    specs = {
        "noclock": {"name": "noclock", "openocd_cfg": "openocd.cfg"},
        "badjson": '{"name": ',
        "negclock": {"name": "negclock", "core_clock_hz": -5, "openocd_cfg": "openocd.cfg"},
        "nocfg": {"name": "nocfg", "core_clock_hz": 16000000, "openocd_cfg": "missing.cfg"},
    }
    for b, spec in specs.items():
        os.makedirs(os.path.join(root, b))
        write(os.path.join(root, b, "board.json"), spec if isinstance(spec, str) else json.dumps(spec))
        if b != "nocfg":
            write(os.path.join(root, b, "openocd.cfg"), "source [find target/stm32f4x.cfg]\n")
    return root


def x86_object(d):
    src = write(os.path.join(d, "x.c"), "int f(void) { return 1; }\n")
    run_tool(["cc", "-c", src, "-o", os.path.join(d, "x86.o")])
    return os.path.join(d, "x86.o")


def big_endian(d):
    data = bytearray(open(NOPS, "rb").read())
    data[5] = 2  # EI_DATA = ELFDATA2MSB: libelf then reads e_machine 40 (EM_ARM) byte-swapped: 0x2800
    return write(os.path.join(d, "bigendian.elf"), bytes(data))


def second_record_bad(d):
    m = marker_section()
    m[20 + 5] = 3  # record 0 is 12 + 8 bytes ("nop1" padded), record 1 starts at 20
    return with_markers(d, "m-second.elf", m)


FIXTURES = {
    "none": lambda d: os.path.join(d, "nonexistent"),
    "dir": lambda d: (os.mkdir(os.path.join(d, "dir")), os.path.join(d, "dir"))[1],
    "empty.elf": lambda d: write(os.path.join(d, "empty.elf"), b""),
    "text.elf": lambda d: write(os.path.join(d, "text.elf"), "this is a text file, not firmware\n"),
    "nops.bin": lambda d: (run_tool(["arm-none-eabi-objcopy", "-O", "binary", NOPS, os.path.join(d, "nops.bin")]),
                           os.path.join(d, "nops.bin"))[1],
    "truncated.elf": lambda d: write(os.path.join(d, "truncated.elf"), open(NOPS, "rb").read()[:1000]),
    "x86.o": x86_object,
    "bigendian.elf": big_endian,
    "nomarkers.elf": lambda d: (run_tool(["arm-none-eabi-objcopy", "--remove-section=.bench_markers", NOPS,
                                          os.path.join(d, "nomarkers.elf")]), os.path.join(d, "nomarkers.elf"))[1],
    "noruntime.elf": lambda d: (run_tool(["arm-none-eabi-objcopy", "--remove-section=.bench_markers",
                                          "--strip-symbol=bench_ctl", NOPS, os.path.join(d, "noruntime.elf")]),
                                os.path.join(d, "noruntime.elf"))[1],
    "m-empty.elf": lambda d: with_markers(d, "m-empty.elf", b""),
    "m-truncated.elf": lambda d: with_markers(d, "m-truncated.elf", marker_section()[:7]),
    "m-version.elf": lambda d: with_markers(d, "m-version.elf", (lambda m: (m.__setitem__(5, 9), m)[1])(marker_section())),
    "m-kind.elf": lambda d: with_markers(d, "m-kind.elf", (lambda m: (m.__setitem__(4, 0x77), m)[1])(marker_section())),
    "m-namelen.elf": lambda d: with_markers(d, "m-namelen.elf", (lambda m: (m.__setitem__(8, 200), m)[1])(marker_section())),
    "m-second.elf": second_record_bad,
    "boards": boards,
    "line3.farm": lambda d: write(os.path.join(d, "line3.farm"),
                                  "# NAME BOARD\nsim-a sim-stm32f4\nsim-b nosuchboard\n"),
    "dup.farm": lambda d: write(os.path.join(d, "dup.farm"), "a sim-stm32f4\na sim-stm32f4\n"),
    "noserial.farm": lambda d: write(os.path.join(d, "noserial.farm"), "a stm32f4-discovery\n"),
    "simserial.farm": lambda d: write(os.path.join(d, "simserial.farm"), "a sim-stm32f4 SER123\n"),
    "empty.farm": lambda d: write(os.path.join(d, "empty.farm"), "# nothing but a comment\n\n"),
    "trunc.json": lambda d: write(os.path.join(d, "trunc.json"), open(os.path.join(CIFX, "cmp-base.json")).read()[:300]),
    "empty.json": lambda d: write(os.path.join(d, "empty.json"), ""),
    "array.json": lambda d: write(os.path.join(d, "array.json"), "[1, 2]\n"),
    "noversion.json": lambda d: report_edited(d, "noversion.json", lambda r: r.pop("schema_version")),
    "resultsnum.json": lambda d: report_edited(d, "resultsnum.json", lambda r: r.__setitem__("results", 5)),
    "samplestr.json": lambda d: report_edited(d, "samplestr.json",
                                              lambda r: r["results"][0].__setitem__("samples", ["x"])),
    "hugeclock.json": lambda d: report_edited(d, "hugeclock.json",
                                              lambda r: r["context"].__setitem__("core_clock_hz", 1.7e134)),
    "v2.json": lambda d: report_edited(d, "v2.json", lambda r: r.__setitem__("schema_version", 2)),
    "base.json": lambda d: report_edited(d, "base.json", lambda r: None),
    "r-magic.elf": lambda d: regions_patched(d, "r-magic.elf", 0, "<I", 0),
    "r-version.elf": lambda d: regions_patched(d, "r-version.elf", 4, "<H", 0),
    "r-count.elf": lambda d: regions_patched(d, "r-count.elf", 10, "<H", 0xFFFF),
}


def main():
    rows = list(table_rows(os.path.join(HERE, "cases.table"), 4))
    names = [r[1][0] for r in rows]
    if len(set(names)) != len(names):
        sys.exit("cases.table: duplicate case names")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="bench-badinput-") as tmp:
        made = {}

        def fixture(m):
            key = m.group(1)
            if key not in made:
                made[key] = FIXTURES[key](tmp)
            return made[key]

        for lineno, (name, args, code, regex) in rows:
            argv = [BENCH]
            for a in shlex.split(args):
                a = a.replace("{nops}", NOPS).replace("{regions}", REGIONS).replace("{dead}", DEAD)
                argv.append(re.sub(r"\{f:([^}]+)\}", fixture, a))
            p = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=tmp)
            problems = []
            if p.returncode != int(code):
                problems.append(f"exit {p.returncode}, expected {code}")
            lines = p.stderr.rstrip("\n").split("\n")
            if len(lines) != 1 or not lines[0].startswith("bench: "):
                problems.append(f"stderr is not one 'bench: ' line: {p.stderr!r}")
            elif not re.search(regex, lines[0]):
                problems.append(f"stderr {lines[0]!r} does not match {regex!r}")
            failed += table_verdict(f"cases.table:{lineno}", name, problems)
    print(f"{len(rows) - failed}/{len(rows)} bad inputs handled as documented")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
