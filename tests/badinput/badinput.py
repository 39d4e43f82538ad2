#!/usr/bin/env python3
"""Runs the bad-input table cases.table (see its header) against a built bench.

Fixtures are made at test time from the example firmware, so each one breaks exactly one thing of
a real input: a truncated ELF, an x86 object (cc -c), a .bench_markers section replaced with
arm-none-eabi-objcopy --update-section, board folders missing a field, farm files with an error on
a given line, reports edited from a real one, region tables with one header field patched.
Usage: badinput.py BENCH EXAMPLES_DIR CI_FIXTURES_DIR. Exit 0 when every case passes."""
import fcntl
import hashlib
import json
import os
import re
import shlex
import socket
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from benchtest import symbol_file_offset, table_rows, table_verdict  # noqa: E402

BENCH, EXAMPLES, CIFX = sys.argv[1], sys.argv[2], sys.argv[3]
HERE = os.path.dirname(os.path.abspath(__file__))
NOPS = os.path.join(EXAMPLES, "nops.elf")
REGIONS = os.path.join(EXAMPLES, "regions.elf")
DEAD = "127.0.0.1:1"  # a privileged port nobody here binds: connecting is refused at once


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


def run_tool(argv):
    subprocess.run(argv, check=True, capture_output=True)


def marker_section():
    with tempfile.TemporaryDirectory() as t:
        out = os.path.join(t, "m.bin")
        run_tool(["arm-none-eabi-objcopy", "--dump-section", f".bench_markers={out}", NOPS, os.path.join(t, "x")])
        return bytearray(open(out, "rb").read())


def with_markers(d, name, data):
    sec = write(os.path.join(d, name + ".bin"), bytes(data))
    path = os.path.join(d, name)
    run_tool(["arm-none-eabi-objcopy", f"--update-section=.bench_markers={sec}", NOPS, path])
    return path




def regions_patched(d, name, field_offset, fmt, value):
    data = bytearray(open(REGIONS, "rb").read())
    struct.pack_into(fmt, data, symbol_file_offset(REGIONS, "bench_regions") + field_offset, value)
    return write(os.path.join(d, name), bytes(data))


def report_edited(d, name, edit):
    rep = json.load(open(os.path.join(CIFX, "cmp-base.json")))
    edit(rep)
    return write(os.path.join(d, name), json.dumps(rep))


def boards(d):
    root = os.path.join(d, "boards")
    specs = {
        "noclock": {"name": "noclock", "openocd_cfg": "openocd.cfg"},
        "badjson": '{"name": ',
        "negclock": {"name": "negclock", "core_clock_hz": -5, "openocd_cfg": "openocd.cfg"},
        "nocfg": {"name": "nocfg", "core_clock_hz": 16000000, "openocd_cfg": "missing.cfg"},
    }
    for b, spec in specs.items():
        os.makedirs(os.path.join(root, b))
        write(os.path.join(root, b, "board.json"), spec if isinstance(spec, str) else json.dumps(spec))
        if b != "nocfg":
            write(os.path.join(root, b, "openocd.cfg"), "source [find target/stm32f4x.cfg]\n")
    boards_m0(root)
    return root


def x86_object(d):
    src = write(os.path.join(d, "x.c"), "int f(void) { return 1; }\n")
    run_tool(["cc", "-c", src, "-o", os.path.join(d, "x86.o")])
    return os.path.join(d, "x86.o")


def big_endian(d):
    data = bytearray(open(NOPS, "rb").read())
    data[5] = 2  # EI_DATA = ELFDATA2MSB: libelf then reads e_machine 40 (EM_ARM) byte-swapped: 0x2800
    return write(os.path.join(d, "bigendian.elf"), bytes(data))


def second_record_bad(d):
    m = marker_section()
    m[20 + 5] = 3  # record 0 is 12 + 8 bytes ("nop1" padded), record 1 starts at 20
    return with_markers(d, "m-second.elf", m)


def record_offset(m, kind, name):
    """Byte offset of the record of KIND (1 BEGIN, 2 END) and NAME in a marker section (header:
    addr, kind, version, id, name length, 3 pad bytes, then the name, NUL and padding to 4)."""
    off = 0
    while off + 12 <= len(m):
        n = m[off + 8]
        if m[off + 4] == kind and m[off + 12:off + 12 + n] == name.encode():
            return off
        off += 12 + ((n + 1 + 3) & ~3)
    raise SystemExit(f"no {kind} {name} record in nops.elf's marker section")


def patched_record(d, name, kind, edit):
    """The nops marker section with nop1's BEGIN (kind 1) or END (kind 2) record edited."""
    m = marker_section()
    edit(m, record_offset(m, kind, "nop1"))
    return with_markers(d, name, m)


def rename_end(m, off, new_id=None):
    m[off + 12:off + 16] = b"nopX"  # END nop1 -> END nopX, same length, so the layout holds
    if new_id is not None:
        m[off + 6:off + 8] = struct.pack("<H", new_id)


def attributes_arch(d, name, arch):
    """nops.elf with .ARM.attributes' Tag_CPU_arch (6) set to ARCH (11: ARMv6-M, a Cortex-M0 build)."""
    data = bytearray(open(NOPS, "rb").read())
    at = data.index(b"\x06\x0d\x07\x4d", data.index(b"aeabi"))  # Tag_CPU_arch v7E-M, profile 'M'
    data[at + 1] = arch
    return write(os.path.join(d, name), bytes(data))


def reset_vector_even(d):
    """nops.elf whose reset vector (word 1 of .isr_vector) has its Thumb bit cleared."""
    data = bytearray(open(NOPS, "rb").read())
    off = symbol_file_offset(NOPS, "bench_vectors") + 4
    v = struct.unpack_from("<I", data, off)[0]
    struct.pack_into("<I", data, off, v & ~1)
    return write(os.path.join(d, "nothumb.elf"), bytes(data))


def fifo(d):
    path = os.path.join(d, "fifo")
    os.mkfifo(path)
    return path


def symlink_to(d, name, target_name, content):
    target = write(os.path.join(d, target_name), content)
    os.symlink(target, os.path.join(d, name))
    return os.path.join(d, name)


HELD = []  # sockets and lock files a fixture holds for the whole test


def busy_port(d):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen()
    HELD.append(s)
    return str(s.getsockname()[1])


def locked_workdir(d):
    """A --work-dir whose bench.lock another process holds (here: this test, with flock)."""
    wd = os.path.join(d, "lockedwd")
    os.mkdir(wd)
    f = open(os.path.join(wd, "bench.lock"), "w")
    f.write("4242\n")
    f.flush()
    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    HELD.append(f)
    return wd


def rom_arg(d):
    """fut-softfp.elf with a symbol bench_arg_rom in .text (flash), where an input cannot be written."""
    out = os.path.join(d, "romarg.elf")
    run_tool(["arm-none-eabi-objcopy", "--add-symbol", "bench_arg_rom=.text:0x10,global,object",
              os.path.join(EXAMPLES, "fut-softfp.elf"), out])
    return out


def boards_m0(root):
    os.makedirs(os.path.join(root, "m0board"))
    write(os.path.join(root, "m0board", "board.json"), json.dumps(
        {"name": "m0board", "core": "cortex-m0", "core_clock_hz": 48000000, "openocd_cfg": "openocd.cfg",
         "flash": {"base": "0x08000000", "size": 65536}, "ram": {"base": "0x20000000", "size": 8192}}))
    write(os.path.join(root, "m0board", "openocd.cfg"), "source [find target/stm32f0x.cfg]\n")


def long_dir(d, name, total):
    """A folder under D whose path is about TOTAL bytes long (components of 200 bytes)."""
    path = os.path.join(d, name)
    while len(path) < total:
        path = os.path.join(path, "x" * min(200, max(1, total - len(path) - 1)))
    os.makedirs(path)
    return path


def long_firmware(d):
    path = os.path.join(long_dir(d, "longfw", 1100), "fw.elf")
    return write(path, open(NOPS, "rb").read())


def segment_patched(d, name, index, field, value):
    """nops.elf with field FIELD (0 p_type, 1 p_offset, 2 p_vaddr, 3 p_paddr, 4 p_filesz, 5 p_memsz)
    of program header INDEX set to VALUE (System V gABI, Elf32_Phdr)."""
    data = bytearray(open(NOPS, "rb").read())
    phoff = struct.unpack_from("<I", data, 28)[0]
    struct.pack_into("<I", data, phoff + 32 * index + 4 * field, value)
    return write(os.path.join(d, name), bytes(data))


TYPES_C = r"""
#include <stdbool.h>
#include <stdint.h>
#include "bench.h"
typedef uint8_t level_t;
volatile uint8_t small;
volatile int8_t tiny;
volatile bool flag;
volatile float gain;
volatile level_t level;
volatile int16_t mid;
volatile uint32_t result;
volatile uint8_t buf[4];
struct pair { int a, b; };
volatile struct pair pair;
enum mode { MODE_BACK = -1, MODE_ON = 1, MODE_WIDE = 0x10000 }; /* 4 bytes even with short enums */
volatile enum mode mode;
int main(void)
{
	bench_init();
	while (bench_sync()) {
		BENCH_BEGIN(work);
		result = small + tiny + flag + (uint32_t)gain + level + mid + buf[1] + pair.b + mode;
		BENCH_END(work);
	}
	bench_done();
	return 0;
}
"""


def types_elf(d, dwarf=5):
    """A firmware with inputs of several C types (-g: DWARF 5 from GCC 12, or -gdwarf-DWARF), built
    as the examples are (target/src/bench.c, the Cortex-M start-up, the virtual board's linker script)."""
    src = os.path.normpath(os.path.join(CIFX, "..", "..", ".."))
    c = write(os.path.join(d, "types.c"), TYPES_C)
    out = os.path.join(d, "types.elf" if dwarf == 5 else f"types-dwarf{dwarf}.elf")
    # -gstrict-dwarf: DWARF 2 as the standard has it, an enumeration without DW_AT_type (a DWARF 3
    # attribute GCC adds otherwise), as older compilers emit it
    strict = ["-gstrict-dwarf"] if dwarf == 2 else []
    cmd = ["arm-none-eabi-gcc", "-O2", f"-gdwarf-{dwarf}"] + strict + [
              "-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=soft", "-std=gnu99",
              "-ffunction-sections", "-fdata-sections", "-nostartfiles", "--specs=nano.specs", "-Wl,--gc-sections",
              "-I", os.path.join(src, "target", "include"), "-I", os.path.join(src, "boards", "sim-stm32f4"),
              "-L", os.path.join(src, "target", "port", "cortex-m"),
              "-T", os.path.join(src, "boards", "sim-stm32f4", "memory.ld"), c,
              os.path.join(src, "target", "src", "bench.c"), os.path.join(src, "target", "port", "cortex-m", "startup.c"),
              os.path.join(src, "target", "port", "cortex-m", "stm32f4_clock.c"), "-o", out]
    run_tool(cmd)
    return out


FIXTURES = {
    "none": lambda d: os.path.join(d, "nonexistent"),
    # a path of 20 components of 250 bytes, over PATH_MAX (4096); nothing is created
    "pathmax": lambda d: os.path.join(d, *["y" * 250] * 20),
    "dir": lambda d: (os.mkdir(os.path.join(d, "dir")), os.path.join(d, "dir"))[1],
    "empty.elf": lambda d: write(os.path.join(d, "empty.elf"), b""),
    "text.elf": lambda d: write(os.path.join(d, "text.elf"), "this is a text file, not firmware\n"),
    "nops.bin": lambda d: (run_tool(["arm-none-eabi-objcopy", "-O", "binary", NOPS, os.path.join(d, "nops.bin")]),
                           os.path.join(d, "nops.bin"))[1],
    "truncated.elf": lambda d: write(os.path.join(d, "truncated.elf"), open(NOPS, "rb").read()[:1000]),
    "x86.o": x86_object,
    "bigendian.elf": big_endian,
    "nomarkers.elf": lambda d: (run_tool(["arm-none-eabi-objcopy", "--remove-section=.bench_markers", NOPS,
                                          os.path.join(d, "nomarkers.elf")]), os.path.join(d, "nomarkers.elf"))[1],
    # nops.elf without the stack symbols of target/port/cortex-m/sections.ld: --stack needs --stack-limit
    "nostack.elf": lambda d: (run_tool(["arm-none-eabi-objcopy", "--strip-symbol=_sstack", "--strip-symbol=_estack",
                                        "--strip-symbol=_Min_Stack_Size", NOPS, os.path.join(d, "nostack.elf")]),
                              os.path.join(d, "nostack.elf"))[1],
    "noruntime.elf": lambda d: (run_tool(["arm-none-eabi-objcopy", "--remove-section=.bench_markers",
                                          "--strip-symbol=bench_ctl", NOPS, os.path.join(d, "noruntime.elf")]),
                                os.path.join(d, "noruntime.elf"))[1],
    "m-empty.elf": lambda d: with_markers(d, "m-empty.elf", b""),
    "m-truncated.elf": lambda d: with_markers(d, "m-truncated.elf", marker_section()[:7]),
    "m-version.elf": lambda d: with_markers(d, "m-version.elf", (lambda m: (m.__setitem__(5, 9), m)[1])(marker_section())),
    "m-kind.elf": lambda d: with_markers(d, "m-kind.elf", (lambda m: (m.__setitem__(4, 0x77), m)[1])(marker_section())),
    "m-namelen.elf": lambda d: with_markers(d, "m-namelen.elf", (lambda m: (m.__setitem__(8, 200), m)[1])(marker_section())),
    "m-second.elf": second_record_bad,
    "boards": boards,
    "line3.farm": lambda d: write(os.path.join(d, "line3.farm"),
                                  "# NAME BOARD\nsim-a sim-stm32f4\nsim-b nosuchboard\n"),
    "dup.farm": lambda d: write(os.path.join(d, "dup.farm"), "a sim-stm32f4\na sim-stm32f4\n"),
    "noserial.farm": lambda d: write(os.path.join(d, "noserial.farm"), "a stm32f4-discovery\n"),
    "simserial.farm": lambda d: write(os.path.join(d, "simserial.farm"), "a sim-stm32f4 SER123\n"),
    "empty.farm": lambda d: write(os.path.join(d, "empty.farm"), "# nothing but a comment\n\n"),
    "trunc.json": lambda d: write(os.path.join(d, "trunc.json"), open(os.path.join(CIFX, "cmp-base.json")).read()[:300]),
    "empty.json": lambda d: write(os.path.join(d, "empty.json"), ""),
    "array.json": lambda d: write(os.path.join(d, "array.json"), "[1, 2]\n"),
    "noversion.json": lambda d: report_edited(d, "noversion.json", lambda r: r.pop("schema_version")),
    "resultsnum.json": lambda d: report_edited(d, "resultsnum.json", lambda r: r.__setitem__("results", 5)),
    "samplestr.json": lambda d: report_edited(d, "samplestr.json",
                                              lambda r: r["results"][0].__setitem__("samples", ["x"])),
    "hugeclock.json": lambda d: report_edited(d, "hugeclock.json",
                                              lambda r: r["context"].__setitem__("core_clock_hz", 1.7e134)),
    "v2.json": lambda d: report_edited(d, "v2.json", lambda r: r.__setitem__("schema_version", 2)),
    "base.json": lambda d: report_edited(d, "base.json", lambda r: None),
    "m-namemismatch.elf": lambda d: patched_record(d, "m-namemismatch.elf", 2, rename_end),
    "m-noend.elf": lambda d: patched_record(d, "m-noend.elf", 2, lambda m, o: rename_end(m, o, 99)),
    "m-badaddr.elf": lambda d: patched_record(d, "m-badaddr.elf", 1,
                                              lambda m, o: struct.pack_into("<I", m, o, struct.unpack_from("<I", m, o)[0] + 2)),
    "m0.elf": lambda d: attributes_arch(d, "m0.elf", 11),
    "nothumb.elf": reset_vector_even,
    "fifo": fifo,
    "fw.elf": lambda d: write(os.path.join(d, "fw.elf"), open(NOPS, "rb").read()),
    "link.json": lambda d: symlink_to(d, "link.json", "target.json", "keep me\n"),
    "out.html": lambda d: os.path.join(d, "out.html"),
    "busyport": busy_port,
    "lockedwd": locked_workdir,
    "romarg.elf": rom_arg,
    "incomplete.json": lambda d: report_edited(d, "incomplete.json", lambda r: r.__setitem__("status", "incomplete")),
    "otherboard.json": lambda d: report_edited(d, "otherboard.json", lambda r: r["context"].__setitem__("board", "nucleo-f401re")),
    "fewer.json": lambda d: report_edited(d, "fewer.json", lambda r: r.__setitem__("results", r["results"][1:])),
    "trailing.json": lambda d: write(os.path.join(d, "trailing.json"),
                                     open(os.path.join(CIFX, "cmp-base.json")).read() + "\n{}\n"),
    "dupkey.json": lambda d: write(os.path.join(d, "dupkey.json"),
                                   open(os.path.join(CIFX, "cmp-base.json")).read().replace(
                                       '"samples":', '"samples": [1], "samples":', 1)),
    "longname.json": lambda d: report_edited(d, "longname.json", lambda r: r["results"][0].__setitem__("name", "x" * 64)),
    "longwd": lambda d: long_dir(d, "longwd", 1100),
    "longfw.elf": long_firmware,
    "seg-offset.elf": lambda d: segment_patched(d, "seg-offset.elf", 0, 1, 0x7FFFFF00),
    "seg-filesz.elf": lambda d: segment_patched(d, "seg-filesz.elf", 0, 4, 0x10000),
    "seg-wrap.elf": lambda d: segment_patched(d, "seg-wrap.elf", 1, 2, 0xFFFFFFF0),
    "types.elf": types_elf,
    "types-dwarf4.elf": lambda d: types_elf(d, 4),
    "types-dwarf2.elf": lambda d: types_elf(d, 2),
    "types-nodebug.elf": lambda d: (run_tool(["arm-none-eabi-objcopy", "--strip-debug", types_elf(d),
                                              os.path.join(d, "types-nodebug.elf")]),
                                    os.path.join(d, "types-nodebug.elf"))[1],
    "r-magic.elf": lambda d: regions_patched(d, "r-magic.elf", 0, "<I", 0),
    "r-version.elf": lambda d: regions_patched(d, "r-version.elf", 4, "<H", 0),
    "r-count.elf": lambda d: regions_patched(d, "r-count.elf", 10, "<H", 0xFFFF),
}


def snapshot(root):
    """{path: sha256} of every regular file under ROOT and of the example firmware: what the user
    gave bench, which a refused command must leave as it was (symbolic links are not followed)."""
    files = {}
    for base in (root,):
        for dirpath, _, names in os.walk(base):
            for n in names:
                path = os.path.join(dirpath, n)
                if os.path.isfile(path) and not os.path.islink(path):
                    with open(path, "rb") as f:
                        files[path] = hashlib.sha256(f.read()).hexdigest()
    for path in (NOPS, REGIONS):
        with open(path, "rb") as f:
            files[path] = hashlib.sha256(f.read()).hexdigest()
    return files


def changed_files(before, after):
    """Problems: a file that changed or went away; a new file, unless it is a temporary folder's
    log bench keeps after a failure (under a bench-* folder it made)."""
    problems = [f"{p} changed" for p in before if p in after and after[p] != before[p]]
    problems += [f"{p} was removed" for p in before if p not in after]
    problems += [f"{p} was created" for p in after if p not in before]
    return problems


def probes_attached():
    """What `bench probes --json` lists: the @noprobes rows start a real board's OpenOCD, which would
    program an attached board from a unit test. None when the USB bus cannot be listed."""
    p = subprocess.run([BENCH, "probes", "--json"], capture_output=True, text=True, timeout=60)
    try:
        return json.loads(p.stdout) if p.returncode == 0 else None
    except ValueError:
        return None


def main():
    rows = list(table_rows(os.path.join(HERE, "cases.table"), 4))
    strict = os.environ.get("CI") == "true" or os.environ.get("BENCH_STRICT") == "1"
    probes = probes_attached()
    if probes != []:  # never load firmware onto a board from a unit test
        why = "cannot list the USB bus" if probes is None else f"{len(probes)} debug probe(s) attached"
        print(f"skip: {why}: the @noprobes rows would start a real board's OpenOCD")
        return 1 if strict else 77
    names = [r[1][0] for r in rows]
    if len(set(names)) != len(names):
        sys.exit("cases.table: duplicate case names")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="bench-badinput-") as tmp:
        made = {}

        def fixture(m):
            key = m.group(1)
            if key not in made:
                made[key] = FIXTURES[key](tmp)
            return made[key]

        for lineno, (name, args, code, regex) in rows:
            argv = [BENCH]
            for a in shlex.split(args):
                a = a.replace("{nops}", NOPS).replace("{regions}", REGIONS).replace("{dead}", DEAD).replace(
                    "{fut}", os.path.join(EXAMPLES, "fut-softfp.elf"))
                argv.append(re.sub(r"\{f:([^}]+)\}", fixture, a))
            before = snapshot(tmp)
            p = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=tmp)
            problems = changed_files(before, snapshot(tmp))
            if p.returncode != int(code):
                problems.append(f"exit {p.returncode}, expected {code}")
            lines = p.stderr.rstrip("\n").split("\n")
            if len(lines) != 1 or not lines[0].startswith("bench: "):
                problems.append(f"stderr is not one 'bench: ' line: {p.stderr!r}")
            elif not re.search(regex, lines[0]):
                problems.append(f"stderr {lines[0]!r} does not match {regex!r}")
            failed += table_verdict(f"cases.table:{lineno}", name, problems)
    print(f"{len(rows) - failed}/{len(rows)} bad inputs handled as documented")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
