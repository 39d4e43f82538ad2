#!/usr/bin/env python3
"""Every run ends (issue 26, class 1), on the virtual board: a firmware that resets before one
input's stretch every time (a watchdog: tests/firmware/faults/faults.elf input 10) is given up
after a bounded number of restarts in a row, with one line naming the input and the cause, exit 5
and a report keeping what was measured; `--json` onto a FIFO nobody reads does not block for ever:
the report is kept in a file under $TMPDIR and the error names it.
Usage: bounds_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import check_schema, expect, paths, procs_in, run_case  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
BENCH, EX, SCHEMA, CHECK = paths(BUILD, SRC)
FAULTS_FW = os.path.join(BUILD, "tests", "firmware", "faults", "faults.elf")


def run(args, timeout=90, env=None):
    """bench run ARGS; the finished process (a bench that never ends fails the test at `timeout`)."""
    try:
        p = subprocess.run([BENCH, "run"] + args, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        expect(False, f"bench did not end within {timeout} s")
        print(e.stderr, file=sys.stderr)
        raise SystemExit(1)
    print(p.stderr, file=sys.stderr)
    return p


def bench_lines(p):
    return [l for l in p.stderr.splitlines() if l.startswith("bench: ")]


def case_restart_loop():
    """faults.elf input 1 (clean, 25 cycles), then input 10, whose SYNC is followed by a
    SYSRESETREQ every time: 8 restarts in a row, then exit 5 naming input=10; input 1's two samples
    are in the report, status incomplete."""
    tmp = tempfile.mkdtemp(prefix="bench-bounds-")
    report, wd = os.path.join(tmp, "r.json"), os.path.join(tmp, "wd")
    p = run([FAULTS_FW, "--arg", "input=1,10", "--repeat", "2", "--json", report, "--work-dir", wd, "--quiet"])
    lines = bench_lines(p)
    expect(p.returncode == 5, f"exit code {p.returncode}, expected 5")
    expect(lines == ["bench: the target restarted 8 times in a row without finishing a stretch, at input=10 (a "
                     "watchdog, AIRCR.SYSRESETREQ, a lockup reset): the report keeps the 2 samples measured so far; "
                     "find what resets the core there"], f"lines {lines}")
    expect(procs_in(os.path.realpath(wd)) == {}, "processes left running")
    rep = json.load(open(report))
    expect(rep["status"] == "incomplete" and rep["status_detail"] == "target",
           f"status {rep['status']} {rep['status_detail']}")
    res = {r["args"]["input"]: r["samples"] for r in rep["results"]}
    expect(res.get(1) == [25, 25], f"samples {res}")
    expect(not res.get(10), f"input 10 has samples {res.get(10)}")
    c = check_schema(CHECK, SCHEMA, report, "incomplete")
    expect(c.returncode == 0, f"schema: {c.stderr.strip()}")


def case_json_fifo_no_reader():
    """--json onto a FIFO nobody opens: after measuring, bench waits 10 s for a reader, then
    keeps the report in $TMPDIR/bench-report-XXXXXX, names it on its one line and exits 6; the
    file holds the measured report."""
    tmp = tempfile.mkdtemp(prefix="bench-bounds-")
    fifo = os.path.join(tmp, "r.fifo")
    os.mkfifo(fifo)
    keep = os.path.join(tmp, "keep")
    os.mkdir(keep)
    env = dict(os.environ, TMPDIR=keep)
    p = run([os.path.join(EX, "nops.elf"), "--repeat", "2", "--json", fifo, "--quiet"], timeout=60, env=env)
    lines = bench_lines(p)
    kept = [f for f in os.listdir(keep) if f.startswith("bench-report-")]
    expect(p.returncode == 6, f"exit code {p.returncode}, expected 6")
    expect(len(kept) == 1, f"kept reports {kept}")
    if kept:
        path = os.path.join(keep, kept[0])
        want = (f"bench: cannot write report {fifo}: a FIFO nobody reads (waited 10 s): the report is kept in "
                f"{path}; start its reader first, or give a file")
        expect(lines == [want], f"lines {lines}")
        rep = json.load(open(path))
        expect(rep["status"] == "ok" and all(len(r["samples"]) == 2 for r in rep["results"]),
               f"kept report {rep['status']} {[r['samples'] for r in rep['results']]}")


def children_of(pid):
    """Child processes of pid in any state (zombies included), from /proc/*/stat's ppid field."""
    kids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return kids


def case_json_fifo_signal():
    """The same, with SIGTERM while bench waits for the FIFO's reader: it is waiting there when it
    has no child left (OpenOCD and bench-sim stopped and reaped: the run is over) and sleeps in
    the kernel (wchan hrtimer_nanosleep, its 20 ms poll for a reader). The report is kept, the line
    says so, exit 130. On a24bc0b bench blocked in open(2) and the signal lost the report."""
    tmp = tempfile.mkdtemp(prefix="bench-bounds-")
    fifo, keep = os.path.join(tmp, "r.fifo"), os.path.join(tmp, "keep")
    os.mkfifo(fifo)
    os.mkdir(keep)
    p = subprocess.Popen([BENCH, "run", os.path.join(EX, "nops.elf"), "--repeat", "2", "--json", fifo, "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, TMPDIR=keep))
    started, deadline = False, time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        kids = children_of(p.pid)
        started = started or bool(kids)
        try:
            wchan = open(f"/proc/{p.pid}/wchan").read()
        except OSError:
            wchan = ""
        if started and not kids and wchan in ("hrtimer_nanosleep", "do_nanosleep"):
            break
        time.sleep(0.005)  # polling for a state, not ordering events
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=30)
    print(err, file=sys.stderr)
    kept = [f for f in os.listdir(keep) if f.startswith("bench-report-")]
    lines = [l for l in err.splitlines() if l.startswith("bench: ")]
    expect(p.returncode == 130, f"exit code {p.returncode}, expected 130")
    expect(len(kept) == 1 and lines == [
        f"bench: cannot write report {fifo}: a FIFO nobody reads (interrupted while waiting for a reader): the "
        f"report is kept in {os.path.join(keep, kept[0]) if kept else '?'}; start its reader first, or give a file"],
        f"lines {lines}, kept {kept}")
    if kept:
        rep = json.load(open(os.path.join(keep, kept[0])))
        expect(rep["status"] == "ok" and all(len(r["samples"]) == 2 for r in rep["results"]), "kept report")


run_case(globals(), CASE)
