#!/usr/bin/env python3
"""Runs the CLI cases of cli.table against a built `bench` (argv[1]); see cli.table's header.
Exit status: 0 when every case passes, 1 otherwise (each failure is printed with what differed)."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import table_rows, table_verdict  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "fixtures")
GOLDEN = os.path.join(HERE, "golden")


def BOARDS(bench):
    """The boards folder bench finds next to itself in the build tree (share/probebench/boards)."""
    return os.path.join(os.path.realpath(os.path.join(os.path.dirname(bench), "share", "probebench")), "boards")


def main():
    bench = sys.argv[1]
    update = os.environ.get("BENCH_UPDATE_GOLDEN") == "1"
    failed = 0
    n = 0
    skipped = 0
    with tempfile.TemporaryDirectory() as tmp:
        for lineno, (name, args, code, stderr, golden) in table_rows(os.path.join(HERE, "cli.table"), 5):
            if name.endswith("@noprobes") and os.environ.get("BENCH_CI_HAS_PROBES") == "1":
                print(f"skip {name} (BENCH_CI_HAS_PROBES=1)")
                skipped += 1
                continue
            n += 1
            name = name.replace("@", "-")
            out = os.path.join(tmp, name + ".out")
            argv = [bench] + [a.replace("{fx}", FIX).replace("{out}", out) for a in shlex.split(args)]
            p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
            problems = []
            if p.returncode != int(code):
                problems.append(f"exit {p.returncode}, expected {code}")
            got_err = p.stderr.replace(BOARDS(bench), "{boards}").replace(FIX, "{fx}").rstrip("\n")
            if stderr == "*":
                if not got_err.startswith("bench: ") or "\n" in got_err:
                    problems.append(f"stderr should be one 'bench: ...' line, got {got_err!r}")
            elif got_err != stderr:
                problems.append(f"stderr {got_err!r}\n      expected {stderr!r}")
            if golden:
                got = open(out, encoding="utf-8").read() if "{out}" in args and os.path.exists(out) else p.stdout
                got = got.replace(FIX, "{fx}")  # an input's path shown in the output (two reports' names)
                if "{out}" in args and not os.path.exists(out):
                    problems.append("no output file written")
                gpath = os.path.join(GOLDEN, golden)
                if update:
                    with open(gpath, "w", encoding="utf-8") as g:
                        g.write(got)
                elif not os.path.exists(gpath) or open(gpath, encoding="utf-8").read() != got:
                    problems.append(f"output differs from golden/{golden} (BENCH_UPDATE_GOLDEN=1 rewrites it)")
            elif "{out}" in args and int(code) != 0 and os.path.exists(out):
                problems.append("a failed command left its output file behind")
            failed += table_verdict(f"cli.table:{lineno}", name, problems)
    failed += docs_list_formats(bench)
    failed += help_to_full_device(bench)
    n += 2
    print(f"{n - failed}/{n} cases passed" + (f", {skipped} skipped" if skipped else ""))
    if failed:
        return 1
    # A skipped row is not a pass: ctest shows the test as skipped (SKIP_RETURN_CODE), and under
    # BENCH_STRICT or CI=true it fails (tests/CMakeLists.txt, bench_strict_env).
    strict = os.environ.get("CI") == "true" or os.environ.get("BENCH_STRICT") == "1"
    if skipped:
        return 1 if strict else 77
    return 0


def help_to_full_device(bench):
    """`--help` onto a full device (stdout /dev/full: every write fails with ENOSPC) is exit 6 with
    one line, for bench itself and every sub-command: a CI step piping help into a file on a full
    disk must not go green (docs/exit-codes.md)."""
    problems = []
    for cmd in ([], ["run"], ["compare"], ["report"], ["boards"], ["probes"], ["regions"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([bench] + cmd + ["--help"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        want = "bench: writing to stdout failed (No space left on device)"
        if p.returncode != 6 or not p.stderr.startswith(want) or p.stderr.count("\n") != 1:
            problems.append(f"bench {' '.join(cmd + ['--help'])} > /dev/full: exit {p.returncode}, stderr {p.stderr!r}")
    return table_verdict("cli_test.py", "help-to-full-device", problems)


def docs_list_formats(bench):
    """The formats are written once, in host/report/registry.c: `bench report --help` lists them,
    and docs/reports.md's table and docs/run.md's --format row must name the same ones, in order."""
    src = os.path.normpath(os.path.join(HERE, "..", ".."))
    help_text = subprocess.run([bench, "report", "--help"], capture_output=True, text=True, timeout=60).stdout
    lines = help_text.split("formats:\n", 1)[-1].splitlines()
    registry = [line.split()[0] for line in lines if line.startswith("  ")]
    reports_md = open(os.path.join(src, "docs", "reports.md"), encoding="utf-8").read()
    table = re.findall(r"^\| `([a-z]+)` \|", reports_md.split("## Formats", 1)[-1], re.M)
    run_md = open(os.path.join(src, "docs", "run.md"), encoding="utf-8").read()
    run_row = next((line for line in run_md.splitlines() if line.startswith("| `--format NAME`")), "")
    problems = []
    if len(registry) < 8:
        problems.append(f"`bench report --help` lists {registry}: expected every registry format")
    if table != registry:
        problems.append(f"docs/reports.md's format table has {table}, the registry {registry}")
    if re.findall(r"`([a-z]+)`", run_row) != registry:
        problems.append(f"docs/run.md's --format row names {re.findall(r'`([a-z]+)`', run_row)}, the registry {registry}")
    return table_verdict("cli_test.py", "docs-formats", problems)


if __name__ == "__main__":
    sys.exit(main())
