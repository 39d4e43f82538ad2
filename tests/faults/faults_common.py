"""What faults_e2e.py and interrupts_e2e.py share: the command line (BUILD_DIR SOURCE_DIR CASE), the
paths built from it, temporary folders kept only for a failure, and the runs both make."""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import check_schema as schema_check, expect, failures, paths, procs_in  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
BENCH, EX, SCHEMA, CHECK = paths(BUILD, SRC)
_mkdtemp = tempfile.mkdtemp


def _tmpdir(prefix):
    """A temporary folder removed at exit when every check passed (kept for a failure's logs)."""
    d = _mkdtemp(prefix=prefix)
    atexit.register(lambda: failures or shutil.rmtree(d, ignore_errors=True))
    return d


tempfile.mkdtemp = _tmpdir


def finish(p, report, wd, code, message, detail):
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        expect(False, "bench did not exit within 60 s of the fault")
    print(err, file=sys.stderr)
    lines = [l for l in err.splitlines() if l.startswith("bench: ")]
    expect(p.returncode == code, f"exit code {p.returncode}, expected {code}")
    expect(len(lines) == 1, f"expected one bench: line, got {lines}")
    expect(lines and message in lines[0], f"error line {lines} lacks {message!r}")
    time.sleep(0.3)
    expect(procs_in(wd) == {}, f"processes left running in {wd}: {procs_in(wd)}")
    leftovers = [f for f in os.listdir(os.path.dirname(report)) if f not in ("r.json", "wd")]
    expect(leftovers == [], f"temporary files next to the report: {leftovers}")
    rep = json.load(open(report))  # raises (test fails) on half a file
    expect(rep["status"] == "incomplete", f"status {rep['status']}, expected incomplete")
    expect(rep.get("status_detail") == detail, f"status_detail {rep.get('status_detail')}, expected {detail}")
    n = sum(r["n"] for r in rep["results"])
    expect(n > 0, "no samples kept")
    for r in rep["results"]:
        counted = len(r["samples"]) - len(r.get("interrupted", []))
        expect(counted == r["n"], f"{r['name']} {r['args']}: n {r['n']} but {counted} counted samples")
    c = schema_check(CHECK, SCHEMA, report, "incomplete")
    expect(c.returncode == 0, f"schema: {c.stderr.strip()}")
    print(f"kept {n} samples; error: {rep.get('error')}", file=sys.stderr)
    return rep


FAULTS_FW = os.path.join(BUILD, "tests", "firmware", "faults", "faults.elf")


def quick_run(args, elf=None):
    """bench run ELF (nops.elf) ARGS --json r.json in a fresh folder; (process, report path, folder)."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report = os.path.join(tmp, "r.json")
    cmd = [BENCH, "run", elf or os.path.join(EX, "nops.elf"), "--repeat", "1", "--work-dir", os.path.join(tmp, "wd")]
    p = subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=120, cwd=tmp)
    print(p.stderr, file=sys.stderr)
    expect(procs_in(os.path.realpath(os.path.join(tmp, "wd"))) == {}, "processes left running")
    return p, report, tmp


def faults_run(inputs, extra=(), repeat=9, fw=None, env=None):
    """bench run faults.elf --arg input=INPUTS; (process, report dict or None, folder)."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report, wd = os.path.join(tmp, "r.json"), os.path.join(tmp, "wd")
    p = subprocess.run([BENCH, "run", fw or FAULTS_FW, "--arg", f"input={inputs}", "--repeat", str(repeat),
                        "--json", report, "--work-dir", wd, "--quiet"] + list(extra),
                       capture_output=True, text=True, timeout=120, env=env)
    print(p.stderr, file=sys.stderr)
    expect(procs_in(os.path.realpath(wd)) == {}, "processes left running")
    rep = json.load(open(report)) if os.path.exists(report) else None
    if rep:
        c = schema_check(CHECK, SCHEMA, report)
        expect(c.returncode == 0, f"schema: {c.stderr.strip()}")
    return p, rep, tmp


def by_input(rep):
    return {r["args"]["input"]: r for r in rep["results"]}
