#!/usr/bin/env python3
"""DWT_PCSR samples per second on the virtual board, through each way stock OpenOCD reaches it
(dap, hla, jtag), for bench run --profile (docs/profile.md). For each path: bench-sim with
tests/firmware/profile/shares.elf running heavy()'s three-instruction loop (the PC set there, a
count of 10^8), OpenOCD on it, and over OpenOCD's TCL port:
  mdw      one `mdw 0xE000101C` a round trip (the baseline: a plain memory read per sample)
  batch    bench's way (host/profile/profile_sample.c): a Tcl loop of 32 `read_memory` a round trip
  profile  OpenOCD 0.12's own `profile 1 FILE START END` (cortex_m_profiling: PCSR read in bursts
           of up to 1024 with mem_ap_read_buf_noincr where there is a debug AP, one target_read_u32
           a loop on hla; at most 10000 samples; written as a gmon histogram, read back here)
For each: reads per second. And for the batch, whether the core ran between two reads of one
round trip: the same Tcl loop over DWT_CYCCNT, the share of neighbouring reads that differ (1.00:
every sample is of a core that moved on; bench-sim answers PCSR with the address of the block the
core is in, so PCSR itself cannot show it on a one-block loop).
Prints `figure: pcsr_<way>_<path> value=<reads/s> unit=reads/s baseline=<mdw> ratio=<r> target=...`
and `figure: pcsr_batch_moved_<path> value=<share> ...`.
Usage: profile_pcsr.py BUILD_DIR SOURCE_DIR [SECONDS]"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

BUILD, SRC = sys.argv[1], sys.argv[2]
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
ELF = os.path.join(BUILD, "tests", "firmware", "profile", "shares.elf")
PCSR = 0xE000101C
CYCCNT = 0xE0001004
BATCH = 32


def symbol(name):
    out = subprocess.run(["arm-none-eabi-nm", ELF], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return int(f[0], 16) & ~1
    raise SystemExit(f"profile_pcsr: no symbol {name} in {ELF}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Tcl:
    """OpenOCD's TCL RPC: a command, then 0x1a; the reply ends with 0x1a."""

    def __init__(self, port):
        deadline = time.monotonic() + 20
        while True:
            try:
                self.s = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.buf = b""

    def __call__(self, cmd):
        self.s.sendall(cmd.encode() + b"\x1a")
        while b"\x1a" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                raise SystemExit("profile_pcsr: OpenOCD closed the TCL port")
            self.buf += chunk
        reply, self.buf = self.buf.split(b"\x1a", 1)
        return reply.decode(errors="replace")


def measure(path, tmp):
    sim_args = [os.path.join(BUILD, "bench-sim"), "--quiet", "--elf", ELF]
    sim_args += ["--jtag-port", "0"] if path == "jtag" else ["--stlink-port", "0"]
    sim = subprocess.Popen(sim_args, stdout=subprocess.PIPE, text=True)
    port = int(sim.stdout.readline().split()[1])
    tcl_port = free_port()
    var = f"set SIM_JTAG_PORT {port}" if path == "jtag" else f"set SIM_STLINK_PORT {port}"
    ocd = subprocess.Popen(["openocd", "-c", var, "-c", f"set BENCH_TRANSPORT {path}", "-f",
                            os.path.join(SRC, "boards", "sim-stm32f4", "openocd.cfg"), "-c", f"tcl_port {tcl_port}",
                            "-c", "gdb_port disabled", "-c", "telnet_port disabled"],
                           stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, f"ocd-{path}.log"), "w"))
    try:
        t = Tcl(tcl_port)
        heavy = symbol("heavy")
        t("reset halt")
        t(f"reg r0 100000000; reg pc {heavy:#x}; reg lr {heavy | 1:#x}; resume")
        figures = {}
        # mdw: one round trip a read.
        n, t0 = 0, time.monotonic()
        while time.monotonic() - t0 < SECONDS:
            t(f"mdw {PCSR:#x}")
            n += 1
        figures["mdw"] = n / (time.monotonic() - t0)
        # bench's batch: a Tcl loop of BATCH read_memory a round trip.
        def batch(addr):
            return (f"set _pb {{}}; for {{set _pi 0}} {{$_pi < {BATCH}}} {{incr _pi}} "
                    f"{{lappend _pb [read_memory {addr:#x} 32 1]}}; join $_pb")
        n, t0 = 0, time.monotonic()
        while time.monotonic() - t0 < SECONDS:
            n += len(t(batch(PCSR)).split())
        figures["batch"] = n / (time.monotonic() - t0)
        cyc = [int(v, 0) for v in t(batch(CYCCNT)).split()]
        moved = sum(1 for a, b in zip(cyc, cyc[1:]) if a != b) / (len(cyc) - 1)
        # OpenOCD's profile: the sample count from its log.
        t0 = time.monotonic()
        t(f"profile 1 {os.path.join(tmp, 'gmon-' + path + '.out')} {heavy:#x} {heavy + 0x40:#x}")
        took = time.monotonic() - t0
        m = re.findall(r"Profiling completed\. (\d+) samples", open(os.path.join(tmp, f"ocd-{path}.log")).read())
        figures["profile"] = int(m[-1]) / took if m else 0.0
        return figures, moved
    finally:
        for p in (ocd, sim):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


def main():
    tmp = tempfile.mkdtemp(prefix="bench-perf-pcsr-")
    results = {}
    for path in ("dap", "hla", "jtag"):
        results[path] = measure(path, tmp)
    for path, (fig, seen) in results.items():
        base = fig["mdw"]
        for way in ("mdw", "batch", "profile"):
            target = "(none; baseline: mdw, same path, same run)"
            if way == "batch":
                target = (f"more reads/s than mdw: {'met' if fig['batch'] > base else 'NOT met'} "
                          "(baseline: mdw, same path, same run)")
            print(f"figure: pcsr_{way}_{path} value={fig[way]:.0f} unit=reads/s baseline={base:.0f} "
                  f"ratio={fig[way] / base:.2f} target={target}")
        print(f"figure: pcsr_batch_moved_{path} value={seen:.2f} unit=share baseline=1 ratio={seen:.2f} "
              f"target=1.00 (the core ran between every two reads of a batch): {'met' if seen == 1 else 'NOT met'}")

main()
