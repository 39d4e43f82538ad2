#!/usr/bin/env python3
"""Nothing left changed in a user's OpenOCD (issue 26, class 3): `bench run --openocd` attached to
an OpenOCD the test started (bench-sim + stock OpenOCD, tests/lib/attach.py), through a TCL proxy
(tests/lib/tcl_proxy.py) that holds the reply of one state-changing command and puts the fault
exactly there: SIGTERM or SIGINT to bench, the connection dropped, or no answer at all. Afterwards
the OpenOCD, asked directly on its TCL port, must have its breakpoints, interrupt masking mode,
DEMCR and DWT_CTRL as before; bench exits with the documented code (130 on a signal) and one
`bench: ` line saying what happened. Also (class 4): attached there is no 64-bit clock, and the
host's clock between two halts flags a count that cannot be (DWT_CYCCNT written) or may have
wrapped.
Usage: attach_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import attach  # noqa: E402
import benchtest  # noqa: E402
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
    """SIGTERM while the fault vector catches (a DEMCR write) are in flight: DEMCR as before. (A
    guard: a24bc0b already read DEMCR first and put it back over the same link.)"""
    attached_fault("write_memory 0xe000edfc ", "signal", ["--mask-irqs"], 130,
                   "bench: interrupted: stopped the run")


def case_drop_vector_catch():
    """The link dropped while the vector catches' DEMCR write is in flight: exit 4 naming the lost
    connection, and DEMCR put back over a fresh one (a24bc0b tried the dead link and left the
    catches set)."""
    attached_fault("write_memory 0xe000edfc ", "drop", [], 4, "bench: connection to OpenOCD at 127.0.0.1:")


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


FAULTS_FW = os.path.join(BUILD, "tests", "firmware", "faults", "faults.elf")


def attached_run(fw, args, proxy=None):
    """bench run FW --openocd (through a TclProxy(port, **proxy) when given) --no-load ARGS --quiet:
    (process, report dict, proxy)."""
    tmp = tempfile.mkdtemp(prefix="bench-attach-")
    sim, ocd, port, tcl = attach.start_attach_target(BUILD, SRC, fw, tmp)
    px = TclProxy(port, **proxy) if proxy else None
    try:
        report = os.path.join(tmp, "r.json")
        p = subprocess.run([BENCH, "run", fw, "--openocd", f"127.0.0.1:{px.port if px else port}", "--no-load",
                            "--json", report, "--quiet"] + list(args), capture_output=True, text=True, timeout=120)
        print(p.stderr, file=sys.stderr)
        return p, json.load(open(report)), px
    finally:
        if px:
            px.close()
        for proc in (ocd, sim):
            proc.terminate()
            proc.wait(timeout=10)


def case_cyccnt_written():
    """faults.elf input 7 writes DWT_CYCCNT = 0 inside its stretch. Attached, there is no 64-bit
    clock: the host's clock between the two halts is what says the count (2^32 less a few hundred)
    cannot be: exit 5, input 1's samples kept. On a24bc0b: exit 0, 4294967272 cycles filed."""
    p, rep, _ = attached_run(FAULTS_FW, ["--arg", "input=1,7", "--repeat", "2"])
    lines = [l for l in p.stderr.splitlines() if l.startswith("bench: ")]
    expect(p.returncode == 5, f"exit code {p.returncode}, expected 5")
    m = re.fullmatch(r"bench: the cycle counter moved (\d+) cycles between BEGIN and END stretch, more than the "
                     r"168 MHz core can run in the (\d+) ms the host saw between the two halts: it was written, or "
                     r"the core clock is not 168000000 Hz; leave DWT_CYCCNT to bench, or give the clock with "
                     r"--clock-hz", lines[0] if len(lines) == 1 else "")
    expect(m is not None, f"lines {lines}")
    if m:
        expect(2**32 - 1000 < int(m.group(1)) < 2**32, f"count {m.group(1)}")
    res = {r["args"]["input"]: r for r in rep["results"]}
    expect(res.get(1, {}).get("samples") == [25, 25] and 7 not in res, f"results {rep['results']}")
    expect(rep["status"] == "incomplete" and rep["status_detail"] == "target", f"status {rep['status']}")


def case_long_stretch():
    """faults.elf input 5: 300 SysTick periods of 2^24 cycles in WFI, 5033164868 cycles, which
    bench-sim skips through in well under a second of host time. The counter's 32-bit difference
    (738197598 with the overhead) is more than the host's clock allows at 168 MHz: exit 5, not
    filed as 738197572 cycles unflagged as on a24bc0b."""
    p, rep, _ = attached_run(FAULTS_FW, ["--arg", "input=5", "--repeat", "1", "--warmup", "0"])
    lines = [l for l in p.stderr.splitlines() if l.startswith("bench: ")]
    expect(p.returncode == 5, f"exit code {p.returncode}, expected 5")
    expect(len(lines) == 1 and lines[0].startswith("bench: the cycle counter moved 738197598 cycles between BEGIN "
                                                  "and END stretch, more than the 168 MHz core can run in the "),
           f"lines {lines}")
    expect(sum(len(r["samples"]) for r in rep["results"]) == 0, f"results {rep['results']}")


def case_wrap_flagged():
    """faults.elf with SystemCoreClock patched to 4294967295 Hz (2^32 cycles a second), input 1
    (25 cycles; 35 for the first after the reset, its flash lines not yet in the ART accelerator's
    cache), the first sample's END reply held 1.5 s by the proxy: the host saw time for one
    wrap, it cannot tell whether there was one (no slice saw the target still running), so that
    sample is flagged in `wrapped` and a warning says so; the second is not. On a24bc0b the same:
    the flag existed; the warning with its reason is new."""
    data = bytearray(open(FAULTS_FW, "rb").read())
    off = benchtest.symbol_file_offset(FAULTS_FW, "SystemCoreClock")
    data[off:off + 4] = (4294967295).to_bytes(4, "little")
    fw = os.path.join(tempfile.mkdtemp(prefix="bench-attach-"), "clk4g.elf")
    open(fw, "wb").write(bytes(data))
    # After the reset halt: CAL_BEGIN, CAL_END, SYNC, BEGIN, then the first END (no warmup).
    p, rep, px = attached_run(fw, ["--arg", "input=1", "--repeat", "2", "--warmup", "0"],
                              proxy=dict(pattern="resume; ", action="delay", nth=5, delay_s=1.5))
    expect(px.fired is not None, f"no 5th resume; commands {px.commands[-10:]}")
    expect(p.returncode == 0, f"exit code {p.returncode}")
    r = rep["results"][0]
    expect(r["samples"] == [35, 25] and r["wrapped"] == [0], f"samples {r['samples']} wrapped {r['wrapped']}")
    w = [x for x in rep.get("warnings", []) if "had room to wrap" in x]
    expect(len(w) == 1 and w[0].startswith(
        "1 sample had room to wrap the 32-bit counter by the host's clock and is flagged in \"wrapped\" (the "
        "first, stretch: ") and "room for up to 1 wrap, too little running time seen to say how many" in w[0],
        f"warnings {rep.get('warnings')}")


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
