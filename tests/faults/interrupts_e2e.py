#!/usr/bin/env python3
"""Exceptions and resets inside the measured stretches on the virtual board (bench-sim + stock
OpenOCD): SysTick interrupting a stretch (flagged, kept with --keep-interrupted, kept out with
--mask-irqs, during warm-up), DWT_CYCCNT written or switched off by the firmware, the firmware
restarting between inputs or resetting the core (counted from the markers, from the start, or from
OpenOCD's log). Checked as in faults_e2e.py. Usage: interrupts_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import check_schema as schema_check, expect, run_case  # noqa: E402
from faults_common import (BENCH, BUILD, CASE, CHECK, FAULTS_FW, SCHEMA, by_input, faults_run,  # noqa: E402
                           finish)


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


run_case(globals(), CASE)
