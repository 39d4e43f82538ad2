#!/usr/bin/env python3
"""bench run --stack end to end on the virtual board through stock OpenOCD: the stack painted below
SP at BEGIN and scanned at END gives the depths tests/firmware/stack/stack.c builds to the byte.
Usage: stack_e2e.py BUILD_DIR SOURCE_DIR CASE

paint:    frame 264 bytes every sample; recurse 8 * (input + 1) per input; irq 112 bytes (PendSV's
          32-byte frame included) with the sample flagged exception; the limit is the firmware's
          _sstack (0x20020000 - 0x2000); the report is valid against docs/report-schema.json.
exact:    the virtual board's lowest MSP/PSP (its halt records, the default there) gives the same
          figures as painting, input by input, on this firmware and on examples' fut-softfp.elf.
code:     --code-size on examples' fut: the bytes equal `arm-none-eabi-nm -S` of the functions run:
          fut alone with the FPU; with soft float fut, __aeabi_i2f, __aeabi_fmul, __aeabi_f2iz, and
          for inputs other than 0 the __aeabi_l2f code __aeabi_i2f branches into (executed);
          all five for every input from the call graph (static); the image as `size` prints it.
formats:  one run with --stack --code-size, then every output: BMF measures stack-bytes and
          code-bytes, github-action-benchmark entries "[stack]" and "[code]" in bytes, CSV columns,
          JUnit --max-stack (a budget below the figure fails, exit 1), and bench compare: the same
          report passes, a byte more of stack or code fails (exit 1) unless its threshold allows it.
overflow: input 2047 recurses 16 KiB, past the 8 KiB budget: every such sample is flagged a
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


def run_ok(args, what="", schema=False):
    """run() that must exit 0 and, with schema, write a report valid against docs/report-schema.json:
    (p, report, rep, res) with the report read by results(), or None when bench failed (checked)."""
    p, report = run(args)
    expect(p.returncode == 0, f"{what}exit {p.returncode}")
    if p.returncode:
        return None
    if schema:
        c = check_schema(CHECK, SCHEMA, report, "ok")
        expect(c.returncode == 0, f"{what}schema check: {c.stderr.strip()}")
    return (p, report) + results(report)


def case_paint():
    known_depths("paint")


def case_exact():
    known_depths("exact")
    # Both methods agree on the project's own example firmware too (a soft-float path whose depth
    # is whatever the compiler and libgcc make it).
    figs = {}
    for method in ("paint", "exact"):
        got = run_ok([os.path.join(EX, "fut-softfp.elf"), "--stack", "--stack-method", method,
                      "--arg", "input=0,1,1000,-7", "--repeat", "2"], f"fut-softfp --stack-method {method}: ")
        if not got:
            return
        _, _, rep, res = got
        expect(rep["context"]["stack"]["method"] == method, f"context.stack {rep['context']['stack']}")
        figs[method] = {k: r["stack"]["bytes"] for k, r in res.items()}
    expect(figs["paint"] == figs["exact"], f"fut-softfp: paint {figs['paint']} != exact {figs['exact']}")
    expect(all(b[0] > 0 for b in figs["exact"].values()), f"fut-softfp: no depth {figs['exact']}")


def known_depths(method):
    inputs = [0, 3, 10]
    got = run_ok([FW, "--stack", "--stack-method", method, "--keep-interrupted", "--arg",
                  "input=" + ",".join(map(str, inputs)), "--repeat", "2", "--warmup", "1"], schema=True)
    if not got:
        return
    p, report, rep, res = got
    expect(rep["context"].get("stack") == {"method": method, "limit": LIMIT, "limit_from": "_sstack"},
           f"context.stack {rep['context'].get('stack')}")
    for n in inputs:
        for name, want, exc in (("frame", 264, []), ("recurse", 8 * (n + 1), []), ("irq", 112, [0, 1]),
                                ("indirect", 272, [])):
            st = res[(name, n)].get("stack")
            expect(st == {"bytes": [want, want], "overflow": [], "exception": exc, "min": want, "max": want},
                   f"{name}[input={n}]: stack {st}, expected {want} bytes, exception {exc}")
        expect(res[("irq", n)]["interrupted"] == [0, 1], f"irq[input={n}] interrupted {res[('irq', n)]['interrupted']}")
    expect("stack: bytes used below SP at BEGIN" in p.stdout, "no stack table on the console")
    # The HTML page plots the stack versus the input: recurse's line through 8, 32 and 88 bytes.
    page = report + ".html"
    h = subprocess.run([BENCH, "report", report, "--html", page], capture_output=True, text=True)
    html = open(page).read() if h.returncode == 0 else ""
    expect("<h2>Stack versus input</h2>" in html and "stack bytes versus input" in html,
           f"html: exit {h.returncode} {h.stderr}, no stack plot")
    expect("irq (6 samples with an exception frame, hollow)" in html, "html: the irq series' legend")
    expect("recurse[input=10]" in p.stdout and " 88       88" in p.stdout, "console row of recurse[input=10]")


def nm_sizes(elf):
    out = subprocess.run(["arm-none-eabi-nm", "-S", elf], capture_output=True, text=True, check=True).stdout
    return {f[3]: int(f[1], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 4}


def size_berkeley(elf):
    out = subprocess.run(["arm-none-eabi-size", elf], capture_output=True, text=True, check=True).stdout
    text, data, bss = out.splitlines()[1].split()[:3]
    return {"text": int(text), "data": int(data), "bss": int(bss)}


def case_code():
    inputs = [0, 1, 1000, -7]
    soft = ["fut", "__aeabi_i2f", "__aeabi_fmul", "__aeabi_f2iz"]
    for elf, method, want in (
            ("fut-hardfp.elf", "executed", lambda n: ["fut"]),
            ("fut-hardfp.elf", "static", lambda n: ["fut"]),
            ("fut-softfp.elf", "executed", lambda n: soft + ([] if n == 0 else ["__aeabi_l2f"])),
            ("fut-softfp.elf", "static", lambda n: soft + ["__aeabi_l2f"])):
        path = os.path.join(EX, elf)
        got = run_ok([path, "--code-size", "--code-method", method, "--arg",
                      "input=" + ",".join(map(str, inputs)), "--repeat", "1"], f"{elf} {method}: ", schema=True)
        if not got:
            continue
        _, _, rep, res = got
        nm = nm_sizes(path)
        expect(rep["context"].get("image") == size_berkeley(path), f"{elf}: image {rep['context'].get('image')}")
        for n in inputs:
            fns = want(n)
            code = res[("fut", n)].get("code") or {}
            exp = {"method": method, "bytes": sum(nm[f] for f in fns), "functions": len(fns), "unknown_calls": 0,
                   "sections": {".text": sum(nm[f] for f in fns)}}
            got = {k: code.get(k) for k in exp}
            expect(got == exp, f"{elf} {method} input={n}: code {code}, expected {exp} ({' '.join(fns)})")


def bench(args):
    p = subprocess.run([BENCH] + args, capture_output=True, text=True, timeout=60)
    print(f"$ bench {' '.join(args)}\n-> {p.returncode}\n{p.stdout}{p.stderr}", file=sys.stderr)
    return p


def case_formats():
    # Painting and the executed code size together: the scan, then the record, at each END.
    got = run_ok([os.path.join(EX, "fut-softfp.elf"), "--stack", "--stack-method", "paint", "--code-size",
                  "--arg", "input=0,1", "--repeat", "2"])
    if not got:
        return
    _, report, rep, res = got
    st = {n: res[("fut", n)]["stack"]["max"] for n in (0, 1)}
    code = {n: res[("fut", n)]["code"]["bytes"] for n in (0, 1)}
    expect(st == {0: 8, 1: 8} and code == {0: 488, 1: 612}, f"stack {st}, code {code}")
    bmf = json.loads(bench(["report", report, "--format", "bmf"]).stdout)
    for n in (0, 1):
        b = bmf[f"fut[input={n}]"]
        expect(b.get("stack-bytes") == {"value": st[n], "lower_value": st[n], "upper_value": st[n]}, f"bmf {b}")
        expect(b.get("code-bytes") == {"value": code[n]}, f"bmf {b}")
    gh = {e["name"]: e for e in json.loads(bench(["report", report, "--format", "github"]).stdout)}
    expect(gh.get("fut[input=1] [stack]", {}).get("value") == st[1] and gh["fut[input=1] [stack]"]["unit"] == "bytes",
           f"github {list(gh)}")
    expect(gh.get("fut[input=1] [code]", {}).get("value") == code[1], f"github {list(gh)}")
    csv = bench(["report", report, "--format", "csv"]).stdout.splitlines()
    expect(csv[0].endswith(",error,stack_min,stack_max,stack_overflows,code_bytes"), f"csv header {csv[0]}")
    expect(csv[1].endswith(f",{st[0]},{st[0]},0,{code[0]}"), f"csv row {csv[1]}")
    j = bench(["report", report, "--format", "junit", "--max-stack", f"fut={st[0] - 1}"])
    expect(j.returncode == 1 and 'failure type="max-stack"' in j.stdout, f"junit --max-stack: exit {j.returncode}")
    expect(j.stderr.strip() == "bench: 2 results above --max-stack", f"junit stderr {j.stderr!r}")
    j = bench(["report", report, "--format", "junit", "--max-stack", f"fut={st[0]}", "--max-cycles", "fut=100000"])
    expect(j.returncode == 0 and "<failure" not in j.stdout, f"junit within budget: exit {j.returncode}")
    c = bench(["compare", report, report])
    expect(c.returncode == 0, f"compare with itself: exit {c.returncode}")
    for key, field, extra, want in (("stack", "bytes", [], 1), ("code", "bytes", [], 1),
                                    ("code", "bytes", ["--code-threshold", "50%"], 0)):
        worse = json.load(open(report))
        for r in worse["results"]:
            if key == "stack":
                r["stack"]["bytes"] = [b + 8 for b in r["stack"]["bytes"]]
                r["stack"]["max"] += 8
                r["stack"]["min"] += 8
            else:
                r["code"]["bytes"] += 2
        path = report + f".{key}.json"
        json.dump(worse, open(path, "w"))
        c = bench(["compare", report, path] + extra)
        expect(c.returncode == want, f"compare {key} +{extra}: exit {c.returncode}, expected {want}")
        expect(want == 0 or "2 stack or code size regressions" in c.stderr, f"compare {key}: {c.stderr!r}")


def case_cubemx():
    # A CubeMX-layout image (tests/firmware/cubemx): the limit is _estack - _Min_Stack_Size
    # (0x20020000 - 0x400), and both methods give the same figures.
    elf = os.path.join(BUILD, "tests", "firmware", "cubemx", "cubemx_f407.elf")
    figs = {}
    for method in ("paint", "exact"):
        got = run_ok([elf, "--stack", "--stack-method", method, "--repeat", "2", "--keep-interrupted"],
                     f"cubemx {method}: ")
        if not got:
            return
        _, _, rep, res = got
        expect(rep["context"]["stack"] == {"method": method, "limit": 0x20020000 - 0x400,
                                           "limit_from": "_estack - _Min_Stack_Size"}, f"{rep['context']['stack']}")
        figs[method] = {k: r["stack"]["bytes"] for k, r in res.items()}
    expect(figs["paint"] == figs["exact"] and len(figs["exact"]) == 2,
           f"cubemx: paint {figs['paint']} != exact {figs['exact']}")


def case_indirect():
    # A call through a register: the static call graph counts ind_fn and says one call is
    # unknown; the virtual board saw frame_fn run too.
    nm = nm_sizes(FW)
    for method, fns, unknown in (("static", ["ind_fn"], 1), ("executed", ["ind_fn", "frame_fn"], 0)):
        got = run_ok([FW, "--code-size", "--code-method", method, "--keep-interrupted", "--repeat", "1"],
                     f"{method}: ")
        if not got:
            continue
        p, _, _, res = got
        code = res[("indirect", None)]["code"]
        want = sum(nm[f] for f in fns)
        expect((code["bytes"], code["functions"], code["unknown_calls"]) == (want, len(fns), unknown),
               f"{method}: code {code}, expected {want} bytes of {fns}, {unknown} unknown")
        if method == "static":
            expect("1 calls through pointers not counted" in p.stdout, "console note of the unknown call")


def case_farm():
    # A farm's merged report keeps each board's stack figures and code size with its results.
    farm = os.path.join(SRC, "tests", "ci", "fixtures", "farm", "two-virtual.farm")
    got = run_ok(["--farm", farm, os.path.join(EX, "fut-softfp.elf"), "--stack", "--code-size", "--arg",
                  "input=0,1", "--repeat", "1"], schema=True)
    if not got:
        return
    res = got[3]
    for board in ("sim-a", "sim-b"):
        for n, code in ((0, 488), (1, 612)):
            r = res.get((f"{board}/fut", n), {})
            expect(r.get("stack", {}).get("bytes") == [8] and r.get("code", {}).get("bytes") == code,
                   f"{board}/fut[input={n}]: stack {r.get('stack')}, code {r.get('code')}")


def case_overflow():
    for method in ("paint", "exact"):
        overflow(method)


def overflow(method):
    got = run_ok([FW, "--stack", "--stack-method", method, "--keep-interrupted", "--arg", "input=2047",
                  "--repeat", "2", "--warmup", "0"], f"{method}: ", schema=True)
    if not got:
        return
    p, _, rep, res = got
    for name in ("recurse", "deep"):
        st = res[(name, 2047)].get("stack")
        expect(st == {"bytes": [None, None], "overflow": [0, 1], "exception": [], "min": None, "max": None},
               f"{name}: stack {st}, expected two possible overflows and no depth")
    expect(res[("frame", 2047)]["stack"]["max"] == 264, f"frame: {res[('frame', 2047)]['stack']}")
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
        p, report = run([FW, "--stack", "--stack-method", "paint", "--stack-limit", limit, "--repeat", "1"])
        lines = p.stderr.rstrip("\n").split("\n")
        expect(p.returncode == code, f"--stack-limit {limit}: exit {p.returncode}, expected {code}")
        expect(len(lines) == 1 and lines[0].startswith(msg), f"--stack-limit {limit}: stderr {lines}")
        expect(code != 5 or "bench cannot write the board's RAM there; give --stack-limit inside writable RAM "
               "or drop --stack" in lines[0], f"--stack-limit {limit}: what to do next in {lines}")
        rep = json.load(open(report))
        expect(rep["status"] == "error" and rep["context"]["stack"]["limit"] == int(limit, 16),
               f"--stack-limit {limit}: report status {rep['status']}, context {rep['context'].get('stack')}")


run_case(globals(), CASE)
