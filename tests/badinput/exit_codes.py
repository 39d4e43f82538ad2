#!/usr/bin/env python3
"""Walks docs/exit-codes.md (issue 26, class 6): every code its table documents gets a case here that
produces it, asserting the code and the first words of bench's one-line message; a case for a code
the table does not document fails too, so the page and the code cannot drift apart.
Usage: exit_codes.py BENCH BUILD_DIR SOURCE_DIR. Exit 0 when every case passes.

Events are placed, not timed: the interrupt (130) is sent when a stand-in OpenOCD has received
bench's first command, so bench is waiting for that answer; the full TMPDIR is a 64 KiB tmpfs filled
to the last block in a user and mount namespace (unshare -rm), skipped (77, a failure under CI=true
or BENCH_STRICT=1) where the kernel allows none."""
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import table_verdict  # noqa: E402

BENCH, BUILD, SRC = sys.argv[1], sys.argv[2], sys.argv[3]
EX = os.path.join(BUILD, "examples", "sim-stm32f4")
NOPS = os.path.join(EX, "nops.elf")
STARTFAULT = os.path.join(BUILD, "tests", "firmware", "run", "startfault.elf")
PENDSV = os.path.join(BUILD, "tests", "firmware", "ci", "pendsv", "sled.elf")
CIFX = os.path.join(SRC, "tests", "ci", "fixtures")
DEAD = "127.0.0.1:1"  # a privileged port nobody here binds: connecting is refused at once
STRICT = os.environ.get("CI") == "true" or os.environ.get("BENCH_STRICT") == "1"


def documented_codes():
    """The codes of docs/exit-codes.md's table, in order."""
    text = open(os.path.join(SRC, "docs", "exit-codes.md"), encoding="utf-8").read()
    return [int(c) for c in re.findall(r"^\|\s*(\d+)\s*\|", text, re.M)]


def broken_segment(tmp):
    """nops.elf whose first PT_LOAD says its bytes start at file offset 0x7fffff00 (past the end)."""
    data = bytearray(open(NOPS, "rb").read())
    phoff = struct.unpack_from("<I", data, 28)[0]
    struct.pack_into("<I", data, phoff + 4, 0x7FFFFF00)
    path = os.path.join(tmp, "segment.elf")
    with open(path, "wb") as f:
        f.write(data)
    return path


def run(argv, tmp, stdout=subprocess.PIPE, env=None):
    return subprocess.run([BENCH] + argv, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120, cwd=tmp,
                          env=env)


def interrupted(tmp):
    """SIGINT while bench waits for a stand-in OpenOCD's first answer (--openocd): exit 130."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    p = subprocess.Popen([BENCH, "run", NOPS, "--openocd", f"127.0.0.1:{port}", "--work-dir", os.path.join(tmp, "wd")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp)
    srv.settimeout(60)
    conn, _ = srv.accept()
    conn.settimeout(60)
    got = b""
    while b"\x1a" not in got:  # a whole TCL command (OpenOCD's terminator 0x1a): bench now waits
        chunk = conn.recv(4096)
        if not chunk:
            break
        got += chunk
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    conn.close()
    srv.close()
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def full_tmpdir(tmp):
    """bench run with TMPDIR on a full 64 KiB tmpfs; None when no user namespace can be made."""
    mnt = os.path.join(tmp, "full")
    os.mkdir(mnt)
    script = ('mount -t tmpfs -o size=64k tmpfs "$1" || exit 77; '
              'dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null; TMPDIR="$1" exec "$2" run "$3" --repeat 1')
    p = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", mnt, BENCH, NOPS], capture_output=True,
                       text=True, timeout=120, cwd=tmp)
    if p.returncode == 77 or "unshare" in p.stderr.split(":", 1)[0]:
        return None
    return p


def help_to_full():
    with open("/dev/full", "w") as full:
        return subprocess.run([BENCH, "--help"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)


def main():
    failed = skipped = 0
    with tempfile.TemporaryDirectory(prefix="bench-exitcodes-") as tmp:
        wd = ["--work-dir", os.path.join(tmp, "wd5")]
        # code: [(name, how, first words of the stderr line as a regular expression; None: no stderr)]
        cases = {
            0: [("compare-same", lambda: run(["compare", os.path.join(CIFX, "cmp-base.json"),
                                              os.path.join(CIFX, "cmp-same.json")], tmp), None)],
            1: [("compare-regressed", lambda: run(["compare", os.path.join(CIFX, "cmp-base.json"),
                                                   os.path.join(CIFX, "cmp-regressed.json")], tmp),
                 r"^bench: 1 regression beyond 1%")],
            2: [("start-stop-same", lambda: run(["run", NOPS, "--start", "main", "--stop", "main", "--openocd", DEAD],
                                                tmp), r"^bench: --start main and --stop main are the same address"),
                ("stop-before-start", lambda: run(["run", NOPS, "--start", "bench_init", "--stop", "main",
                                                   "--repeat", "1", "--work-dir", os.path.join(tmp, "wd2")], tmp),
                 r"^bench: the target reached --stop main before --start bench_init")],
            3: [("broken-segment", lambda: run(["run", broken_segment(tmp), "--openocd", DEAD], tmp),
                 r"^bench: .*segment\.elf is broken: its loadable segment 0 says bytes")],
            4: [("nothing-answers", lambda: run(["run", NOPS, "--openocd", DEAD], tmp),
                 r"^bench: nothing answers at 127\.0\.0\.1:1")],
            5: [("start-fault", lambda: run(["run", STARTFAULT, "--repeat", "1"] + wd, tmp),
                 r"^bench: the target faulted: HardFault"),
                # every sample took PendSV inside its stretch: nothing counts, no gate passes on it
                ("nothing-counts", lambda: run(["run", PENDSV, "--repeat", "3", "--quiet", "--no-progress",
                                                "--json", os.path.join(tmp, "irq.json")] + wd, tmp),
                 r"^bench: sled: no sample counts: all 3 took an exception inside the stretch")],
            6: [("help-to-full", help_to_full, r"^bench: writing to stdout failed \(No space left on device\)"),
                ("full-tmpdir", lambda: full_tmpdir(tmp), r"^bench: TMPDIR .*/full is full \(0 bytes free")],
            130: [("interrupted", lambda: interrupted(tmp), r"^bench: interrupted")],
        }
        codes = documented_codes()
        problems = []
        if len(codes) < 8:
            problems.append(f"docs/exit-codes.md's table lists {codes}: expected every code")
        problems += [f"code {c} is documented but no case here produces it" for c in codes if c not in cases]
        problems += [f"code {c} has a case here but docs/exit-codes.md does not document it"
                     for c in cases if c not in codes]
        failed += table_verdict("docs/exit-codes.md", "table", problems)
        for code, runs in cases.items():
            for name, how, first in runs:
                p = how()
                problems = []
                if p is None:
                    if STRICT:
                        problems.append("cannot make a user namespace (unshare -rm): a skip fails under CI")
                    else:
                        print(f"skip {name}: no user namespace (unshare -rm)")
                        skipped += 1
                        continue
                elif p.returncode != code:
                    problems.append(f"exit {p.returncode}, expected {code}; stderr {p.stderr!r}")
                else:
                    lines = p.stderr.rstrip("\n").split("\n") if p.stderr else []
                    if first is None and lines:
                        problems.append(f"stderr should be empty, got {p.stderr!r}")
                    elif first is not None and (len(lines) != 1 or not re.search(first, lines[0])):
                        problems.append(f"stderr {p.stderr!r} should be one line matching {first!r}")
                failed += table_verdict(f"code {code}", name, problems)
    print("every documented exit code produced" if not failed else f"{failed} failed")
    return 1 if failed else 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
