#!/usr/bin/env python3
"""Fault injection on `bench run` against the virtual board (bench-sim + stock OpenOCD), issue 7.

Each case starts a long sweep, waits until samples are being taken, injects one fault (kills
OpenOCD, kills bench-sim, sends SIGTERM), and checks what docs/reliability.md promises: one clear
`bench: ` line, the documented exit code (docs/exit-codes.md), no process bench started left
running, and a JSON report that parses, passes the schema, keeps the samples measured so far and
says in status/status_detail what happened. Other cases: valgrind on two whole runs, and every
listening socket of bench's children bound to 127.0.0.1. Exceptions and resets inside the stretches
are in interrupts_e2e.py. Usage: faults_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import attach  # noqa: E402
import benchtest  # noqa: E402
from tcl_proxy import TclProxy  # noqa: E402
from benchtest import check_schema as schema_check, expect, procs_in, run_case  # noqa: E402
from faults_common import (BENCH, BUILD, CASE, CHECK, EX, FAULTS_FW, SCHEMA, SRC, by_input, faults_run,  # noqa: E402
                           finish, quick_run)


def start_long_run(extra=()):
    """bench run on a sweep long enough (100000 inputs) that the fault always lands mid-run;
    calibration and load take well under the 1.5 s it waits for the first samples."""
    return benchtest.start_long_run(BENCH, os.path.join(EX, "fut-softfp.elf"), "bench-faults-",
                                    ["--quiet"] + list(extra), settle=1.5)


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
