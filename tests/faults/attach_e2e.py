#!/usr/bin/env python3
"""Nothing left changed in a user's OpenOCD (issue 26, class 3): `bench run --openocd` attached to
an OpenOCD the test started (bench-sim + stock OpenOCD, tests/lib/attach.py), through a TCL proxy
(tests/lib/tcl_proxy.py) that holds the reply of one state-changing command and puts the fault
exactly there: SIGTERM or SIGINT to bench, the connection dropped, or no answer at all. Afterwards
the OpenOCD, asked directly on its TCL port, must have its breakpoints, interrupt masking mode,
DEMCR and DWT_CTRL as before; bench exits with the documented code (130 on a signal) and one
`bench: ` line saying what happened.
Usage: attach_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import attach  # noqa: E402
from benchtest import expect, failures, paths, run_case  # noqa: E402
from tcl_proxy import TclProxy  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
BENCH, EX, SCHEMA, CHECK = paths(BUILD, SRC)
FW = os.path.join(EX, "fut-softfp.elf")


def attached_fault(pattern, action, flags, code, message, sig=signal.SIGTERM, nth=1, setup=()):
    """bench attached through the proxy, the fault at the `nth` command matching `pattern`; checks
    the exit code, the one `bench: ` line (containing `message`), the report's status and the
    OpenOCD's state against the one before. `setup`: TCL commands giving the OpenOCD a state of
    the user's own first (e.g. another interrupt masking mode)."""
    tmp = tempfile.mkdtemp(prefix="bench-attach-")
    sim, ocd, port, tcl = attach.start_attach_target(BUILD, SRC, FW, tmp)
    try:
        for cmd in setup:
            tcl(cmd)
        before = attach.ocd_state(tcl)
        print(f"OpenOCD before: {before}", file=sys.stderr)
        expect(all(f"mask {c.split()[-1]}" in before["maskisr"] for c in setup if "maskisr" in c),
               f"the user's own masking mode did not take: {before['maskisr']!r}")
        tcl("resume")
        report = os.path.join(tmp, "r.json")
        holder = {}
        with TclProxy(port, pattern, action, pid_fn=lambda: holder["p"].pid, sig=sig, nth=nth) as px:
            p = holder["p"] = subprocess.Popen(
                [BENCH, "run", FW, "--openocd", f"127.0.0.1:{px.port}", "--no-load", "--arg", "input=0:3",
                 "--repeat", "2", "--json", report, "--quiet"] + list(flags),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                _, err = p.communicate(timeout=90)
            except subprocess.TimeoutExpired:
                p.kill()
                _, err = p.communicate()
                expect(False, "bench did not end within 90 s")
        print(err, file=sys.stderr)
        expect(px.fired is not None, f"no command matched {pattern!r}; commands: {px.commands[-20:]}")
        if action == "signal":
            expect(px.delivered is True, "the signal was not delivered while the reply was held")
        print(f"fault at: {px.fired}", file=sys.stderr)
        lines = [l for l in err.splitlines() if l.startswith("bench: ")]
        expect(p.returncode == code, f"exit code {p.returncode}, expected {code}")
        expect(len(lines) == 1 and message in lines[0], f"error line {lines}, expected one with {message!r}")
        after = attach.ocd_state(tcl)
        for k in before:
            expect(after[k] == before[k], f"{k} after the run: {after[k]!r}, before: {before[k]!r}")
        expect(ocd.poll() is None and sim.poll() is None, "bench stopped an OpenOCD it did not start")
        rep = json.load(open(report))
        expect(rep["status"] in ("incomplete", "error"), f"report status {rep['status']}")
        return rep
    finally:
        for proc in (ocd, sim):
            proc.terminate()
            proc.wait(timeout=10)
        if not failures:
            subprocess.run(["rm", "-rf", tmp], check=False)


def case_sigterm_maskisr():
    """SIGTERM while `cortex_m maskisr on` is in flight, the user's mode being steponly: bench ends
    as interrupted (130, not "unsupported"), and the mode is steponly again."""
    rep = attached_fault("cortex_m maskisr on", "signal", ["--mask-irqs"], 130,
                         "bench: interrupted: stopped the run; the report keeps the 0 samples",
                         setup=["halt", "cortex_m maskisr steponly"])
    expect(rep["status_detail"] == "interrupted", f"status_detail {rep['status_detail']}")


def case_sigint_bp():
    """SIGINT while the third `bp` of --bp-markers is in flight: no breakpoint stays behind, the
    one in flight included."""
    attached_fault("bp 0x", "signal", ["--bp-markers"], 130, "bench: interrupted: stopped the run",
                   sig=signal.SIGINT, nth=3)


def case_sigterm_dwt():
    """SIGTERM while bench's DWT_CTRL.EXCEVTENA write (no wide clock when attached: DWT_EXCCNT
    flags the interrupted samples) is in flight: DWT_CTRL is as the user had it."""
    attached_fault("write_memory 0xe0001000 ", "signal", [], 130, "bench: interrupted: stopped the run")


def case_sigterm_vector_catch():
    """SIGTERM while the fault vector catches (a DEMCR write) are in flight: DEMCR as before."""
    attached_fault("write_memory 0xe000edfc ", "signal", ["--mask-irqs"], 130,
                   "bench: interrupted: stopped the run")


def case_drop_maskisr():
    """The link dropped while `cortex_m maskisr on` is in flight: exit 4 naming the lost connection
    (not "unsupported" with a message formatted from itself), and bench reconnects to put the
    masking mode back."""
    attached_fault("cortex_m maskisr on", "drop", ["--mask-irqs"], 4,
                   "bench: connection to OpenOCD at 127.0.0.1:")


def case_hold_bp():
    """OpenOCD never answers the second `bp` of --bp-markers (bench's TCL timeout, 10 s): exit 4
    saying so, and both breakpoints cleared over a fresh connection."""
    attached_fault("bp 0x", "hold", ["--bp-markers"], 4, "did not answer within 10000 ms: check its log", nth=2)


def case_qemu_mask_irqs():
    """A QEMU board answers `cortex_m maskisr` with "unknown command" as plain output, no error:
    --mask-irqs is refused (exit 4, one line quoting the answer), not reported as masked."""
    elf = os.path.join(BUILD, "examples", "qemu-mps2-an386", "fut-hardfp.elf")
    p = subprocess.run([BENCH, "run", "--board", "qemu-mps2-an386", elf, "--arg", "input=1", "--repeat", "1",
                        "--mask-irqs", "--quiet", "--timeout", "30s"], capture_output=True, text=True, timeout=90)
    print(p.stderr, file=sys.stderr)
    lines = [l for l in p.stderr.splitlines() if l.startswith("bench: ")]
    expect(p.returncode == 4, f"exit code {p.returncode}, expected 4")
    expect(lines == ["bench: --mask-irqs needs OpenOCD's `cortex_m maskisr` (DHCSR.C_MASKINTS), which this debug "
                     "server does not take (it answered \"unknown command: 'cortex_m'\"): drop --mask-irqs or "
                     "measure through OpenOCD"], f"lines {lines}")


run_case(globals(), CASE)
