"""A user's own OpenOCD for `bench run --openocd` tests: bench-sim holding a firmware and a stock
OpenOCD on a free TCL port, as a user would run them, and a client of that TCL port to look at
what bench left behind (tests/faults). Only the standard library."""
import os
import socket
import subprocess
import time

import benchtest


def tcl_client(port):
    """A client of OpenOCD's TCL port: commands end with 0x1a, so do replies (OpenOCD's
    src/server/tcl_server.c)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)

    def tcl(cmd):
        sock.sendall(cmd.encode() + b"\x1a")
        buf = b""
        while not buf.endswith(b"\x1a"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            buf += chunk
        return buf[:-1].decode(errors="replace")
    return tcl


def start_attach_target(build, src, elf, tmp):
    """bench-sim holding ELF and a stock OpenOCD on a free TCL port (its log in TMP); returns
    (sim, openocd, port, tcl). The caller stops both."""
    sim = subprocess.Popen([os.path.join(build, "bench-sim"), "--jtag-port", "0", "--quiet", "--elf", elf],
                           stdout=subprocess.PIPE, text=True)
    jtag = int(sim.stdout.readline().split()[1])
    ocd = subprocess.Popen(["openocd", "-c", f"set SIM_JTAG_PORT {jtag}", "-f",
                            os.path.join(src, "boards", "sim-stm32f4", "openocd.cfg"), "-c", "bindto 127.0.0.1",
                            "-c", "gdb_port disabled", "-c", "telnet_port disabled", "-c", "tcl_port 0"],
                           stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "ocd.log"), "w"))
    port = benchtest.openocd_port(os.path.join(tmp, "ocd.log"), "tcl", ocd)
    if port is None:
        for p in (ocd, sim):
            p.kill()
            p.wait(timeout=10)
        raise SystemExit("OpenOCD did not open its TCL port")
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            tcl = tcl_client(port)
            tcl("version")
            return sim, ocd, port, tcl
        except OSError:
            time.sleep(0.05)
    raise SystemExit("OpenOCD did not open its TCL port")


def ocd_state(tcl):
    """What bench may change in an attached OpenOCD, read through its TCL port with the target
    halted: the breakpoint list, the interrupt masking mode, DEMCR (vector catches, TRCENA) and
    DWT_CTRL (EXCEVTENA, CYCCNTENA)."""
    tcl("halt")
    return {"bp": tcl("bp"), "maskisr": tcl("cortex_m maskisr"), "DEMCR": tcl("mdw 0xE000EDFC"),
            "DWT_CTRL": tcl("mdw 0xE0001000")}
