#!/usr/bin/env python3
"""Every command the docs show is run (issue 26, class 10), so the pages cannot drift from what a
user meets. The rules the pages follow (docs/conventions.md, "Commands in the docs"):

  - A runnable command is a line `$ COMMAND` inside a fence opened with ```sh. A line ending in `\\`
    continues on the next. The lines after it, up to the next `$ ` line or the fence's end, are
    what it prints: each must appear in its output (stdout and stderr), in that order, spaces
    collapsed; `...` inside a line stands for text that varies (a path, a time), a line that is
    only `...` for lines left out.
  - It must exit 0; the fence's last command may exit N instead when the fence says ```sh exit=N.
  - ```sh skip=REASON marks commands the test cannot run (REASON: board, root, your-project,
    slow); they are counted and listed, never passed in silence. Any other fence that holds a
    `$ ` line is an error: mark it; so is a `$ ` line in an indented (unfenced) code block.

Each command runs in its own bash (an `export` carries to the page's next commands) in the page's
scratch folder, which looks like a checkout (the source tree's top-level entries linked in) whose
`build` is the build tree; a server a command starts with `&` lives until its fence ends, then its
process group is stopped. HOME is a scratch home holding
`cmake --install BUILD --prefix ~/.local` (its bin first on PATH, as Debian's ~/.profile puts
it), TMPDIR is in the scratch folder, and no BENCH_* variable is set. In their output the scratch
home reads /home/you, the home the pages show.

Usage: docs_test.py BUILD_DIR SOURCE_DIR"""
import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BUILD, SRC = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
SKIP_REASONS = {"board": "needs a board and its probe", "root": "changes the system (sudo, apt)",
                "your-project": "runs in the reader's own project", "slow": "minutes of build or test"}
TIMEOUT = 30  # seconds a command may take: the slowest, a bench run under load, takes 3
FENCE = re.compile(r"^(\s*)```(\S*)\s*(.*)$")

failures = []
live = []  # process groups of the commands of the fence being run: stopped however the test ends


def fail(what):
    failures.append(what)
    print(f"FAIL: {what}", file=sys.stderr)


def blocks(path):
    """(line number, language, {attribute: value}, [lines]) of each fenced block of a page."""
    out, cur = [], None
    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        m = FENCE.match(line)
        if cur is None and m:
            attrs = dict(kv.split("=", 1) if "=" in kv else (kv, "") for kv in m.group(3).split())
            cur = (n, m.group(2), attrs, [], len(m.group(1)))
        elif cur is not None and m and not m.group(2) and not m.group(3):
            out.append(cur[:4])
            cur = None
        elif cur is not None:
            cur[3].append(line[cur[4]:] if line[:cur[4]].strip() == "" else line)
        elif re.match(r"^(    |\t)\s*\$ ", line):
            fail(f"{os.path.relpath(path, SRC)}:{n}: a `$ ` command in an indented block: put it in a ```sh fence")
    if cur is not None:
        fail(f"{path}:{cur[0]}: fence never closed")
    return out


def commands(lines):
    """[(command, [shown output lines])] of a ```sh block."""
    out, cont = [], False
    for line in lines:
        if cont:
            out[-1][0] += "\n" + line
        elif line.startswith("$ "):
            out.append([line[2:], []])
        elif out:
            out[-1][1].append(line)
        cont = bool(out) and line.endswith("\\") and not out[-1][1]
    return out


def norm(s):
    return " ".join(s.split())


def shown_in(shown, got):
    """The shown lines that do not appear in the output in order ([] when they all do)."""
    lines = [norm(x) for x in got.split("\n")]
    i, missing = 0, []
    for want in shown:
        w = norm(want)
        if not w or w == "...":
            continue
        pat = re.compile("^" + ".*".join(re.escape(p) for p in w.split("...")) + "$")
        j = i
        while j < len(lines) and not pat.match(lines[j]):
            j += 1
        if j == len(lines):
            missing.append(want)
        else:
            i = j + 1
    return missing


def stop(pgids):
    """SIGTERM to each command's process group (what it left running with `&`), SIGKILL after 5 s."""
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 2.0)):
        alive = []
        for g in pgids:
            try:
                os.killpg(g, sig)
                alive.append(g)
            except ProcessLookupError:
                pass
        deadline = time.time() + wait
        while alive and time.time() < deadline:
            alive = [g for g in alive if _exists(g)]
            time.sleep(0.05)
        if not alive:
            return


def _exists(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def run(cmd, work, env, state, out_path):
    """Runs one command; (exit code or None on timeout, its output, its process group)."""
    script = f"set -a; . {shlex.quote(state)}; set +a\n{cmd}\nrc=$?\nexport -p > {shlex.quote(state)}\nexit $rc\n"
    with open(out_path, "w") as out:
        p = subprocess.Popen(["bash", "-c", script], cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            rc = None
    with open(out_path, errors="replace") as f:
        return rc, f.read(), p.pid


def main():
    scratch = tempfile.mkdtemp(prefix="bench-docs-")
    home = os.path.join(scratch, "home")
    os.makedirs(home)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_") and k != "PKG_CONFIG_PATH"}
    os.makedirs(os.path.join(scratch, "tmp"))
    env.update(HOME=home, TMPDIR=os.path.join(scratch, "tmp"),
               PATH=os.path.join(home, ".local", "bin") + ":" + env.get("PATH", "/usr/bin:/bin"))
    p = subprocess.run(["cmake", "--install", BUILD, "--prefix", os.path.join(home, ".local")],
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail(f"cmake --install into the scratch home: {p.stderr.strip()}")
        return
    pages = [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))
    ran, skipped = 0, []
    t0 = time.time()
    for page in pages:
        rel = os.path.relpath(page, SRC)
        work = os.path.join(scratch, "work-" + os.path.basename(page)[:-3])
        os.makedirs(work)
        os.symlink(BUILD, os.path.join(work, "build"))
        for entry in os.listdir(SRC):
            if entry not in ("build", ".git") and not entry.startswith("build-"):
                os.symlink(os.path.join(SRC, entry), os.path.join(work, entry))
        state = os.path.join(work, ".env")
        open(state, "w").close()
        for line, lang, attrs, lines in blocks(page):
            cmds = commands(lines)
            if lang != "sh":
                if any(x.startswith("$ ") for x in lines):
                    fail(f"{rel}:{line}: a `$ ` command in a ```{lang} fence: make it ```sh (run) "
                         "or ```sh skip=REASON")
                continue
            if not cmds:
                fail(f"{rel}:{line}: a ```sh fence without a `$ ` command")
                continue
            if "skip" in attrs:
                if attrs["skip"] not in SKIP_REASONS:
                    fail(f"{rel}:{line}: skip={attrs['skip']!r}: give one of {', '.join(SKIP_REASONS)}")
                skipped += [(rel, line, attrs["skip"], c) for c, _ in cmds]
                continue
            pgids = []
            for k, (cmd, shown) in enumerate(cmds):
                want_rc = int(attrs.get("exit", "0")) if k == len(cmds) - 1 else 0
                ran += 1
                start = time.time()
                rc, got, pgid = run(cmd, work, env, state, os.path.join(scratch, "out"))
                pgids.append(pgid)
                live.append(pgid)
                got = got.replace(home, "/home/you")
                print(f"{rel}:{line}: $ {cmd}  -> exit {rc}, {time.time() - start:.1f} s", file=sys.stderr)
                if rc is None:
                    fail(f"{rel}:{line}: `{cmd}` did not end in {TIMEOUT} s:\n{got[-2000:]}")
                    break
                if rc != want_rc:
                    fail(f"{rel}:{line}: `{cmd}` exited {rc}, the page says {want_rc}:\n{got[-2000:]}")
                    break
                missing = shown_in(shown, got)
                if missing:
                    fail(f"{rel}:{line}: `{cmd}` does not print what the page shows; missing, in order:\n  "
                         + "\n  ".join(missing) + f"\nit printed:\n{got[-3000:]}")
            stop(pgids)
            del live[:]
    print(f"docs: ran {ran} commands in {time.time() - t0:.1f} s; skipped {len(skipped)}:")
    for rel, line, why, cmd in skipped:
        print(f"  skipped ({why}: {SKIP_REASONS.get(why, '?')}) {rel}:{line}: $ {cmd}")
    if ran == 0:
        fail("no command ran: the pages lost their ```sh fences, or the parser broke")
    shutil.rmtree(scratch, ignore_errors=True)


def on_signal(signum, frame):
    """ctest's timeout (SIGTERM) or Ctrl-C: no server a page started may outlive the test."""
    stop(live)
    sys.exit(128 + signum)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        main()
    finally:
        stop(live)
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        sys.exit(1)
    print("ok")
