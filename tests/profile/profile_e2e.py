#!/usr/bin/env python3
"""bench run --profile end to end: DWT_PCSR sampled through stock OpenOCD on the virtual board, and
the refusal on boards without it. Usage: profile_e2e.py BUILD_DIR SOURCE_DIR CASE

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
                                 str(repeat << attempt), "--warmup", "0"])
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
    p, report, prefix = run([os.path.join(FW, "profile", "shares.elf"), "--arg", "input=1", "--repeat", "2"])
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
    p, report, prefix = run([os.path.join(EX, "fut-hardfp.elf"), "--start", "main", "--stop", "fut"])
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
