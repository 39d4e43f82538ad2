#!/usr/bin/env python3
"""bench installed like a tool (issue 12, docs/install.md), from the real install rules and package:

  install  `cmake --install BUILD --prefix T/prefix`: bin/bench and bin/bench-sim, share/probebench
           (boards, target runtime, docs, examples, CMake package), share/pkgconfig/probebench.pc;
           no source or build path in either program's .rodata; the installed bench lists its boards
           and folders (`bench boards`), measures the installed example (fut 15 cycles, 3 samples);
           a copy of bench alone says where it looked and what to set; pkg-config gives the include
           dir and bench.c, which compile with arm-none-eabi-gcc; a CMake cross build with
           find_package(probebench) + probebench::runtime (ST's start-up file, a CubeMX-layout
           linker script) measures fut 15 cycles.
  deb      `cpack -G DEB`: Depends lists openocd and the package of every shared library bench and
           bench-sim need (dpkg -S); unpacked with dpkg-deb -x, its bench runs the example (15 cycles)
           and finds its data under the unpacked usr/share/probebench; its probebench.pc says /usr.

Usage: install_test.py BUILD_DIR SOURCE_DIR CASE"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import expect, run_case  # noqa: E402

BUILD, SRC, CASE = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2]), sys.argv[3]
HERE = os.path.dirname(os.path.abspath(__file__))


def sh(cmd, env=None, cwd=None, timeout=300):
    e = dict(os.environ)
    for k in ("BENCH_BOARDS_DIR", "BENCH_SIM", "BENCH_OPENOCD"):
        e.pop(k, None)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", env=e, cwd=cwd, timeout=timeout)
    print(f"$ {' '.join(cmd)}\n-> {p.returncode}\n{p.stdout[-3000:]}{p.stderr[-3000:]}", file=sys.stderr)
    return p


def measure(bench, elf, tmp, want, label):
    """bench run ELF on the virtual board, 3 samples; fut must be `want` cycles in each."""
    rep = os.path.join(tmp, "rep.json")
    p = sh([bench, "run", elf, "--board", "sim-stm32f4", "--repeat", "3", "--json", rep], cwd=tmp)
    expect(p.returncode == 0, f"{label}: bench run exit {p.returncode}")
    got = None
    if os.path.exists(rep):
        got = [r["samples"] for r in json.load(open(rep))["results"] if r["name"] == "fut"]
    expect(got == [[want] * 3], f"{label}: fut samples {got}, expected 3 x {want}")


def no_paths_compiled_in(prog):
    ro = sh(["readelf", "-p", ".rodata", prog]).stdout
    for where in (SRC, BUILD):
        expect(where not in ro, f"{prog}: .rodata names {where}")


def case_install():
    tmp = tempfile.mkdtemp(prefix="bench-install-")
    prefix = os.path.join(tmp, "prefix")
    p = sh(["cmake", "--install", BUILD, "--prefix", prefix])
    expect(p.returncode == 0, f"cmake --install exit {p.returncode}")
    data = os.path.join(prefix, "share", "probebench")
    for f in ("bin/bench", "bin/bench-sim", "share/pkgconfig/probebench.pc",
              "share/probebench/boards/sim-stm32f4/board.json", "share/probebench/target/src/bench.c",
              "share/probebench/target/include/bench.h", "share/probebench/docs/integrate.md",
              "share/probebench/cmake/probebenchConfig.cmake",
              "share/probebench/cmake/probebenchConfigVersion.cmake",
              "share/probebench/examples/sim-stm32f4/fut-hardfp.elf"):
        expect(os.path.exists(os.path.join(prefix, f)), f"installed {f}")
    bench = os.path.join(prefix, "bin", "bench")
    for prog in (bench, os.path.join(prefix, "bin", "bench-sim")):
        no_paths_compiled_in(prog)
    p = sh([bench, "boards"])
    expect(p.returncode == 0, f"bench boards exit {p.returncode}")
    expect(p.stdout.startswith(f"boards in {data}/boards (next to bench; --boards-dir DIR or BENCH_BOARDS_DIR "
                               "picks another folder):\n"), f"bench boards header: {p.stdout[:200]!r}")
    expect(re.search(r"^  sim-stm32f4 +virtual ", p.stdout, re.M) is not None, "sim-stm32f4 listed as virtual")
    expect(f"\nbench-sim: {prefix}/bin/bench-sim\n" in p.stdout, "bench boards names the installed bench-sim")
    expect(f"\ntarget runtime: {data}/target " in p.stdout, "bench boards names the installed runtime")
    measure(bench, os.path.join(data, "examples", "sim-stm32f4", "fut-hardfp.elf"), tmp, 15, "installed")

    # A copy of bench with nothing around it: where it looked, and what to set.
    lonely = os.path.join(tmp, "lonely")
    os.mkdir(lonely)
    shutil.copy(bench, lonely)
    elf = os.path.join(data, "examples", "sim-stm32f4", "fut-hardfp.elf")
    p = sh([os.path.join(lonely, "bench"), "run", elf, "--board", "sim-stm32f4"], cwd=tmp)
    expect(p.returncode == 2 and p.stderr == f"bench: board 'sim-stm32f4' not found: no boards folder next to bench "
           f"(looked for {lonely}/../share/probebench/boards and {lonely}/share/probebench/boards): pass "
           "--boards-dir DIR or set BENCH_BOARDS_DIR\n", f"lonely bench, no boards: {p.returncode} {p.stderr!r}")
    p = sh([os.path.join(lonely, "bench"), "run", elf, "--boards-dir", os.path.join(data, "boards"),
            "--board", "sim-stm32f4", "--work-dir", os.path.join(tmp, "wd")], cwd=tmp)
    expect(p.returncode == 4 and f"bench-sim (the virtual board) not found: looked for {lonely}/bench-sim, "
           f"{lonely}/sim/bench-sim and {lonely}/../bench-sim: " in p.stderr and "set BENCH_SIM" in p.stderr,
           f"lonely bench, no bench-sim: {p.returncode} {p.stderr!r}")

    # pkg-config for Makefile builds: the include dir and the one source file, which compile.
    pc_env = {"PKG_CONFIG_PATH": os.path.join(prefix, "share", "pkgconfig")}
    cflags = sh(["pkg-config", "--cflags", "probebench"], env=pc_env).stdout.strip()
    src = sh(["pkg-config", "--variable=runtime_source", "probebench"], env=pc_env).stdout.strip()
    expect(cflags == f"-I{data}/target/include", f"pkg-config --cflags: {cflags!r}")
    expect(src == f"{data}/target/src/bench.c", f"pkg-config runtime_source: {src!r}")
    p = sh(["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-O2", "-Wall", "-Wextra", "-Werror", cflags, "-c",
            src, "-o", os.path.join(tmp, "bench.o")])
    expect(p.returncode == 0, "bench.c compiles with pkg-config's flags alone")

    # A CMake cross build with the package's interface library.
    cb = os.path.join(tmp, "consumer")
    p = sh(["cmake", "-S", os.path.join(HERE, "consumer"), "-B", cb,
            f"-DCMAKE_TOOLCHAIN_FILE={SRC}/cmake/arm-none-eabi.cmake", f"-DPROBEBENCH_SOURCE={SRC}",
            f"-Dprobebench_DIR={data}/cmake", "-DCMAKE_BUILD_TYPE=Release"])
    expect(p.returncode == 0, f"consumer configure exit {p.returncode}")
    p = sh(["cmake", "--build", cb])
    expect(p.returncode == 0, f"consumer build exit {p.returncode}")
    measure(bench, os.path.join(cb, "consumer.elf"), tmp, 15, "CMake consumer")
    shutil.rmtree(tmp, ignore_errors=True)


def package_of(path):
    """The Debian package that owns a library file (on a merged-/usr system dpkg may know it as
    /lib/... while ldd says /usr/lib/..., or the other way round)."""
    real = os.path.realpath(path)
    for cand in dict.fromkeys([path, real, re.sub(r"^/usr/", "/", real), re.sub(r"^/usr/", "/", path)]):
        p = subprocess.run(["dpkg", "-S", cand], capture_output=True, text=True)
        if p.returncode == 0:
            return p.stdout.split(":")[0]
    return None


def case_deb():
    tmp = tempfile.mkdtemp(prefix="bench-deb-")
    p = sh(["cpack", "-G", "DEB", "--config", os.path.join(BUILD, "CPackConfig.cmake"), "-B", tmp])
    expect(p.returncode == 0, f"cpack exit {p.returncode}")
    debs = [f for f in os.listdir(tmp) if f.endswith(".deb")]
    expect(len(debs) == 1, f"one .deb made: {debs}")
    if len(debs) != 1:
        return
    deb = os.path.join(tmp, debs[0])
    depends = sh(["dpkg-deb", "-f", deb, "Depends"]).stdout.strip()
    names = {d.strip().split()[0] for d in depends.split(",")}
    expect("openocd" in names, f"Depends names openocd: {depends}")
    x = os.path.join(tmp, "x")
    p = sh(["dpkg-deb", "-x", deb, x])
    expect(p.returncode == 0, f"dpkg-deb -x exit {p.returncode}")
    usr = os.path.join(x, "usr")
    for prog in ("bench", "bench-sim"):
        path = os.path.join(usr, "bin", prog)
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", sh(["readelf", "-d", path]).stdout)
        expect(len(needed) >= 2, f"{prog}: NEEDED {needed}")
        ldd = sh(["ldd", path]).stdout
        for lib in needed:
            m = re.search(rf"^\s*{re.escape(lib)} => (\S+)", ldd, re.M)
            owner = package_of(m.group(1)) if m else None
            expect(owner in names, f"{prog}: {lib} comes from package {owner}, not in Depends ({depends})")
    pc = open(os.path.join(usr, "share", "pkgconfig", "probebench.pc")).read()
    expect("\nprefix=/usr\n" in pc, "the packaged probebench.pc says prefix=/usr")
    bench = os.path.join(usr, "bin", "bench")
    p = sh([bench, "boards"])
    expect(p.returncode == 0 and p.stdout.startswith(f"boards in {usr}/share/probebench/boards (next to bench"),
           f"unpacked bench boards: {p.stdout[:120]!r}")
    measure(bench, os.path.join(usr, "share", "probebench", "examples", "sim-stm32f4", "fut-hardfp.elf"), tmp, 15,
            "unpacked .deb")
    shutil.rmtree(tmp, ignore_errors=True)


run_case(globals(), CASE)
