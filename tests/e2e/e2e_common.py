"""What run_e2e.py and server_e2e.py share: the command line (BUILD_DIR SOURCE_DIR CASE), the
paths built from it, and `bench run` with its report checked."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import check_schema as schema_check, expect, paths, procs_in  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
BENCH, EX, SCHEMA, CHECK = paths(BUILD, SRC)
FW = os.path.join(BUILD, "tests", "firmware")


def run(args, env=None, timeout=120, status=None, check_schema=True):
    """Runs bench run ARGS with --json and a work dir; returns (rc, stdout, stderr, report)."""
    tmp = tempfile.mkdtemp(prefix="bench-e2e-")
    report = os.path.join(tmp, "report.json")
    wd = os.path.join(tmp, "wd")
    cmd = [BENCH, "run"] + args + ["--json", report, "--work-dir", wd]
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=e)
    print(f"$ {' '.join(cmd)}\n-> {p.returncode}\n{p.stdout}{p.stderr}", file=sys.stderr)
    rep = None
    if os.path.exists(report):
        rep = json.load(open(report))
        if check_schema:
            c = schema_check(CHECK, SCHEMA, report, status)
            expect(c.returncode == 0, f"schema check: {c.stderr.strip()}")
    expect(procs_in(os.path.realpath(wd)) == {}, f"processes left running in {wd}")
    expect("\r[" not in p.stderr, "a progress bar reached a pipe")
    return p.returncode, p.stdout, p.stderr, rep


def result(rep, name, **args):
    for r in rep["results"]:
        if r["name"] == name and r["args"] == args:
            return r
    return None


def one_error_line(err, text, code, rc):
    lines = [l for l in err.splitlines() if l.startswith("bench: ")]
    expect(rc == code, f"exit code {rc}, expected {code}")
    expect(len(lines) == 1, f"expected one error line, got {lines}")
    expect(lines and text in lines[0], f"error line {lines} lacks {text!r}")
