#!/usr/bin/env python3
"""Runs tests/firmware/target/standalone*.elf under QEMU with no debugger: the marker runtime must
step over every marker BKPT, run the measurement loop once, see no cycle counter, and reach its
end. Reads the guest's UART until "done" (deadline 20 s), then stops QEMU.

  qemu_standalone.py MACHINE ELF      MACHINE: mps2-an386 (Cortex-M4), microbit (Cortex-M0)"""
import subprocess
import sys
import time

EXPECTED = ["init", "status 1", "loops 1", "result 21", "done"]


def main():
    cmd = ["qemu-system-arm", "-M", sys.argv[1], "-display", "none", "-monitor", "none",
           "-serial", "stdio", "-kernel", sys.argv[2]]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines, deadline = [], time.monotonic() + 20
    try:
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.strip())
            if lines[-1] == "done":
                break
    finally:
        proc.kill()
        proc.wait()
    ok = lines == EXPECTED
    print(("ok   " if ok else "FAIL ") + f"UART lines {lines}, expected {EXPECTED}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
