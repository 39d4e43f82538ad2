"""Helpers shared by the Python tests of `bench` (tests/e2e, tests/faults, tests/badinput, tests/ci):
failure collection, the processes bench started in a work dir, free loopback ports, the report
schema check, case dispatch, and the '|'-separated case tables. Import with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
Only the standard library: the tests run on a bare Debian with python3."""
import atexit
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

failures = []


def expect(cond, what):
    """Records a failed check (the test goes on, so one run shows every problem)."""
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def paths(build, src):
    """(BENCH, EX, SCHEMA, CHECK): the bench binary, the example firmware folder, the report schema
    and its checker, for a build folder and the source tree."""
    return (os.path.join(build, "bench"), os.path.join(build, "examples", "sim-stm32f4"),
            os.path.join(src, "docs", "report-schema.json"), os.path.join(src, "tests", "host", "check_schema.py"))


def procs_in(workdir):
    """{pid: comm} of processes whose working directory is workdir: what bench started (it runs
    OpenOCD, bench-sim and QEMU there)."""
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{pid}/cwd") == workdir:
                with open(f"/proc/{pid}/comm") as f:
                    found[int(pid)] = f.read().strip()
        except OSError:
            pass
    return found


def start_long_run(bench, elf, prefix, extra=(), settle=1.5):
    """Starts `bench run ELF` on a sweep of 100000 inputs, long enough that whatever the test does
    next lands mid-run; returns once OpenOCD and bench-sim run in its work dir and `settle` seconds
    more have passed for the first samples. Returns (Popen, report path, work dir as /proc shows
    it). bench is killed at exit if the test ends first (an exception) and leaves it running."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    report, wd = os.path.join(tmp, "r.json"), os.path.join(tmp, "wd")
    cmd = [bench, "run", elf, "--arg", "input=0:100000:1", "--repeat", "1", "--json", report, "--work-dir", wd]
    p = subprocess.Popen(cmd + list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    atexit.register(lambda: p.poll() is None and p.kill())
    deadline = time.time() + 30
    while time.time() < deadline and len(procs_in(os.path.realpath(wd))) < 2:
        time.sleep(0.05)
    time.sleep(settle)
    return p, report, os.path.realpath(wd)


def openocd_port(log_path, service, proc, timeout=20.0):
    """The port OpenOCD 0.12 bound for SERVICE ("tcl", "gdb") after `SERVICE_port 0`, from its log
    line "Listening on port N for SERVICE connections" (src/server/server.c add_service()): no port
    is picked here and closed again for another process to take first. None if OpenOCD exits or
    timeout seconds pass."""
    pat = re.compile(r"Listening on port (\d+) for %s connections$" % re.escape(service))
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with open(log_path) as f:
                for line in f:
                    m = pat.search(line.rstrip("\n"))
                    if m and line.endswith("\n"):
                        return int(m.group(1))
        except OSError:
            pass
        if proc.poll() is not None:
            return None
        time.sleep(0.02)
    return None


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (for a port nothing listens on, or one
    bench is told to use; a server started by a test gets port 0 and openocd_port())."""
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
    finally:
        s.close()


def check_schema(check, schema, report, status=None):
    """Runs check_schema.py on a report; returns the finished process (returncode 0: valid)."""
    argv = [sys.executable, check, schema, report] + (["--expect-status", status] if status else [])
    return subprocess.run(argv, capture_output=True, text=True)


def run_case(scope, case):
    """Runs scope's case_<case>() and exits 0 when no check failed, 1 otherwise, 2 for an unknown case."""
    cases = {n[5:]: f for n, f in scope.items() if n.startswith("case_")}
    if case not in cases:
        print(f"unknown case {case}; cases: {' '.join(cases)}", file=sys.stderr)
        sys.exit(2)
    cases[case]()
    sys.exit(1 if failures else 0)


def table_rows(path, n_fields):
    """(line number, fields) of a case table: one case a line, fields separated by '|' and
    stripped; blank lines and '#' comments skipped. A line with another field count ends the test."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) != n_fields:
                sys.exit(f"{os.path.basename(path)}:{lineno}: expected {n_fields} fields separated by '|', "
                         f"found {len(fields)}")
            yield lineno, fields


def table_verdict(where, name, problems):
    """Prints one case's verdict ('ok   NAME' or 'FAIL WHERE NAME: problems'); True when it failed."""
    if problems:
        print(f"FAIL {where} {name}: " + "; ".join(problems))
        return True
    print(f"ok   {name}")
    return False


def symbol_file_offset(elf, name):
    """File offset in ELF of the initialised symbol NAME (its section's bytes in the file), found
    with arm-none-eabi-nm and objdump -h, so a test can patch one field of a firmware image."""
    nm = subprocess.run(["arm-none-eabi-nm", elf], capture_output=True, text=True, check=True).stdout
    addr = next(int(l.split()[0], 16) for l in nm.splitlines() if l.split()[-1] == name)
    hdr = subprocess.run(["arm-none-eabi-objdump", "-h", elf], capture_output=True, text=True, check=True).stdout
    for line in hdr.splitlines():
        f = line.split()
        if len(f) >= 7 and f[0].isdigit():
            size, vma, off = int(f[2], 16), int(f[3], 16), int(f[5], 16)
            if vma <= addr < vma + size:
                return off + (addr - vma)
    raise SystemExit(f"{name} is in no section with file contents in {elf}")
