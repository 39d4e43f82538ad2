#!/usr/bin/env python3
"""Checks the machine code of the example firmware of one board (examples/, target/include/bench.h),
as Google Benchmark's test/donotoptimize_assembly_test.cc checks its own: from
`arm-none-eabi-objdump -d` and the raw .bench_markers section (docs/markers.md).

  check_examples.py EXAMPLES_DIR              e.g. build/examples/sim-stm32f4
  check_examples.py --negative BROKEN_DIR     tests/firmware/target/broken: exit 0 only if exactly
                                              the checks its defects break fail

Each check prints one line; the exit code is the number of failed checks (0 = all passed)."""
import os
import re
import struct
import subprocess
import sys
import tempfile

KINDS = {1: "BEGIN", 2: "END", 3: "SYNC", 4: "DONE", 5: "CAL_BEGIN", 6: "CAL_END"}
failures = 0
failed = []

# What the broken firmware of tests/firmware/target must fail, and nothing else.
NEGATIVE_EXPECTED = [
    "fut-softfp.elf: the measured stretch is exactly `bl fut`",
    "fut-hardfp.elf: the measured stretch is exactly `bl fut`",
    "fut-softfp.elf: fut calls __aeabi_i2f",
    "fut-hardfp.elf: fut multiplies with vmul.f32",
    "nops.elf: nop10 holds exactly 10 nop",
]


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1
        failed.append(what)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def disassemble(elf):
    """{function name: [(addr, mnemonic, operands)]} from objdump -d."""
    funcs, cur = {}, None
    for line in run("arm-none-eabi-objdump", "-d", "--no-show-raw-insn", elf).splitlines():
        m = re.match(r"^([0-9a-f]{8}) <([^>]+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2), m.group(3).split("@")[0].strip()))
    return funcs


def markers(elf):
    """Decodes .bench_markers into [(addr, kind, version, id, name)], checking the layout."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.bin")
        run("arm-none-eabi-objcopy", "-O", "binary", "--only-section=.bench_markers",
            "--set-section-flags", ".bench_markers=alloc", elf, out)
        data = open(out, "rb").read()
    recs, off = [], 0
    while off < len(data):
        addr, kind, ver, ident, nlen = struct.unpack_from("<IBBHB", data, off)
        rsv = data[off + 9:off + 12]
        name = data[off + 12:off + 12 + nlen].decode()
        pad = (nlen + 1 + 3) & ~3
        tail = data[off + 12 + nlen:off + 12 + pad]
        check(rsv == b"\0\0\0" and tail == b"\0" * len(tail), f"record at +{off} ({name}): reserved and padding are 0")
        recs.append((addr, kind, ver, ident, name))
        off += 12 + pad
    return recs


def section_flags(elf):
    """{section name: flags} from readelf -S, and the section-to-segment mapping text."""
    flags = {}
    for line in run("readelf", "-S", "-W", elf).splitlines():
        m = re.match(r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\S+\s+([A-Z]*)\s", line)
        if m:
            flags[m.group(1)] = m.group(2)
    return flags, run("readelf", "-l", "-W", elf)


def insn_at(funcs, addr):
    for body in funcs.values():
        for i, (a, mn, ops) in enumerate(body):
            if a == addr:
                return body, i
    return None, None


def stretch(funcs, fn, begin_imm, end_imm):
    """Instructions strictly between the first `bkpt begin_imm` in fn and the next `bkpt end_imm`."""
    body = funcs.get(fn, [])
    for i, (a, mn, ops) in enumerate(body):
        if mn == "bkpt" and int(ops, 16) == begin_imm:
            for j in range(i + 1, len(body)):
                if body[j][1] == "bkpt" and int(body[j][2], 16) == end_imm:
                    return body[i + 1:j]
    return None


def check_common(elf, funcs, recs, expect_pairs):
    base = os.path.basename(elf)
    flags, segs = section_flags(elf)
    check(".bench_markers" in flags, f"{base}: .bench_markers survives --gc-sections")
    check("A" not in flags.get(".bench_markers", "A"), f"{base}: .bench_markers is not allocated (never loaded)")
    check(".bench_markers" not in segs, f"{base}: .bench_markers is in no program segment")
    bkpts = [(a, int(ops, 16)) for body in funcs.values() for (a, mn, ops) in body if mn == "bkpt"]
    check(all(imm != 0xAB for a, imm in bkpts), f"{base}: no bkpt 0x00ab (semihosting)")
    for addr, kind, ver, ident, name in recs:
        body, i = insn_at(funcs, addr)
        ok = body is not None and body[i][1] == "bkpt" and int(body[i][2], 16) == kind
        check(ok and ver == 1 and kind in KINDS,
              f"{base}: record {KINDS.get(kind, kind)} {name}#{ident} at 0x{addr:08x} is a bkpt #{kind}, version 1")
    want = sorted([(5, 0, "calibration"), (6, 0, "calibration"), (3, 0, "sync"), (4, 0, "done")] + expect_pairs)
    got = sorted((kind, ident, name) for (addr, kind, ver, ident, name) in recs)
    check(got == want, f"{base}: records are exactly {want}" + ("" if got == want else f", got {got}"))
    cal = stretch(funcs, "bench_init", 5, 6)
    check(cal == [], f"{base}: calibration pair is two BKPTs back to back")
    marker_bkpts = {a for (a, k, v, i, n) in recs}
    stray = [(hex(a), imm) for a, imm in bkpts if a not in marker_bkpts and imm != 0x0F]
    check(not stray, f"{base}: every bkpt but the fault stop (#0x0f) has a record" + (f" (stray {stray})" if stray else ""))


def check_fut(d, variant):
    elf = os.path.join(d, f"fut-{variant}.elf")
    funcs, recs = disassemble(elf), markers(elf)
    base = os.path.basename(elf)
    pair = [r for r in recs if r[4] == "fut"]
    ident = pair[0][3] if pair else -1
    check(ident > 0, f"{base}: fut pair has a nonzero id")
    check_common(elf, funcs, recs, [(1, ident, "fut"), (2, ident, "fut")])
    s = stretch(funcs, "main", 1, 2)
    check(s is not None and [(mn, ops.split()[-1]) for a, mn, ops in s] == [("bl", "<fut>")],
          f"{base}: the measured stretch is exactly `bl fut`" + ("" if s is None else f" (got {[x[1:] for x in s]})"))
    body = funcs.get("fut", [])
    mns = [mn for a, mn, ops in body]
    calls = [ops.split()[-1] for a, mn, ops in body if mn == "bl"]
    if variant == "hardfp":
        check("vmul.f32" in mns, f"{base}: fut multiplies with vmul.f32 (not optimised away)")
        check(not calls, f"{base}: fut calls nothing")
    else:
        check(calls == ["<__aeabi_i2f>", "<__aeabi_fmul>", "<__aeabi_f2iz>"],
              f"{base}: fut calls __aeabi_i2f, __aeabi_fmul, __aeabi_f2iz (got {calls})")
        check(not any(mn.startswith("v") for mn in mns), f"{base}: fut uses no FPU instruction")


def check_nops(d):
    elf = os.path.join(d, "nops.elf")
    funcs, recs = disassemble(elf), markers(elf)
    base = os.path.basename(elf)
    sleds = [(1, "nop1", 1), (2, "nop10", 10), (3, "nop100", 100), (4, "nop1000", 1000)]
    check_common(elf, funcs, recs, [(k, i, n) for (i, n, c) in sleds for k in (1, 2)])
    by_name = {(r[4], r[1]): r[0] for r in recs}
    for ident, name, n in sleds:
        b, e = by_name.get((name, 1)), by_name.get((name, 2))
        body, i = insn_at(funcs, b) if b else (None, None)
        inner = []
        if body:
            for a, mn, ops in body[i + 1:]:
                if a == e:
                    break
                inner.append(mn)
        check(inner == ["nop"] * n, f"{base}: {name} holds exactly {n} nop between its BKPTs (got {len(inner)})")


def main():
    negative = sys.argv[1] == "--negative"
    d = sys.argv[-1]
    for f in ("fut-softfp.elf", "nops.elf") + (("fut-hardfp.elf",) if negative else ()):
        if not os.path.exists(os.path.join(d, f)):
            print(f"FAIL {d}/{f} missing: build the firmware (cmake --build BUILD)")
            return 1
    check_fut(d, "softfp")
    if os.path.exists(os.path.join(d, "fut-hardfp.elf")):
        check_fut(d, "hardfp")
    check_nops(d)
    print(f"{failures} failed")
    if negative:
        missing = [e for e in NEGATIVE_EXPECTED if not any(f.startswith(e) for f in failed)]
        extra = [f for f in failed if not any(f.startswith(e) for e in NEGATIVE_EXPECTED)]
        print(f"negative: expected failures not seen: {missing}; unexpected failures: {extra}")
        return 1 if missing or extra else 0
    return min(failures, 125)


if __name__ == "__main__":
    sys.exit(main())
