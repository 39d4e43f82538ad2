#!/usr/bin/env python3
"""End-to-end tests of the servers `bench run` starts or attaches to on the virtual board: an
OpenOCD missing, broken, silent or quiet; an OpenOCD the user started (--openocd), or nothing
there; remote_bitbang; the debugger's own view of the bit-band aliases; a reused --work-dir; and
the three ways OpenOCD reaches bench-sim (--transport). Checked as in run_e2e.py.
Usage: server_e2e.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import attach  # noqa: E402
from benchtest import expect, free_port, procs_in, run_case  # noqa: E402
from e2e_common import BENCH, BUILD, CASE, EX, SRC, one_error_line, result, run  # noqa: E402


def case_openocd_missing():
    rc, out, err, rep = run([os.path.join(EX, "nops.elf")], env={"BENCH_OPENOCD": "/nonexistent/openocd"},
                            status="error")
    one_error_line(err, "/nonexistent/openocd not found: install it with `apt-get install openocd`", 4, rc)


def case_openocd_fails():
    # A board whose OpenOCD config is broken: OpenOCD exits, bench quotes the end of its log.
    boards = tempfile.mkdtemp(prefix="bench-e2e-boards-")
    d = os.path.join(boards, "broken")
    os.mkdir(d)
    json.dump({"name": "broken", "core_clock_hz": 16000000, "openocd_cfg": "openocd.cfg"},
              open(os.path.join(d, "board.json"), "w"))
    open(os.path.join(d, "openocd.cfg"), "w").write("adapter driver no_such_adapter_xyz\n")
    rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--board", "broken", "--boards-dir", boards],
                            status="error")
    one_error_line(err, "OpenOCD failed to start (log ", 4, rc)
    expect("no_such_adapter_xyz" in err, "the log's last lines are not quoted")


def case_openocd_silent():
    # An OpenOCD that runs but never logs "Listening on port N for tcl connections" (OpenOCD 0.10,
    # or something else in BENCH_OPENOCD): bench gives up after its 10 s start timeout and says how
    # to go on, instead of guessing a port; run() checks that it stopped it.
    d = tempfile.mkdtemp(prefix="bench-e2e-ocd-")
    try:
        fake = os.path.join(d, "openocd")
        open(fake, "w").write("#!/bin/sh\necho 'Open On-Chip Debugger 0.10.0' >&2\nsleep 60\n")
        os.chmod(fake, 0o755)
        rc, out, err, rep = run([os.path.join(EX, "nops.elf")], env={"BENCH_OPENOCD": fake}, status="error")
        one_error_line(err, "OpenOCD did not log which TCL port it took within 10000 ms (log ", 4, rc)
        expect("otherwise give --tcl-port N" in err, f"no way forward in {err!r}")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def case_openocd_quiet():
    # A board config that quiets OpenOCD's log to errors (debug_level 1) still runs: bench raises it
    # to 2 for the "Listening on port N for tcl connections" line it reads the port from.
    boards = tempfile.mkdtemp(prefix="bench-e2e-boards-")
    try:
        shutil.copytree(os.path.join(SRC, "boards", "sim-stm32f4"), os.path.join(boards, "sim-stm32f4"))
        cfg = os.path.join(boards, "sim-stm32f4", "openocd.cfg")
        text = open(cfg).read()
        open(cfg, "w").write("debug_level 1\n" + text)
        rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--boards-dir", boards, "--board", "sim-stm32f4",
                                 "--repeat", "2"], status="ok")
        expect(rc == 0, f"exit code {rc}: {err}")
        r = result(rep, "nop100")
        expect(r and r["samples"] == [100, 100], f"nop100 with debug_level 1: {r}")
    finally:
        shutil.rmtree(boards, ignore_errors=True)


def case_attach():
    # --openocd HOST:PORT: bench starts nothing, measures through the running OpenOCD, and leaves
    # it running.
    tmp = tempfile.mkdtemp(prefix="bench-e2e-")
    sim, ocd, port, _ = attach.start_attach_target(BUILD, SRC, os.path.join(EX, "nops.elf"), tmp)
    try:
        rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--openocd", f"127.0.0.1:{port}", "--board",
                                 "sim-stm32f4", "--repeat", "2"], status="ok")
        expect(rc == 0, f"exit code {rc}")
        r = result(rep, "nop100")
        expect(r and r["samples"] == [100, 100], f"nop100 through an attached OpenOCD: {r}")
        expect(ocd.poll() is None and sim.poll() is None, "bench stopped an OpenOCD it did not start")
    finally:
        for p in (ocd, sim):
            p.terminate()
            p.wait(timeout=10)


def case_remote_bitbang():
    # A real board (virtual: false) whose adapter bench cannot list as USB: OpenOCD's remote_bitbang
    # driver on bench-sim's JTAG port. bench starts OpenOCD and measures; it asks the USB bus only
    # when OpenOCD finds no adapter (a24bc0b's merge refused it: "no debug probe is attached").
    boards = tempfile.mkdtemp(prefix="bench-e2e-boards-")
    sim = subprocess.Popen([os.path.join(BUILD, "bench-sim"), "--jtag-port", "0", "--quiet", "--elf",
                            os.path.join(EX, "nops.elf")], stdout=subprocess.PIPE, text=True)
    try:
        jtag = int(sim.stdout.readline().split()[1])
        d = os.path.join(boards, "bitbang")
        os.mkdir(d)
        board = json.load(open(os.path.join(SRC, "boards", "sim-stm32f4", "board.json")))
        board.update({"name": "bitbang", "virtual": False})
        json.dump(board, open(os.path.join(d, "board.json"), "w"))
        with open(os.path.join(d, "openocd.cfg"), "w") as f:  # the jtag branch: adapter driver remote_bitbang
            f.write(f"set BENCH_TRANSPORT jtag\nset SIM_JTAG_PORT {jtag}\n"
                    f"source {{{os.path.join(SRC, 'boards', 'sim-stm32f4', 'openocd.cfg')}}}\n")
        rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--board", "bitbang", "--boards-dir", boards,
                                 "--repeat", "2"], status="ok")
        expect(rc == 0, f"exit code {rc}: {err}")
        r = result(rep, "nop100")
        expect(r and r["samples"] == [100, 100], f"nop100 through remote_bitbang: {r}")
        # The wire OpenOCD took, not board.json's default ("dap"): its openocd.cfg picked the JTAG one.
        t = rep["context"].get("transport")
        expect(t == "jtag", f"context.transport {t!r} through remote_bitbang, expected 'jtag'")
        expect("(transport jtag)" in out.splitlines()[0], f"console header: {out.splitlines()[:1]}")
    finally:
        sim.terminate()
        sim.wait(timeout=10)


def case_bitband_debugger():
    """The bit-band aliases through stock OpenOCD (AHB-AP), every access size: SRAM bits set with 32-, 16- and
    8-bit writes to the alias read back in the word and as 0/1 from the alias; RCC_CR.PLLON through 0x42470060
    sets PLLRDY (Cortex-M4 TRM 3.7)."""
    tmp = tempfile.mkdtemp(prefix="bench-e2e-")
    sim, ocd, _, tcl = attach.start_attach_target(BUILD, SRC, os.path.join(EX, "nops.elf"), tmp)
    try:
        tcl("halt")
        steps = [("write_memory 0x20000100 32 {0}", ""),
                 ("write_memory 0x22002014 32 {0xff}", ""),   # word: 0x20000100 bit 5
                 ("write_memory 0x22002044 16 {3}", ""),      # halfword: 0x20000102 bit 1 = word bit 17
                 ("write_memory 0x2200207c 8 {1}", ""),       # byte: 0x20000103 bit 7 = word bit 31
                 ("read_memory 0x20000100 32 1", "0x80020020"),
                 ("read_memory 0x22002014 32 1", "0x1"),
                 ("read_memory 0x22002044 16 1", "0x1"),
                 ("read_memory 0x2200207c 8 1", "0x1"),
                 ("read_memory 0x22002010 32 1", "0x0"),
                 ("write_memory 0x22002014 32 {0xe}", ""),
                 ("read_memory 0x20000100 32 1", "0x80020000"),
                 ("write_memory 0x42470060 32 {1}", ""),      # RCC_CR.PLLON, as HAL writes it
                 ("read_memory 0x42470064 32 1", "0x1")]      # RCC_CR.PLLRDY
        for cmd, want in steps:
            got = tcl(cmd).strip()
            expect(got == want, f"{cmd}: {got!r}, expected {want!r}")
    finally:
        for p in (ocd, sim):
            p.terminate()
            p.wait(timeout=10)


def case_attach_nothing():
    rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--openocd", f"127.0.0.1:{free_port()}"],
                            status="error")
    one_error_line(err, "nothing answers at 127.0.0.1:", 4, rc)


def case_workdir_reuse():
    """The same --work-dir twice, then with a stale jtag.sock (a socket file whose server is gone,
    as a killed bench-sim leaves it), then with a regular file named jtag.sock that must survive.
    The socket is the JTAG path's (--transport jtag); the ST-LINK path uses a TCP port."""
    import socket
    wd = tempfile.mkdtemp(prefix="bench-e2e-wd-")
    fw = os.path.join(EX, "fut-hardfp.elf")

    def once(what):
        cmd = [BENCH, "run", fw, "--repeat", "2", "--quiet", "--no-progress", "--work-dir", wd, "--transport", "jtag"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        print(f"$ {' '.join(cmd)}  ({what})\n-> {p.returncode}\n{p.stderr}", file=sys.stderr)
        expect(procs_in(os.path.realpath(wd)) == {}, f"{what}: processes left running in {wd}")
        return p

    for what in ("first run", "second run, same --work-dir"):
        p = once(what)
        expect(p.returncode == 0 and p.stderr == "", f"{what}: exit {p.returncode}, stderr {p.stderr!r}")
    sock = os.path.join(wd, "jtag.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if os.path.lexists(sock):
        os.unlink(sock)
    s.bind(sock)
    s.close()  # leaves the socket file with nobody listening: connect() gets ECONNREFUSED
    p = once("stale jtag.sock")
    expect(p.returncode == 0 and p.stderr == "", f"stale socket: exit {p.returncode}, stderr {p.stderr!r}")
    os.unlink(sock) if os.path.lexists(sock) else None
    with open(sock, "w") as f:
        f.write("not a socket\n")
    p = once("regular file jtag.sock")
    one_error_line(p.stderr, f"{os.path.realpath(sock)} exists and is not a socket", 4, p.returncode)
    expect(open(sock).read() == "not a socket\n", "bench touched a regular file named jtag.sock")


TRANSPORTS = ("dap", "hla", "jtag")


def case_transports_nops():
    """NOP sleds exact over each way OpenOCD reaches the virtual board; the default is dap."""
    for t in TRANSPORTS + (None,):
        rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--repeat", "3"] + (["--transport", t] if t else []),
                                status="ok")
        expect(rc == 0, f"{t}: exit code {rc}")
        expect(rep["context"].get("transport") == (t or "dap"),
               f"{t}: context.transport {rep['context'].get('transport')!r}, expected {t or 'dap'!r}")
        for n in (1, 10, 100, 1000):
            r = result(rep, f"nop{n}")
            expect(r is not None and r["samples"] == [n] * 3, f"{t}: nop{n} samples {r and r['samples']}")


def case_transports_same():
    """The same firmware gives the same samples over dap, hla and jtag (an input sweep whose cycle
    counts vary with the input: soft-float fut)."""
    got = {}
    for t in TRANSPORTS:
        rc, out, err, rep = run([os.path.join(EX, "fut-softfp.elf"), "--arg", "input=0,1,3,-7,1000,65535,123456789",
                                 "--repeat", "3", "--transport", t], status="ok")
        expect(rc == 0, f"{t}: exit code {rc}")
        got[t] = [(r["name"], r["args"], r["samples"]) for r in rep["results"]]
        expect(len(got[t]) == 7, f"{t}: {len(got[t])} results, expected 7")
    expect(got["dap"] == got["hla"] == got["jtag"], f"samples differ between the paths: {got}")
    expect([s[2] for s in got["dap"]] == [[c] * 3 for c in (62, 97, 105, 105, 105, 105, 105)],
           f"fut-softfp counts {got['dap']}, expected 62, 97, then 105 for the inputs 3 to 123456789")


def case_transport_bad():
    rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--transport", "swd"], check_schema=False)
    one_error_line(err, "--transport swd: give dap (ST-LINK, dapdirect_swd), hla (ST-LINK, hla_swd) or jtag", 2, rc)
    rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--board", "stm32f4-discovery", "--transport", "jtag"],
                            status="error")
    one_error_line(err, "--transport jtag: board stm32f4-discovery is reached through its ST-LINK: give dap", 2, rc)
    rc, out, err, rep = run([os.path.join(EX, "nops.elf"), "--openocd", "127.0.0.1:1", "--transport", "dap"],
                            check_schema=False)
    one_error_line(err, "--transport picks how the OpenOCD bench starts reaches the board: leave it out", 2, rc)


run_case(globals(), CASE)
