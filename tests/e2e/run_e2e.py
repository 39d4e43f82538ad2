#!/usr/bin/env python3
"""End-to-end tests of `bench run` on the virtual board, through stock OpenOCD and bench-sim.

Each case runs the real `bench` binary as a user would, then checks the exit code, the one-line
error on stderr, the JSON report (schema check with check_schema.py) and that no process bench
started outlives it. The cases about the servers bench starts or attaches to, and the ways it
reaches them, are in server_e2e.py. Usage: run_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import check_schema as schema_check, expect, procs_in, run_case, start_long_run  # noqa: E402
from e2e_common import BENCH, BUILD, CASE, CHECK, EX, FW, SCHEMA, SRC, one_error_line, result, run  # noqa: E402


def case_nops():
    rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--repeat", "5"], status="ok")
    expect(rc == 0, f"exit code {rc}")
    for n in (1, 10, 100, 1000):
        r = result(rep, f"nop{n}")
        expect(r is not None, f"no result nop{n}")
        if r:
            expect(r["samples"] == [n] * 5, f"nop{n}: samples {r['samples']}, expected 5 x {n}")
    expect(rep["context"]["cycles_modelled"] is True, "cycles_modelled not true")
    expect(rep["context"]["board"] == "sim-stm32f4", "board")
    expect("modelled" in out, "console does not say the cycles are modelled")
    expect("nop1000" in out, "console lacks the nop1000 row")


def case_hardfp():
    rc, out, err, rep = run([os.path.join(EX, "fut-hardfp.elf"), "--arg", "input=0:1000:100", "--repeat", "3"],
                            status="ok")
    expect(rc == 0, f"exit code {rc}")
    values = set()
    for v in range(0, 1001, 100):
        r = result(rep, "fut", input=v)
        expect(r is not None and r["n"] == 3, f"fut input={v}: {r}")
        if r:
            values.update(r["samples"])
    expect(len(values) == 1, f"fut-hardfp: cycle counts {sorted(values)}, expected one value for every input")
    expect(values == {15}, f"fut-hardfp: cycles {values}, expected 15 for every input")


def case_softfp():
    rc, out, err, rep = run([os.path.join(EX, "fut-softfp.elf"), "--arg", "input=0:1000:100", "--repeat", "2"],
                            status="ok")
    expect(rc == 0, f"exit code {rc}")
    per_input = {}
    for v in range(0, 1001, 100):
        r = result(rep, "fut", input=v)
        expect(r is not None and r["n"] == 2, f"fut input={v}: {r}")
        if r:
            expect(len(set(r["samples"])) == 1, f"input={v}: repeats differ {r['samples']}")
            per_input[v] = r["samples"][0]
    want = {v: 62 if v == 0 else 105 for v in range(0, 1001, 100)}  # fut(0) skips the multiplication
    expect(per_input == want, f"fut-softfp: counts {per_input}, expected {want}")


def case_missing():
    rc, out, err, rep = run(["/nonexistent/fut.elf"], status="error")
    one_error_line(err, "cannot open firmware /nonexistent/fut.elf: No such file or directory: check the path", 3, rc)
    expect(rep and rep["status_detail"] == "file", "report status_detail")


def case_not_elf():
    rc, out, err, rep = run([os.path.join(SRC, "README.md")], status="error")
    one_error_line(err, "is not an ELF file", 3, rc)


def case_wrong_arch():
    rc, out, err, rep = run([os.path.realpath(sys.executable)], status="error")
    one_error_line(err, "is an ELF for another architecture", 3, rc)
    expect(rep and rep["status_detail"] == "arch", "status_detail arch")


def case_no_markers():
    rc, out, err, rep = run([os.path.join(FW, "rsp", "sim_nomarkers.elf")], status="error")
    one_error_line(err, "has no markers (no .bench_markers section)", 3, rc)


def case_unknown_board():
    rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--board", "nucleo-f999"], status="error")
    one_error_line(err, "unknown board 'nucleo-f999': pick one of: ", 2, rc)
    expect("sim-stm32f4" in err, "known boards not listed")


def case_timeout():
    rc, out, err, rep = run([os.path.join(FW, "run", "hang.elf"), "--arg", "input=1,2,3,4", "--repeat", "2",
                             "--timeout", "1500"], status="incomplete")
    one_error_line(err, "the target did not reach the next marker within 1500 ms (it is at spin", 5, rc)
    expect(rep and rep["status_detail"] == "timeout", "status_detail timeout")
    expect(rep and result(rep, "spin", input=1) and result(rep, "spin", input=1)["n"] == 2, "input=1 samples lost")
    expect(rep and result(rep, "spin", input=2) and result(rep, "spin", input=2)["n"] == 2, "input=2 samples lost")


def case_fault():
    rc, out, err, rep = run([os.path.join(FW, "run", "fault.elf"), "--arg", "input=1,2,3", "--repeat", "2"],
                            status="incomplete")
    one_error_line(err, "the target faulted: HardFault (FORCED; UsageFault UNDEFINSTR) at crash_here+0x", 5, rc)
    expect(rep and rep["status_detail"] == "fault", "status_detail fault")
    expect(rep and result(rep, "crash", input=2) and result(rep, "crash", input=2)["n"] == 2, "samples lost")


def case_sigterm():
    case_sigint(signal.SIGTERM)


def case_sigint(sig=signal.SIGINT):
    # Interrupt once samples are being taken: 3 s after OpenOCD and the simulator run is long enough
    # on a loaded machine for the first samples (a halt can take 50 ms under load).
    p, report, wd = start_long_run(BENCH, os.path.join(EX, "fut-softfp.elf"), "bench-e2e-", settle=3.0)
    p.send_signal(sig)
    out, err = p.communicate(timeout=30)
    print(err, file=sys.stderr)
    expect(p.returncode == 130, f"exit code {p.returncode}, expected 130")
    expect("bench: interrupted" in err, "no interrupted message")
    rep = json.load(open(report))
    expect(rep["status"] == "incomplete" and rep["status_detail"] == "interrupted", f"status {rep['status']}")
    expect(sum(r["n"] for r in rep["results"]) > 0, "no samples kept")
    expect(procs_in(wd) == {}, "processes left running after SIGINT")
    c = schema_check(CHECK, SCHEMA, report)
    expect(c.returncode == 0, f"schema: {c.stderr}")


def case_quoting():
    # A firmware path that would run `shutdown` if it reached Tcl unquoted.
    tmp = tempfile.mkdtemp(prefix="bench-e2e-")
    nasty = os.path.join(tmp, "x];shutdown;#.elf")
    with open(os.path.join(EX, "nops.elf"), "rb") as src, open(nasty, "wb") as dst:
        dst.write(src.read())
    rc, out, err, rep = run([nasty, "--repeat", "1"], status="ok")
    expect(rc == 0, f"exit code {rc}")
    r = result(rep, "nop10")
    expect(r and r["samples"] == [10], f"nop10 through a nasty path: {r}")


def case_symbols():
    # Breakpoint mode through TCL (`bp ADDR 2 hw`) on a firmware with no markers at all, as
    # Embench-IoT's runners measure: from start_trigger to stop_trigger, one boot per sample.
    rc, out, err, rep = run([os.path.join(FW, "rsp", "sim_nomarkers.elf"), "--start", "start_trigger", "--stop",
                             "stop_trigger", "--repeat", "3", "--warmup", "1"], status="ok")
    expect(rc == 0, f"exit code {rc}")
    r = result(rep, "start_trigger..stop_trigger")
    expect(r is not None and r["n"] == 3, f"result {r}")
    if r:
        # The CRC-32 of 9 bytes between the triggers, start_trigger and the call: 575 cycles, always.
        expect(r["samples"] == [575] * 3, f"samples {r['samples']}, expected 3 x 575")
    expect(rep["context"]["overhead_cycles"] == 0, "no calibration pair, so no overhead")


def case_qemu():
    # QEMU (RSP, breakpoint markers planted by the host; no DWT): every marker is reached, back-to-back
    # markers included, and the report says there is no counter instead of showing zeros.
    fw = os.path.join(FW, "rsp", "qemu_nop.elf")
    rc, out, err, rep = run([fw, "--board", "qemu-mps2-an386", "--repeat", "2"], status="ok")
    expect(rc == 0, f"exit code {rc}")
    expect(rep["context"]["counter"] == "none", f"counter {rep['context']['counter']}")
    expect(rep["context"]["cycles_modelled"] is False, "cycles_modelled should be false without a counter")
    for name in ("nop10", "nop100"):
        r = result(rep, name)
        expect(r is not None and r["n"] == 0 and r["samples"] == [] and "no cycle counter" in (r["error"] or ""),
               f"{name}: {r}")
    expect("no cycle counter on this target" in out, "console does not say there is no counter")


def case_progress():
    # On a terminal, a run over a second shows a bar on stderr and clears it at the end.
    import pty
    tmp = tempfile.mkdtemp(prefix="bench-e2e-")
    wd = os.path.join(tmp, "wd")
    # 251 inputs x 3 iterations: over a second even at the ST-LINK path's ~1000 marker halts/s.
    cmd = [BENCH, "run", os.path.join(EX, "fut-softfp.elf"), "--arg", "input=0:1000:4", "--repeat", "2",
           "--quiet", "--work-dir", wd]
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    p.wait(timeout=120)
    text = data.decode(errors="replace")
    print(repr(text[-300:]), file=sys.stderr)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    expect("\r[" in text and "/753" in text, "no progress bar on a terminal (753 iterations)")
    expect(text.endswith("\r\x1b[K"), "the bar is not cleared at the end")
    expect(procs_in(os.path.realpath(wd)) == {}, "processes left running")


def case_poll_fails():
    """pollbad.elf spoils its region table's magic while each stretch runs: every --poll read in
    that window fails. bench warns (stderr once, the report's warnings) and keeps measuring; the
    table read at DONE is good. 3,000,000 turns of 4 cycles (ADDS, CMP, BNE taken 1 + P 1), plus 10 (BL 3
    and BX LR 2; two STRs, two MOVS, CMP and the untaken BLE 1 each; less the last BNE's refill); with --warmup 0 the first sample also runs spin() from the flash
    accelerator's cold cache: two misses at the board's 5 wait states (docs/cycle-model.md)."""
    rc, out, err, rep = run([os.path.join(FW, "run", "pollbad.elf"), "--arg", "input=3000000", "--repeat", "2",
                             "--warmup", "0", "--poll", "1", "--no-progress"], status="ok")
    expect(rc == 0, f"exit code {rc}")
    r = result(rep, "spin", input=3000000) if rep else None
    expect(r is not None and r["samples"] == [12000016, 12000010], f"spin samples {r and r['samples']}")
    warn = [l for l in err.splitlines() if l.startswith("bench: warning: ")]
    expect(len(warn) == 1, f"expected one warning line on stderr, got {err.splitlines()}")
    expect(warn and "region table: magic 0x00000000" in warn[0] and "measuring on" in warn[0],
           f"warning line {warn}")
    w = rep.get("warnings", []) if rep else []
    expect(len(w) == 1 and "--poll" in w[0] and "region table: magic 0x00000000" in w[0],
           f"report warnings {w}")
    expect(rep and rep["error"] is None, "report error set on a run that finished")
    regions = {g["name"]: g for g in (rep or {}).get("regions", [])}
    expect(regions.get("spin", {}).get("count") == 2, f"region spin {regions.get('spin')}")


def case_farm_poll_fails():
    """The same spoilt region table on a farm of two virtual boards: the merged report keeps each
    board's warning, prefixed with its name, and the console table shows them below the tables."""
    farm = os.path.join(SRC, "tests", "ci", "fixtures", "farm", "two-virtual.farm")
    rc, out, err, rep = run(["--farm", farm, os.path.join(FW, "run", "pollbad.elf"), "--arg", "input=3000000",
                             "--repeat", "2", "--warmup", "0", "--poll", "1", "--no-progress"], status="ok")
    expect(rc == 0, f"exit code {rc}")
    for b in ("sim-a", "sim-b"):
        r = result(rep, f"{b}/spin", input=3000000) if rep else None
        expect(r is not None and r["samples"] == [12000016, 12000010], f"{b}/spin samples {r and r['samples']}")
    w = sorted(rep.get("warnings", [])) if rep else []
    pat = r"^%s: \d+ of \d+ --poll reads of the region table failed, measuring went on; the first: .*" \
          r"region table: magic 0x00000000"
    expect(len(w) == 2 and re.match(pat % "sim-a", w[0]) and re.match(pat % "sim-b", w[1]),
           f"report warnings {w}")
    shown = sorted(l[len("warning: "):] for l in out.splitlines() if l.startswith("warning: "))
    expect(shown == w, f"console warnings {shown}, report warnings {w}")


def crc32_mpeg2_words(words):
    """The STM32 CRC unit's result for 32-bit words (RM0090 4.3): CRC-32/MPEG-2 over their big-endian bytes."""
    c = 0xFFFFFFFF
    for w in words:
        for b in w.to_bytes(4, "big"):
            c ^= b << 24
            for _ in range(8):
                c = ((c << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if c & 0x80000000 else (c << 1) & 0xFFFFFFFF
    return c


PLAIN_DMA2 = "the firmware used DMA2 (0x40026400), which the virtual board keeps as plain registers"


def case_uart():
    """--uart: the firmware's USART2 lines on stderr as `uart: ...` and in the JSON report's uart.lines; the CRC
    unit's results are exact (CRC-32/MPEG-2 of the words 0..n-1)."""
    rc, out, err, rep = run([os.path.join(FW, "run", "periph.elf"), "--arg", "input=1,4", "--repeat", "1",
                             "--warmup", "0", "--uart", "--no-progress"], status="ok")
    expect(rc == 0, f"exit code {rc}")
    want = ["hello from periph"] + [f"crc 0x{crc32_mpeg2_words(range(n)):08x}" for n in (1, 4)]
    echoed = [l[len("uart: "):] for l in err.splitlines() if l.startswith("uart: ")]
    expect(echoed == want, f"stderr uart lines {echoed}, expected {want}")
    got = rep.get("uart", {}) if rep else {}
    expect(got.get("lines") == want and got.get("dropped") == 0, f"report uart {got}")


def case_plain_blocks():
    """A block kept as plain registers is a warning in the report and on the console, once; without --uart the
    firmware's lines stay in bench-sim's log only."""
    rc, out, err, rep = run([os.path.join(FW, "run", "periph.elf"), "--arg", "input=2", "--repeat", "2",
                             "--warmup", "0", "--no-progress"], status="ok")
    expect(rc == 0, f"exit code {rc}")
    w = rep.get("warnings", []) if rep else []
    expect(w == [PLAIN_DMA2], f"report warnings {w}")
    shown = [l[len("warning: "):] for l in out.splitlines() if l.startswith("warning: ")]
    expect(shown == [PLAIN_DMA2], f"console warnings {shown}")
    expect("uart: " not in err, "UART lines on stderr without --uart")
    expect(rep is not None and "uart" not in rep, "uart in the report without --uart")


def case_startup_fault():
    """A fault before bench_init(): BFAR, what the virtual board has there, and start-up advice (exit 5). The
    stacked PC is where the faulting load's translated block ended (a bus error from a register region is taken
    at the block's end, docs/core.md "Not modelled"), so only the fault's kind is asserted."""
    rc, out, err, rep = run([os.path.join(FW, "run", "startfault.elf"), "--no-progress"], status="error")
    one_error_line(err, "the target faulted: HardFault (FORCED; BusFault PRECISERR) at ", 5, rc)
    line = next((l for l in err.splitlines() if l.startswith("bench: ")), "")
    expect("data address 0x40023400 (BFAR: a reserved hole in the peripheral map (RM0090 table 1))" in line,
           f"no BFAR and hole in {line!r}")
    expect("before bench_init()" in line and "code under test" not in line, f"advice in {line!r}")


def case_cold_start():
    """The virtual board bench preloads (bench-sim --elf) is neither `reset init` nor verified: one
    reset halt, no verify_image pass (OpenOCD logs "verified N bytes" for one). BENCH_STATS=1 names
    each phase's end; fut-hardfp costs 15 cycles for every input."""
    wd = tempfile.mkdtemp(prefix="bench-e2e-cold-")
    cmd = [BENCH, "run", os.path.join(EX, "fut-hardfp.elf"), "--repeat", "3", "--no-progress",
           "--work-dir", wd, "--format", "json"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=dict(os.environ, BENCH_STATS="1"))
    print(f"$ {' '.join(cmd)}\n-> {p.returncode}\n{p.stderr}", file=sys.stderr)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    log = open(os.path.join(wd, "openocd.log")).read()
    expect("verified" not in log, "OpenOCD verified the image bench-sim was started with")
    try:
        rep = json.loads(p.stdout)
    except ValueError:
        rep = {"results": []}
    got = [(r["name"], r["samples"]) for r in rep["results"]]
    expect(got == [("fut", [15, 15, 15])], f"results {got}, expected fut 3 x 15 cycles")
    phases = [l for l in p.stderr.splitlines() if l.startswith("bench-phases: ")]
    expect(len(phases) == 1, f"no bench-phases line: {p.stderr!r}")
    if phases:
        ms = dict(kv.split("=") for kv in phases[0].split() if "=" in kv)
        keys = ["sim", "ocd_tcl", "ocd_answer", "load", "reset", "calibration", "loop", "stop"]
        expect(list(ms) == keys, f"phases {list(ms)}")
        vals = [int(ms.get(k, "0")) for k in keys]
        expect(all(v > 0 for v in vals) and vals == sorted(vals), f"phase times not increasing: {vals}")
    expect(procs_in(os.path.realpath(wd)) == {}, "processes left running")


def case_quickstart():
    """scripts/quickstart.sh's measurement (BENCH_BUILD_DIR: the build here, no set-up): the hard-float
    fut() flat at 15 cycles for every input, the soft-float one varying (exact cycle counts)."""
    env = dict(os.environ, BENCH_BUILD_DIR=BUILD)
    p = subprocess.run(["bash", os.path.join(SRC, "scripts", "quickstart.sh"), "--no-progress"],
                       capture_output=True, text=True, timeout=120, env=env)
    print(f"quickstart -> {p.returncode}\n{p.stdout}{p.stderr}", file=sys.stderr)
    expect(p.returncode == 0, f"exit code {p.returncode}")
    inputs = [0, 1, 3, -7, 1000, 65535, 16777217, 123456789, -2000000001]
    soft = [62, 97, 105, 105, 105, 105, 97, 105, 106]
    runs = p.stdout.split("\n$ ")[1:]
    expect(len(runs) == 2, f"expected two runs in the output, got {len(runs)}")
    for run_out, fw, want in zip(runs, ("fut-hardfp", "fut-softfp"), ([15] * 9, soft)):
        expect(run_out.startswith(f"{BUILD}/bench run {BUILD}/examples/sim-stm32f4/{fw}.elf"),
               f"run shown as {run_out.splitlines()[0]!r}")
        rows = {}
        for line in run_out.splitlines():
            f = line.split()
            if len(f) >= 4 and f[0] == "fut" and f[1].startswith("input="):
                rows[int(f[1][6:])] = (int(f[2]), int(f[3]))
        got = [rows.get(v) for v in inputs]
        expect(got == [(3, w) for w in want], f"{fw}: (n, min) per input {got}, expected n=3 and {want}")


run_case(globals(), CASE)
