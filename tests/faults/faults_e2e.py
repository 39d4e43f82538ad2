#!/usr/bin/env python3
"""Fault injection on `bench run` against the virtual board (bench-sim + stock OpenOCD), issue 7.

Each case starts a long sweep, waits until samples are being taken, injects one fault (kills
OpenOCD, kills bench-sim, sends SIGTERM), and checks what docs/reliability.md promises: one clear
`bench: ` line, the documented exit code (docs/exit-codes.md), no process bench started left
running, and a JSON report that parses, passes the schema, keeps the samples measured so far and
says in status/status_detail what happened. Other cases: valgrind on two whole runs, and every
listening socket of bench's children bound to 127.0.0.1.
Usage: faults_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import benchtest  # noqa: E402
from benchtest import check_schema as schema_check, expect, failures, paths, procs_in, run_case  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
BENCH, EX, SCHEMA, CHECK = paths(BUILD, SRC)
_mkdtemp = tempfile.mkdtemp


def _tmpdir(prefix):
    """A temporary folder removed at exit when every check passed (kept for a failure's logs)."""
    d = _mkdtemp(prefix=prefix)
    atexit.register(lambda: failures or shutil.rmtree(d, ignore_errors=True))
    return d


tempfile.mkdtemp = _tmpdir


def start_long_run(extra=()):
    """bench run on a sweep long enough (100000 inputs) that the fault always lands mid-run;
    calibration and load take well under the 1.5 s it waits for the first samples."""
    return benchtest.start_long_run(BENCH, os.path.join(EX, "fut-softfp.elf"), "bench-faults-",
                                    ["--quiet"] + list(extra), settle=1.5)


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
        expect(len(r["samples"]) == r["n"], f"{r['name']} {r['args']}: n {r['n']} but {len(r['samples'])} samples")
    c = schema_check(CHECK, SCHEMA, report, "incomplete")
    expect(c.returncode == 0, f"schema: {c.stderr.strip()}")
    print(f"kept {n} samples; error: {rep.get('error')}", file=sys.stderr)
    return rep


def kill_child(wd, comm):
    kids = {pid: c for pid, c in procs_in(wd).items() if c == comm}
    expect(len(kids) == 1, f"expected one {comm} in {wd}, found {procs_in(wd)}")
    for pid in kids:
        os.kill(pid, signal.SIGKILL)


def ended_soon(p, killed_at, what):
    """bench must notice a dead child between two slices of its halt wait (docs/reliability.md),
    well before --timeout 30s. The bound is half that timeout, not a speed target: a loaded CI
    machine may take seconds to schedule bench, but only a missed check waits the whole 30 s."""
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pass
    took = time.monotonic() - killed_at
    expect(took < 15.0, f"bench ended {took:.2f} s after {what} was killed, expected well before --timeout 30s")
    print(f"ended {took:.2f} s after the kill", file=sys.stderr)


def case_openocd_killed():
    p, report, wd = start_long_run(["--timeout", "30s"])
    kill_child(wd, "openocd")
    ended_soon(p, time.monotonic(), "OpenOCD")
    finish(p, report, wd, 4, "bench: connection to OpenOCD at 127.0.0.1:", "connect")


def case_sim_killed():
    # OpenOCD stays up polling a dead link; bench checks its children between wait slices.
    p, report, wd = start_long_run(["--timeout", "30s"])
    kill_child(wd, "bench-sim")
    ended_soon(p, time.monotonic(), "bench-sim")
    finish(p, report, wd, 4, "bench: the virtual board (bench-sim) stopped mid-run (killed by signal 9): the report keeps the ", "connect")


def case_sigterm():
    p, report, wd = start_long_run()
    p.send_signal(signal.SIGTERM)
    finish(p, report, wd, 130, "bench: interrupted: stopped the run; the report keeps the", "interrupted")


FAULTS_FW = os.path.join(BUILD, "tests", "firmware", "faults", "faults.elf")


def fault_run(value, code, message, detail):
    """faults.elf with the clean input 1 first (samples to keep), then the faulting input."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report, wd = os.path.join(tmp, "r.json"), os.path.join(tmp, "wd")
    cmd = [BENCH, "run", FAULTS_FW, "--arg", f"input=1,{value}", "--repeat", "2", "--timeout", "3000",
           "--json", report, "--work-dir", wd, "--quiet"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rep = finish(p, report, os.path.realpath(wd), code, message, detail)
    for r in rep["results"]:
        if r["args"] == {"input": 1}:
            expect(r["samples"] == [26, 26], f"input=1 samples {r['samples']}, expected [26, 26]")
    return rep


def case_reset():
    fault_run(2, 5, "bench: the target restarted inside the measured stretch (after marker BEGIN stretch)", "target")


def case_lockup():
    fault_run(3, 5, "bench: the target locked up (DHCSR.S_LOCKUP", "fault")


def case_counter_off():
    fault_run(4, 5, "bench: the cycle counter was switched off during the run (DWT_CTRL.CYCCNTENA = 0", "target")


def case_wrap():
    """A stretch of 300 SysTick periods of 2^24 cycles plus the loop: 5033164865 cycles, which
    DWT_CYCCNT shows as 5033164865 - 2^32 = 738197569. bench keeps that value and flags the
    samples as wrapped from bench-sim's 64-bit cycle count (the host's clock cannot tell: the
    simulator skips the sleep in well under a second)."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report, wd = os.path.join(tmp, "r.json"), os.path.join(tmp, "wd")
    p = subprocess.run([BENCH, "run", FAULTS_FW, "--arg", "input=1,5", "--repeat", "2", "--json", report,
                        "--work-dir", wd, "--quiet"], capture_output=True, text=True, timeout=120)
    print(p.stderr, file=sys.stderr)
    expect(p.returncode == 0, f"exit code {p.returncode}, expected 0")
    rep = json.load(open(report))
    expect(rep["status"] == "ok", f"status {rep['status']}")
    by_input = {r["args"]["input"]: r for r in rep["results"]}
    expect(by_input[1]["samples"] == [26, 26] and by_input[1]["wrapped"] == [], f"input=1: {by_input[1]}")
    expect(by_input[5]["samples"] == [738197569, 738197569], f"input=5 samples {by_input[5]['samples']}")
    expect(by_input[5]["wrapped"] == [0, 1], f"input=5 wrapped {by_input[5]['wrapped']}, expected [0, 1]")
    c = schema_check(CHECK, SCHEMA, report, "ok")
    expect(c.returncode == 0, f"schema: {c.stderr.strip()}")
    expect(procs_in(os.path.realpath(wd)) == {}, "processes left running")


def case_relative_workdir():
    """--work-dir given relative to the current folder (bench-sim once failed to create its socket)."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    p = subprocess.run([BENCH, "run", os.path.join(EX, "nops.elf"), "--repeat", "1", "--json", "r.json",
                        "--work-dir", "wd", "--quiet"], capture_output=True, text=True, timeout=120, cwd=tmp)
    print(p.stderr, file=sys.stderr)
    expect(p.returncode == 0, f"exit code {p.returncode}, expected 0")
    rep = json.load(open(os.path.join(tmp, "r.json")))
    nop10 = [r for r in rep["results"] if r["name"] == "nop10"]
    expect(nop10 and nop10[0]["samples"] == [10], f"nop10: {nop10}")
    expect(procs_in(os.path.join(os.path.realpath(tmp), "wd")) == {}, "processes left running")


def case_listen_local():
    """While a run is going, every TCP socket bench's children listen on is bound to 127.0.0.1."""
    p, report, wd = start_long_run()
    pids = set(procs_in(wd)) | {p.pid}
    ss = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True).stdout
    mine = [l for l in ss.splitlines() if any(f"pid={pid}," in l for pid in pids)]
    print("\n".join(mine), file=sys.stderr)
    # OpenOCD's TCL port and bench-sim's control port (its JTAG link is a Unix socket in the work dir).
    expect(any('"openocd"' in l for l in mine), "no listening socket of OpenOCD (its TCL port)")
    expect(any('"bench-sim"' in l for l in mine), "no listening socket of bench-sim (its control port)")
    for l in mine:
        local = l.split()[3]
        expect(local.startswith("127.0.0.1:"), f"listens beyond loopback: {l}")
    p.send_signal(signal.SIGINT)
    finish(p, report, wd, 130, "interrupted", "interrupted")


def case_valgrind_nops():
    valgrind_run([os.path.join(EX, "nops.elf"), "--repeat", "2"], 0)


def case_valgrind_fault():
    fw = os.path.join(BUILD, "tests", "firmware", "run", "fault.elf")
    valgrind_run([fw, "--arg", "input=1,2,3", "--repeat", "2"], 5)


def valgrind_run(args, code):
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report, wd = os.path.join(tmp, "r.json"), os.path.join(tmp, "wd")
    cmd = ["valgrind", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect",
           "--trace-children=no", BENCH, "run"] + args + ["--json", report, "--work-dir", wd, "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print(p.stderr[-4000:], file=sys.stderr)
    expect(p.returncode == code, f"exit code {p.returncode}, expected {code} (99: valgrind found errors)")
    expect("ERROR SUMMARY: 0 errors" in p.stderr, "valgrind reports errors")
    json.load(open(report))
    expect(procs_in(os.path.realpath(wd)) == {} if os.path.exists(wd) else True, "processes left running")


run_case(globals(), CASE)
