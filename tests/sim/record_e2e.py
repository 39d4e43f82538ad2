#!/usr/bin/env python3
"""bench-sim --record (docs/sim-record.md) on a firmware with a known call tree
(tests/firmware/core/record.S), exact figures.

  openocd:    stock OpenOCD drives bench-sim through its TCL port, resuming from BKPT to BKPT:
              each halt's record is in the file when OpenOCD sees the halt; its cyccnt is the
              DWT_CYCCNT OpenOCD reads, its cycles the CYCCNT difference between two halts; the
              node tree, the executions per instruction, the entries, the lowest MSP and the
              exception count are the ones the firmware's text says.
  standalone: the same figures with the built-in debugger (--standalone), which also shows a
              record owed at the end (the last halt nobody resumed from) is written.
  badusage:   --record without a path, or on the --elf, exits 2 and leaves the ELF alone.
  unaligned:  bench-sim's default on tests/firmware/cycles/unaligned.S: each unaligned load or store's
              extra cycles (TRM 3.3.2) are on that instruction's own address, not on the first
              of its block (two of the snippets have one before it).

Usage: record_e2e.py BUILD SRC CASE"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import attach  # noqa: E402
import benchtest  # noqa: E402
from benchtest import expect  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
SIM = os.path.join(BUILD, "bench-sim")
ELF = os.path.join(BUILD, "tests", "firmware", "core", "record.elf")


def symbols():
    out = subprocess.run(["arm-none-eabi-nm", ELF], check=True, capture_output=True, text=True).stdout
    return {f[2]: int(f[0], 16) & ~1 for f in (line.split() for line in out.splitlines()) if len(f) == 3}


def read_records(path):
    """(reasons, nodes {id: (parent, entry, kind)}, [record]); a record is a dict with the halt
    line's fields, 'enter' {node: count} and 'pc' {(node, addr): (execs, [cycles])}. Only
    complete records; the file must parse whole."""
    nodes, records, reasons, cur = {}, [], [], None
    with open(path) as f:
        lines = f.read().split("\n")
    assert lines[0] == "bench-sim-record 1", lines[0]
    reasons = lines[1].split()[1:]
    for line in lines[2:]:
        t = line.split()
        if not t:
            continue
        if t[0] == "fn":
            nodes[int(t[1])] = (int(t[2]), int(t[3], 16), t[4])
        elif t[0] == "halt":
            cur = {"seq": int(t[1]), "cyccnt": int(t[3]), "total": int(t[5]), "msp_min": int(t[7], 16),
                   "psp_min": int(t[9], 16), "exc": int(t[11]), "enter": {}, "pc": {}}
        elif t[0] == "enter":
            cur["enter"][int(t[1])] = int(t[2])
        elif t[0] == "pc":
            cur["pc"][(int(t[1]), int(t[2], 16))] = (int(t[3]), [int(x) for x in t[4:]])
            assert len(t) == 4 + len(reasons), line
        elif t[0] == "end":
            assert int(t[1]) == cur["seq"]
            records.append(cur)
            cur = None
    return reasons, nodes, records


def node_of(nodes, parent, entry, kind):
    found = [i for i, (p, e, k) in nodes.items() if p == parent and e == entry and k == kind]
    expect(len(found) == 1, f"one node ({parent}, {entry:#x}, {kind}), found {found} in {nodes}")
    return found[0] if found else -1


def check_tree(reasons, nodes, recs, sym):
    """recs: the records of the halts at BKPT #2, #3 and #5 (the stretches main->f->g twice,
    SVC->g, then on PSP main->f->g and SVC->g)."""
    b2, b3, b5 = recs
    expect(nodes.get(0) == (-1, sym["reset_handler"], "root"), f"root node: {nodes.get(0)}")
    f = node_of(nodes, 0, sym["f"], "call")
    g_f = node_of(nodes, f, sym["g"], "call")
    svc = node_of(nodes, 0, sym["svc_handler"], "exc:11")
    g_svc = node_of(nodes, svc, sym["g"], "call")
    expect(b2["enter"] == {f: 2, g_f: 2}, f"BKPT #2 record entries: {b2['enter']}")
    expect(b3["enter"] == {svc: 1, g_svc: 1}, f"BKPT #3 record entries: {b3['enter']}")
    expect(b5["enter"] == {f: 1, g_f: 1, svc: 1, g_svc: 1}, f"BKPT #5 record entries: {b5['enter']}")
    expect(b5["psp_min"] == 0x2001EFD8, f"BKPT #5 psp_min {b5['psp_min']:#x}, expected 0x2001efd8")
    expect(b5["msp_min"] == 0x2001FFD8, f"BKPT #5 msp_min {b5['msp_min']:#x}, expected 0x2001ffd8")
    expect(b2["psp_min"] == 0 and b3["psp_min"] == 0, "PSP unused before BKPT #5")
    # Executions: f's push twice; g's loop body (subs, bne) 3 times per call.
    loop = sym["g"] + 6  # push.n, sub sp, movs: 2 bytes each
    expect(b2["pc"].get((f, sym["f"]), (0,))[0] == 2, f"f's first instruction: {b2['pc'].get((f, sym['f']))}")
    expect(b2["pc"].get((g_f, loop), (0,))[0] == 6, f"g's loop under f: {b2['pc'].get((g_f, loop))}")
    expect(b3["pc"].get((g_svc, loop), (0,))[0] == 3, f"g's loop under SVCall: {b3['pc'].get((g_svc, loop))}")
    expect(b2["pc"].get((0, sym["reset_handler"] + 2), (0,))[0] == 1, "main's first bl ran once")
    # Every instruction of the stretch (bl, bl in main: 2; f: push, bl, pop: 3 each; g: push, sub,
    # movs, 3x(subs, bne), add, pop: 11 each) and nothing else; then svc, the handler's 3, g's 11.
    expect(sum(v[0] for v in b2["pc"].values()) == 2 + 2 * 3 + 2 * 11,
           f"instructions in BKPT #2's record: {sum(v[0] for v in b2['pc'].values())}")
    expect(sum(v[0] for v in b3["pc"].values()) == 1 + 3 + 11,
           f"instructions in BKPT #3's record: {sum(v[0] for v in b3['pc'].values())}")
    expect(b2["msp_min"] == 0x2001FFD8, f"BKPT #2 msp_min {b2['msp_min']:#x}, expected 0x2001ffd8")
    expect(b3["msp_min"] == 0x2001FFB8, f"BKPT #3 msp_min {b3['msp_min']:#x}, expected 0x2001ffb8")
    expect(b2["exc"] == 0 and b3["exc"] == 1, f"exceptions: {b2['exc']}, {b3['exc']}")
    # The SVC's entry and return overheads (12 + 10 cycles, Cortex-M4 TRM 3.3.1 with no FP
    # context) are the handler's, at its entry; the thread context has the svc alone. The
    # ledger's exception reasons: `exception`, or `exc-entry`, `exc-return`... (finer ledgers).
    exc = [i for i, name in enumerate(reasons) if name.startswith("exc")]
    expect(exc, f"no exception reason in {reasons}")
    at = b3["pc"].get((svc, sym["svc_handler"]), (0, [0] * len(reasons)))[1]
    expect(sum(at[i] for i in exc) == 22, f"SVCall's overhead: {at}")
    expect(all(c[i] == 0 for (n, _), (_, c) in b3["pc"].items() if n != svc for i in exc),
           "exception cycles elsewhere")
    for r in recs:
        total = sum(sum(c) for _, c in r["pc"].values())
        expect(total == r["cycles"], f"record {r['seq']}: its cycles add up to {total}, not {r['cycles']}")


def with_cycles(records):
    prev = 0
    for r in records:
        r["cycles"] = r["total"] - prev
        prev = r["total"]
    return records


def case_openocd():
    tmp = tempfile.mkdtemp(prefix="record_e2e")
    rec_path = os.path.join(tmp, "sim-record")
    sim = subprocess.Popen([SIM, "--jtag-port", "0", "--quiet", "--elf", ELF, "--record=" + rec_path],
                           stdout=subprocess.PIPE, text=True)
    ocd = None
    try:
        jtag = int(sim.stdout.readline().split()[1])
        ocd = subprocess.Popen(["openocd", "-c", f"set SIM_JTAG_PORT {jtag}", "-f",
                                os.path.join(SRC, "boards", "sim-stm32f4", "openocd.cfg"), "-c",
                                "bindto 127.0.0.1", "-c", "gdb_port disabled", "-c", "telnet_port disabled",
                                "-c", "tcl_port 0"],
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "ocd.log"), "w"))
        port = benchtest.openocd_port(os.path.join(tmp, "ocd.log"), "tcl", ocd)
        if port is None:
            raise SystemExit("OpenOCD did not open its TCL port")
        tcl = attach.tcl_client(port)
        tcl("reset halt")
        tcl("mww 0xE000EDFC 0x01000000")  # DEMCR.TRCENA
        tcl("mww 0xE0001004 0")           # CYCCNT from 0
        tcl("mww 0xE0001000 1")           # DWT_CTRL.CYCCNTENA
        cyc = []
        for bkpt in (1, 2, 3, 5):
            tcl("resume")
            tcl("wait_halt 5000")
            # The record of this halt is complete in the file now: OpenOCD has seen the halt.
            with_rec = with_cycles(read_records(rec_path)[2])
            cyc.append(int(tcl("mdw 0xE0001004").split()[1], 16))
            expect(with_rec and with_rec[-1]["cyccnt"] == cyc[-1],
                   f"BKPT #{bkpt}: the last record's cyccnt {with_rec[-1]['cyccnt'] if with_rec else None} "
                   f"is not CYCCNT {cyc[-1]}")
        reasons, nodes, records = read_records(rec_path)
        with_cycles(records)
        by_cyc = {r["cyccnt"]: r for r in records}
        recs = [by_cyc.get(c) for c in cyc]
        expect(None not in recs, f"a record for each halt at CYCCNT {cyc}: {sorted(by_cyc)}")
        if None in recs:
            return
        # Each stretch from a resume at BKPT #n to BKPT #n+1 is that halt's record.
        for i in (1, 2, 3):
            expect(recs[i]["cycles"] == cyc[i] - cyc[i - 1],
                   f"record at BKPT #{(1, 2, 3, 5)[i]}: {recs[i]['cycles']} cycles, CYCCNT difference {cyc[i] - cyc[i - 1]}")
        print("records:", [(r["seq"], r["cyccnt"], r["cycles"]) for r in records])
        check_tree(reasons, nodes, recs[1:], symbols())
    finally:
        for p in (ocd, sim):
            if p:
                p.terminate()
                p.wait(timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)
    expect(sim.returncode == 0, f"bench-sim exited with {sim.returncode}")


def case_standalone():
    tmp = tempfile.mkdtemp(prefix="record_e2e")
    rec_path = os.path.join(tmp, "sim-record")
    try:
        out = subprocess.run([SIM, "--elf", ELF, "--standalone", "--quiet", "--max-cycles", "100000",
                              "--record=" + rec_path], capture_output=True, text=True, timeout=60)
        expect(out.returncode == 0, f"bench-sim --standalone exited {out.returncode}: {out.stderr}")
        halts = [int(line.split("cyccnt=")[1].split()[0]) for line in out.stdout.splitlines()
                 if line.startswith("halt ")]
        reasons, nodes, records = read_records(rec_path)
        with_cycles(records)
        expect([r["cyccnt"] for r in records] == halts, f"records' cyccnt {[r['cyccnt'] for r in records]}, "
               f"halts {halts}")
        expect(len(records) == 5, f"5 records (BKPT #1, 2, 3, 5, 4, the last one owed at the end): {len(records)}")
        if len(records) == 5:
            check_tree(reasons, nodes, records[1:4], symbols())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_deep():
    """10000 nested calls: every level its own context, the lowest MSP 8 bytes a level down."""
    tmp = tempfile.mkdtemp(prefix="record_e2e")
    rec_path = os.path.join(tmp, "sim-record")
    elf = os.path.join(BUILD, "tests", "firmware", "core", "record_deep.elf")
    try:
        out = subprocess.run([SIM, "--elf", elf, "--standalone", "--quiet", "--max-cycles", "10000000",
                              "--record=" + rec_path], capture_output=True, text=True, timeout=60)
        expect(out.returncode == 0, f"bench-sim --standalone exited {out.returncode}: {out.stderr}")
        reasons, nodes, records = read_records(rec_path)
        expect(len(records) == 3, f"3 records (BKPT #1, 2, 4): {len(records)}")
        if len(records) == 3:
            r = records[1]
            expect(r["msp_min"] == 0x2000C780, f"lowest MSP 0x{r['msp_min']:x}, not 0x2000c780")
            calls = [n for n, (_, _, kind) in nodes.items() if kind == "call"]
            expect(len(calls) == 10000, f"{len(calls)} call contexts, not 10000")
            expect(sorted(r["enter"].values()) == [1] * 10000, f"{len(r['enter'])} contexts entered")
            deepest, depth = max(calls), 0
            while deepest != 0 and depth <= 10001:
                deepest, depth = nodes[deepest][0], depth + 1
            expect(depth == 10000, f"the deepest context is {depth} calls below the root, not 10000")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_badusage():
    tmp = tempfile.mkdtemp(prefix="record_e2e")
    try:
        elf = os.path.join(tmp, "fw.elf")
        shutil.copy(ELF, elf)
        before = open(elf, "rb").read()
        for args, say in ((["--record="], "--record= needs a file name"),
                          (["--elf", elf, "--record=" + elf], "is the --elf"),
                          (["--elf", elf, "--standalone", "--ledger", "--record=" + tmp + "/r"], "give one")):
            p = subprocess.run([SIM] + args, capture_output=True, text=True, timeout=30)
            expect(p.returncode == 2, f"{args}: exit {p.returncode}, expected 2")
            expect(say in p.stderr and p.stderr.count("\n") == 1, f"{args}: stderr {p.stderr!r}")
        expect(open(elf, "rb").read() == before, "the ELF was changed")
        p = subprocess.run([SIM, "--elf", elf, "--standalone", "--record=" + tmp + "/no/such/dir/r"],
                           capture_output=True, text=True, timeout=30)
        expect(p.returncode == 1 and "cannot create it" in p.stderr, f"unwritable PATH: {p.returncode} {p.stderr!r}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def unaligned_expected(elf):
    """{address: extra cycles} of unaligned.S's loads and stores through r9 (word aligned), from
    the disassembly: the offset is the immediate, or 3 for `[r9, r1]` (the `movs r1, #3` before
    it); through r2, which holds r9 + 1, 1 plus the immediate inside the brackets; +1 a halfword
    at an odd offset or a word at 2 mod 4, +2 a word at an odd offset. `ldrne` does not run."""
    out = subprocess.run(["arm-none-eabi-objdump", "-d", elf], check=True, capture_output=True, text=True).stdout
    want = {}
    for line in out.splitlines():
        f = line.split("\t")
        if len(f) < 4 or not ("[r9" in f[3] or "[r2" in f[3]):
            continue
        mnem, ops = f[2].strip(), f[3]
        if mnem.startswith("ldrne"):
            continue
        inside = ops.split("[")[1].split("]")[0]
        off = 3 if "r1]" in ops else (int(inside.split("#")[1]) if "#" in inside else 0)
        off += 1 if "[r2" in ops else 0
        size = 1 if mnem.startswith(("ldrb", "strb")) else 2 if mnem.startswith(("ldrh", "ldrsh", "strh")) else 4
        extra = (off & 1) if size == 2 else (0 if size == 1 or off % 4 == 0 else 2 if off & 1 else 1)
        if extra:
            want[int(f[0].strip().rstrip(":"), 16)] = extra
    return want


def case_unaligned():
    elf = os.path.join(BUILD, "tests", "firmware", "cycles", "unaligned.elf")
    tmp = tempfile.mkdtemp(prefix="record_e2e")
    try:
        path = os.path.join(tmp, "rec")
        p = subprocess.run([SIM, "--elf", elf, "--standalone", "--quiet", "--record=" + path],
                           capture_output=True, text=True, timeout=60)
        expect(p.returncode == 0, f"bench-sim exit {p.returncode}: {p.stderr!r}")
        reasons, _, records = read_records(path)
        col = reasons.index("unaligned")
        got = {}
        for rec in records:
            for (_, addr), (_, cycles) in rec["pc"].items():
                if cycles[col]:
                    got[addr] = got.get(addr, 0) + cycles[col]
        want = unaligned_expected(elf)
        expect(len(want) == 16, f"unaligned.S's unaligned accesses: {want}")
        show = lambda d: " ".join(f"{a:#x}={n}" for a, n in sorted(d.items()))  # noqa: E731
        expect(got == want, f"unaligned cycles by address {show(got)}, expected {show(want)}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


{"openocd": case_openocd, "standalone": case_standalone, "badusage": case_badusage, "deep": case_deep,
 "unaligned": case_unaligned}[CASE]()
if benchtest.failures:
    sys.exit(1)
print("ok")
