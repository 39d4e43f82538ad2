#!/usr/bin/env python3
"""Users' own firmware on the virtual board (issue 12), through stock OpenOCD and bench-sim:

  cubemx   the CubeMX-shaped firmware (tests/firmware/cubemx: this project's own code in the layout of
           a CubeMX Makefile project: GCC-style start-up file with the 82 F407 interrupt vectors, a
           CubeMX-layout linker script with no KEEP for .bench_markers, --gc-sections, the HAL's
           start-up sequence at register level): exit 0; crc_hw (the CRC unit) costs exactly 40 + 10 n
           cycles over n = 1, 4, 16, 64 words and crc_sw 345, 1258, 4990, 19454, every sample alike (the
           cycle model of docs/cycle-model.md at the 5 wait states with the ART that the start-up programs); the CRC
           unit's results (USART2 lines, --uart) equal CRC-32/MPEG-2 computed here; the clock
           reached 168 MHz from the PLL, TIM6 and SysTick ticked, EXTI0 fired once; the one warning
           names DMA1 as kept as plain registers; between each bkpt 0x0001 and bkpt 0x0002 there is
           one bl, to crc_hw and crc_sw.
  cxx      the C++17 firmware (examples/cxx): fut 15, scale 58, fir 9 cycles for every input,
           and the C++ function is what lies between its BKPTs.
  standalone  the same CubeMX-shaped firmware with no debugger at all (bench-sim --standalone --no-debugger):
           each marker BKPT takes DebugMonitor, CubeMX's DebugMon_Handler steps over it through
           BENCH_HANDLER_ENTRY(), the loop runs once (words 4), the firmware prints "done" after
           bench_done() and sleeps: exit 0.
  oneshot  firmware without a SYNC loop: one measurement per boot, warmup + repeat resets
           (fut 25 with the FPU, 159 soft-float, 3 samples each: every boot runs fut from the flash
           accelerator's cold cache at 5 wait states); --arg is refused (exit 2).

Usage: integrate_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

from benchtest import check_schema as schema_check, expect, paths, procs_in, run_case  # noqa: E402

BUILD, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
BENCH, EX, SCHEMA, CHECK = paths(BUILD, SRC)
FW = os.path.join(BUILD, "tests", "firmware")


def run(args):
    """bench run ARGS on the virtual board with --json; returns (rc, stdout, stderr, report)."""
    tmp = tempfile.mkdtemp(prefix="bench-int-")
    report, wd = os.path.join(tmp, "report.json"), os.path.join(tmp, "wd")
    cmd = [BENCH, "run"] + args + ["--board", "sim-stm32f4", "--json", report, "--work-dir", wd]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=150)
    print(f"$ {' '.join(cmd)}\n-> {p.returncode}\n{p.stdout}{p.stderr}", file=sys.stderr)
    rep = json.load(open(report)) if os.path.exists(report) else None
    if rep is not None:
        c = schema_check(CHECK, SCHEMA, report)
        expect(c.returncode == 0, f"schema check: {c.stderr.strip()}")
    expect(procs_in(os.path.realpath(wd)) == {}, f"processes left running in {wd}")
    return p.returncode, p.stdout, p.stderr, rep


def samples(rep, name, **args):
    for r in rep["results"] if rep else []:
        if r["name"] == name and r["args"] == args:
            return r["samples"]
    return None


def crc32_mpeg2(words):
    """What the STM32F4 CRC unit computes over 32-bit words (RM0090 4.2): poly 0x04C11DB7, init ~0."""
    crc = 0xFFFFFFFF
    for w in words:
        crc ^= w
        for _ in range(32):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else (crc << 1) & 0xFFFFFFFF
    return crc


def disasm_between_markers(elf):
    """The instructions between each bkpt 0x0001 and the next bkpt 0x0002, as lists of text."""
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", elf], capture_output=True, text=True).stdout
    out, cur = [], None
    for line in dis.splitlines():
        if "bkpt\t0x0001" in line:
            cur = []
        elif "bkpt\t0x0002" in line and cur is not None:
            out.append(cur)
            cur = None
        elif cur is not None and "\t" in line:
            cur.append(line.split("\t", 2)[-1])
    return out


# The CRC unit's cost (crc_hw = CRC_HW_A + CRC_HW_B * n) and the software CRC's, measured at -Og.
CRC_HW_A, CRC_HW_B = 40, 10
CRC_SW = {1: 345, 4: 1258, 16: 4990, 64: 19454}


def case_cubemx():
    elf = os.path.join(FW, "cubemx", "cubemx_f407.elf")
    ld = open(os.path.join(SRC, "tests", "firmware", "cubemx", "STM32F407VGTx_FLASH.ld")).read()
    expect("KEEP(*(.bench_markers))" not in re.sub(r"\s", "", ld), "the CubeMX-layout script must not KEEP the markers")
    sections = subprocess.run(["arm-none-eabi-readelf", "-SW", elf], capture_output=True, text=True).stdout
    expect(".bench_markers" in sections, ".bench_markers survived --gc-sections without KEEP")
    vec = re.search(r"\.isr_vector\s+PROGBITS\s+08000000 [0-9a-f]+ ([0-9a-f]+)", sections)
    expect(vec is not None and int(vec.group(1), 16) == 4 * (16 + 82),
           f".isr_vector at 0x08000000 holds 16 + 82 vectors: {vec and vec.group(0)}")
    syms = {}
    for line in subprocess.run(["arm-none-eabi-nm", elf], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3:
            syms[f[2]] = (f[0], f[1])
    irq = {k: v for k, v in syms.items() if k.endswith("_IRQHandler")}
    own = sorted(k for k, v in irq.items() if v[0] != syms.get("Default_Handler", ("", ""))[0])
    expect(len(irq) == 82 and own == ["DMA1_Stream6_IRQHandler", "EXTI0_IRQHandler", "TIM6_DAC_IRQHandler"]
           and all(v[1] == "W" for k, v in irq.items() if k not in own),
           f"82 IRQ handlers, weak aliases of Default_Handler but the 3 the firmware defines: {len(irq)}, {own}")
    stretches = disasm_between_markers(elf)
    expect(len(stretches) == 2 and all(len(s) == 1 and s[0].startswith("bl") for s in stretches)
           and "<crc_hw>" in stretches[0][0] and "<crc_sw>" in stretches[1][0],
           f"each BENCH_CALL stretch is one bl, to crc_hw and crc_sw: {stretches}")
    sizes = [1, 4, 16, 64]
    rc, out, err, rep = run([elf, "--arg", "words=" + ",".join(map(str, sizes)), "--uart"])
    expect(rc == 0, f"exit code {rc}, expected 0")
    expect(rep is not None and rep["status"] == "ok", f"status {rep and rep['status']}")
    sw, a, b = CRC_SW, CRC_HW_A, CRC_HW_B
    for n in sizes:
        hw_s, sw_s = samples(rep, "crc_hw", words=n), samples(rep, "crc_sw", words=n)
        expect(hw_s == [a + b * n] * 10, f"crc_hw words={n}: {hw_s}, expected 10 x {a + b * n}")
        expect(sw_s == [sw[n]] * 10, f"crc_sw words={n}: {sw_s}, expected 10 x {sw[n]}")
    lines = (rep or {}).get("uart", {}).get("lines", [])
    expect(lines[:3] == ["clock 168000000 sws 2", "tick ok", "exti 1"], f"start-up lines {lines[:3]}")
    data = [((0x12345678 * (i + 1)) & 0xFFFFFFFF) ^ (i << 24) for i in range(64)]
    want = []
    for n in sizes:
        c = crc32_mpeg2(data[:n])
        want += [f"crc words {n} hw {c:08x} sw {c:08x}"] * 11  # warmup 1 + repeat 10
    expect(lines[3:] == want, f"CRC lines {lines[3:]}, expected {want}")
    expect(err.count("uart: crc words") == len(want), "--uart echoes every CRC line on stderr")
    plain = "the firmware used DMA1 (0x40026000), which the virtual board keeps as plain registers"
    expect((rep or {}).get("warnings") == [plain], f"warnings {(rep or {}).get('warnings')}")
    expect(f"warning: {plain}" in out, "the console shows the DMA1 warning")


def case_standalone():
    elf = os.path.join(FW, "cubemx", "cubemx_f407.elf")
    cmd = [os.path.join(BUILD, "bench-sim"), "--elf", elf, "--standalone", "--no-debugger", "--max-cycles", "50000000"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    print(f"$ {' '.join(cmd)}\n-> {p.returncode}\n{p.stdout}{p.stderr}", file=sys.stderr)
    expect(p.returncode == 0, f"exit code {p.returncode}, expected 0 (asleep after DONE)")
    c = crc32_mpeg2([((0x12345678 * (i + 1)) & 0xFFFFFFFF) ^ (i << 24) for i in range(4)])
    lines = p.stdout.splitlines()
    want = ["uart: clock 168000000 sws 2", "uart: tick ok", "uart: exti 1", f"uart: crc words 4 hw {c:08x} sw {c:08x}",
            "uart: done"]
    expect(lines[:-1] == want, f"lines {lines[:-1]}, expected {want}")
    expect(len(lines) == 6 and re.match(r"end pc=0x[0-9a-f]{8} cyccnt=\d+ reason=sleep( symbol=\S+)?$", lines[-1]) is not None,
           f"last line {lines[-1:]}, expected the core asleep")


def case_cxx():
    elf = os.path.join(FW, "cxx", "cxx.elf")
    stretches = disasm_between_markers(elf)
    calls = [s for s in stretches if len(s) == 1 and s[0].startswith("bl")]
    expect(any("<fut>" in s[0] for s in calls) and any("<_Z5scalei>" in s[0] for s in calls),
           f"BENCH_CALL stretches hold one call each to fut and scale(int): {stretches}")
    inputs = [0, 3, -7, 1000]
    rc, out, err, rep = run([elf, "--arg", "input=" + ",".join(map(str, inputs)), "--repeat", "3"])
    expect(rc == 0, f"exit code {rc}, expected 0")
    for v in inputs:
        for name, cycles in (("fut", 15), ("scale", 58), ("fir", 9)):
            got = samples(rep, name, input=v)
            expect(got == [cycles] * 3, f"{name} input={v}: {got}, expected 3 x {cycles}")


def case_oneshot():
    for fw, cycles in (("oneshot-hardfp", 25), ("oneshot-softfp", 159)):
        elf = os.path.join(FW, "target", fw + ".elf")
        rc, out, err, rep = run([elf, "--repeat", "3", "--warmup", "1"])
        expect(rc == 0, f"{fw}: exit code {rc}, expected 0")
        got = samples(rep, "fut")
        expect(got == [cycles] * 3, f"{fw}: fut {got}, expected 3 x {cycles} (one per boot)")
    rc, out, err, rep = run([os.path.join(FW, "target", "oneshot-hardfp.elf"), "--arg", "input=1,2"])
    lines = [l for l in err.splitlines() if l.startswith("bench: ")]
    expect(rc == 2 and len(lines) == 1 and "has no SYNC marker, so inputs cannot be written" in lines[0],
           f"--arg on one-shot firmware: exit {rc}, {lines}")


run_case(globals(), CASE)
