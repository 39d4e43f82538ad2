"""`bench run` on a TriCore ELF (issue 15), through QEMU 7.2's TC277 model.

  tricore_run.py BUILD_DIR SOURCE_DIR TRICORE.elf LOOPS

- --board qemu-tc277: bench starts qemu-system-tricore, plants breakpoints at the DEBUG16 marker
  sites, goes BEGIN -> END -> DONE on every pass (11: QEMU's reset keeps the PC, bench puts the entry
  back), exit 0; the report says counter `none` and the pair has no samples (never 0 cycles); the
  region table is read from QEMU's memory at DONE: region `filter`'s `count` is LOOPS, which only
  the program's store put there (the ELF holds 0); with counter `none` every region's cycle figures
  (total, min, max, last, mean, ema) are null, never 0, the console shows '-', one warning says why. --start/--stop between two labels works the same.
- --icount: QEMU's record/replay instruction count, exactly 2 * LOOPS per pair (the BEGIN
  marker's DEBUG16 is not counted, as a Cortex-M BKPT is not), as its own result
  in unit "instructions" (no time), never as cycles.
- --gdb HOST:PORT: the same ELF through a QEMU started here (attach; no board).
- refusals: the TriCore ELF on an Arm board (exit 3), an Arm ELF on qemu-tc277 (exit 3), aurix-tc297
  without --gdb (exit 2), --openocd with a TriCore ELF (exit 3); each one line naming what to do.
- aurix-tc297 --gdb on a scripted TriCore gdbserver: CCNT at 0xF881FC04 gives exact samples across
  its 31-bit overflow, in marker and --start/--stop mode (bench switches CCTRL.CE on).
- no qemu-system-tricore left running afterwards.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import benchtest as bt  # noqa: E402
from benchtest import expect  # noqa: E402

build, src, elf, loops = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3]), int(sys.argv[4])
bench, _, schema, check = bt.paths(build, src)
work = tempfile.mkdtemp(prefix="bench-tricore-")


def run(*args, timeout=90):
    return subprocess.run([bench, "run", *args], capture_output=True, text=True, timeout=timeout)


def qemus():
    """PIDs of qemu-system-tricore running this test's ELF."""
    out = subprocess.run(["pgrep", "-f", f"-kernel {elf}"], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def check_report(path, what, names, board):
    r = json.load(open(path))
    c = r["context"]
    expect(r["status"] == "ok", f"{what}: status {r['status']} ({r.get('error')})")
    expect(c["counter"] == "none", f"{what}: counter {c['counter']!r}, not 'none'")
    expect(c["backend"] == "gdb-rsp", f"{what}: backend {c['backend']}")
    expect(c["server_version"].startswith("QEMU 7."), f"{what}: server {c['server_version']}")
    expect(c["board"] == board, f"{what}: board {c['board']!r}")
    expect([x["name"] for x in r["results"]] == names, f"{what}: results {[x['name'] for x in r['results']]}")
    for x in r["results"]:
        # No counter: nothing measured, and no sample may pretend to be 0 cycles.
        expect(x["samples"] == [] and x["n"] == 0 and x["min"] is None, f"{what}: {x['name']} has {x['samples']}")
        expect("no cycle counter" in (x["error"] or ""), f"{what}: {x['name']} error {x['error']!r}")
    regs = {g["name"]: g for g in r.get("regions", [])}
    expect([g["name"] for g in r.get("regions", [])] == ["pfp.overhead", "pfp.nested", "filter", "fft"],
           f"{what}: regions {[g['name'] for g in r.get('regions', [])]}")
    if "filter" in regs:
        f = regs["filter"]
        # `count` is 0 in the ELF: LOOPS came from QEMU's memory, stored by the program's ST.W.
        expect(f["count"] == loops, f"{what}: region filter count {f['count']}, not {loops} (read from the ELF?)")
    for g in regs.values():
        # counter none: the firmware's cycle figures are not cycles; never reported as numbers.
        cyc = [g.get(k) for k in ("total", "min", "max", "last", "mean", "ema")]
        expect(cyc == [None] * 6, f"{what}: region {g['name']} cycle figures {cyc}, not all null")
        expect("no cycle counter" in (g["error"] or ""), f"{what}: region {g['name']} error {g['error']!r}")
    warns = [w for w in r.get("warnings", []) if "regions" in w and "no cycle counter" in w]
    expect(len(warns) == 1, f"{what}: {len(warns)} region warnings, not 1: {r.get('warnings')}")
    if "fft" in regs:
        expect(regs["fft"]["error_flags"] == 4, f"{what}: fft error flags {regs['fft']['error_flags']}")
        # ... as the firmware wrote them, from a CCNT QEMU does not count: no wrap warning (issue 26)
        expect("wrap" not in (regs["fft"]["error"] or ""), f"{what}: fft error {regs['fft']['error']!r}")
    v = bt.check_schema(check, schema, path, "ok")
    expect(v.returncode == 0, f"{what}: report fails the schema: {v.stdout}{v.stderr}")


# 1. bench starts QEMU's TC277; markers by breakpoints; 1 warm-up + 10 passes, each from reset.
rep = os.path.join(work, "board.json")
p = run("--board", "qemu-tc277", elf, "--timeout", "10s", "--no-progress", "--json", rep)
expect(p.returncode == 0, f"--board qemu-tc277: exit {p.returncode}: {p.stderr}")
expect("no counter" in p.stdout, f"--board qemu-tc277: console does not say 'no counter': {p.stdout}")
# The region table: the count stays, the cycle columns are '-' (never 0 cycles), one warning below.
expect(re.search(r"^pfp\.overhead +16 +- +- +- +- +-  cycles not measured", p.stdout, re.M) is not None,
       f"--board qemu-tc277: console region row for pfp.overhead is not '16 - - - - -': {p.stdout}")
expect(p.stdout.count("warning: regions: the board has no cycle counter") == 1,
       f"--board qemu-tc277: console does not warn once about the regions' cycles: {p.stdout}")
check_report(rep, "--board qemu-tc277", ["loop"], "qemu-tc277")

# 1b. --icount: QEMU record/replay counts instructions exactly. BEGIN..END runs the BEGIN marker's
#     DEBUG16 (executed as a no-op, not counted: docs/gdb.md) and LOOPS x (ADD, JNE): 2 * LOOPS
#     instructions, a result of its own in unit
#     "instructions" with no time, beside the cycle result that still has no samples.
rep = os.path.join(work, "icount.json")
p = run("--board", "qemu-tc277", elf, "--icount", "--no-progress", "--json", rep)
expect(p.returncode == 0, f"--icount: exit {p.returncode}: {p.stderr}")
r = json.load(open(rep)) if os.path.exists(rep) else {"results": []}
by = {x["name"]: x for x in r["results"]}
expect(sorted(by) == ["loop", "loop [icount]"], f"--icount: results {sorted(by)}")
if "loop [icount]" in by:
    ic = by["loop [icount]"]
    expect(ic["unit"] == "instructions" and ic["samples"] == [2 * loops] * 10,
           f"--icount: {ic['unit']} {ic['samples']}, not 10 x {2 * loops} instructions")
    expect(ic["time_ns"] is None, f"--icount: instructions given a time {ic['time_ns']}")
if "loop" in by:
    expect(by["loop"]["samples"] == [] and by["loop"]["unit"] == "cycles", f"--icount: cycles {by['loop']}")
expect(f"{2 * loops}" in p.stdout and "instructions" in p.stdout, f"--icount console: {p.stdout}")
v = bt.check_schema(check, schema, rep, "ok")
expect(v.returncode == 0, f"--icount: report fails the schema: {v.stdout}{v.stderr}")

# 2. --start/--stop between two labels (breakpoints there, no markers needed).
rep = os.path.join(work, "startstop.json")
p = run("--board", "qemu-tc277", elf, "--start", "loop_begin", "--stop", "loop_end", "--repeat", "3",
        "--no-progress", "--json", rep)
expect(p.returncode == 0, f"--start/--stop: exit {p.returncode}: {p.stderr}")
r = json.load(open(rep)) if os.path.exists(rep) else {"results": []}
expect([x["name"] for x in r["results"]] == ["loop_begin..loop_end"], f"--start/--stop results {r['results']}")
expect(all(x["samples"] == [] for x in r["results"]), "--start/--stop: samples without a counter")

# 3. --gdb: attach to a QEMU started here, halted at the entry (-S).
port = bt.free_port()
q = subprocess.Popen(["qemu-system-tricore", "-M", "KIT_AURIX_TC277_TRB", "-nographic", "-monitor", "none", "-S",
                      "-gdb", f"tcp:127.0.0.1:{port}", "-kernel", elf], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
try:
    time.sleep(0.3)
    rep = os.path.join(work, "gdb.json")
    for _ in range(50):
        p = run("--gdb", f"127.0.0.1:{port}", elf, "--repeat", "3", "--no-progress", "--json", rep)
        if p.returncode != 4 or "Connection refused" not in p.stderr:
            break
        time.sleep(0.1)
    expect(p.returncode == 0, f"--gdb: exit {p.returncode}: {p.stderr}")
    check_report(rep, "--gdb", ["loop"], "")
finally:
    q.kill()
    q.wait()

# 4. Refusals: one line, the documented exit code, what to do next.
arm_elf = os.path.join(build, "examples", "qemu-mps2-an386", "nops.elf")
cases = [
    (["--board", "sim-stm32f4", elf], 3, "is a TriCore ELF but board sim-stm32f4 has a Cortex-M core: pick a TriCore"),
    (["--board", "qemu-mps2-an386", elf], 3, "is a TriCore ELF but board qemu-mps2-an386 has a Cortex-M core"),
    (["--board", "qemu-tc277", arm_elf], 3, "is a Cortex-M ELF but board qemu-tc277 has a TriCore core"),
    (["--board", "aurix-tc297", elf], 2, "board aurix-tc297 is reached through your own gdbserver: start it and "
                                         "pass --gdb HOST:PORT"),
    (["--openocd", "127.0.0.1:1", elf], 3, "is a TriCore ELF and OpenOCD debugs no TriCore"),
    (["--board", "aurix-tc297", "--gdb", "127.0.0.1:1", "--icount", elf], 2,
     "--icount counts QEMU's instructions and needs a QEMU board bench starts"),
]
for args, code, msg in cases:
    if not os.path.exists(args[-1]):
        expect(False, f"{args[-1]} missing: build the examples")
        continue
    p = run(*args, timeout=30)
    lines = p.stderr.strip().splitlines()
    expect(p.returncode == code, f"{args}: exit {p.returncode}, not {code}: {p.stderr}")
    expect(len(lines) == 1 and msg in p.stderr, f"{args}: stderr {p.stderr!r} lacks {msg!r}")

# 5. aurix-tc297 through a TriCore gdbserver, here a scripted one (fake_tricore_gdbserver.py): the
#    target description's own register numbers, CCNT read at 0xF881FC04, 31-bit CCNT across its
#    overflow, CCTRL.CE set by bench for --start/--stop on a core whose counters are off.
import fake_tricore_gdbserver as fake  # noqa: E402

per_pass = sum(fake.STRETCH.values())
expect(any(fake.CCNT_START + fake.STRETCH["loop_begin"] + k * per_pass < 2**31 <=
           fake.CCNT_START + fake.STRETCH["loop_begin"] + k * per_pass + fake.STRETCH["loop_end"] for k in range(11)),
       "the scripted CCNT does not cross its overflow inside a BEGIN..END stretch")
for mode, extra, server_args, name, n in [
        ("markers", [], [], "loop", 10),
        ("start/stop", ["--start", "loop_begin", "--stop", "loop_end", "--repeat", "4"], ["--ce-off"],
         "loop_begin..loop_end", 4)]:
    port_file = os.path.join(work, "fake.port")
    if os.path.exists(port_file):
        os.unlink(port_file)
    srv = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                         "fake_tricore_gdbserver.py"), elf, port_file] + server_args)
    try:
        for _ in range(100):
            if os.path.exists(port_file) and open(port_file).read():
                break
            time.sleep(0.05)
        rep = os.path.join(work, "fake.json")
        p = run("--board", "aurix-tc297", "--gdb", "127.0.0.1:" + open(port_file).read(), elf, *extra,
                "--no-progress", "--json", rep, timeout=60)
        expect(p.returncode == 0, f"aurix-tc297 {mode}: exit {p.returncode}: {p.stderr}")
        r = json.load(open(rep)) if os.path.exists(rep) else {"context": {}, "results": [], "regions": []}
        expect(r["context"].get("counter") == "CCNT", f"aurix-tc297 {mode}: counter {r['context'].get('counter')}")
        res = r["results"][0] if r["results"] else {}
        expect(res.get("name") == name and res.get("unit") == "cycles", f"aurix-tc297 {mode}: result {res}")
        expect(res.get("samples") == [fake.STRETCH["loop_end"]] * n,
               f"aurix-tc297 {mode}: samples {res.get('samples')}, not {n} x {fake.STRETCH['loop_end']}")
        if mode == "markers":
            expect([g["name"] for g in r.get("regions", [])] == ["pfp.overhead", "pfp.nested", "filter", "fft"],
                   f"aurix-tc297: regions {r.get('regions')}")
    finally:
        try:
            srv.wait(timeout=10)
        except subprocess.TimeoutExpired:
            srv.kill()
            expect(False, f"aurix-tc297 {mode}: the scripted server did not see a detach")

# 6. Nothing left running.
time.sleep(0.2)
expect(qemus() == [], f"qemu-system-tricore still running: {qemus()}")
print("ok" if not bt.failures else f"{len(bt.failures)} failure(s)")
sys.exit(1 if bt.failures else 0)
