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
import attach  # noqa: E402
import benchtest  # noqa: E402
from tcl_proxy import TclProxy  # noqa: E402
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
        counted = len(r["samples"]) - len(r.get("interrupted", []))
        expect(counted == r["n"], f"{r['name']} {r['args']}: n {r['n']} but {counted} counted samples")
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
            expect(r["samples"] == [25, 25], f"input=1 samples {r['samples']}, expected [25, 25]")
    return rep


def case_reset():
    """SYSRESETREQ inside a stretch: bench-sim's reset count shows it at the next halt (before the
    restarted firmware's calibration would)."""
    fault_run(2, 5, "bench: the target was reset inside the measured stretch (after marker BEGIN stretch) by "
              "something other than bench (AIRCR.SYSRESETREQ, a watchdog, NRST)", "target")


def case_lockup():
    fault_run(3, 5, "bench: the target locked up (DHCSR.S_LOCKUP", "fault")


def case_counter_off():
    fault_run(4, 5, "bench: the cycle counter was switched off during the run (DWT_CTRL.CYCCNTENA = 0", "target")


def case_wrap():
    """A stretch of 300 SysTick periods of 2^24 cycles plus the loop: 5033164868 cycles, which
    DWT_CYCCNT shows as 5033164868 - 2^32 = 738197572. bench keeps that value and flags the
    samples as wrapped from bench-sim's 64-bit cycle count (the host's clock cannot tell: the
    simulator skips the sleep in well under a second)."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report, wd = os.path.join(tmp, "r.json"), os.path.join(tmp, "wd")
    # The SysTicks interrupt every input=5 sample: --keep-interrupted counts them, else the result has
    # no sample that counts and the run exits 5 (docs/run.md).
    p = subprocess.run([BENCH, "run", FAULTS_FW, "--arg", "input=1,5", "--repeat", "2", "--json", report,
                        "--work-dir", wd, "--quiet", "--keep-interrupted"], capture_output=True, text=True,
                       timeout=120)
    print(p.stderr, file=sys.stderr)
    expect(p.returncode == 0, f"exit code {p.returncode}, expected 0")
    rep = json.load(open(report))
    expect(rep["status"] == "ok", f"status {rep['status']}")
    by_input = {r["args"]["input"]: r for r in rep["results"]}
    expect(by_input[1]["samples"] == [25, 25] and by_input[1]["wrapped"] == [], f"input=1: {by_input[1]}")
    expect(by_input[5]["samples"] == [738197572, 738197572], f"input=5 samples {by_input[5]['samples']}")
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


def signal_case(sig):
    """SIGHUP (a closed terminal) and SIGQUIT (Ctrl-\\) end a run as SIGTERM does."""
    p, report, wd = start_long_run()
    p.send_signal(sig)
    finish(p, report, wd, 130, "bench: interrupted: stopped the run; the report keeps the", "interrupted")


def case_sighup():
    signal_case(signal.SIGHUP)


def case_sigquit():
    signal_case(signal.SIGQUIT)


def quick_run(args, elf=None):
    """bench run ELF (nops.elf) ARGS --json r.json in a fresh folder; (process, report path, folder)."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report = os.path.join(tmp, "r.json")
    cmd = [BENCH, "run", elf or os.path.join(EX, "nops.elf"), "--repeat", "1", "--work-dir", os.path.join(tmp, "wd")]
    p = subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=120, cwd=tmp)
    print(p.stderr, file=sys.stderr)
    expect(procs_in(os.path.realpath(os.path.join(tmp, "wd"))) == {}, "processes left running")
    return p, report, tmp


def nops_samples(rep):
    return {r["name"]: r["samples"] for r in rep["results"]}


def case_max_cycles_unknown():
    """--max-cycles on a name no result has would never fail the gate: exit 2 after the report."""
    p, report, _ = quick_run(["--json", "r.json", "--max-cycles", "nop7=5", "--quiet"])
    expect(p.returncode == 2, f"exit code {p.returncode}, expected 2")
    expect(p.stderr.strip() == "bench: --max-cycles nop7: no result is named nop7: check the name (bench lists its "
           "results)", f"stderr {p.stderr!r}")
    rep = json.load(open(report))
    expect(rep["status"] == "ok" and nops_samples(rep).get("nop10") == [10], f"report {nops_samples(rep)}")


def case_json_stdout():
    """--json - with --format json: stdout is one JSON document (it was two)."""
    p, _, tmp = quick_run(["--json", "-", "--format", "json"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    try:
        rep = json.loads(p.stdout)
        expect(nops_samples(rep).get("nop10") == [10], f"samples {nops_samples(rep)}")
    except json.JSONDecodeError as e:
        expect(False, f"stdout is not one JSON document: {e}")
    expect(sorted(os.listdir(tmp)) == ["wd"], f"files in the run's folder besides --work-dir: {os.listdir(tmp)}")


def patched_nops(name, edit):
    data = bytearray(open(os.path.join(EX, "nops.elf"), "rb").read())
    edit(data)
    path = os.path.join(tempfile.mkdtemp(prefix="bench-faults-"), name)
    open(path, "wb").write(bytes(data))
    return path


def case_core_m0_image():
    """An ARMv6-M (Cortex-M0) build on the Cortex-M4 board runs (v6-M code is v7-M code) but its
    cycles are the M4's: a warning on stderr and in the report, the samples as always."""
    def arch_v6m(d):
        at = d.index(b"\x06\x0d\x07\x4d", d.index(b"aeabi"))
        d[at + 1] = 11
    fw = patched_nops("m0.elf", arch_v6m)
    p, report, _ = quick_run(["--json", "r.json", "--quiet"], fw)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    want = ("m0.elf is built for ARMv6-M but board sim-stm32f4 has a cortex-m4f (ARMv7E-M): the cycles are this "
            "core's, not those of a core the image was built for")
    expect(p.stderr.strip().endswith(want), f"stderr {p.stderr!r}")
    rep = json.load(open(report))
    expect(any(w.endswith(want) for w in rep.get("warnings", [])), f"warnings {rep.get('warnings')}")
    expect(nops_samples(rep).get("nop100") == [100], f"samples {nops_samples(rep)}")
    c = schema_check(CHECK, SCHEMA, report, "ok")
    expect(c.returncode == 0, f"schema: {c.stderr.strip()}")


def case_marker_ids():
    """Every pair's records carry id 1, as two translation units' first pairs did (bench.h numbers
    per file): each pair is still measured on its own, by name."""
    sec = os.path.join(tempfile.mkdtemp(prefix="bench-faults-"), "m.bin")
    subprocess.run(["arm-none-eabi-objcopy", "--dump-section", f".bench_markers={sec}", os.path.join(EX, "nops.elf"),
                    sec + ".x"], check=True)
    m, off = bytearray(open(sec, "rb").read()), 0
    while off + 12 <= len(m):
        if m[off + 4] in (1, 2):
            m[off + 6:off + 8] = b"\x01\x00"
        off += 12 + ((m[off + 8] + 1 + 3) & ~3)
    open(sec, "wb").write(bytes(m))
    fw = os.path.join(os.path.dirname(sec), "sameid.elf")
    subprocess.run(["arm-none-eabi-objcopy", f"--update-section=.bench_markers={sec}", os.path.join(EX, "nops.elf"), fw],
                   check=True)
    p, report, _ = quick_run(["--json", "r.json", "--quiet"], fw)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    got = nops_samples(json.load(open(report)))
    expect(got == {"nop1": [1], "nop10": [10], "nop100": [100], "nop1000": [1000]}, f"samples {got}")


def case_workdir_shared():
    """A second run on the --work-dir of a running one stops at once with 'in use'; the first goes on
    and keeps its report."""
    p, report, wd = start_long_run()
    q = subprocess.run([BENCH, "run", os.path.join(EX, "nops.elf"), "--work-dir", wd, "--json",
                        os.path.join(os.path.dirname(report), "r2.json"), "--quiet"],
                       capture_output=True, text=True, timeout=60)
    expect(q.returncode == 2, f"second run: exit code {q.returncode}, expected 2")
    expect(q.stderr.startswith(f"bench: --work-dir {wd} is in use by another bench run (pid {p.pid}): give each run "
                               "its own --work-dir"), f"second run: stderr {q.stderr!r}")
    expect(p.poll() is None, "the first run stopped")
    os.unlink(os.path.join(os.path.dirname(report), "r2.json"))  # the refused run's error report
    p.send_signal(signal.SIGTERM)
    finish(p, report, wd, 130, "bench: interrupted: stopped the run; the report keeps the", "interrupted")


def case_tcl_port_taken():
    """--tcl-port of a port a running OpenOCD (another run's) holds: exit 4 before anything starts,
    never measuring that OpenOCD's board."""
    port = benchtest.free_port()
    p, report, wd = start_long_run(["--tcl-port", str(port)])
    q = subprocess.run([BENCH, "run", os.path.join(EX, "nops.elf"), "--tcl-port", str(port), "--quiet"],
                       capture_output=True, text=True, timeout=60)
    expect(q.returncode == 4, f"second run: exit code {q.returncode}, expected 4")
    expect(q.stderr.startswith(f"bench: --tcl-port {port} is in use: another program listens on 127.0.0.1:{port}"),
           f"second run: stderr {q.stderr!r}")
    expect(p.poll() is None, "the first run stopped")
    p.send_signal(signal.SIGTERM)
    finish(p, report, wd, 130, "bench: interrupted: stopped the run; the report keeps the", "interrupted")


def case_large_sweep_note():
    """A sweep of 10^6 iterations or more says its size and an estimate before it starts."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    p = subprocess.Popen([BENCH, "run", os.path.join(EX, "fut-softfp.elf"), "--arg", "input=0:999999", "--repeat", "1",
                          "--quiet", "--work-dir", os.path.join(tmp, "wd")], stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=60)
    expect(line.startswith("bench: note: 1000000 inputs x 2 iterations = 2000000 iterations, about 16.7 hours at 30 "
                           "ms each; Ctrl-C stops it and keeps what was measured"), f"first line {line!r}")
    expect(p.returncode == 130, f"exit code {p.returncode}")


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


CLEAN6 = 233  # faults.elf input 6 without an interrupt: 200 NOPs and the call (cycles, modelled)


def case_interrupted():
    """SysTick every 1000 cycles around a 200-NOP stretch (faults.elf input 6): the samples that took
    it are flagged, counted on the console, left out of min/median/max, and --max-cycles judges the
    samples it reports (a limit at the clean value passes)."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report = os.path.join(tmp, "r.json")
    p = subprocess.run([BENCH, "run", FAULTS_FW, "--arg", "input=6", "--repeat", "9", "--json", report,
                        "--work-dir", os.path.join(tmp, "wd"), "--max-cycles", f"stretch={CLEAN6}"],
                       capture_output=True, text=True, timeout=120)
    print(p.stdout, p.stderr, file=sys.stderr)
    expect(p.returncode == 0, f"exit code {p.returncode} (--max-cycles stretch={CLEAN6} judges the kept samples)")
    rep = json.load(open(report))
    r = by_input(rep)[6]
    bad = r.get("interrupted", [])
    expect(bad == [2, 6], f"interrupted {bad}: expected [2, 6] (the model is deterministic: the 3rd and 7th samples take the tick)")
    expect([r["samples"][k] for k in bad] == [272, 262], f"interrupted samples {[r['samples'][k] for k in bad]}, expected [272, 262]")
    expect(all(x == CLEAN6 for k, x in enumerate(r["samples"]) if k not in bad), f"clean samples {r['samples']}")
    expect(r["n"] == 9 - len(bad) and r["max"] == CLEAN6 and r["median"] == CLEAN6, f"stats n {r['n']} max {r['max']}")
    expect(f"({len(bad)} of 9 interrupted, excluded)" in p.stdout, "the console does not count the interrupted")
    expect(any("took an exception inside " in w for w in rep.get("warnings", [])),
           f"warnings {rep.get('warnings')}")
    c = schema_check(CHECK, SCHEMA, report, "ok")
    expect(c.returncode == 0, f"schema: {c.stderr.strip()}")


def case_keep_interrupted():
    p, rep, _ = faults_run("6", ["--keep-interrupted"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    r = by_input(rep)[6]
    expect(rep["context"]["keep_interrupted"] is True, "context.keep_interrupted")
    expect(r["interrupted"] == [2, 6] and r["n"] == 9 and r["max"] == 272, f"n {r['n']} max {r['max']} {r['interrupted']}")


def case_mask_irqs():
    """--mask-irqs: the same run takes no exception inside a stretch; every sample is the clean one,
    and OpenOCD's masking is back to auto afterwards (the run ends; the next run is unmasked)."""
    p, rep, _ = faults_run("6", ["--mask-irqs"])
    expect(p.returncode == 0, f"exit code {p.returncode}")
    r = by_input(rep)[6]
    expect(rep["context"]["mask_irqs"] is True, "context.mask_irqs")
    expect(r["samples"] == [CLEAN6] * 9 and r["interrupted"] == [], f"samples {r['samples']} {r['interrupted']}")


def case_interrupted_warmup():
    """The warning counts recorded samples only (issue 26): input 6 with 20 warm-up iterations, of
    which 4 take SysTick, and 3 recorded, of which one (sample 2) does: "1 sample took an exception"
    (a24bc0b said 5)."""
    p, rep, _ = faults_run("6", ["--warmup", "20"], repeat=3)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    r = by_input(rep)[6]
    expect(r["interrupted"] == [2], f"interrupted {r['interrupted']}")
    warns = [w for w in rep.get("warnings", []) if "took an exception" in w]
    expect(len(warns) == 1 and warns[0].startswith("1 sample took an exception inside its stretch"), f"warnings {warns}")


def case_cyccnt_written():
    p, rep, _ = faults_run("1,7", repeat=2)
    expect(p.returncode == 5, f"exit code {p.returncode}, expected 5")
    expect("bench: the cycle counter was written or stopped between BEGIN and END stretch (DWT_CYCCNT moved "
           in p.stderr, f"stderr {p.stderr!r}")
    expect(rep["status"] == "incomplete" and by_input(rep)[1]["samples"] == [25, 25] and 7 not in by_input(rep),
           f"report {rep['status']} {[(r['args'], r['samples']) for r in rep['results']]}")


def case_counter_off_on():
    """CYCCNTENA cleared and set again inside one stretch: DONE's check never saw it; the END's
    comparison with the virtual board's 64-bit clock does."""
    p, rep, _ = faults_run("1,8", repeat=2)
    expect(p.returncode == 5, f"exit code {p.returncode}, expected 5")
    expect("bench: the cycle counter was written or stopped between BEGIN and END stretch" in p.stderr,
           f"stderr {p.stderr!r}")
    expect(8 not in by_input(rep), "a sample was filed for input 8")


def case_restart_between():
    """A SYSRESETREQ after an END, outside any stretch (faults.elf input 9): the firmware restarts
    with input 0; bench writes input 9 again, so every sample filed under 9 ran 9's code (16 NOPs),
    none the default 8 NOPs."""
    p, rep, _ = faults_run("1,9", repeat=8)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    r = by_input(rep)[9]
    # The restart empties the flash accelerator's caches (FLASH_ACR resets to 0, RM0090 3.9.1): the
    # one sample after it runs cold, 61 (the call's and the 16 NOPs' lines missed at the board's 5
    # wait states, 14, and the TBB's table byte, a data-cache miss, 5); the others 42 (BL 3, 16
    # NOPs, the returns, docs/cycle-model.md).
    expect(len(r["samples"]) == 8 and sorted(r["samples"]) == [42] * 7 + [61],
           f"input 9 samples {r['samples']}, expected 7 x 42 and one cold 61")
    expect(any("restarted 1 time between stretches" in w for w in rep.get("warnings", [])),
           f"warnings {rep.get('warnings')}")


RESETS_FW = os.path.join(BUILD, "tests", "firmware", "faults", "resets.elf")
RESETS_START_FW = os.path.join(BUILD, "tests", "firmware", "faults", "resets_start.elf")


def case_resets_markers(env=None):
    """resets.elf, no bench_init(): input 1 first (16 NOPs), then input 0 (8 NOPs). A SYSRESETREQ
    after iteration 2's END sets `input` back to 0; only the board's reset count shows it. bench
    writes input 1 again, so every sample filed under 1 is longer than every one under 0 (without the
    rewrite, iterations 3-5 would run input 0's code). Input 1: 24 (BL, 16 NOPs, the return), input
    0: 15; iteration 3, the first after the reset, runs cold at 38: the reset emptied the flash
    accelerator's caches and the start-up code set the board's 5 wait states again (RM0090 3.9.1),
    as in case_restart_between: with `--wait-states 0` it is 24 like the others."""
    p, rep, _ = faults_run("1,0", repeat=6, fw=RESETS_FW, env=env)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    expect(rep and rep["status"] == "ok", f"report {rep and rep['status']}")
    one, zero = by_input(rep)[1]["samples"], by_input(rep)[0]["samples"]
    expect(len(one) == 6 and len(zero) == 6, f"samples {one} {zero}")
    expect(one == [24, 24, 38, 24, 24, 24], f"input 1 samples {one}, expected 24 x 5 and iteration 3 cold at 38")
    expect(zero == [15] * 6, f"input 0 samples {zero}, expected 15 x 6")
    expect(any("restarted 1 time between stretches" in w for w in rep.get("warnings", [])),
           f"warnings {rep.get('warnings')}")


def case_resets_start(env=None):
    """resets_start.elf with --start/--stop: it resets itself before reaching `work` in bench's second
    pass. No input can be written again there: exit 5, one line naming the reset, the first pass's
    sample kept."""
    tmp = tempfile.mkdtemp(prefix="bench-faults-")
    report, wd = os.path.join(tmp, "r.json"), os.path.join(tmp, "wd")
    p = subprocess.Popen([BENCH, "run", RESETS_START_FW, "--start", "work", "--stop", "work_done", "--repeat", "3",
                          "--json", report, "--work-dir", wd, "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    rep = finish(p, report, os.path.realpath(wd), 5,
                 "bench: the target was reset by something other than bench before reaching --start work "
                 "(AIRCR.SYSRESETREQ, a watchdog, NRST): find what resets the core", "target")
    expect([len(r["samples"]) for r in rep["results"]] == [1], f"results {rep['results']}")


LOG_ENV = dict(os.environ, BENCH_RESETS="openocd-log")


def case_resets_log_markers():
    """The same with the silicon method (OpenOCD's "external reset detected" log line), not the
    virtual board's reset count: stock OpenOCD 0.12 sees the firmware's SYSRESETREQ."""
    case_resets_markers(LOG_ENV)


def case_resets_log_start():
    case_resets_start(LOG_ENV)


def case_arg_read_back():
    """An --arg symbol at an address no segment describes (here erased flash): the write does not
    stick, which the read-back says before any sample is filed."""
    fw = os.path.join(tempfile.mkdtemp(prefix="bench-faults-"), "romabs.elf")
    subprocess.run(["arm-none-eabi-objcopy", "--add-symbol", "bench_arg_rom=0x080F0000,global,object", FAULTS_FW, fw],
                   check=True)
    p, rep, _ = faults_run("1", ["--arg", "rom=5"], repeat=1, fw=fw)
    expect(p.returncode == 5, f"exit code {p.returncode}, expected 5")
    expect("bench: --arg rom: wrote 5 to 0x080f0000, read back 0xffffffff: the input is not in writable RAM"
           in p.stderr, f"stderr {p.stderr!r}")
    expect(rep and sum(r["n"] for r in rep["results"]) == 0, "samples were filed")


def case_firmware_clock():
    """faults.elf's SystemCoreClock patched to 84 MHz: times use it, clock_source says so; --clock-hz
    only counts when the firmware has none (nops.elf)."""
    data = bytearray(open(FAULTS_FW, "rb").read())
    off = benchtest.symbol_file_offset(FAULTS_FW, "SystemCoreClock")
    data[off:off + 4] = (84000000).to_bytes(4, "little")
    fw = os.path.join(tempfile.mkdtemp(prefix="bench-faults-"), "clk84.elf")
    open(fw, "wb").write(bytes(data))
    p, rep, _ = faults_run("1", ["--clock-hz", "100000000"], repeat=1, fw=fw)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    ctx = rep["context"]
    expect(ctx["core_clock_hz"] == 84000000 and ctx["clock_source"] == "firmware", f"context {ctx}")
    r = by_input(rep)[1]
    expect(r["time_ns"]["min"] == round(25 * 1e10 / 84e6) / 10, f"time_ns {r['time_ns']}")
    q, rep2, _ = quick_run(["--json", "r.json", "--clock-hz", "100000000", "--quiet"])
    ctx = json.load(open(rep2))["context"]
    expect(ctx["core_clock_hz"] == 100000000 and ctx["clock_source"] == "--clock-hz", f"nops context {ctx}")


def start_attach_target(elf):
    return attach.start_attach_target(BUILD, SRC, elf, tempfile.mkdtemp(prefix="bench-faults-"))


def left_behind(tcl, demcr_before):
    tcl("halt")
    expect("Breakpoint" not in tcl("bp"), f"breakpoints left: {tcl('bp')!r}")
    expect("mask auto" in tcl("cortex_m maskisr"), f"maskisr {tcl('cortex_m maskisr')!r}")
    expect(tcl("mdw 0xE000EDFC") == demcr_before, f"DEMCR {tcl('mdw 0xE000EDFC')!r}, before {demcr_before!r}")


def case_attach_leaves_nothing():
    """--openocd attach with --bp-markers and --mask-irqs, once to the end and once stopped by
    SIGTERM mid-run (while the third `cortex_m maskisr on` is in flight): afterwards OpenOCD has no breakpoint set, its interrupt masking is back to
    auto, and DEMCR (vector catches) is as before."""
    sim, ocd, port, tcl = start_attach_target(os.path.join(EX, "fut-softfp.elf"))
    try:
        tcl("halt")
        before = tcl("mdw 0xE000EDFC")
        base = [BENCH, "run", os.path.join(EX, "fut-softfp.elf"), "--openocd", f"127.0.0.1:{port}", "--no-load",
                "--bp-markers", "--mask-irqs", "--quiet"]
        q = subprocess.run(base + ["--arg", "input=0:3", "--repeat", "1"], capture_output=True, text=True, timeout=60)
        print(q.stderr, file=sys.stderr)
        expect(q.returncode == 0, f"attached run: exit code {q.returncode}")
        left_behind(tcl, before)
        # SIGTERM mid-run at an exact point, not after a sleep (it hit a command in flight about 1 run
        # in 10): while the third `cortex_m maskisr on` is in flight (tests/lib/tcl_proxy.py).
        holder = {}
        with TclProxy(port, "cortex_m maskisr on", "signal", pid_fn=lambda: holder["q"].pid, nth=3) as px:
            q = holder["q"] = subprocess.Popen(
                [a if not a.startswith("127.0.0.1:") else f"127.0.0.1:{px.port}" for a in base] +
                ["--arg", "input=0:100000", "--repeat", "1"], stderr=subprocess.PIPE, text=True)
            _, err = q.communicate(timeout=60)
        print(err, file=sys.stderr)
        expect(px.fired is not None and px.delivered, f"the signal was not put at the third maskisr: {px.fired}")
        expect(q.returncode == 130, f"interrupted attached run: exit code {q.returncode}")
        left_behind(tcl, before)
        expect(ocd.poll() is None and sim.poll() is None, "bench stopped an OpenOCD it did not start")
    finally:
        for p in (ocd, sim):
            p.terminate()
            p.wait(timeout=10)


run_case(globals(), CASE)
