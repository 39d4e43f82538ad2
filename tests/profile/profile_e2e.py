#!/usr/bin/env python3
"""bench run --profile end to end: exact from the virtual board's cycle ledger, DWT_PCSR sampled
through stock OpenOCD on the virtual board (--profile-sampled), and the refusal on boards without
it. Usage: profile_e2e.py BUILD_DIR SOURCE_DIR CASE

exact: fut-softfp at inputs 0 and 3 (62 and 105 cycles): each profile is one stretch (they all run
alike), its cycles are the result's, the libgcc functions have their exact cycles, the console sets
input 3 beside input 0 (+43), and callgrind_annotate's Cycles total and the folded total are the
result's cycles. agree: shares.elf profiled exactly and sampled; the sampled shares lie within 4
standard errors of the exact ones and the top function is the same. exact_symbols: --start/--stop.

shares: tests/firmware/profile/shares.c spends 3/4 of its stretch in heavy() and 1/4 in light();
each sampled share must lie within 4 binomial standard errors (sqrt(p(1-p)/n), n the samples bench
got) of the expected one, heavy must come first, and the callgrind file's totals as
callgrind_annotate reads them must be the samples and the pair's mean cycles, the folded stacks'
total the samples. qemu, tricore: a one-line refusal naming DWT_PCSR, exit 2 (docs/exit-codes.md),
before anything starts."""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import check_schema, expect, paths, procs_in, run_case  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
BENCH, EX, SCHEMA, CHECK = paths(BUILD, SRC)
FW = os.path.join(BUILD, "tests", "firmware")


def run(args, env=None):
    tmp = tempfile.mkdtemp(prefix="bench-profile-")
    report, wd, prefix = os.path.join(tmp, "report.json"), os.path.join(tmp, "wd"), os.path.join(tmp, "prof")
    cmd = [BENCH, "run"] + args + ["--profile", prefix, "--json", report, "--work-dir", wd]
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=e)
    print(f"$ {' '.join(cmd)}\n-> {p.returncode}\n{p.stdout}{p.stderr}", file=sys.stderr)
    expect(procs_in(os.path.realpath(wd)) == {}, f"processes left running in {wd}")
    return p, report, prefix


def shares(transport, repeat=6):
    # 16 M cycles a stretch (4 an iteration): some 100 to 300 samples each through the ST-LINK paths
    # (1400-1600 reads/s); JTAG reads 150-450/s, so it takes more stretches. Many short stretches
    # rather than a few long ones: the virtual board's progress per wall second is not even (it
    # serves the probe between slices), so samples of one stretch are not quite independent.
    # How many reads land in a stretch depends on the host's speed (a loaded CI machine, ASan): a run
    # with fewer than 200 samples is run again with twice the stretches, at most twice; only the
    # count decides, never the shares, so the assertions below judge one run of a known size.
    fw = os.path.join(FW, "profile", "shares.elf")
    for attempt in range(3):
        p, report, prefix = run([fw, "--transport", transport, "--arg", "input=1000000", "--repeat",
                                 str(repeat << attempt), "--warmup", "0", "--profile-sampled"])
        expect(p.returncode == 0, f"exit code {p.returncode}")
        if p.returncode:
            return
        rep = json.load(open(report))
        prof = rep.get("profile") or []
        if len(prof) != 1 or prof[0]["samples"] >= 200:
            break
        print(f"{prof[0]['samples']} samples from {repeat << attempt} stretches: again with more", file=sys.stderr)
    c = check_schema(CHECK, SCHEMA, report, "ok")
    expect(c.returncode == 0, f"schema check: {c.stderr.strip()}")
    expect(len(prof) == 1 and prof[0]["name"] == "shares", f"profile section {prof}")
    if len(prof) != 1:
        return
    pr = prof[0]
    n = pr["samples"]
    expect(n >= 200, f"only {n} samples: too few to test shares")
    fns = {f["name"]: f for f in pr["functions"]}
    expect(pr["functions"][0]["name"] == "heavy", f"top function {pr['functions'][0]['name']}, expected heavy")
    for name, want in (("heavy", 0.75), ("light", 0.25)):
        f = fns.get(name)
        expect(f is not None, f"no function {name} in {list(fns)}")
        if not f:
            continue
        se = math.sqrt(want * (1 - want) / n)
        expect(abs(f["share"] - want) <= 4 * se,
               f"{name}: share {f['share']:.4f}, expected {want} +- {4 * se:.4f} (4 standard errors, n={n})")
        expect(abs(f["error"] - math.sqrt(f["share"] * (1 - f["share"]) / n)) < 1e-9, f"{name}: error {f['error']}")
    res = [r for r in rep["results"] if r["name"] == "shares"]
    mean = sum(sum(r["samples"]) for r in res) / sum(len(r["samples"]) for r in res)
    expect(abs(pr["cycles"] - mean) < 1e-6, f"profile cycles {pr['cycles']}, the pair's mean {mean}")
    # Source lines from DWARF: heavy's samples sit on shares.c lines.
    if os.environ.get("BENCH_HAVE_LIBDW") == "1":
        expect(any(l["file"].endswith("shares.c") and l["function"] == "heavy" for l in pr["lines"]),
               "no shares.c line of heavy in the profile's lines")
    # The console's table.
    expect(re.search(r"^\s+heavy\s+\d+\s+\d+\.\d+ % \+- ", p.stdout, re.M) is not None, "no heavy row on the console")
    # Folded stacks: leaf frames, totals equal to the samples.
    folded = open(prefix + ".folded").read().split("\n")
    total = sum(int(l.rsplit(" ", 1)[1]) for l in folded if l)
    expect(total == n, f"folded total {total}, samples {n}")
    expect(any(l.startswith("shares;heavy ") for l in folded), "no shares;heavy line in the folded file")
    # callgrind_annotate reads the file; its totals are the samples and the mean cycles.
    ann = shutil.which("callgrind_annotate")
    expect(ann is not None, "callgrind_annotate (valgrind) not found")
    if ann:
        a = subprocess.run([ann, prefix + ".callgrind"], capture_output=True, text=True)
        print(a.stdout[:2000], file=sys.stderr)
        expect(a.returncode == 0, f"callgrind_annotate exit {a.returncode}: {a.stderr}")
        m = re.search(r"^([\d,]+) \([\d.]+%\)\s+([\d,]+) \([\d.]+%\)\s+PROGRAM TOTALS", a.stdout, re.M)
        expect(m is not None, "no PROGRAM TOTALS line from callgrind_annotate")
        if m:
            s, cyc = int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))
            expect(s == n, f"callgrind samples {s}, profile {n}")
            expect(cyc == round(mean), f"callgrind cycles {cyc}, mean {round(mean)}")


def case_shares():
    shares("dap")


def case_shares_hla():
    shares("hla")


def case_shares_jtag():
    shares("jtag", 9)


def case_short():
    # A stretch that ends before any read lands in it: no empty profile, a warning that says so.
    p, report, prefix = run([os.path.join(FW, "profile", "shares.elf"), "--arg", "input=1", "--repeat", "2",
                             "--profile-sampled"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    rep = json.load(open(report)) if os.path.exists(report) else {}
    expect("profile" not in rep, "an empty profile section")
    expect(any("no PCSR sample of shares" in w for w in rep.get("warnings", [])), f"warnings {rep.get('warnings')}")
    expect(not os.path.exists(prefix + ".callgrind"), "a callgrind file without samples")


def refusal(board, fw):
    p, report, prefix = run([fw, "--board", board])
    lines = [l for l in p.stderr.splitlines() if l.startswith("bench: ")]
    expect(p.returncode == 2, f"exit code {p.returncode}, expected 2 (usage)")
    expect(len(lines) == 1 and "DWT_PCSR" in lines[0] and board in lines[0], f"error lines {lines}")
    expect(not os.path.exists(prefix + ".callgrind"), "a callgrind file was written")


def case_symbols():
    # --start/--stop has no BEGIN..END stretch to sample: refused before anything starts.
    p, report, prefix = run([os.path.join(EX, "fut-hardfp.elf"), "--start", "main", "--stop", "fut",
                             "--profile-sampled"])
    lines = [l for l in p.stderr.splitlines() if l.startswith("bench: ")]
    expect(p.returncode == 2, f"exit code {p.returncode}, expected 2 (usage)")
    expect(len(lines) == 1 and "--profile samples between markers" in lines[0], f"error lines {lines}")


def case_farm():
    # A farm's merged report keeps no profile: refused before anything starts.
    farm = os.path.join(SRC, "tests", "ci", "fixtures", "farm", "two-virtual.farm")
    p, report, prefix = run(["--farm", farm, os.path.join(FW, "profile", "shares.elf")])
    lines = [l for l in p.stderr.splitlines() if l.startswith("bench: ")]
    expect(p.returncode == 2, f"exit code {p.returncode}, expected 2 (usage)")
    expect(lines == ["bench: --profile cannot go with --farm: profile one board at a time with --board"],
           f"error lines {lines}")


def callgrind_totals(path):
    """callgrind_annotate's PROGRAM TOTALS of the file: a list of ints, Cycles first."""
    ann = shutil.which("callgrind_annotate")
    expect(ann is not None, "callgrind_annotate (valgrind) not found")
    if not ann:
        return []
    a = subprocess.run([ann, path], capture_output=True, text=True)
    expect(a.returncode == 0, f"callgrind_annotate exit {a.returncode}: {a.stderr}")
    line = next((l for l in a.stdout.splitlines() if l.endswith("PROGRAM TOTALS")), "")
    expect(line != "", f"no PROGRAM TOTALS line from callgrind_annotate:\n{a.stdout[:1500]}")
    return [int(v.replace(",", "")) for v in re.findall(r"([\d,]+)(?: \([\d.]+%\))?\s", line)]


def folded_total(path):
    return sum(int(l.rsplit(" ", 1)[1]) for l in open(path).read().split("\n") if l)


# fut-softfp's exact profile by the virtual board's model (docs/profile.md): the functions' own
# cycles per stretch. Input 3 takes __aeabi_l2f (reached from __floatsisf by a branch, no call).
SOFTFP = {
    0: {"__aeabi_fmul": 24, "fut": 20, "__aeabi_f2iz": 8, "__floatsisf": 7, "main": 3},
    3: {"__aeabi_fmul": 37, "fut": 20, "__aeabi_l2f": 17, "__aeabi_f2iz": 16, "__floatsisf": 12, "main": 3},
}


def case_exact():
    p, report, prefix = run([os.path.join(EX, "fut-softfp.elf"), "--arg", "input=0,3", "--repeat", "3"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    if p.returncode:
        return
    c = check_schema(CHECK, SCHEMA, report, "ok")
    expect(c.returncode == 0, f"schema check: {c.stderr.strip()}")
    rep = json.load(open(report))
    prof = rep.get("profile") or []
    expect(len(prof) == 2, f"{len(prof)} profiles, expected one per input")
    for pr in prof:
        v = pr["args"]["input"]
        res = [r for r in rep["results"] if r["name"] == "fut" and r["args"] == {"input": v}]
        cycles = res[0]["samples"][0] if res else None
        expect(res and set(res[0]["samples"]) == {cycles}, f"input {v}: samples {res and res[0]['samples']}")
        expect(pr["source"] == "ledger" and pr["stretches"] == 3 and not pr["summed"], f"input {v}: {pr['source']}")
        expect(pr["cycles"] == cycles, f"input {v}: profile cycles {pr['cycles']}, result {cycles}")
        fns = {f["name"]: f["cycles"] for f in pr["functions"]}
        expect(fns == SOFTFP.get(v), f"input {v}: functions {fns}, expected {SOFTFP.get(v)}")
        expect(sum(fns.values()) == cycles, f"input {v}: functions add up to {sum(fns.values())}, not {cycles}")
        incl = {f["name"]: f["inclusive"] for f in pr["functions"]}
        expect(incl.get("main") == cycles, f"input {v}: main inclusive {incl.get('main')}")
        expect(sum(i["cycles"] for i in pr["instructions"]) == cycles, f"input {v}: instructions do not add up")
        if os.environ.get("BENCH_HAVE_LIBDW") == "1":
            expect(any(l["file"].endswith("fut.c") for l in pr["lines"]), f"input {v}: no fut.c line")
        base = f"{prefix}.fut.input={v}"
        tot = callgrind_totals(base + ".callgrind")
        expect(tot[:1] == [cycles], f"input {v}: callgrind totals {tot}, expected Cycles {cycles}")
        expect(len(tot) > 2 and sum(tot[2:]) == cycles, f"input {v}: the reasons' totals {tot[2:]} do not add up")
        ft = folded_total(base + ".folded")
        expect(ft == cycles, f"input {v}: folded total {ft}, expected {cycles}")
    for pr in prof:  # every instruction disassembled (capstone, host/profile/profile_disasm.c)
        bad = [i["address"] for i in pr["instructions"] if not i["disassembly"]]
        expect(not bad, f"input {pr['args']}: no disassembly at {bad}")
    # The HTML page's annotated listing, from the JSON report read back: fut's call of the
    # multiplication under its source line, with the cycles of each instruction.
    page = os.path.join(os.path.dirname(report), "report.html")
    h = subprocess.run([BENCH, "report", report, "--html", page], capture_output=True, text=True)
    expect(h.returncode == 0, f"bench report --html: exit {h.returncode}: {h.stderr}")
    text = open(page).read() if os.path.exists(page) else ""
    expect("<h2>Profile fut[input=3]: 105 cycles a stretch</h2>" in text, "no profile section in the HTML page")
    expect("<h3>Annotated listing</h3>" in text, "no annotated listing")
    expect("<h3>Flame graph</h3>" in text and "<title>__aeabi_l2f: 17 cycles (16.19 %)</title>" in text
           and "<title>fut: 102 cycles (97.14 %)</title>" in text, "no flame graph frames for l2f and fut")
    expect(re.search(r"<td>0x[0-9a-f]{8}</td><td>1</td><td>3</td><td><div class=\"bar\"[^>]*></div></td>"
                     r"<td class=\"code\">push \{r3, lr\}</td>", text) is not None, "no push {r3, lr} with its 3 cycles (1 + N, TRM 3.3.1)")
    if os.environ.get("BENCH_HAVE_LIBDW") == "1":
        expect("fut.c:10   \treturn input * 3.14159265359f;" in text, "no fut.c:10 source row")
    expect("profile fut[input=3] against fut[input=0] (A): +43 cycles (62 -> 105)" in p.stdout,
           "no per-input difference on the console")
    expect(re.search(r"^\s+__aeabi_l2f\s+-\s+17\s+\+17\s", p.stdout, re.M) is not None,
           "the difference does not show __aeabi_l2f's 17 cycles")
    expect(re.search(r"^\s+__aeabi_fmul\s+24\s+38\.71 %\s+24\s+1\s+19\s+\S", p.stdout, re.M) is not None,
           "no __aeabi_fmul row with its reasons on the console")


def case_agree():
    # The same ELF and stretches, exact and sampled: the sampled shares within 4 standard errors of
    # the exact ones (sqrt(p(1-p)/n), n the samples), the same top function.
    fw = os.path.join(FW, "profile", "shares.elf")
    p, report, prefix = run([fw, "--arg", "input=100000", "--repeat", "2", "--warmup", "0"])
    expect(p.returncode == 0, f"exact: exit code {p.returncode}")
    if p.returncode:
        return
    ex = json.load(open(report))["profile"]
    expect(len(ex) == 1 and ex[0]["source"] == "ledger", f"exact profile {ex}")
    exact = {f["name"]: f["share"] for f in ex[0]["functions"]}
    expect(ex[0]["functions"][0]["name"] == "heavy", f"exact top function {ex[0]['functions'][0]['name']}")
    for attempt in range(3):
        p, report, prefix = run([fw, "--arg", "input=1000000", "--repeat", str(6 << attempt), "--warmup", "0",
                                 "--profile-sampled"])
        expect(p.returncode == 0, f"sampled: exit code {p.returncode}")
        if p.returncode:
            return
        sp = json.load(open(report))["profile"][0]
        if sp["samples"] >= 200:
            break
    n = sp["samples"]
    expect(sp["source"] == "DWT_PCSR" and n >= 200, f"sampled: {sp['source']}, {n} samples")
    expect(sp["functions"][0]["name"] == ex[0]["functions"][0]["name"], "the top functions differ")
    for name in ("heavy", "light"):
        want = exact.get(name, 0.0)
        got = next((f["share"] for f in sp["functions"] if f["name"] == name), 0.0)
        se = math.sqrt(want * (1 - want) / n)
        print(f"{name}: exact share {want:.4f}, sampled {got:.4f} (n={n}, se {se:.4f})", file=sys.stderr)
        expect(abs(got - want) <= 4 * se, f"{name}: sampled {got:.4f}, exact {want:.4f} +- {4 * se:.4f}")


def case_exact_irq():
    # tests/firmware/faults input 6: SysTick every 1000 cycles around 200 NOPs, so some of the 9
    # stretches take the exception: those run differently (the profile is the sum, equal to the
    # sum of every sample, interrupted ones too) and the handler is a frame of its own, under
    # whatever it interrupted, its entry and return under the ledger's exception reason.
    p, report, prefix = run([os.path.join(FW, "faults", "faults.elf"), "--arg", "input=6", "--repeat", "9"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    if p.returncode:
        return
    rep = json.load(open(report))
    pr = (rep.get("profile") or [None])[0]
    res = rep["results"][0]
    expect(pr is not None and pr["summed"] and pr["stretches"] == 9, f"profile {pr and pr['summed']}")
    if not pr:
        return
    expect(pr["cycles"] == sum(res["samples"]), f"profile {pr['cycles']}, samples {sum(res['samples'])}")
    fns = {f["name"]: f for f in pr["functions"]}
    h = fns.get("SysTick_Handler")
    expect(h is not None and h["calls"] == len(res.get("interrupted", [])) and h["calls"] > 0,
           f"SysTick_Handler {h}, interrupted {res.get('interrupted')}")
    exc = [i for i, r in enumerate(pr["reasons"]) if r.startswith("exc-")]
    expect(h is not None and exc and sum(h["by_reason"][i] for i in exc) > 0,
           "no exception cycles (exc-entry, exc-return, ...) in the handler")
    frames = [s["frames"] for s in pr["stacks"]]
    expect(any(f.endswith(";stretch;SysTick_Handler") or ";stretch;nops200;SysTick_Handler" in f for f in frames),
           f"no handler frame on the stretch's stacks: {frames}")
    expect(folded_total(prefix + ".folded") == pr["cycles"], "folded total is not the profile's")


def case_exact_symbols():
    # --start/--stop on a firmware with no markers (tests/e2e case_symbols: 575 cycles a boot).
    p, report, prefix = run([os.path.join(FW, "rsp", "sim_nomarkers.elf"), "--start", "start_trigger", "--stop",
                             "stop_trigger", "--repeat", "2", "--warmup", "1"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    if p.returncode:
        return
    rep = json.load(open(report))
    prof = rep.get("profile") or []
    cycles = rep["results"][0]["samples"][0]
    expect(cycles == 575, f"result {cycles} cycles, expected 575")
    expect(len(prof) == 1 and prof[0]["name"] == "start_trigger..stop_trigger", f"profiles {[q['name'] for q in prof]}")
    expect(prof and not prof[0]["summed"] and prof[0]["stretches"] == 2, "the two boots did not run alike")
    expect(prof and prof[0]["cycles"] == cycles, f"profile cycles {prof and prof[0]['cycles']}, result {cycles}")
    expect(folded_total(prefix + ".folded") == cycles, "folded total is not the result's cycles")


def case_qemu():
    refusal("qemu-mps2-an386", os.path.join(FW, "rsp", "qemu_nop.elf"))


def case_tricore():
    fw = os.path.join(BUILD, "tests", "tricore", "tricore_loop.elf")
    if not os.path.exists(fw):  # built only with a TriCore toolchain (tests/tricore)
        strict = os.environ.get("CI") == "true" or os.environ.get("BENCH_STRICT") == "1"
        print(f"{fw} not built: no TriCore toolchain" + (" (strict: a skip fails)" if strict else ""), file=sys.stderr)
        sys.exit(1 if strict else 77)
    refusal("qemu-tc277", fw)


run_case(globals(), CASE)
